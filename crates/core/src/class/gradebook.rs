//! The class as the table a gradebook imports: one row per submission, a
//! column per scenario (1 passed, 0 failed, empty not started, as
//! gradebooks read a blank as "no grade"), the count passed, and a note
//! in words. Written with csv-core's writer (the crate the lateness lab's
//! reader already uses), so quoting is the library's, not ours.

use csv_core::{Terminator, Writer, WriterBuilder};

use super::results::{same_student, Row};
use crate::scenarios::progress::Progress;
use crate::scenarios::SCENARIOS;

/// A spreadsheet runs a cell that starts like a formula: a student's name
/// must stay text (the usual guard, a leading apostrophe).
fn inert(text: &str) -> String {
    match text.chars().next() {
        Some('=' | '+' | '-' | '@' | '\t' | '\r') => format!("'{text}"),
        _ => text.to_string(),
    }
}

fn record(writer: &mut Writer, fields: &[String], out: &mut Vec<u8>) {
    for (i, field) in fields.iter().enumerate() {
        // Room for the field quoted whole, its separator and a line end.
        let mut buffer = vec![0_u8; field.len().saturating_mul(2).saturating_add(6)];
        let (_, _, mut used) = writer.field(field.as_bytes(), &mut buffer);
        let (_, ended) = if i + 1 == fields.len() {
            writer.terminator(&mut buffer[used..])
        } else {
            writer.delimiter(&mut buffer[used..])
        };
        used += ended;
        out.extend_from_slice(&buffer[..used]);
    }
}

/// A scenario's cell: 1, 0 or blank.
fn score(verdict: &Progress) -> &'static str {
    match verdict {
        Progress::Passed => "1",
        Progress::Failing(_) | Progress::Structural => "0",
        Progress::NotStarted | Progress::Unreadable => "",
    }
}

/// What the numbers leave out: failed rules, edited verdicts, twins.
fn note(row: &Row, twins: &[usize], rows: &[Row]) -> String {
    let mut notes: Vec<String> = row
        .marks
        .iter()
        .filter_map(|m| match &m.verdict {
            Progress::Failing(rules) => Some(format!("S{} fails {}", m.scenario, rules.join(" "))),
            Progress::Structural => Some(format!("S{} has structural problems", m.scenario)),
            _ => None,
        })
        .collect();
    for m in row.disagreements() {
        notes.push(format!(
            "S{}: the file said {}, grading says {}",
            m.scenario,
            m.stored.label(),
            m.verdict.label()
        ));
    }
    for m in row.marks.iter().filter(|m| m.linked_elsewhere) {
        notes.push(format!(
            "S{}: its link or file named other data; graded on the student's own",
            m.scenario
        ));
    }
    if !twins.is_empty() {
        let others: Vec<String> = twins.iter().map(|&j| rows[j].from.clone()).collect();
        notes.push(format!("same student as {}", others.join(", ")));
    }
    notes.join("; ")
}

/// The gradebook's CSV: a byte-order mark (so a spreadsheet reads names
/// as UTF-8) and CRLF line ends, as RFC 4180 has them.
pub fn csv(rows: &[Row]) -> String {
    let mut writer = WriterBuilder::new().terminator(Terminator::CRLF).build();
    let mut out = "\u{feff}".as_bytes().to_vec();
    let mut header = vec![
        "Student".to_string(),
        "Class".to_string(),
        "Handed in as".to_string(),
    ];
    header.extend(
        SCENARIOS
            .iter()
            .map(|s| format!("Scenario {}: {}", s.number, s.title)),
    );
    header.push(format!("Passed (of {})", SCENARIOS.len()));
    header.push("Notes".to_string());
    record(&mut writer, &header, &mut out);
    let twins = same_student(rows);
    for (row, twins) in rows.iter().zip(&twins) {
        let mut fields = vec![
            inert(
                &row.student
                    .as_ref()
                    .map_or(String::new(), |s| s.name.clone()),
            ),
            inert(
                &row.student
                    .as_ref()
                    .map_or(String::new(), |s| s.class.clone()),
            ),
            inert(&row.from),
        ];
        fields.extend(
            SCENARIOS
                .iter()
                .map(|s| score(&row.verdict(s.number)).to_string()),
        );
        fields.push(row.passed().to_string());
        fields.push(inert(&note(row, twins, rows)));
        record(&mut writer, &fields, &mut out);
    }
    String::from_utf8(out).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::class::mark::Mark;
    use crate::class::Submission;
    use crate::scenarios::student::Student;
    use csv_core::{ReadFieldResult, Reader};

    /// Reads CSV back with csv-core's reader: what a spreadsheet sees.
    fn cells(text: &str) -> Vec<Vec<String>> {
        let mut reader = Reader::new();
        let mut input = text.trim_start_matches('\u{feff}').as_bytes();
        let (mut rows, mut row, mut field) = (Vec::new(), Vec::new(), vec![0_u8; 4096]);
        loop {
            let (result, read, written) = reader.read_field(input, &mut field);
            input = &input[read..];
            match result {
                ReadFieldResult::Field { record_end } => {
                    row.push(String::from_utf8(field[..written].to_vec()).expect("utf-8"));
                    if record_end {
                        rows.push(std::mem::take(&mut row));
                    }
                }
                ReadFieldResult::End => return rows,
                ReadFieldResult::InputEmpty | ReadFieldResult::OutputFull => {
                    if input.is_empty() {
                        let (result, _, written) = reader.read_field(&[], &mut field);
                        if let ReadFieldResult::Field { .. } = result {
                            row.push(String::from_utf8(field[..written].to_vec()).expect("utf-8"));
                            rows.push(std::mem::take(&mut row));
                        }
                        return rows;
                    }
                }
            }
        }
    }

    fn row(name: &str, marks: Vec<Mark>) -> Row {
        Row::new(
            &Submission {
                from: format!("{name}.json"),
                student: Some(Student::new(name, "Data, 101").expect("name")),
                works: Vec::new(),
            },
            marks,
        )
    }

    #[test]
    fn the_gradebook_has_a_row_per_submission_and_a_column_per_scenario() {
        let passed = |n| Mark {
            scenario: n,
            verdict: Progress::Passed,
            stored: Progress::Passed,
            causes: Vec::new(),
            linked_elsewhere: false,
        };
        let failing = Mark {
            scenario: 2,
            verdict: Progress::Failing(vec!["R1".into(), "R3".into()]),
            stored: Progress::Passed,
            causes: Vec::new(),
            linked_elsewhere: true,
        };
        let rows = vec![
            row("Zoë \"Z\" Ng", vec![passed(1), failing]),
            row("=cmd()", vec![passed(4)]),
            row("zoë \"z\" ng", vec![]),
        ];
        let text = csv(&rows);
        assert!(text.starts_with('\u{feff}'));
        assert!(text.contains("\r\n"));
        let table = cells(&text);
        assert_eq!(table.len(), 4);
        assert!(
            table.iter().all(|r| r.len() == SCENARIOS.len() + 5),
            "{table:?}"
        );
        assert_eq!(table[0][0], "Student");
        assert_eq!(table[0][3], format!("Scenario 1: {}", SCENARIOS[0].title));
        assert_eq!(
            &table[1][..5],
            ["Zoë \"Z\" Ng", "Data, 101", "Zoë \"Z\" Ng.json", "1", "0"]
        );
        assert_eq!(table[1][SCENARIOS.len() + 3], "1");
        let notes = &table[1][SCENARIOS.len() + 4];
        assert!(notes.contains("S2 fails R1 R3"), "{notes}");
        assert!(
            notes.contains("the file said Passed, grading says Failing R1, R3"),
            "{notes}"
        );
        assert!(
            notes.contains("same student as zoë \"z\" ng.json"),
            "{notes}"
        );
        assert!(
            notes.contains("S2: its link or file named other data; graded on the student's own"),
            "{notes}"
        );
        assert!(!table[2][SCENARIOS.len() + 4].contains("named other data"));
        assert_eq!(table[2][0], "'=cmd()");
        assert_eq!(table[2][6], "1");
        assert_eq!(
            table[3][3..3 + SCENARIOS.len()],
            vec![String::new(); SCENARIOS.len()][..]
        );
    }
}
