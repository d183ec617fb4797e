//! What the instructor hands the class page, read: each work file whole
//! (or skipped with the reason the student's own restore would give), and
//! pasted share links, a line each, with the student's name anywhere on
//! the line ("Ada Lovelace, https://…/scenarios/2#design=…", as a form's
//! spreadsheet gives them). A student's links are one submission; a second
//! link for the same scenario is a submission of its own, shown beside the
//! first rather than silently replacing it.

// Outside input arrives here: no unchecked indexing or arithmetic.
#![deny(clippy::indexing_slicing, clippy::arithmetic_side_effects)]

use super::{Skipped, Submission};
use crate::design::files::file::for_scenario;
use crate::design::files::link::decode;
use crate::scenarios::progress::Progress;
use crate::scenarios::student::Student;
use crate::scenarios::work::{read_work_file, Work, MAX_BYTES};
use crate::variant::Variant;

/// The most pasted text read at once: a class's links with room to spare.
pub const MAX_PASTE: usize = 4 * 1024 * 1024;

/// A work file, read whole or skipped with why.
pub fn file(name: &str, text: Option<&str>) -> Result<Submission, Skipped> {
    let skip = |why: String| Skipped {
        from: name.to_string(),
        why,
        line: None,
    };
    let text = text.ok_or_else(|| skip("the browser could not read it as text".to_string()))?;
    if text.len() > MAX_BYTES {
        return Err(skip(format!(
            "it is {} KB; a work file is at most {} KB",
            text.len().div_ceil(1024),
            MAX_BYTES / 1024
        )));
    }
    let read = read_work_file(text).map_err(skip)?;
    Ok(Submission {
        from: name.to_string(),
        student: read.student,
        works: read.works,
    })
}

/// One pasted line's link, read: its scenario and design, and the rest of
/// the line (the name, if any).
struct Link {
    line: usize,
    name: String,
    /// Its design, and the link's `variant=` if it names one.
    work: Work,
}

/// The share link on `text`, and the line without it.
fn split_link(text: &str) -> Option<(&str, String)> {
    let at = text.find("/scenarios/")?;
    let start = text
        .get(..at)?
        .char_indices()
        .rev()
        .find(|(_, c)| c.is_whitespace() || matches!(c, ',' | ';' | '"' | '\'' | '<' | '('))
        .map_or(0, |(i, c)| i.saturating_add(c.len_utf8()));
    let end = text
        .get(at..)?
        .find(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | '"' | '\'' | '>' | ')'))
        .map_or(text.len(), |i| i.saturating_add(at));
    let link = text.get(start..end)?;
    let rest = format!("{} {}", text.get(..start)?, text.get(end..)?);
    Some((link, rest))
}

/// The student's name on a line: for a spreadsheet's row (cells split by
/// tabs: a time, an email, a name, the link) the nearest cell before the
/// link's that is not empty, else the line without its link.
fn name_in(text: &str, link: &str, rest: &str) -> String {
    let tidy = |t: &str| {
        t.trim_matches(|c: char| {
            c.is_whitespace() || matches!(c, ',' | ';' | ':' | '"' | '\'' | '|' | '-')
        })
        .to_string()
    };
    if text.contains('\t') {
        let cells: Vec<&str> = text.split('\t').collect();
        if let Some(at) = cells.iter().position(|c| c.contains(link)) {
            let before = cells.get(..at).unwrap_or(&[]);
            if let Some(name) = before.iter().rev().map(|c| tidy(c)).find(|c| !c.is_empty()) {
                return name;
            }
        }
    }
    tidy(rest)
}

fn read_link(line: usize, text: &str) -> Result<Option<Link>, String> {
    if text.trim().is_empty() {
        return Ok(None);
    }
    let Some((link, rest)) = split_link(text) else {
        return Err("no share link on it".to_string());
    };
    if rest.contains("/scenarios/") {
        return Err("it holds more than one share link: put one link per line".to_string());
    }
    let after = link
        .split_once("/scenarios/")
        .map_or("", |(_, after)| after);
    let number: String = after.chars().take_while(char::is_ascii_digit).collect();
    let scenario = crate::scenarios::find(&number).ok_or("its link names no scenario")?;
    let value = link
        .split_once("#design=")
        .map(|(_, value)| value)
        .ok_or("its link carries no design (a share link ends in #design=…)")?
        // A full stop or a bracket after a link is the sentence's, not the
        // link's: URL-safe base64 has neither.
        .trim_end_matches(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_'));
    let graph = decode(value)
        .map_err(|e| e.to_string())
        .and_then(|file| for_scenario(file, scenario.number, scenario.source))?;
    let name = name_in(text, link, &rest);
    let variant = link_variant(link)?;
    Ok(Some(Link {
        line,
        name,
        work: Work {
            scenario: scenario.number,
            graph,
            // A link carries a design, never a verdict.
            progress: Progress::NotStarted,
            saved_at: None,
            variant,
        },
    }))
}

/// The `variant=` between a link's page and its design, if any.
fn link_variant(link: &str) -> Result<Option<Variant>, String> {
    let before = link.split_once('#').map_or(link, |(before, _)| before);
    let Some((_, query)) = before.split_once('?') else {
        return Ok(None);
    };
    match query
        .split('&')
        .find_map(|pair| pair.strip_prefix("variant="))
    {
        None => Ok(None),
        Some(given) => Variant::read(given)
            .map(Some)
            .ok_or_else(|| "its link's variant= is not a variant's number".to_string()),
    }
}

/// Pasted share links: one submission per student (a link without a
/// name is one of its own), and the lines that were not read.
pub fn links(text: &str) -> (Vec<Submission>, Vec<Skipped>) {
    let mut skipped = Vec::new();
    if text.len() > MAX_PASTE {
        skipped.push(Skipped {
            from: "the pasted links".to_string(),
            why: format!(
                "they are {} KB; at most {} KB is read at once",
                text.len().div_ceil(1024),
                MAX_PASTE / 1024
            ),
            line: None,
        });
        return (Vec::new(), skipped);
    }
    let mut read: Vec<(Vec<usize>, Submission)> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let number = i.saturating_add(1);
        match read_link(number, line) {
            Ok(None) => {}
            Ok(Some(link)) => add(&mut read, link, &mut skipped),
            Err(why) => skipped.push(Skipped {
                from: format!("line {number}"),
                why,
                line: Some(number),
            }),
        }
    }
    let submissions = read
        .into_iter()
        .map(|(lines, mut s)| {
            let shown: Vec<String> = lines.iter().map(usize::to_string).collect();
            s.from = match lines.len() {
                1 => format!("link on line {}", shown.join("")),
                _ => format!("links on lines {}", shown.join(", ")),
            };
            s
        })
        .collect();
    (submissions, skipped)
}

/// Puts `link` with its student's other links, unless they already have
/// one for its scenario.
fn add(read: &mut Vec<(Vec<usize>, Submission)>, link: Link, skipped: &mut Vec<Skipped>) {
    let student = match link.name.as_str() {
        "" => None,
        name => match Student::new(name, "") {
            Ok(s) => Some(s),
            Err(_) => {
                skipped.push(Skipped {
                    from: format!("line {}", link.line),
                    why: format!(
                        "the name beside the link is not one a work file could carry (at most {} characters of plain text)",
                        crate::scenarios::student::MAX_NAME
                    ),
                    line: Some(link.line),
                });
                return;
            }
        },
    };
    let home = student.as_ref().and_then(|st| {
        read.iter_mut().find(|(_, s)| {
            s.student.as_ref().is_some_and(|o| o.same_as(st))
                && s.works.iter().all(|w| w.scenario != link.work.scenario)
        })
    });
    match home {
        Some((lines, s)) => {
            lines.push(link.line);
            s.works.push(link.work);
        }
        None => read.push((
            vec![link.line],
            Submission {
                from: String::new(),
                student,
                works: vec![link.work],
            },
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::design::files::link::encode;
    use crate::scenarios::catalogue::passing;

    fn link_for(scenario: u8) -> String {
        let s = crate::scenarios::numbered(scenario).expect("scenario");
        let graph = passing(s).remove(0).graph;
        format!(
            "https://lab.example/scenarios/{scenario}#design={}",
            encode(&graph, Some(scenario))
        )
    }

    #[test]
    fn pasted_links_are_grouped_by_name_and_a_second_link_is_kept_apart() {
        let text = format!(
            "Ada Lovelace, {}\n\n{} ; Grace Hopper\n\"Ada Lovelace\",\"{}\"\nada lovelace\t{}\n{}\n",
            link_for(1),
            link_for(2),
            link_for(3),
            link_for(1),
            link_for(4),
        );
        let (read, skipped) = links(&text);
        assert_eq!(skipped, Vec::new());
        let shown: Vec<(String, Vec<u8>, String)> = read
            .iter()
            .map(|s| {
                (
                    s.name(),
                    s.works.iter().map(|w| w.scenario).collect(),
                    s.from.clone(),
                )
            })
            .collect();
        assert_eq!(
            shown,
            vec![
                (
                    "Ada Lovelace".into(),
                    vec![1, 3],
                    "links on lines 1, 4".into()
                ),
                ("Grace Hopper".into(), vec![2], "link on line 3".into()),
                ("ada lovelace".into(), vec![1], "link on line 5".into()),
                (
                    "(no name) link on line 6".into(),
                    vec![4],
                    "link on line 6".into()
                ),
            ]
        );
    }

    /// A link shared from a page in a data variant names it, and the
    /// class page grades that design in it; a link without one is graded
    /// in its student's (here, with no class code: the chapter's).
    #[test]
    fn a_link_s_variant_is_the_one_its_design_is_graded_in() {
        let varied = link_for(4).replace("/scenarios/4#", "/scenarios/4?variant=12345&present=1#");
        let text = format!("Ada, {varied}\nAda, {}\nGrace {}", link_for(1), link_for(4));
        let (read, skipped) = links(&text);
        assert!(skipped.is_empty(), "{skipped:?}");
        let ada = read.iter().find(|s| s.name() == "Ada").expect("Ada");
        assert_eq!(ada.variant(4), Variant::read("12345").expect("a variant"));
        assert_eq!(ada.variant(1), Variant::CHAPTER);
        let grace = read.iter().find(|s| s.name() == "Grace").expect("Grace");
        assert_eq!(grace.variant(4), Variant::CHAPTER);
        // Handed in by a class whose code the instructor gives: each named
        // student is graded on their own data, and a link naming other
        // data is said.
        let own = ada.clone().in_class("DE-2026");
        assert_eq!(own.variant(4), Variant::of_student("DE-2026", "Ada"));
        assert!(own.linked_elsewhere(4) && !own.linked_elsewhere(1));
        let bad = link_for(4).replace("/scenarios/4#", "/scenarios/4?variant=x#");
        let (read, skipped) = links(&format!("Ada {bad}"));
        assert!(read.is_empty());
        assert!(skipped[0].why.contains("variant="), "{skipped:?}");
    }

    /// A work file names the data each design was made on (version 2):
    /// a self-learner's fresh data is what their design is graded on; a
    /// class code's own data still comes first, and other data is said.
    #[test]
    fn a_work_file_s_variant_is_the_one_its_design_is_graded_in() {
        use crate::design::files::saves::{self, memory::Memory};
        use crate::scenarios::student::Student;
        let fresh = Variant::read("12345").expect("a variant");
        let mut lab = Memory::with_room(1 << 20);
        Student::new("Ada", "")
            .expect("a name")
            .keep(&mut lab)
            .expect("room");
        for n in [1u8, 4] {
            let s = crate::scenarios::numbered(n).expect("scenario");
            saves::put_design(&mut lab, n, &passing(s).remove(0).graph).expect("room");
        }
        saves::put_variant(&mut lab, 4, Some(fresh)).expect("room");
        saves::put_variant(&mut lab, 1, Some(Variant::CHAPTER)).expect("room");
        let text = crate::scenarios::work::export_work(&lab);
        let ada = file("ada.json", Some(&text)).expect("reads");
        assert_eq!((ada.variant(4), ada.variant(1)), (fresh, Variant::CHAPTER));
        assert!(!ada.linked_elsewhere(4) && !ada.linked_elsewhere(1));
        let own = ada.in_class("DE-2026");
        let theirs = Variant::of_student("DE-2026", "Ada");
        assert_eq!((own.variant(4), own.variant(1)), (theirs, theirs));
        // Both name other data than hers: scenario 1 the chapter's, as 0.
        assert!(own.linked_elsewhere(4) && own.linked_elsewhere(1));
    }

    #[test]
    fn a_line_that_is_not_a_working_link_is_skipped_with_why() {
        let good = link_for(2);
        let cases = [
            ("Ada, see you Monday".to_string(), "no share link"),
            (
                "Ada https://lab.example/scenarios/9#design=AAAA".into(),
                "names no scenario",
            ),
            (
                "Ada https://lab.example/scenarios/2".into(),
                "carries no design",
            ),
            (format!("Ada {}", &good[..good.len() - 40]), "design"),
            (
                good.replace("/scenarios/2", "/scenarios/3"),
                "made for scenario 2",
            ),
        ];
        for (line, why) in cases {
            let (read, skipped) = links(&line);
            assert!(read.is_empty(), "{line}");
            assert_eq!(skipped.len(), 1, "{line}");
            assert!(skipped[0].why.contains(why), "{}: {line}", skipped[0].why);
            assert_eq!(skipped[0].from, "line 1");
            assert_eq!(skipped[0].line, Some(1));
        }
    }

    /// A spreadsheet's row gives the name cell; a link ends at the
    /// sentence's full stop; a wide space before a link is a space.
    #[test]
    fn names_come_from_a_row_s_cell_and_links_end_where_base64_does() {
        let row = format!(
            "2026-12-01 09:00\tada@example.org\tAda Lovelace\t{}\t",
            link_for(1)
        );
        let prose = format!("Grace Hopper:\u{3000}{}.", link_for(2));
        let (read, skipped) = links(&format!("{row}\n{prose}\n"));
        assert_eq!(skipped, Vec::new());
        let names: Vec<String> = read.iter().map(|s| s.name()).collect();
        assert_eq!(names, ["Ada Lovelace", "Grace Hopper"]);
    }

    #[test]
    fn a_file_is_read_whole_or_skipped_with_the_restore_s_reason() {
        assert!(file("a.json", None)
            .expect_err("unreadable")
            .why
            .contains("as text"));
        assert!(file("b.json", Some("[1,2]"))
            .expect_err("not work")
            .why
            .contains("not a Partition Lab work file"));
        let big = "x".repeat(MAX_BYTES + 1);
        let skipped = file("c.json", Some(&big)).expect_err("large");
        assert_eq!(skipped.from, "c.json");
        assert!(skipped.why.contains("at most"), "{}", skipped.why);
    }
}
