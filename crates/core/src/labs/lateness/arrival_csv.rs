//! Reading a user's arrival log: CSV with a header row naming its columns,
//! of which the user says which hold the event time, the arrival time and,
//! optionally, the value (`Mapping`; by default `event_time`,
//! `arrival_time` and `value`), in any order, other columns ignored, fed
//! chunk by chunk as the browser reads the file. Its days are those of the
//! zone the user names (`engine::zone`).
//!
//! Rows are folded into an `ArrivalLog` as they are read and then
//! dropped. A row that cannot be used is never lost silently: it is
//! counted by what is wrong with it, and the first few are kept with their
//! line numbers for the page to show.

#![deny(clippy::indexing_slicing, clippy::arithmetic_side_effects)]

use crate::counted::{counted, grouped};
use crate::engine::arrivals::{Arrival, ArrivalLog, Units};
use crate::engine::calendar::Instant;
use crate::engine::zone::Zone;
use chrono::{Duration, NaiveDate, NaiveTime};
use csv_core::{ReadRecordResult, Reader};

/// The most rows the lab reads.
pub const MAX_ROWS: u64 = 5_000_000;
/// The largest file the lab reads, in bytes (250 MB).
pub const MAX_BYTES: u64 = 250_000_000;
/// The most columns a header row may have: the column picker lists every
/// one three times.
pub const MAX_COLUMNS: usize = 1_000;
/// The bytes read for the header row before the file itself (1 MB).
pub const HEADER_BYTES: u64 = 1_048_576;
/// Bad rows shown with their line numbers.
pub const EXAMPLES: usize = 5;
/// The most digits a value may have before its point: |value| < 10^15,
/// far above any real amount, so five million of them still sum exactly.
const MAX_WHOLE_DIGITS: usize = 15;
/// The most digits after the point (the query's DECIMAL(38, 10)).
const MAX_FRACTION_DIGITS: usize = 10;

/// What is wrong with a row the lab cannot use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Problem {
    /// More or fewer fields than the header row names.
    Fields,
    MissingField,
    EventTime,
    ArrivalTime,
    ArrivalBeforeEvent,
    Value,
    /// Before the clock rules the lab holds for the zone.
    BeforeZoneRules,
}

impl Problem {
    pub const ALL: [Problem; 7] = [
        Problem::Fields,
        Problem::MissingField,
        Problem::EventTime,
        Problem::ArrivalTime,
        Problem::ArrivalBeforeEvent,
        Problem::Value,
        Problem::BeforeZoneRules,
    ];

    pub fn describe(self) -> &'static str {
        match self {
            Problem::Fields => "it has more or fewer fields than the header row has columns",
            Problem::MissingField => "a field is missing or empty",
            Problem::EventTime => "event_time is not an ISO 8601 time",
            Problem::ArrivalTime => "arrival_time is not an ISO 8601 time",
            Problem::ArrivalBeforeEvent => "arrival_time is before event_time",
            Problem::Value => {
                "value is not a decimal number (at most 15 digits before the point and 10 after)"
            }
            Problem::BeforeZoneRules => {
                "it happened before 2008 (UTC), and the lab dates days in a time zone with its clock rules from 2008: choose UTC to keep such rows"
            }
        }
    }

    fn index(self) -> usize {
        self as usize
    }
}

/// One row left out, as the page shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadRow {
    /// 1-based, counting the header as line 1.
    pub line: u64,
    pub problem: Problem,
    /// The row's fields as read, joined by commas, cut at 120 characters.
    pub text: String,
}

/// Every row left out: how many for each problem, and the first few.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BadRows {
    counts: [u64; Problem::ALL.len()],
    pub examples: Vec<BadRow>,
}

impl BadRows {
    pub fn total(&self) -> u64 {
        self.counts
            .iter()
            .fold(0u64, |sum, n| sum.saturating_add(*n))
    }

    /// (problem, rows) for each problem some row had.
    pub fn by_problem(&self) -> Vec<(Problem, u64)> {
        Problem::ALL
            .into_iter()
            .zip(self.counts)
            .filter(|(_, n)| *n > 0)
            .collect()
    }

    fn add(&mut self, line: u64, problem: Problem, text: impl FnOnce() -> String) {
        if let Some(n) = self.counts.get_mut(problem.index()) {
            *n = n.saturating_add(1);
        }
        if self.examples.len() < EXAMPLES {
            self.examples.push(BadRow {
                line,
                problem,
                text: text(),
            });
        }
    }
}

/// Why a file's first row cannot be the row that names its columns. Said
/// as the end of "<file> could not be read: ".
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HeaderProblem {
    /// The whole file holds no row but blank ones.
    NoRow,
    /// The first `HEADER_BYTES` of a longer file end inside the first row.
    NoWholeRow,
    Unnamed {
        columns: usize,
    },
    TooWide {
        columns: usize,
    },
    Data {
        field: String,
    },
}

impl std::fmt::Display for HeaderProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            HeaderProblem::NoRow => write!(f, "it holds no row to name its columns."),
            HeaderProblem::NoWholeRow => write!(
                f,
                "its first {} MB holds no whole row to name its columns.",
                HEADER_BYTES / 1_048_576
            ),
            HeaderProblem::Unnamed { columns } => write!(
                f,
                "its first row, which must name the columns, has {} and names none of them.",
                counted(*columns, "column")
            ),
            HeaderProblem::TooWide { columns } => write!(
                f,
                "its first row has {} columns; the lab reads files with at most {} (the first row names the columns).",
                grouped(*columns),
                grouped(MAX_COLUMNS)
            ),
            HeaderProblem::Data { field } => write!(
                f,
                "its first row reads as data, not as column names (\"{field}\" is a time): add a first row that names the columns, such as event_time,arrival_time,value."
            ),
        }
    }
}

impl std::error::Error for HeaderProblem {}

/// Whether a row's fields can be the header: `Ok` even with some unnamed
/// (the picker shows them by place), never when none is named, there are
/// too many to list, or one of them is a time (a first data row, the
/// header missing: taking it as names would drop it without a word).
pub fn check_header(names: &[String]) -> Result<(), HeaderProblem> {
    if names.iter().all(|n| n.trim().is_empty()) {
        return Err(HeaderProblem::Unnamed {
            columns: names.len(),
        });
    }
    if names.len() > MAX_COLUMNS {
        return Err(HeaderProblem::TooWide {
            columns: names.len(),
        });
    }
    match names.iter().find(|n| parse_time(n).is_some()) {
        Some(time) => Err(HeaderProblem::Data {
            field: time.trim().chars().take(40).collect(),
        }),
        None => Ok(()),
    }
}

/// A header field as the column's name: trimmed, and without a byte-order
/// mark (csv-core drops one only from the start of its first input).
fn column_name(field: &[u8]) -> String {
    String::from_utf8_lossy(field)
        .trim_start_matches('\u{feff}')
        .trim()
        .to_string()
}

/// A record of one blank field: a blank line, skipped wherever it is.
fn blank(fields: &[&[u8]]) -> bool {
    matches!(fields, [only] if only.iter().all(u8::is_ascii_whitespace))
}

/// A file the lab cannot read at all.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LogError {
    #[error("The file is empty.")]
    Empty,
    #[error("The first row must name the columns event_time and arrival_time (and value, if there is one); this file's first row is \"{found}\".")]
    Header { found: String },
    #[error("The first row has no column named \"{missing}\" (the {what}); its columns are \"{found}\".")]
    NoColumn {
        what: &'static str,
        missing: String,
        found: String,
    },
    #[error("The file cannot be read: {0}")]
    NotAHeader(HeaderProblem),
    #[error("The file has a header but no rows.")]
    NoRows,
    #[error("None of the file's {rows} rows could be read; the reasons are listed below.")]
    NoUsableRows { rows: u64, bad: BadRows },
    #[error("The file is over 250 MB, the most the lab reads.")]
    TooLarge,
    #[error("The file has more than 5,000,000 rows, the most the lab reads.")]
    TooManyRows,
}

/// A log read to the end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Loaded {
    pub log: ArrivalLog,
    /// Data rows in the file (the header not counted).
    pub rows: u64,
    pub bad: BadRows,
    /// Whether the file had a value column.
    pub has_value: bool,
    /// Each row the figures count, in file order, if the reader was asked
    /// to keep them (`LogReader::keeping_rows`: the exports' proofs).
    pub kept: Vec<Arrival>,
}

impl Loaded {
    /// Rows the figures are based on.
    pub fn used(&self) -> u64 {
        self.log.events
    }
}

/// Which of the file's columns hold what, by the names in its header row
/// (compared without case or surrounding spaces).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mapping {
    pub event: String,
    pub arrival: String,
    /// `None`: no value column, each event counts 1.
    pub value: Option<String>,
}

impl Mapping {
    /// The lab's own names, if `header` has them: `event_time`,
    /// `arrival_time` and `value` (when there is one).
    pub fn guess(header: &[String]) -> Option<Mapping> {
        let find = |name: &str| {
            header
                .iter()
                .find(|h| h.trim().eq_ignore_ascii_case(name))
                .cloned()
        };
        Some(Mapping {
            event: find("event_time")?,
            arrival: find("arrival_time")?,
            value: find("value"),
        })
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Columns {
    /// Fields in the header row: every row must have as many.
    width: usize,
    event: usize,
    arrival: usize,
    value: Option<usize>,
}

/// Reads a log chunk by chunk: `feed` each chunk, then `finish`.
pub struct LogReader {
    csv: Reader,
    out: Vec<u8>,
    ends: Vec<usize>,
    out_len: usize,
    ends_len: usize,
    columns: Option<Columns>,
    /// `None`: the lab's own names, the value column if there is one.
    mapping: Option<Mapping>,
    log: ArrivalLog,
    rows: u64,
    bad: BadRows,
    bytes: u64,
    /// Line breaks read so far, and the last byte read: csv-core's own line
    /// count lags by one for `\r\n` files (it stops at the `\r`) and
    /// counts no lone `\r`.
    newlines: u64,
    last_byte: Option<u8>,
    /// `Some`: every row folded in is kept too.
    kept: Option<Vec<Arrival>>,
    /// The file's first bytes while fewer than a byte-order mark's;
    /// `None` once csv-core has had its first input.
    head: Option<Vec<u8>>,
}

/// A UTF-8 byte-order mark.
const BOM: &[u8] = b"\xef\xbb\xbf";

impl Default for LogReader {
    fn default() -> Self {
        LogReader {
            csv: Reader::new(),
            out: vec![0; 1024],
            ends: vec![0; 16],
            out_len: 0,
            ends_len: 0,
            columns: None,
            mapping: None,
            log: ArrivalLog::default(),
            rows: 0,
            bad: BadRows::default(),
            bytes: 0,
            newlines: 0,
            last_byte: None,
            kept: None,
            head: Some(Vec::new()),
        }
    }
}

impl LogReader {
    pub fn new() -> Self {
        Self::default()
    }

    /// A reader of the columns `mapping` names, dating days in `zone`.
    pub fn with(mapping: Option<Mapping>, zone: Zone) -> Self {
        LogReader {
            mapping,
            log: ArrivalLog::in_zone(zone),
            ..Self::default()
        }
    }

    /// A reader that also keeps each row it counts (`Loaded::kept`), for
    /// an export's proof to name them; the page never asks (a file's rows
    /// can be millions).
    pub fn keeping_rows(mut self) -> Self {
        self.kept = Some(Vec::new());
        self
    }

    /// Data rows read so far, for a progress bar.
    pub fn rows(&self) -> u64 {
        self.rows
    }

    /// Reads the next chunk of the file.
    pub fn feed(&mut self, chunk: &[u8]) -> Result<(), LogError> {
        self.bytes = self
            .bytes
            .saturating_add(u64::try_from(chunk.len()).unwrap_or(u64::MAX));
        if self.bytes > MAX_BYTES {
            return Err(LogError::TooLarge);
        }
        // csv-core drops a byte-order mark only from its first input, and
        // only if that holds all three bytes: it gets at least three, so a
        // file reads the same however it is cut.
        if let Some(mut head) = self.head.take() {
            if head.is_empty() && chunk.len() >= BOM.len() {
                return self.read(chunk, false);
            }
            head.extend_from_slice(chunk);
            if head.len() < BOM.len() {
                self.head = Some(head);
                return Ok(());
            }
            return self.read(&head, false);
        }
        self.read(chunk, false)
    }

    /// Reads what is left (a last row without a line break) and reports.
    pub fn finish(mut self) -> Result<Loaded, LogError> {
        if let Some(head) = self.head.take() {
            self.read(&head, false)?;
        }
        self.read(&[], true)?;
        if self.columns.is_none() {
            return Err(LogError::Empty);
        }
        if self.rows == 0 {
            return Err(LogError::NoRows);
        }
        if self.log.events == 0 {
            return Err(LogError::NoUsableRows {
                rows: self.rows,
                bad: self.bad,
            });
        }
        Ok(Loaded {
            log: self.log,
            rows: self.rows,
            bad: self.bad,
            has_value: self.columns.is_some_and(|c| c.value.is_some()),
            kept: self.kept.unwrap_or_default(),
        })
    }

    fn read(&mut self, mut input: &[u8], last: bool) -> Result<(), LogError> {
        loop {
            let out = self.out.get_mut(self.out_len..).unwrap_or_default();
            let ends = self.ends.get_mut(self.ends_len..).unwrap_or_default();
            let (result, n_in, n_out, n_ends) = self.csv.read_record(input, out, ends);
            let (read, rest) = input.split_at_checked(n_in).unwrap_or((input, &[]));
            // A line ends at `\n`, `\r\n` or a lone `\r`, as csv-core and
            // text editors both read them: every `\r` counts, and a `\n`
            // unless it follows one (the two may arrive in two chunks).
            for b in read {
                let ends_line = *b == b'\r' || (*b == b'\n' && self.last_byte != Some(b'\r'));
                self.newlines = self.newlines.saturating_add(u64::from(ends_line));
                self.last_byte = Some(*b);
            }
            input = rest;
            self.out_len = self.out_len.saturating_add(n_out);
            self.ends_len = self.ends_len.saturating_add(n_ends);
            match result {
                ReadRecordResult::InputEmpty => {
                    if !last {
                        return Ok(());
                    }
                }
                ReadRecordResult::OutputFull => {
                    let grown = self.out.len().saturating_mul(2);
                    self.out.resize(grown, 0);
                }
                ReadRecordResult::OutputEndsFull => {
                    let grown = self.ends.len().saturating_mul(2);
                    self.ends.resize(grown, 0);
                }
                ReadRecordResult::Record => {
                    // A record's line break has been read and counted; the
                    // last one, with none, is on the line after the last
                    // break. A record spanning lines (a quoted field with
                    // breaks in it) is reported at its last line.
                    let ended = matches!(self.last_byte, Some(b'\n' | b'\r'));
                    let line = self.newlines.saturating_add(u64::from(!ended));
                    self.record(line)?;
                    self.out_len = 0;
                    self.ends_len = 0;
                }
                ReadRecordResult::End => return Ok(()),
            }
        }
    }

    /// Field `i` of the record just read.
    fn field(&self, i: usize) -> Option<&[u8]> {
        let ends = self.ends.get(..self.ends_len)?;
        let end = *ends.get(i)?;
        let start = match i.checked_sub(1) {
            Some(before) => *ends.get(before)?,
            None => 0,
        };
        self.out.get(start..end)
    }

    /// Whether the record just read is a blank line (as `blank` says,
    /// without collecting its one field).
    fn is_blank(&self) -> bool {
        self.ends_len == 1 && self.field(0).is_some_and(|f| blank(&[f]))
    }

    fn fields(&self) -> impl Iterator<Item = &[u8]> {
        (0..self.ends_len).filter_map(|i| self.field(i))
    }

    fn record(&mut self, line: u64) -> Result<(), LogError> {
        let Some(columns) = self.columns else {
            return self.header();
        };
        if self.is_blank() {
            return Ok(());
        }
        self.rows = self.rows.saturating_add(1);
        if self.rows > MAX_ROWS {
            return Err(LogError::TooManyRows);
        }
        let read = if self.ends_len == columns.width {
            self.arrival(columns, line)
        } else {
            Err(Problem::Fields)
        };
        match read {
            Ok(arrival) => {
                if self.log.add(&arrival) {
                    if let Some(kept) = &mut self.kept {
                        kept.push(arrival);
                    }
                }
            }
            Err(problem) => {
                // Only the first few rows are shown: the rest are counted.
                let text = if self.bad.examples.len() < EXAMPLES {
                    let joined: Vec<String> = self
                        .fields()
                        .map(|f| String::from_utf8_lossy(f).into_owned())
                        .collect();
                    joined.join(",").chars().take(120).collect()
                } else {
                    String::new()
                };
                self.bad.add(line, problem, || text);
            }
        }
        Ok(())
    }

    fn header(&mut self) -> Result<(), LogError> {
        let names: Vec<String> = self.fields().map(column_name).collect();
        if self.is_blank() {
            // Blank lines before the header.
            return Ok(());
        }
        check_header(&names).map_err(LogError::NotAHeader)?;
        let names: Vec<String> = names.iter().map(|n| n.to_ascii_lowercase()).collect();
        let width = names.len();
        let find = |name: &str| {
            let name = name.trim().to_ascii_lowercase();
            names.iter().position(|n| *n == name)
        };
        let found = || names.join(",").chars().take(120).collect::<String>();
        let Some(mapping) = &self.mapping else {
            return match (find("event_time"), find("arrival_time")) {
                (Some(event), Some(arrival)) => {
                    self.columns = Some(Columns {
                        width,
                        event,
                        arrival,
                        value: find("value"),
                    });
                    Ok(())
                }
                _ => Err(LogError::Header { found: found() }),
            };
        };
        let named = |what: &'static str, name: &str| {
            find(name).ok_or_else(|| LogError::NoColumn {
                what,
                missing: name.chars().take(60).collect(),
                found: found(),
            })
        };
        let columns = Columns {
            width,
            event: named("event time", &mapping.event)?,
            arrival: named("arrival time", &mapping.arrival)?,
            value: match &mapping.value {
                Some(v) => Some(named("value", v)?),
                None => None,
            },
        };
        self.columns = Some(columns);
        Ok(())
    }

    fn arrival(&self, columns: Columns, line: u64) -> Result<Arrival, Problem> {
        let text = |i: usize| {
            self.field(i)
                .and_then(|f| std::str::from_utf8(f).ok())
                .map(str::trim)
                .filter(|s| !s.is_empty())
        };
        let (Some(event), Some(arrived)) = (text(columns.event), text(columns.arrival)) else {
            return Err(Problem::MissingField);
        };
        let value = match columns.value {
            Some(i) => text(i).ok_or(Problem::MissingField)?,
            None => "1",
        };
        let event = parse_time(event).ok_or(Problem::EventTime)?;
        let arrived = parse_time(arrived).ok_or(Problem::ArrivalTime)?;
        let value = parse_value(value).ok_or(Problem::Value)?.saturating_abs();
        if arrived < event {
            return Err(Problem::ArrivalBeforeEvent);
        }
        if !self.log.zone().dates(event) {
            return Err(Problem::BeforeZoneRules);
        }
        Ok(Arrival {
            event,
            arrived,
            value,
            line,
        })
    }
}

/// Reads a whole log held in memory (pasted text, tests).
pub fn read_all(bytes: &[u8]) -> Result<Loaded, LogError> {
    let mut reader = LogReader::new();
    reader.feed(bytes)?;
    reader.finish()
}

/// Reads a whole log held in memory with the columns `mapping` names.
pub fn read_with(bytes: &[u8], mapping: Option<Mapping>, zone: Zone) -> Result<Loaded, LogError> {
    let mut reader = LogReader::with(mapping, zone);
    reader.feed(bytes)?;
    reader.finish()
}

/// The column names of a file's header row (its first non-blank row), as
/// written, from the file's first bytes, or why there is none (`whole`:
/// they are the whole file, so its last row may end unbroken).
pub fn header_names(start: &[u8], whole: bool) -> Result<Vec<String>, HeaderProblem> {
    let mut csv = Reader::new();
    // A record's fields are never longer than its bytes.
    let mut out = vec![0u8; start.len().saturating_add(1)];
    let mut ends = vec![0usize; start.len().saturating_add(1)];
    let (mut input, mut out_len, mut ends_len) = (start, 0usize, 0usize);
    loop {
        let ending = input.is_empty();
        let (result, n_in, n_out, n_ends) = csv.read_record(
            input,
            out.get_mut(out_len..).unwrap_or_default(),
            ends.get_mut(ends_len..).unwrap_or_default(),
        );
        input = input.get(n_in..).unwrap_or_default();
        out_len = out_len.saturating_add(n_out);
        ends_len = ends_len.saturating_add(n_ends);
        match result {
            ReadRecordResult::Record => {
                let mut fields = Vec::new();
                let mut from = 0usize;
                for end in ends.get(..ends_len).unwrap_or_default() {
                    fields.push(out.get(from..*end).unwrap_or_default());
                    from = *end;
                }
                if !blank(&fields) {
                    let names: Vec<String> = fields.iter().map(|f| column_name(f)).collect();
                    check_header(&names)?;
                    return Ok(names);
                }
                (out_len, ends_len) = (0, 0);
            }
            // All read with the row unfinished: for the whole file, the
            // next call's empty input tells csv-core the file has ended.
            ReadRecordResult::InputEmpty if whole && !ending => {}
            _ if whole => return Err(HeaderProblem::NoRow),
            _ => return Err(HeaderProblem::NoWholeRow),
        }
    }
}

/// Reads a plain decimal (`12`, `-3.50`, `+0.125`, `.5`) as whole
/// ten-billionths; no exponent, no thousands separators.
pub fn parse_value(text: &str) -> Option<Units> {
    let text = text.trim();
    let (negative, digits) = match text.as_bytes().first() {
        Some(b'-') => (true, text.get(1..)?),
        Some(b'+') => (false, text.get(1..)?),
        _ => (false, text),
    };
    let (whole, fraction) = digits.split_once('.').unwrap_or((digits, ""));
    let all_digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if whole.is_empty() && fraction.is_empty()
        || !all_digits(whole)
        || !all_digits(fraction)
        || whole.trim_start_matches('0').len() > MAX_WHOLE_DIGITS
        || fraction.len() > MAX_FRACTION_DIGITS
    {
        return None;
    }
    let mut units: Units = 0;
    for b in whole.bytes().chain(fraction.bytes()) {
        units = units
            .checked_mul(10)?
            .checked_add(Units::from(b.checked_sub(b'0')?))?;
    }
    let scale = MAX_FRACTION_DIGITS.checked_sub(fraction.len())?;
    units = units.checked_mul(10i128.checked_pow(u32::try_from(scale).ok()?)?)?;
    Some(if negative {
        units.checked_neg()?
    } else {
        units
    })
}

/// Walks a time's text.
struct Cursor<'a> {
    rest: &'a [u8],
}

impl<'a> Cursor<'a> {
    fn number(&mut self, digits: usize) -> Option<u32> {
        let (head, rest) = self.rest.split_at_checked(digits)?;
        let mut n: u32 = 0;
        for b in head {
            if !b.is_ascii_digit() {
                return None;
            }
            n = n
                .checked_mul(10)?
                .checked_add(u32::from(b.checked_sub(b'0')?))?;
        }
        self.rest = rest;
        Some(n)
    }

    fn eat(&mut self, any_of: &[u8]) -> bool {
        match self.rest.split_first() {
            Some((b, rest)) if any_of.contains(b) => {
                self.rest = rest;
                true
            }
            _ => false,
        }
    }

    /// A fraction of a second after `.` or `,`, as nanoseconds (1 to 9 digits).
    fn fraction(&mut self) -> Option<u32> {
        let digits = self.rest.iter().take_while(|b| b.is_ascii_digit()).count();
        if !(1..=9).contains(&digits) {
            return None;
        }
        let n = self.number(digits)?;
        let scale = 10u32.checked_pow(u32::try_from(9usize.checked_sub(digits)?).ok()?)?;
        n.checked_mul(scale)
    }
}

/// Reads an ISO 8601 time, as UTC: `2026-08-03T09:10:00Z`,
/// `2026-08-03 09:10`, `2026-08-03T09:10:00.250+02:00` (seconds and the
/// fraction optional; an offset, `Z` or none, which means UTC).
/// Hand-written for the same reason as `calendar::parse_iso_date`: only
/// these shapes are read, a million times a file, and chrono's general
/// parser is large in the bundle and slow.
pub fn parse_time(text: &str) -> Option<Instant> {
    let mut c = Cursor {
        rest: text.trim().as_bytes(),
    };
    let year = c.number(4)?;
    let month = c.eat(b"-").then(|| c.number(2))??;
    let day = c.eat(b"-").then(|| c.number(2))??;
    if !c.eat(b"Tt ") {
        return None;
    }
    let hour = c.number(2)?;
    let minute = c.eat(b":").then(|| c.number(2))??;
    let (second, nano) = if c.eat(b":") {
        let second = c.number(2)?;
        let nano = if c.eat(b".,") { c.fraction()? } else { 0 };
        (second, nano)
    } else {
        (0, 0)
    };
    let date = NaiveDate::from_ymd_opt(i32::try_from(year).ok()?, month, day)?;
    let local = date.and_time(NaiveTime::from_hms_nano_opt(hour, minute, second, nano)?);
    c.eat(b" ");
    let offset_minutes: i64 = if c.rest.is_empty() || c.eat(b"Zz") {
        0
    } else {
        let sign: i64 = if c.eat(b"+") {
            1
        } else if c.eat(b"-") {
            -1
        } else {
            return None;
        };
        let hours = c.number(2)?;
        let minutes = if c.rest.is_empty() {
            0
        } else {
            c.eat(b":");
            c.number(2)?
        };
        if hours > 23 || minutes > 59 {
            return None;
        }
        sign.checked_mul(i64::from(hours.checked_mul(60)?.checked_add(minutes)?))?
    };
    if !c.rest.is_empty() {
        return None;
    }
    local.checked_sub_signed(Duration::minutes(offset_minutes))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::calendar::{at, date};

    #[test]
    fn values_are_plain_decimals_read_exactly() {
        use crate::engine::arrivals::{value_text, UNIT};
        assert_eq!(parse_value("12"), Some(12 * UNIT));
        assert_eq!(parse_value(" -3.50 "), Some(-35 * UNIT / 10));
        assert_eq!(parse_value("+0.125"), Some(UNIT / 8));
        assert_eq!(parse_value(".5"), Some(UNIT / 2));
        assert_eq!(parse_value("7."), Some(7 * UNIT));
        assert_eq!(parse_value("0.0000000001"), Some(1));
        assert_eq!(
            parse_value("999999999999999.9999999999"),
            Some(1_000_000_000_000_000 * UNIT - 1)
        );
        for bad in [
            "",
            "-",
            ".",
            "1e5",
            "1,5",
            "1 000",
            "12abc",
            "0x10",
            "1.00000000001",
            "1000000000000000",
            "--1",
            "1.2.3",
        ] {
            assert_eq!(parse_value(bad), None, "{bad}");
        }
        assert_eq!(value_text(12_155 * UNIT / 10), "1215.5");
        assert_eq!(value_text(-3 * UNIT), "-3");
        assert_eq!(value_text(1), "0.0000000001");
    }

    #[test]
    fn times_are_read_in_every_shape_the_page_promises_and_made_utc() {
        let nine_ten = at(date(2026, 8, 3), 9, 10);
        for text in [
            "2026-08-03T09:10:00Z",
            "2026-08-03 09:10:00",
            "2026-08-03T09:10",
            " 2026-08-03t09:10:00z ",
            "2026-08-03T11:10:00+02:00",
            "2026-08-03T11:10:00+0200",
            "2026-08-03T11:10+02",
            "2026-08-03T04:10:00-05:00",
            "2026-08-03 11:10:00 +02:00",
        ] {
            assert_eq!(parse_time(text), Some(nine_ten), "{text}");
        }
        assert_eq!(
            parse_time("2026-08-03T09:10:00.25Z"),
            Some(nine_ten + Duration::milliseconds(250))
        );
        // An offset that crosses midnight moves the day.
        assert_eq!(
            parse_time("2026-08-01T01:30:00+02:00"),
            Some(at(date(2026, 7, 31), 23, 30))
        );
        assert_eq!(
            parse_time("2028-02-29T12:00:00Z"),
            Some(at(date(2028, 2, 29), 12, 0))
        );
    }

    #[test]
    fn anything_else_is_not_a_time() {
        for text in [
            "",
            "yesterday",
            "2026-08-03",
            "2026-8-3T09:10:00Z",
            "2026-08-03T9:10:00Z",
            "2026-02-30T09:10:00Z",
            "2027-02-29T09:10:00Z",
            "2026-08-03T24:00:00Z",
            "2026-08-03T09:60:00Z",
            "2026-08-03T09:10:00+24:00",
            "2026-08-03T09:10:00Q",
            "2026-08-03T09:10:00.Z",
            "2026-08-03T09:10:00.1234567890Z",
            "2026-08-03T09:10:00Z extra",
            "１２３４-08-03T09:10:00Z",
        ] {
            assert_eq!(parse_time(text), None, "{text}");
        }
    }

    #[test]
    fn columns_are_found_by_name_and_extra_ones_ignored() -> Result<(), LogError> {
        let file = "id,Arrival_Time,note,event_time\n\
                    1,2026-08-03T10:00:00Z,x,2026-08-03T09:00:00Z\n";
        let loaded = read_all(file.as_bytes())?;
        assert_eq!((loaded.rows, loaded.used()), (1, 1));
        assert!(!loaded.has_value);
        Ok(())
    }

    #[test]
    fn bad_rows_are_counted_by_reason_with_their_lines() -> Result<(), LogError> {
        let file = "event_time,arrival_time,value\n\
                    2026-08-03T09:00:00Z,2026-08-03T09:05:00Z,12.50\n\
                    2026-08-03T09:00:00Z,,3\n\
                    soon,2026-08-03T09:05:00Z,3\n\
                    2026-08-03T09:00:00Z,later,3\n\
                    2026-08-03T09:00:00Z,2026-08-03T08:00:00Z,3\n\
                    2026-08-03T09:00:00Z,2026-08-03T09:05:00Z,twelve\n\
                    2026-08-03T09:00:00Z\n\
                    \n\
                    \"2026-08-03T09:00:00Z\",\"2026-08-04T09:00:00Z\",\"-1,5\"\n";
        let loaded = read_all(file.as_bytes())?;
        assert_eq!(loaded.rows, 8);
        assert_eq!(loaded.used(), 1);
        assert_eq!(
            loaded.bad.by_problem(),
            [
                (Problem::Fields, 1),
                (Problem::MissingField, 1),
                (Problem::EventTime, 1),
                (Problem::ArrivalTime, 1),
                (Problem::ArrivalBeforeEvent, 1),
                (Problem::Value, 2),
            ]
        );
        let lines: Vec<u64> = loaded.bad.examples.iter().map(|b| b.line).collect();
        assert_eq!(lines, [3, 4, 5, 6, 7]);
        let first = loaded.bad.examples.first().expect("an example");
        assert_eq!(first.text, "2026-08-03T09:00:00Z,,3");
        Ok(())
    }

    #[test]
    fn line_numbers_are_right_for_windows_line_breaks_and_a_last_line_without_one(
    ) -> Result<(), LogError> {
        let file = "\u{feff}event_time,arrival_time\r\n\
                    2026-08-03T09:00:00Z,2026-08-03T09:05:00Z\r\n\
                    soon,2026-08-03T09:05:00Z\r\n\
                    \r\n\
                    2026-08-03T09:00:00Z,later";
        for size in [1, 2, 3, 5, 1000] {
            let mut reader = LogReader::new();
            for chunk in file.as_bytes().chunks(size) {
                reader.feed(chunk)?;
            }
            let loaded = reader.finish()?;
            let lines: Vec<u64> = loaded.bad.examples.iter().map(|b| b.line).collect();
            assert_eq!(lines, [3, 5], "chunks of {size}");
            assert_eq!(loaded.used(), 1);
        }
        Ok(())
    }

    #[test]
    fn a_lone_carriage_return_ends_a_line_as_it_ends_a_row() -> Result<(), LogError> {
        // Found by the fuzzer: old Mac line breaks (and a mix) numbered
        // every bad row as line 1.
        let file = "event_time,arrival_time\r\
                    soon,2026-08-03T09:05:00Z\r\
                    2026-08-03T09:00:00Z,2026-08-03T09:05:00Z\r\n\
                    later,2026-08-03T09:05:00Z\n\
                    \r\
                    2026-08-03T09:00:00Z,never\r";
        for size in [1, 2, 3, 1000] {
            let mut reader = LogReader::new();
            for chunk in file.as_bytes().chunks(size) {
                reader.feed(chunk)?;
            }
            let loaded = reader.finish()?;
            let lines: Vec<u64> = loaded.bad.examples.iter().map(|b| b.line).collect();
            assert_eq!(lines, [2, 4, 6], "chunks of {size}");
        }
        Ok(())
    }

    #[test]
    fn a_byte_order_mark_is_dropped_however_the_file_is_cut() -> Result<(), LogError> {
        // Found by the fuzzer: cut inside the mark, a quoted header (or a
        // blank first line) read differently from the whole file.
        for file in [
            "\u{feff}\"event_time\",\"arrival_time\"\n2026-08-03T09:00:00Z,2026-08-03T09:05:00Z\n",
            "\u{feff}\nevent_time,arrival_time\n2026-08-03T09:00:00Z,2026-08-03T09:05:00Z\n",
        ] {
            let whole = read_all(file.as_bytes())?;
            assert_eq!(whole.used(), 1);
            for size in [1, 2, 4] {
                let mut reader = LogReader::new();
                for chunk in file.as_bytes().chunks(size) {
                    reader.feed(chunk)?;
                }
                assert_eq!(reader.finish()?, whole, "chunks of {size}");
            }
        }
        Ok(())
    }

    #[test]
    fn a_file_is_the_same_however_it_is_cut_into_chunks() -> Result<(), LogError> {
        let mut file = String::from("event_time,arrival_time,value\r\n");
        for i in 0..200u32 {
            file.push_str(&format!(
                "2026-08-{:02}T{:02}:15:00Z,\"2026-08-{:02}T03:{:02}:00+01:00\",{}.{:02}\r\n",
                1 + i % 28,
                i % 24,
                2 + i % 28,
                i % 60,
                i,
                i % 100
            ));
        }
        file.push_str("2026-08-03T09:00:00Z,2026-08-03T09:05:00Z,1");
        let whole = read_all(file.as_bytes())?;
        assert_eq!(whole.rows, 201);
        for size in [1, 7, 64, 1000] {
            let mut reader = LogReader::new();
            for chunk in file.as_bytes().chunks(size) {
                reader.feed(chunk)?;
            }
            assert_eq!(reader.finish()?, whole, "chunks of {size}");
        }
        Ok(())
    }

    #[test]
    fn a_row_wider_or_narrower_than_the_header_is_reported_by_line_never_read_as_whole(
    ) -> Result<(), LogError> {
        let mut file = String::from("event_time,arrival_time,value\n");
        file.push_str("2026-08-03T09:00:00Z,2026-08-03T09:05:00Z,1\n");
        // Fifty fields: the first three would read, but the row is not whole.
        file.push_str("2026-08-03T09:00:00Z,2026-08-03T09:05:00Z,2");
        file.push_str(&",7".repeat(47));
        file.push('\n');
        file.push_str("2026-08-03T09:00:00Z,2026-08-03T09:05:00Z\n");
        file.push_str("2026-08-03T09:00:00Z,2026-08-03T09:05:00Z,3,\n");
        let loaded = read_all(file.as_bytes())?;
        assert_eq!((loaded.rows, loaded.used()), (4, 1));
        assert_eq!(loaded.bad.by_problem(), [(Problem::Fields, 3)]);
        let lines: Vec<u64> = loaded.bad.examples.iter().map(|b| b.line).collect();
        assert_eq!(lines, [3, 4, 5]);
        assert_eq!(loaded.rows, loaded.used() + loaded.bad.total());
        Ok(())
    }

    #[test]
    fn a_first_row_that_cannot_name_columns_is_refused_not_taken_from_the_data() {
        let rows = "2026-03-01T10:00:00Z,2026-03-01T10:05:00Z,1\n".repeat(10);
        let commas = format!("{}\n{rows}", ",".repeat(200_000));
        let unnamed = HeaderProblem::Unnamed { columns: 200_001 };
        assert_eq!(header_names(commas.as_bytes(), true), Err(unnamed.clone()));
        assert_eq!(
            read_all(commas.as_bytes()),
            Err(LogError::NotAHeader(unnamed.clone()))
        );
        assert!(unnamed
            .to_string()
            .contains("has 200,001 columns and names none"));
        // Commas alone, no line break, in a file under 1 MB: no "first 1 MB".
        let only = ",".repeat(195_000);
        assert_eq!(
            header_names(only.as_bytes(), true),
            Err(HeaderProblem::Unnamed { columns: 195_001 })
        );
        // The first row is data: the header is missing.
        let headless = rows.as_bytes();
        let data = HeaderProblem::Data {
            field: "2026-03-01T10:00:00Z".to_string(),
        };
        assert_eq!(header_names(headless, true), Err(data.clone()));
        assert_eq!(read_all(headless), Err(LogError::NotAHeader(data)));
        let mapped = Mapping {
            event: "2026-03-01T10:00:00Z".to_string(),
            arrival: "2026-03-01T10:05:00Z".to_string(),
            value: None,
        };
        assert!(matches!(
            read_with(headless, Some(mapped), Zone::UTC),
            Err(LogError::NotAHeader(HeaderProblem::Data { .. }))
        ));
        // Too many columns to list, even if some are named.
        let wide = format!(
            "event_time,arrival_time{}\n{rows}",
            ",x".repeat(MAX_COLUMNS)
        );
        assert_eq!(
            header_names(wide.as_bytes(), true),
            Err(HeaderProblem::TooWide {
                columns: MAX_COLUMNS + 2
            })
        );
        // Blank lines, whole or cut, are no row; some unnamed columns are fine.
        assert_eq!(header_names(b"\n \r\n", true), Err(HeaderProblem::NoRow));
        assert_eq!(
            header_names(b"event_time,arriv", false),
            Err(HeaderProblem::NoWholeRow)
        );
        assert_eq!(
            header_names(b"\n,event_time,,arrival_time\n", true),
            Ok(vec![
                String::new(),
                "event_time".to_string(),
                String::new(),
                "arrival_time".to_string()
            ])
        );
    }

    #[test]
    fn files_it_cannot_read_say_why() {
        assert_eq!(read_all(b""), Err(LogError::Empty));
        assert_eq!(read_all(b"\n\n"), Err(LogError::Empty));
        assert_eq!(
            read_all(b"when,arrived\n2026-08-03T09:00:00Z,2026-08-03T09:00:00Z\n"),
            Err(LogError::Header {
                found: "when,arrived".to_string()
            })
        );
        assert_eq!(
            read_all(b"event_time,arrival_time\n"),
            Err(LogError::NoRows)
        );
        assert!(matches!(
            read_all(b"event_time,arrival_time\nx,y\n"),
            Err(LogError::NoUsableRows { rows: 1, .. })
        ));
        // The size is checked before a byte is parsed.
        let mut reader = LogReader::new();
        assert_eq!(reader.feed(&vec![b'\n'; 1_000]), Ok(()));
        reader.bytes = MAX_BYTES;
        assert_eq!(reader.feed(b"\n"), Err(LogError::TooLarge));
    }
}
