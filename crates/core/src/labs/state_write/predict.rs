//! Predict first (SPEC 9): what the student guessed, as the URL carries it
//! (`predict=`), how it compares with the verdicts, and how far into the
//! week the page may go before the guess is made without showing an
//! outcome that tells the cells apart.

use crate::engine::{Outcome, RunTrace};

use super::model::Cell;

/// A locked-in prediction, or the choice to skip it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Guess {
    /// These cells lose orders silently (one or more, in `Cell::ALL` order).
    Cells(Vec<Cell>),
    /// None of them does.
    NoCell,
    /// The student (or an instructor) went straight to the verdicts.
    Skipped,
}

impl Guess {
    /// `cells` chosen on the form: in `Cell::ALL` order, each once.
    pub fn of(cells: &[Cell]) -> Guess {
        let chosen: Vec<Cell> = Cell::ALL
            .into_iter()
            .filter(|c| cells.contains(c))
            .collect();
        if chosen.is_empty() {
            Guess::NoCell
        } else {
            Guess::Cells(chosen)
        }
    }

    /// The value of `predict=`.
    pub fn slug(&self) -> String {
        match self {
            Guess::Cells(cells) => cells.iter().map(|c| c.slug()).collect::<Vec<_>>().join(","),
            Guess::NoCell => "none".to_string(),
            Guess::Skipped => "skip".to_string(),
        }
    }

    /// Reads `predict=`; `None` for anything the form could not have made.
    pub fn parse(text: &str) -> Option<Guess> {
        match text.trim() {
            "none" => Some(Guess::NoCell),
            "skip" => Some(Guess::Skipped),
            list => {
                let mut cells = Vec::new();
                for slug in list.split(',') {
                    let cell = Cell::ALL.into_iter().find(|c| c.slug() == slug.trim())?;
                    if cells.contains(&cell) {
                        return None;
                    }
                    cells.push(cell);
                }
                Some(Guess::of(&cells))
            }
        }
    }

    /// The feedback once the verdicts are in: `silent` are the cells that
    /// lose orders with every usual check passing.
    pub fn feedback(&self, silent: &[Cell]) -> String {
        let truth = match silent {
            [] => "With these settings no pipeline loses orders silently.".to_string(),
            [one] => format!("With these settings the silent one is {}.", one.name()),
            many => format!("With these settings the silent ones are {}.", names(many)),
        };
        match self {
            Guess::Skipped => format!("Prediction skipped. {truth}"),
            Guess::NoCell if silent.is_empty() => {
                format!("✓ Right: you picked none of them. {truth}")
            }
            Guess::NoCell => format!("✗ Not this time: you picked none of them. {truth}"),
            Guess::Cells(picked) => {
                let found: Vec<Cell> = picked
                    .iter()
                    .copied()
                    .filter(|c| silent.contains(c))
                    .collect();
                let missed: Vec<Cell> = silent
                    .iter()
                    .copied()
                    .filter(|c| !picked.contains(c))
                    .collect();
                let wrong: Vec<Cell> = picked
                    .iter()
                    .copied()
                    .filter(|c| !silent.contains(c))
                    .collect();
                let picked_words = format!("you picked {}", names(picked));
                if missed.is_empty() && wrong.is_empty() {
                    format!("✓ Right: {picked_words}. {truth}")
                } else if found.is_empty() {
                    format!("✗ Not this time: {picked_words}. {truth}")
                } else {
                    let mut parts = vec![format!("you found {}", names(&found))];
                    if !missed.is_empty() {
                        parts.push(format!("missed {}", names(&missed)));
                    }
                    if !wrong.is_empty() {
                        let verb = if wrong.len() == 1 { "is" } else { "are" };
                        parts.push(format!("{} {verb} not silent", names(&wrong)));
                    }
                    format!("◐ Partly: {picked_words}. {truth} So {}.", parts.join(", "))
                }
            }
        }
    }
}

fn names(cells: &[Cell]) -> String {
    let names: Vec<&str> = cells.iter().map(|c| c.name()).collect();
    match names.as_slice() {
        [] => "none of them".to_string(),
        [one] => (*one).to_string(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// The last run (0-based) the page may show of `runs`, `shared` of them
/// the same in every cell: all of them once the student has predicted.
pub fn last_open_run(runs: usize, shared: usize, asking: bool) -> usize {
    let last = runs.saturating_sub(1);
    if asking {
        last.min(shared.saturating_sub(1))
    } else {
        last
    }
}

/// What one attempt left that could tell one cell from another: the table
/// (rows per partition, copies kept), the rows it deleted, the checks.
type Seen = (Vec<(String, Vec<String>)>, Vec<String>, Vec<bool>);

fn outcome_at(run: &RunTrace) -> Option<Seen> {
    let snapshot = run.snapshot.as_ref()?;
    let table = snapshot
        .silver
        .partitions()
        .map(|(dt, rows)| {
            let mut ids: Vec<String> = rows.iter().map(|r| r.id.to_string()).collect();
            crate::lean::order::sort(&mut ids);
            (dt.to_string(), ids)
        })
        .collect();
    let deleted = run
        .writes
        .iter()
        .flat_map(|w| w.removed.iter().map(|id| id.to_string()))
        .collect();
    let checks = snapshot.checks.0.iter().map(|c| c.passed()).collect();
    Some((table, deleted, checks))
}

/// How many runs (from the first) show the same outcome in every cell: the
/// runs the page may show before the prediction. Zero when the cells part
/// at the first run.
pub fn shared_runs(outcomes: &[(Cell, Outcome)]) -> usize {
    let Some((_, first)) = outcomes.first() else {
        return 0;
    };
    (0..first.runs.len())
        .take_while(|&i| {
            let reference = first.runs.get(i).and_then(outcome_at);
            reference.is_some()
                && outcomes
                    .iter()
                    .all(|(_, o)| o.runs.get(i).and_then(outcome_at) == reference)
        })
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::labs::state_write::{run, Controls, LateOrder};

    #[test]
    fn before_the_prediction_the_week_stops_at_the_shared_runs() {
        assert_eq!(last_open_run(8, 1, true), 0);
        assert_eq!(last_open_run(8, 3, true), 2);
        assert_eq!(last_open_run(8, 0, true), 0);
        assert_eq!(last_open_run(8, 8, true), 7);
        assert_eq!(last_open_run(8, 1, false), 7);
    }

    #[test]
    fn a_guess_reads_back_what_it_writes() {
        for guess in [
            Guess::Skipped,
            Guess::NoCell,
            Guess::Cells(vec![Cell::WatermarkOverwrite]),
            Guess::Cells(vec![Cell::WatermarkOverwrite, Cell::ListOverwrite]),
        ] {
            assert_eq!(Guess::parse(&guess.slug()), Some(guess));
        }
        assert_eq!(
            Guess::parse("partition_list_overwrite,watermark_overwrite"),
            Some(Guess::Cells(vec![
                Cell::WatermarkOverwrite,
                Cell::ListOverwrite
            ])),
            "kept in the cells' order"
        );
        for bad in [
            "",
            "maybe",
            "watermark_overwrite,watermark_overwrite",
            "none,skip",
        ] {
            assert_eq!(Guess::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn two_silent_cells_are_judged_as_a_set() {
        let silent = [Cell::WatermarkOverwrite, Cell::ListOverwrite];
        let both = Guess::of(&silent).feedback(&silent);
        assert!(
            both.starts_with("✓ Right") && both.contains("the silent ones are"),
            "{both}"
        );
        let one = Guess::of(&[Cell::WatermarkOverwrite]).feedback(&silent);
        assert!(
            one.starts_with("◐ Partly") && one.contains("missed Partition list + Overwrite"),
            "{one}"
        );
        let extra = Guess::of(&[
            Cell::WatermarkOverwrite,
            Cell::ListOverwrite,
            Cell::FullRefresh,
        ])
        .feedback(&silent);
        assert!(extra.contains("Full refresh is not silent"), "{extra}");
        let wrong = Guess::of(&[Cell::FullRefresh]).feedback(&silent);
        assert!(wrong.starts_with("✗ Not this time"), "{wrong}");
        assert!(Guess::NoCell.feedback(&[]).starts_with("✓ Right"));
    }

    /// The gate itself: every run it lets through is the same in every
    /// cell (so nothing shown answers the question), and the next one is
    /// not (so it lets through all it can).
    #[test]
    fn the_runs_shown_before_the_prediction_tell_no_cell_apart() {
        for controls in Controls::all() {
            let outcomes = run(&controls);
            let shared = shared_runs(&outcomes);
            let runs = outcomes[0].1.runs.len();
            for i in 0..shared {
                let first = outcome_at(&outcomes[0].1.runs[i]);
                assert!(outcomes
                    .iter()
                    .all(|(_, o)| outcome_at(&o.runs[i]) == first));
            }
            if shared < runs {
                let first = outcome_at(&outcomes[0].1.runs[shared]);
                assert!(outcomes
                    .iter()
                    .any(|(_, o)| outcome_at(&o.runs[shared]) != first));
            }
        }
        // The default week: Tuesday's run already tells them apart.
        let default = run(&Controls::default());
        assert_eq!(shared_runs(&default), 1);
        // No late order, no crash, no lookback: nothing ever tells them apart.
        let quiet = Controls {
            late: LateOrder::Off,
            crash: false,
            lookback: 0,
            ..Controls::default()
        };
        let outcomes = run(&quiet);
        assert_eq!(shared_runs(&outcomes), outcomes[0].1.runs.len());
    }
}
