//! The lesson plan (`/teach`): a 50-minute session built from the labs.
//! Each step opens the exact lab state to project, says what to ask the
//! room before revealing anything, and what the answer shows. The answers
//! are checked against the engine by `tests/lesson_plan.rs`, so the plan
//! cannot drift from what the labs really do.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    pub minutes: u32,
    pub title: &'static str,
    /// The lab state to project (a lab's in presenter mode).
    pub href: &'static str,
    /// What to ask before revealing.
    pub ask: &'static str,
    /// How to reveal it in the lab.
    pub reveal: &'static str,
    /// What the answer shows.
    pub shows: &'static str,
}

pub const LESSON_MINUTES: u32 = 50;

pub const LESSON: [Step; 7] = [
    Step {
        minutes: 5,
        title: "The partition is the unit",
        href: "/?present=1",
        ask: "A nightly job builds yesterday's sales. Which piece of the table should it be allowed to replace, and which should it never touch?",
        reveal: "Walk the map of the chapter from its first stop.",
        shows: "A daily partition is what a run reads, rebuilds and replaces as one piece. Everything later in the session is about knowing which partitions a run must touch, and touching only those.",
    },
    Step {
        minutes: 9,
        title: "Remembering where the last run stopped",
        href: "/lab/state-write?late=tue&crash=on&lookback=1&commit=after&run=1&present=1",
        ask: "Six pipelines load the same week; one order arrives a day late and one night's run crashes after writing. Which pipeline loses orders without a single usual check failing?",
        reveal: "Take the room's vote in \"Predict first\", then step with → to the last run.",
        shows: "Watermark + Overwrite, and the order it loses is not the late one. Monday's late order o-105 arrives after the watermark, so Tuesday's run reads it, and then overwrites Monday's partition with that one row, deleting the four on-time orders o-101 to o-104. The watermark has passed them, so no run reads them again, and every usual check passes. The append pipelines fail loudly with duplicates: Watermark + Append through the retry of Wednesday's crashed run, Partition list + Append mostly through its lookback, which re-reads yesterday and appends it again every night. Partition list + Overwrite re-reads Monday within its one-day lookback and keeps all five, and so does the trailing window, which re-reads the same days remembering none of them.",
    },
    Step {
        minutes: 6,
        title: "How far back to look",
        href: "/lab/state-write?late=wed&crash=on&lookback=1&commit=after&run=1&present=1",
        ask: "Same week, but the late order arrives one day later. Does the partition list still save it?",
        reveal: "Lock in a prediction, then step to the last run.",
        shows: "No: o-105 now arrives on Wednesday, after Tuesday's run re-read Monday, and Monday is older than every later run's one-day lookback, so Partition list + Overwrite loses it silently too, and the trailing window with it (its one-day window has passed Monday too); only reconciling against bronze notices. Watermark + Overwrite still deletes o-101 to o-104, now when Wednesday's run overwrites Monday with o-105 alone. A lookback is a bet on how late data can be; the next lab measures that bet.",
    },
    Step {
        minutes: 9,
        title: "What waiting buys, and what it costs",
        href: "/lab/lateness?profile=mobile&lateness=2&present=1",
        ask: "Phones send purchases days late. Finance closes August on Thursday 3 September. Should we keep each day open for 5 days instead of 2?",
        reveal: "Read the three figures at 2 days, then press → three times to 5 days.",
        shows: "Five days brings in a little more of August's value (a fraction of a percent on this profile), doubles the partitions every night rebuilds (3 to 6) and misses the close: 31 August is only final after the 02:00 run on Sunday 6 September, so finance cannot close before Monday 7 September, two business days after Thursday's deadline. Two days closes on time; what arrives later goes to the adjustments table.",
    },
    Step {
        minutes: 10,
        title: "Which days did the bug damage?",
        href: "/lab/backfill?from=8&concurrency=4&present=1",
        ask: "A currency bug shipped early in August; the deploy log is vague. When did it ship, and what happens if we rebuild from that guess?",
        reveal: "Take the room's guesses, lock one in (\"Lock in and run the drift query\"), then run the plan as it stands (from the 8th).",
        shows: "The drift query's first row is 3 August: the data, not the deploy log, sets the blast radius. A plan from the 8th leaves the 3rd to the 7th wrong. From the 3rd it is 11 partitions; at 4 at once the source pool is full, and 12 at once is no faster.",
    },
    Step {
        minutes: 5,
        title: "Stopping half-way",
        href: "/lab/backfill?from=3&concurrency=4&markers=off&present=1&guess=skip",
        ask: "The backfill is interrupted in its second wave. When we run it again, what gets rebuilt twice?",
        reveal: "Run the backfill, interrupt it in wave 2, run it again; then repeat with completion markers on.",
        shows: "Without completion markers the re-run starts from the beginning and rebuilds the finished first wave as well; with markers only the dates that were in flight are done twice. Homework: scenarios 4 and 5 ask for the same judgement in a design of your own.",
    },
    Step {
        minutes: 6,
        title: "Design it together",
        href: "/scenarios/1?variant=0&present=1",
        ask: "Two weeks of clicks, some of them hours late; one night's run crashes after writing and is retried, and one day is re-run by hand. Which processing state and which write mode load every click exactly once, reading at most 3 partitions a run?",
        reveal: "Build the room's answer on the canvas (the keyboard adds, connects and chooses), press \"Check my design\" and read each failed rule's cause aloud; change the choice it names and check again.",
        shows: "A partition list with a day of lookback, overwriting each partition, meets all three requirements, and so does a watermark on arrival merging on the click id, which reads about half as many rows. A watermark with an overwrite fails R1 and R2: each run replaces a whole day with only the rows past the watermark, deleting the clicks already there. A list that appends fails R2: the retry reads the crashed run's clicks again and stores them twice.",
    },
];

/// One field of every step, gathered when the crate is compiled: a page in
/// presenter mode reads a step's title, question and address, and a table
/// of only those keeps the answers (`reveal`, `shows`, several kilobytes)
/// out of every part that does not draw the plan.
macro_rules! each_step {
    ($field:ident) => {{
        let mut out = [""; LESSON.len()];
        let mut i = 0;
        while i < LESSON.len() {
            out[i] = LESSON[i].$field;
            i += 1;
        }
        out
    }};
}

/// Each step's title, in order.
pub const TITLES: [&str; LESSON.len()] = each_step!(title);
/// Each step's question for the room, in order.
pub const ASKS: [&str; LESSON.len()] = each_step!(ask);
const HREFS: [&str; LESSON.len()] = each_step!(href);

/// Step `number` (1-based) as the lesson plan links it: its lab state with
/// `lesson=<number>`, so that in presenter mode the page offers the plan's
/// next and previous steps and a clicker walks on to them.
pub fn step_href(number: usize) -> Option<String> {
    let href = HREFS.get(number.checked_sub(1)?)?;
    let glue = if href.contains('?') { '&' } else { '?' };
    Some(format!("{href}{glue}lesson={number}"))
}

/// The lesson step a query's `lesson=` names, if it is one.
pub fn step_number(given: Option<&str>) -> Option<usize> {
    given?
        .trim()
        .parse::<usize>()
        .ok()
        .filter(|n| (1..=LESSON.len()).contains(n))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_step_links_its_own_number_and_nothing_else_is_a_step() {
        for n in 1..=LESSON.len() {
            let href = step_href(n).expect("a step");
            assert!(href.ends_with(&format!("lesson={n}")), "{href}");
            assert_eq!(href.matches('?').count(), 1, "{href}");
            let q = href.split_once('?').map(|(_, q)| q).unwrap_or("");
            let given = q.split('&').find_map(|kv| kv.strip_prefix("lesson="));
            assert_eq!(step_number(given), Some(n));
        }
        for bad in [None, Some("0"), Some("8"), Some("two"), Some("-1")] {
            assert_eq!(step_number(bad), None, "{bad:?}");
        }
        assert_eq!(step_href(0), None);
        assert_eq!(step_href(LESSON.len() + 1), None);
    }

    #[test]
    fn the_gathered_fields_are_each_steps_own() {
        for (i, step) in LESSON.iter().enumerate() {
            assert_eq!(TITLES[i], step.title);
            assert_eq!(ASKS[i], step.ask);
            assert_eq!(HREFS[i], step.href);
        }
    }
}
