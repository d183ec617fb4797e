//! The arrival-log reader and the column picker.

use partition_lab_core::engine::zone::{Zone, NAMES};
use partition_lab_core::labs::lateness::arrival_csv::{
    header_names, read_with, HeaderProblem, Loaded, LogError, LogReader, Mapping,
};
use partition_lab_core::labs::lateness::your_data::{describe, ColumnChoice};
use proptest::test_runner::TestCaseError;

use crate::driver::{ensure, fuzz, Seeds};

const TOKENS: &[&str] = &[
    ",",
    "\n",
    "\r\n",
    "\r",
    "\"",
    "\"\"",
    " ",
    "\u{feff}",
    "event_time",
    "arrival_time",
    "value",
    "Event_Time",
    "2026-08-03T09:10:00Z",
    "2026-08-03 09:10",
    "+02:00",
    "-05:00",
    "Z",
    "T",
    ".25",
    "12.50",
    "-3",
    "9999999999999999",
    "0.00000000001",
    "2026-02-29",
    "1999-12-31T23:59:59Z",
    "9999-12-31T23:59:59Z",
    "0000-01-01T00:00:00Z",
    "2026-03-29T02:30:00+01:00",
    ",,,,,,,,",
    "\0",
];

/// The start of each built-in profile's month as the lateness lab exports
/// it (its whole rows, a few KB: edits reach every part of a small file).
pub fn exported_months() -> Vec<Vec<u8>> {
    use partition_lab_core::export::beam::month_csv;
    use partition_lab_core::labs::lateness::model::{draws, Profile};
    use partition_lab_core::vocabulary::Choice;
    Profile::ALL
        .iter()
        .filter(|p| **p != Profile::Yours)
        .map(|p| {
            let month = month_csv(&draws(*p));
            let cut = month
                .get(..4096)
                .map_or(month.len(), |head| head.rfind('\n').map_or(0, |i| i + 1));
            month.as_bytes()[..cut].to_vec()
        })
        .collect()
}

fn seeds(target: &str) -> Seeds {
    Seeds::of(target, TOKENS, exported_months())
}

/// Reads `bytes` in chunks of `chunk` bytes.
fn chunked(
    bytes: &[u8],
    chunk: usize,
    mapping: Option<Mapping>,
    zone: Zone,
) -> Result<Loaded, LogError> {
    let mut reader = LogReader::with(mapping, zone);
    for piece in bytes.chunks(chunk.max(1)) {
        reader.feed(piece)?;
    }
    reader.finish()
}

/// What holds for any read: every data row either used or reported bad
/// (never lost), examples in file order, every message said.
fn sound(read: &Result<Loaded, LogError>, bytes: &[u8]) -> Result<(), TestCaseError> {
    match read {
        Ok(loaded) => {
            ensure(loaded.rows == loaded.used() + loaded.bad.total(), || {
                format!(
                    "rows in {} != used {} + bad {}",
                    loaded.rows,
                    loaded.used(),
                    loaded.bad.total()
                )
            })?;
            let lines: Vec<u64> = loaded.bad.examples.iter().map(|b| b.line).collect();
            // Lines as an editor counts them: every \r, and a \n unless it
            // follows one (so a CRLF line counted twice would show).
            let breaks = bytes
                .iter()
                .enumerate()
                .filter(|(i, b)| {
                    **b == b'\r' || (**b == b'\n' && (*i == 0 || bytes[i - 1] != b'\r'))
                })
                .count();
            let most = breaks as u64 + 1;
            ensure(
                lines.windows(2).all(|w| w[0] < w[1])
                    && lines.iter().all(|l| (2..=most).contains(l)),
                || format!("bad-row lines {lines:?} out of order or past the file's {most} lines"),
            )?;
            ensure(
                loaded
                    .bad
                    .examples
                    .iter()
                    .all(|b| b.text.chars().count() <= 120),
                || "an example row is not cut short".to_string(),
            )
        }
        Err(e) => ensure(crate::clear(&describe(e)), || {
            format!("unclear refusal {e:?}")
        }),
    }
}

#[test]
fn the_arrival_log_reader() {
    let seeds = seeds("arrival_csv");
    fuzz("arrival_csv", &seeds, |bytes| {
        let whole = read_with(bytes, None, Zone::UTC);
        sound(&whole, bytes)?;
        // However the browser cuts the file, the same result.
        let chunk = bytes.len() % 13 + 1;
        let cut = chunked(bytes, chunk, None, Zone::UTC);
        ensure(cut == whole, || {
            format!("chunks of {chunk} read differently")
        })?;
        // The picker's header and the reader's agree on what is a header.
        match header_names(bytes, true) {
            Err(HeaderProblem::NoRow) => ensure(whole == Err(LogError::Empty), || {
                format!("no row, but {whole:?}")
            }),
            Err(problem) => ensure(whole == Err(LogError::NotAHeader(problem.clone())), || {
                format!("picker refuses ({problem}), reader says {whole:?}")
            }),
            Ok(names) => ensure(!matches!(whole, Err(LogError::NotAHeader(_))), || {
                format!("picker takes {names:?}, reader refuses")
            }),
        }
    });
}

#[test]
fn the_column_picker_and_a_read_with_its_columns() {
    let seeds = seeds("arrival_csv");
    fuzz("column_picker", &seeds, |bytes| {
        let Ok(names) = header_names(bytes, true) else {
            return Ok(());
        };
        let n = names.len();
        // The picker's choices, as the selects could set them.
        let pick = |salt: usize| -> Option<usize> {
            let h = bytes.len().wrapping_mul(31).wrapping_add(salt) % (n + 2);
            (h < n).then_some(h)
        };
        let mut choice = ColumnChoice::of(names.clone(), Mapping::guess(&names).as_ref());
        if bytes.len() % 3 != 0 {
            (choice.event, choice.arrival, choice.value) = (pick(1), pick(7), pick(13));
        }
        for i in 0..n + 1 {
            ensure(!choice.shown(i).is_empty(), || {
                format!("column {i} shown as nothing")
            })?;
        }
        let zone = Zone::named(NAMES[bytes.len() % NAMES.len()]).expect("a listed zone");
        match choice.mapping() {
            Ok(mapping) => {
                let read = read_with(bytes, Some(mapping), zone);
                ensure(!matches!(read, Err(LogError::NoColumn { .. })), || {
                    format!("the picker's columns are not found: {read:?}")
                })?;
                sound(&read, bytes)
            }
            Err(why) => ensure(crate::clear(&why), || {
                format!("unclear picker message {why:?}")
            }),
        }
    });
}
