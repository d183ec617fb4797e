//! The small parsers: zone names, times, values, dates, run times, the
//! look-back date, save times and predictions. Each gives a value that
//! writes back to itself, or nothing (or a clear refusal).

use partition_lab_core::engine::arrivals::value_text;
use partition_lab_core::engine::calendar::parse_iso_date;
use partition_lab_core::engine::zone::Zone;
use partition_lab_core::labs::lateness::arrival_csv::{parse_time, parse_value};
use partition_lab_core::labs::lateness::query::{parse_run, run_value};
use partition_lab_core::labs::state_write::Guess;
use partition_lab_core::scenarios::stories::currency::lookback_from;
use partition_lab_core::scenarios::work::from_millis;

use crate::driver::{ensure, fuzz, Seeds};

const TOKENS: &[&str] = &[
    "2026",
    "-",
    "08",
    "03",
    "T",
    "t",
    " ",
    "Z",
    "z",
    ":",
    "09",
    "10",
    "00",
    "59",
    "60",
    "24",
    "23",
    ".",
    ",",
    "250",
    "123456789",
    "1234567890",
    "+",
    "02",
    "0200",
    "9999",
    "0000",
    "02-29",
    "12-31",
    "Europe/London",
    "America/New_York",
    "UTC",
    "Etc/GMT+5",
    "/",
    "..",
    "\u{0}",
    "１",
    "1764579600000",
    "-62135596800000",
    "9223372036854775807",
    "e5",
    "0x10",
    "watermark",
    "overwrite",
    "none",
    "skip",
    "partition-list-merge",
    "watermark-overwrite",
];

#[test]
fn zone_names_and_time_parsers() {
    let seeds = Seeds::of("text", TOKENS, Vec::new());
    fuzz("zones_and_times", &seeds, |bytes| {
        let text = String::from_utf8_lossy(bytes);
        match Zone::named(&text) {
            Ok(zone) => ensure(Zone::named(zone.name()) == Ok(zone), || {
                format!("zone {}", zone.name())
            })?,
            Err(e) => ensure(crate::clear(&e.to_string()), || {
                format!("unclear zone refusal {e:?}")
            })?,
        }
        if let Some(at) = parse_time(&text) {
            let written = format!("{}Z", at.format("%Y-%m-%dT%H:%M:%S%.9f"));
            ensure(parse_time(&written) == Some(at), || {
                format!("time {text:?} -> {written}")
            })?;
        }
        if let Some(v) = parse_value(&text) {
            ensure(parse_value(&value_text(v)) == Some(v), || {
                format!("value {text:?} -> {}", value_text(v))
            })?;
        }
        if let Some(day) = parse_iso_date(&text) {
            ensure(parse_iso_date(&day.to_string()) == Some(day), || {
                format!("date {text:?}")
            })?;
        }
        if let Some(run) = parse_run(&text) {
            ensure(parse_run(&run_value(run)) == Some(run), || {
                format!("run {text:?}")
            })?;
        }
        match lookback_from(&text) {
            Ok(day) => ensure(lookback_from(&day.to_string()) == Ok(day), || {
                format!("look-back {text:?}")
            })?,
            Err(why) => ensure(crate::clear(&why), || why.clone())?,
        }
        if let Some(at) = from_millis(&text) {
            let written = at.timestamp_millis().to_string();
            ensure(from_millis(&written) == Some(at), || {
                format!("save time {text:?}")
            })?;
        }
        if let Some(guess) = Guess::parse(&text) {
            ensure(Guess::parse(&guess.slug()) == Some(guess.clone()), || {
                format!("prediction {text:?}")
            })?;
        }
        Ok(())
    });
}
