use super::*;

/// A test arrival log, its columns, the zones its partitions are dated in
/// and the run times to query it at.
struct TestLog {
    file: &'static str,
    event: &'static str,
    arrival: &'static str,
    value: Option<&'static str>,
    zones: &'static [&'static str],
    runs: &'static [(u32, u32)],
}

const LOGS: [TestLog; 4] = [
    TestLog {
        file: "edges.csv",
        event: "event_time",
        arrival: "arrival_time",
        value: Some("value"),
        zones: &["UTC", "Asia/Tokyo"],
        runs: &[(2, 0), (3, 0), (1, 0)],
    },
    TestLog {
        file: "messy.csv",
        event: "Event_Time",
        arrival: "Arrival_Time",
        value: None,
        zones: &["UTC"],
        runs: &[(2, 0), (6, 30)],
    },
    // Nothing of value: 100 % by value at every lateness, as the lab says.
    TestLog {
        file: "zeros.csv",
        event: "event_time",
        arrival: "arrival_time",
        value: Some("value"),
        zones: &["UTC"],
        runs: &[(2, 0)],
    },
    // Arrivals around the six clock changes of 2026 in London, New York
    // and Sydney, at run times the clocks skip (02:00 and 02:30 in New
    // York's and Sydney's spring, 01:30 in London's), repeat (01:30 in the
    // northern autumns, 02:30 in Sydney's) or keep.
    TestLog {
        file: "clock_changes.csv",
        event: "ordered_at",
        arrival: "received_at",
        value: Some("amount"),
        zones: &[
            "Europe/London",
            "America/New_York",
            "Australia/Sydney",
            "UTC",
        ],
        runs: &[(1, 30), (2, 0), (2, 30), (0, 0)],
    },
];

/// One test log read in one zone for one run time, as each proof of the
/// lateness lab's exports runs it.
struct LogCase {
    file: &'static str,
    /// From the repository's root.
    path: String,
    mapping: crate::labs::lateness::arrival_csv::Mapping,
    zone: crate::engine::zone::Zone,
    run: chrono::NaiveTime,
    /// `<log>[_<zone>]_<hhmm>`.
    name: String,
    /// With the rows it counts kept.
    loaded: crate::labs::lateness::arrival_csv::Loaded,
}

/// Every test log in every zone and run time of `LOGS`.
fn log_cases() -> Result<Vec<LogCase>, Refusal> {
    use crate::engine::zone::Zone;
    use crate::labs::lateness::arrival_csv::{LogReader, Mapping};
    let mut cases = Vec::new();
    for TestLog {
        file,
        event,
        arrival,
        value,
        zones,
        runs,
    } in LOGS
    {
        let path = format!("tests/data/arrivals/{file}");
        let bytes = std::fs::read(&path).unwrap_or_default();
        // The columns the exports name are the ones the lab read.
        let mapping = Mapping {
            event: event.to_string(),
            arrival: arrival.to_string(),
            value: value.map(str::to_string),
        };
        for (zone, (hour, minute)) in zones
            .iter()
            .flat_map(|z| runs.iter().map(move |r| (*z, *r)))
        {
            let Ok(zone) = Zone::named(zone) else {
                return Err(format!("{zone} is not a zone the lab holds"));
            };
            let mut reader = LogReader::with(Some(mapping.clone()), zone).keeping_rows();
            let loaded = match reader.feed(&bytes).and_then(|()| reader.finish()) {
                Ok(loaded) => loaded,
                Err(e) => {
                    return Err(format!("could not read {path}: {e}"));
                }
            };
            let place = if zone.is_utc() {
                String::new()
            } else {
                format!("_{}", zone.name().replace('/', "_").to_ascii_lowercase())
            };
            cases.push(LogCase {
                file,
                name: format!(
                    "{}{place}_{hour:02}{minute:02}",
                    file.trim_end_matches(".csv")
                ),
                path: path.clone(),
                mapping: mapping.clone(),
                zone,
                run: chrono::NaiveTime::from_hms_opt(hour, minute, 0).unwrap_or_default(),
                loaded,
            });
        }
    }
    Ok(cases)
}

pub(super) fn lateness_files() -> Result<Vec<File>, Refusal> {
    use crate::engine::arrivals::value_text;
    use crate::engine::lateness::Lateness;
    use crate::export::drift::Dialect;
    use crate::export::lateness_sql::{query, Source, MAX_DAYS};
    let mut files = Vec::new();
    let mut expected = Vec::new();
    for LogCase {
        path,
        mapping,
        zone,
        run,
        name,
        loaded,
        ..
    } in log_cases()?
    {
        let source = Source {
            table: "arrivals".to_string(),
            event_time: mapping.event.clone(),
            arrival_time: mapping.arrival.clone(),
            value: mapping.value.clone(),
            run,
            zone,
        };
        let Ok(sql) = query(Dialect::DuckDb, &source) else {
            return Err(format!("no query for {name}"));
        };
        files.push(File::new(format!("{name}.sql"), sql));
        let Ok(spark) = query(Dialect::SparkSql, &source) else {
            return Err(format!("no Spark query for {name}"));
        };
        files.push(File::new(format!("{name}.spark.sql"), spark));
        let completeness = loaded.log.at_run_time(run);
        let rows: Vec<serde_json::Value> = (0..=MAX_DAYS)
            .map(|l| {
                let f = completeness.figures(Lateness::Days(l), Default::default());
                serde_json::json!({
                    "allowed_lateness_days": l,
                    "events_complete": f.complete.count,
                    "events_total": f.total.count,
                    "value_complete": value_text(f.complete.value),
                    "value_total": value_text(f.total.value),
                    "events_complete_pct": format!("{}.{:02}", f.count_bp / 100, f.count_bp % 100),
                    "value_complete_pct": format!("{}.{:02}", f.value_bp / 100, f.value_bp % 100),
                })
            })
            .collect();
        expected.push(serde_json::json!({"name": name, "csv": path, "rows": rows}));
    }
    files.push(File::new(
        "expected.json",
        serde_json::to_string_pretty(&expected).unwrap_or_default(),
    ));
    Ok(files)
}

/// The allowed lateness each Beam case is checked at (each one a branch of
/// the pipeline, and the DirectRunner's time grows with them): for a
/// profile's month (37,200 events, about 8 s a branch) none, one and a
/// week; for the test logs, whose rows are at most 4 days late but one, 0
/// to 4 and the slider's last.
const BEAM_PROFILE_DAYS: [u32; 3] = [0, 1, 7];
const BEAM_LOG_DAYS: [u32; 6] = [0, 1, 2, 3, 4, 14];

/// The ids of the rows that miss their day at lateness `l`, by the
/// engine's rule row by row; `after` is the count the page shows (the
/// study's or the log's figures): they must be one number.
fn late_ids(
    name: &str,
    l: u32,
    ids: Vec<String>,
    after: u64,
) -> Result<serde_json::Value, Refusal> {
    if u64::try_from(ids.len()).ok() != Some(after) {
        return Err(format!(
            "{name}: {} rows miss their day at {l}, the page says {after}",
            ids.len()
        ));
    }
    Ok(serde_json::json!(ids))
}

/// The ids of a profile's August orders that miss their day at lateness
/// `l`, checked against the count the page shows.
fn profile_late_ids(
    profile: crate::labs::lateness::model::Profile,
    month: &[crate::engine::generate::OrderDraw],
    l: u32,
) -> Result<serde_json::Value, Refusal> {
    use crate::engine::lateness::{days_needed, Lateness};
    use crate::labs::lateness::model::{august, study};
    use crate::vocabulary::Choice;
    let ids: Vec<String> = month
        .iter()
        .filter(|d| (august(1)..=august(31)).contains(&d.event_time.date()))
        .filter(|d| days_needed(d.event_time.date(), d.arrived_at) > l)
        .map(|d| d.id())
        .collect();
    let after = study(profile).figures(Lateness::Days(l)).after_final.count;
    late_ids(profile.file(), l, ids, after)
}

/// The allowed lateness each SQLMesh and Dagster project is checked at
/// (`None`: never final).
const LOOKBACK_DAYS: [Option<u32>; 4] = [Some(0), Some(2), Some(7), None];

/// The lateness lab's Beam pipeline for every built-in profile (its month
/// written as a CSV) and every test log, zone and run time, and the rows
/// the lab says arrive after their day is final at each lateness.
pub(super) fn beam_files() -> Result<Vec<File>, Refusal> {
    use crate::engine::lateness::Lateness;
    use crate::export::beam::{month_csv, pipeline, Stream};
    use crate::labs::lateness::model::{draws, Profile};
    let mut files = Vec::new();
    let mut expected = Vec::new();
    let utc_run = chrono::NaiveTime::from_hms_opt(2, 0, 0).unwrap_or_default();
    for &profile in Profile::ALL.iter().filter(|p| **p != Profile::Yours) {
        let month = draws(profile);
        let name = profile.file();
        files.push(File::new(format!("{name}.csv"), month_csv(&month)));
        let stream = Stream::month(Lateness::Days(1));
        files.push(File::new(format!("{name}.py"), pipeline(&stream)));
        let mut dropped = serde_json::Map::new();
        for l in BEAM_PROFILE_DAYS {
            dropped.insert(l.to_string(), profile_late_ids(profile, &month, l)?);
        }
        expected.push(serde_json::json!({
            "name": name,
            "csv": format!("{name}.csv"),
            "script": format!("{name}.py"),
            "read": month.len(),
            "left_out": 0,
            "dropped": dropped,
        }));
    }
    for LogCase {
        file,
        path,
        mapping,
        zone,
        run,
        name,
        loaded,
    } in log_cases()?
    {
        // In UTC no clock changes: one run time is enough of the long log.
        if zone.is_utc() && file == "clock_changes.csv" && run != utc_run {
            continue;
        }
        let stream = Stream {
            event_time: mapping.event.clone(),
            arrival_time: mapping.arrival.clone(),
            value: mapping.value.clone(),
            id: None,
            run,
            zone,
            lateness: Lateness::Days(1),
        };
        files.push(File::new(format!("{name}.py"), pipeline(&stream)));
        let completeness = loaded.log.at_run_time(run);
        let mut dropped = serde_json::Map::new();
        for l in BEAM_LOG_DAYS {
            let lines: Vec<String> = loaded
                .kept
                .iter()
                .filter(|row| loaded.log.needed(row, run) > l)
                .map(|row| row.line.to_string())
                .collect();
            let after = completeness
                .figures(Lateness::Days(l), Default::default())
                .after_final
                .count;
            dropped.insert(l.to_string(), late_ids(&name, l, lines, after)?);
        }
        expected.push(serde_json::json!({
            "name": name,
            "csv": path,
            "script": format!("{name}.py"),
            "read": loaded.kept.len(),
            "left_out": loaded.rows.saturating_sub(loaded.used()),
            "dropped": dropped,
        }));
    }
    files.push(File::new(
        "expected.json",
        serde_json::to_string_pretty(&expected).unwrap_or_default(),
    ));
    Ok(files)
}

/// The lateness lab's runnable SQLMesh and Dagster projects, each as the
/// page makes it (a tar), and the orders each must never book: SQLMesh for
/// every built-in profile at each lookback case, Dagster for the mobile
/// profile (whose late orders tell 0, 2 and 7 days apart; each Dagster run
/// is a materialization in process, about a second).
pub(super) fn lateness_project_files() -> Result<Vec<File>, Refusal> {
    use crate::engine::lateness::Lateness;
    use crate::export::lateness_lab::{key, runnable};
    use crate::labs::lateness::model::{august, draws, Profile};
    use crate::tool::Tool;
    let mut files = Vec::new();
    let mut expected = Vec::new();
    for &profile in Profile::ALL.iter().filter(|p| **p != Profile::Yours) {
        let month = draws(profile);
        let orders = month
            .iter()
            .filter(|d| (august(1)..=august(31)).contains(&d.event_time.date()))
            .count();
        for l in LOOKBACK_DAYS {
            let lateness = l.map_or(Lateness::Never, Lateness::Days);
            let never = match l {
                Some(l) => profile_late_ids(profile, &month, l)?,
                None => serde_json::json!([]),
            };
            for tool in crate::export::lateness_lab::TOOLS {
                if tool == Tool::Dagster && profile != Profile::Mobile {
                    continue;
                }
                let (name, bytes) = runnable(tool, profile, lateness)
                    .ok_or_else(|| format!("no {tool} project for {}", profile.file()))?;
                let tar = String::from_utf8(bytes).map_err(|_| format!("{name} is not text"))?;
                expected.push(serde_json::json!({
                    "tar": name,
                    "tool": tool.name(),
                    "profile": profile.file(),
                    "lateness": key(lateness),
                    "orders": orders,
                    "never": never,
                }));
                files.push(File::new(name, tar));
            }
        }
    }
    files.push(File::new(
        "expected.json",
        serde_json::to_string_pretty(&expected).unwrap_or_default(),
    ));
    Ok(files)
}
