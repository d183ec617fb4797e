//! Causes in a backfill's design, each seen in the backfill run the
//! grader judged (its clock, its rebuilds, the scheduled runs beside it):
//! a detector fires only when the design has its choice and a date, a
//! step or a scheduled run the rule failed on shows its mechanism.

use crate::counted::{counted, grouped};
use crate::design::graph::{BackfillShape, Layer, Markers};
use crate::design::NodeKind;
use crate::engine::calendar::{day_month, hh_mm, weekday_day_month_time, Day};
use crate::engine::clock::StepKind;
use crate::engine::rebuild::Reads;
use crate::engine::{LogicVersion, WriteMode};
use crate::lean::sorted::SortedSet;
use crate::scenarios::grading::backfilled::{Backfilled, Setting};
use crate::scenarios::grading::report::RuleResult;

use super::{Case, Cause, Diagnosis};

/// The causes that can explain each backfill rule, most specific first.
fn candidates(scenario: u8, rule: &str) -> &'static [Cause] {
    use Cause::*;
    match (scenario, rule) {
        (4, "R1") => &[
            OldLogic,
            RebuildReadsSilver,
            GoldWithItsSilver,
            BackfillAppends,
            StartsAfterTheDrift,
        ],
        (4, "R2") => &[RangeBeyondTheDrift],
        (4, "R3") => &[RebuildReadsSilver],
        (4, "R4") => &[GoldWithItsSilver, ReportFirst, NoReport],
        (4, "R5") | (5, "R3") => &[TakesThePool],
        (4, "R6") => &[OldLogic],
        (5, "R1") => &[MarkersFirst, BackfillAppends],
        (5, "R2") => &[NoMarkers],
        (5, "R4") => &[TooFewAtOnce],
        _ => &[],
    }
}

struct Ran<'a> {
    case: &'a Case<'a>,
    done: &'a Backfilled,
    setting: &'a Setting,
    /// The dates the failure's evidence is about (none: it is about the
    /// whole run).
    dates: SortedSet<Day>,
}

impl Ran<'_> {
    /// Whether `dt` is one the rule failed on (any date, when the
    /// evidence names none).
    fn failed_on(&self, dt: Day) -> bool {
        self.dates.is_empty() || self.dates.contains(&dt)
    }
}

pub fn diagnose(
    case: &Case,
    done: &Backfilled,
    setting: &Setting,
    failed: &RuleResult,
) -> Option<Diagnosis> {
    let ran = Ran {
        case,
        done,
        setting,
        dates: failed.evidence.iter().filter_map(|e| e.partition).collect(),
    };
    candidates(case.scenario.number, failed.rule.id)
        .iter()
        .find_map(|cause| detect(&ran, *cause))
}

fn detect(ran: &Ran, cause: Cause) -> Option<Diagnosis> {
    use Cause::*;
    match cause {
        OldLogic => old_logic(ran),
        RebuildReadsSilver => reads_silver(ran),
        GoldWithItsSilver => gold_with_its_silver(ran),
        BackfillAppends => appends(ran),
        StartsAfterTheDrift => starts_after_the_drift(ran),
        RangeBeyondTheDrift => range_beyond_the_drift(ran),
        ReportFirst => report_first(ran),
        NoReport => no_report(ran),
        TakesThePool => takes_the_pool(ran),
        MarkersFirst => markers_first(ran),
        NoMarkers => no_markers(ran),
        TooFewAtOnce => too_few_at_once(ran),
        _ => None,
    }
}

fn old_logic(ran: &Ran) -> Option<Diagnosis> {
    if ran.done.design.logic != LogicVersion::Broken {
        return None;
    }
    let rebuilt = ran
        .done
        .silver_rebuilds()
        .find(|a| a.work.logic == LogicVersion::Broken && ran.failed_on(a.work.dt))?;
    ran.case.at(
        Cause::OldLogic,
        NodeKind::Transform,
        &["logic"],
        format!(
            "Your transform runs the old logic: the backfill rebuilt {} at {} with rates truncated to 2 dp again, so it wrote the same wrong amounts back.",
            day_month(rebuilt.work.dt),
            weekday_day_month_time(rebuilt.work.start),
        ),
    )
}

fn reads_silver(ran: &Ran) -> Option<Diagnosis> {
    if ran.done.design.reads != Layer::Silver {
        return None;
    }
    let rebuilt = ran
        .done
        .silver_rebuilds()
        // Only a rebuild that read broken rows shows the mechanism.
        .find(|a| a.work.reads == Reads::Silver && a.broken_read > 0 && ran.failed_on(a.work.dt))?;
    ran.case.at(
        Cause::RebuildReadsSilver,
        NodeKind::Transform,
        &["reads"],
        format!(
            "Your transform reads silver. The rebuild of {} at {} read {}, {} of them already converted by the broken logic. Their raw amounts are in bronze only, so converting them again cannot undo the rounding.",
            day_month(rebuilt.work.dt),
            weekday_day_month_time(rebuilt.work.start),
            counted(rebuilt.rows_read, "row"),
            grouped(rebuilt.broken_read),
        ),
    )
}

fn gold_with_its_silver(ran: &Ran) -> Option<Diagnosis> {
    if ran.done.design.shape != BackfillShape::Together {
        return None;
    }
    let steps = &ran.done.timeline.done;
    let (gold, silver) = steps
        .iter()
        .filter(|g| g.kind == StepKind::Gold && ran.failed_on(g.dt))
        .find_map(|g| {
            steps
                .iter()
                .find(|s| {
                    s.kind == StepKind::Silver
                        && s.dt == g.dt
                        && s.attempt == g.attempt
                        && s.end > g.start
                })
                .map(|s| (g, s))
        })?;
    ran.case.at(
        Cause::GoldWithItsSilver,
        NodeKind::Backfill,
        &["shape"],
        format!(
            "Your backfill starts each date's gold with its silver. Gold for {} started at {}, before its silver finished at {}: it summed the silver the broken code wrote, and nothing summed it again.",
            day_month(gold.dt),
            weekday_day_month_time(gold.start),
            hh_mm(silver.end),
        ),
    )
}

fn appends(ran: &Ran) -> Option<Diagnosis> {
    if ran.done.design.write != WriteMode::Append {
        return None;
    }
    let (dt, rows, distinct) = ran
        .done
        .silver_rebuilds()
        .map(|a| a.work.dt)
        .filter(|dt| ran.failed_on(*dt))
        .find_map(|dt| {
            let rows = ran.done.after.silver.partition(dt);
            let mut ids: Vec<&str> = rows.iter().map(|r| r.id.as_ref()).collect();
            crate::lean::order::sort(&mut ids);
            ids.dedup();
            (ids.len() < rows.len()).then_some((dt, rows.len(), ids.len()))
        })?;
    ran.case.at(
        Cause::BackfillAppends,
        NodeKind::Write,
        &["mode"],
        format!(
            "Your write target appends. The backfill's rebuild of {} added its rows beside the ones already there: the partition holds {} for {} distinct ids.",
            day_month(dt),
            counted(rows, "row"),
            grouped(distinct),
        ),
    )
}

/// The blast radius: the dates the drift query returned before the
/// backfill (scenario 4 has one).
fn radius(ran: &Ran) -> SortedSet<Day> {
    crate::scenarios::stories::currency::blast_radius(ran.case.script, ran.done)
}

fn starts_after_the_drift(ran: &Ran) -> Option<Diagnosis> {
    let first = ran.done.design.first;
    let radius = radius(ran);
    // A date of the blast radius before the range, which no step rebuilt.
    let dt = radius.iter().copied().find(|dt| {
        *dt < first && ran.failed_on(*dt) && !ran.done.silver_rebuilds().any(|a| a.work.dt == *dt)
    })?;
    ran.case.at(
        Cause::StartsAfterTheDrift,
        NodeKind::Backfill,
        &["first"],
        format!(
            "Your backfill starts at {}, but before it the drift query returned {}: {} was never rebuilt and still holds what the broken code wrote.",
            day_month(first),
            crate::scenarios::stories::currency::span(&radius),
            day_month(dt),
        ),
    )
}

fn range_beyond_the_drift(ran: &Ran) -> Option<Diagnosis> {
    let design = &ran.done.design;
    let radius = radius(ran);
    let step = ran.done.timeline.done.iter().find(|s| {
        s.kind != StepKind::Marker
            && !radius.contains(&s.dt)
            && ran.failed_on(s.dt)
            && (design.first..=design.last).contains(&s.dt)
    })?;
    ran.case.at(
        Cause::RangeBeyondTheDrift,
        NodeKind::Backfill,
        &["first", "last"],
        format!(
            "Your backfill covers {} to {}, but the drift query before it returned {}: it rewrote {} from {}, a date outside the blast radius.",
            day_month(design.first),
            day_month(design.last),
            crate::scenarios::stories::currency::span(&radius),
            day_month(step.dt),
            weekday_day_month_time(step.start),
        ),
    )
}

/// When the last gold landed.
fn last_gold(ran: &Ran) -> Option<crate::engine::calendar::Instant> {
    ran.done
        .timeline
        .done
        .iter()
        .filter(|s| s.kind == StepKind::Gold)
        .map(|s| s.end)
        .max()
}

fn report_first(ran: &Ran) -> Option<Diagnosis> {
    let (report, last) = (ran.done.report_at?, last_gold(ran)?);
    if report >= last {
        return None;
    }
    let pending = ran
        .done
        .timeline
        .done
        .iter()
        .filter(|s| s.kind == StepKind::Gold && s.end > report)
        .count();
    ran.case.at(
        Cause::ReportFirst,
        NodeKind::Report,
        &["restate"],
        format!(
            "Your report is restated at once: at {}, while {} had yet to land (the last at {}), so finance got the old totals again.",
            weekday_day_month_time(report),
            counted(pending, "gold partition"),
            hh_mm(last),
        ),
    )
}

fn no_report(ran: &Ran) -> Option<Diagnosis> {
    if ran.done.report_at.is_some() || ran.case.node(NodeKind::Report).is_some() {
        return None;
    }
    let last = last_gold(ran)?;
    ran.case.at(
        Cause::NoReport,
        NodeKind::Write,
        &[],
        format!(
            "Nothing in your design restates the finance report: no report node follows the write. Gold was right from {}, yet finance keeps reading the totals it was sent before the backfill.",
            weekday_day_month_time(last),
        ),
    )
}

fn takes_the_pool(ran: &Ran) -> Option<Diagnosis> {
    let design = &ran.done.design;
    if design.yield_to_scheduled || design.concurrency < ran.setting.pool {
        return None;
    }
    let (grant, scheduled) = ran.done.late_runs().find(|(_, s)| ran.failed_on(s.day))?;
    let holding: SortedSet<Day> = ran
        .done
        .timeline
        .done
        .iter()
        .chain(&ran.done.timeline.cancelled)
        .filter(|st| st.start <= grant.asked && grant.asked < st.end)
        .map(|st| st.dt)
        .collect();
    ran.case.at(
        Cause::TakesThePool,
        NodeKind::Backfill,
        &["concurrency", "yield"],
        format!(
            "Your backfill runs up to {} at once and does not yield, and the source has {}. At {} the scheduled run for {} asked for one while the backfill held all of them ({}), and it waited {} min.",
            counted(design.concurrency, "date"),
            counted(ran.setting.pool, "connection"),
            weekday_day_month_time(grant.asked),
            day_month(scheduled.day),
            crate::scenarios::stories::currency::span(&holding),
            grant.waited().num_minutes(),
        ),
    )
}

/// When attempt `n` began, and when the one before it was cut.
fn attempt(
    ran: &Ran,
    n: usize,
) -> Option<(
    crate::engine::calendar::Instant,
    Option<crate::engine::calendar::Instant>,
)> {
    let start = ran.done.attempts.get(n)?.start;
    let cut = n
        .checked_sub(1)
        .and_then(|p| ran.done.attempts.get(p))
        .and_then(|a| a.interrupt);
    Some((start, cut))
}

fn no_markers(ran: &Ran) -> Option<Diagnosis> {
    if ran.done.design.markers != Markers::Off {
        return None;
    }
    let timeline = &ran.done.timeline;
    let finished: SortedSet<(Day, StepKind)> =
        timeline.rebuilt_in(0).map(|s| (s.dt, s.kind)).collect();
    let (n, again) = (1..ran.done.attempts.len()).find_map(|n| {
        timeline
            .rebuilt_in(n)
            .find(|s| finished.contains(&(s.dt, s.kind)))
            .map(|s| (n, s))
    })?;
    let before = timeline
        .rebuilt_in(0)
        .find(|s| s.dt == again.dt && s.kind == again.kind)?;
    let (start, cut) = attempt(ran, n)?;
    ran.case.at(
        Cause::NoMarkers,
        NodeKind::Backfill,
        &["markers"],
        format!(
            "Your backfill writes no completion markers, so its re-run cannot tell what is done. The re-run launched {} rebuilt the {} of {}, which had finished at {}{}.",
            weekday_day_month_time(start),
            layer(again.kind),
            day_month(again.dt),
            weekday_day_month_time(before.end),
            cut.map(|c| format!(", before the failover at {}", hh_mm(c))).unwrap_or_default(),
        ),
    )
}

fn layer(kind: StepKind) -> &'static str {
    match kind {
        StepKind::Silver => "silver",
        StepKind::Gold => "gold",
        StepKind::Marker => "marker",
    }
}

fn markers_first(ran: &Ran) -> Option<Diagnosis> {
    if ran.done.design.markers != Markers::BeforePartition {
        return None;
    }
    let timeline = &ran.done.timeline;
    let skipped = timeline.skipped.iter().flatten();
    let (dt, killed) = skipped
        .filter(|(dt, _)| ran.failed_on(*dt))
        .find_map(|(dt, _)| {
            timeline
                .cancelled
                .iter()
                .find(|s| s.dt == *dt && s.kind != StepKind::Marker)
                .map(|s| (*dt, s))
        })?;
    let marked = timeline
        .done
        .iter()
        .find(|s| s.dt == dt && s.kind == StepKind::Marker && s.attempt == killed.attempt)?;
    let (_, cut) = attempt(ran, killed.attempt.saturating_add(1))?;
    let day = day_month(dt);
    ran.case.at(
        Cause::MarkersFirst,
        NodeKind::Backfill,
        &["markers"],
        format!(
            "Your backfill writes each date's marker before its work. The marker for {day} was written at {}; the failover{} killed its {} part-way, and the re-run skipped {day} because the marker said it was done.",
            weekday_day_month_time(marked.start),
            cut.map(|c| format!(" at {}", hh_mm(c))).unwrap_or_default(),
            layer(killed.kind),
        ),
    )
}

fn too_few_at_once(ran: &Ran) -> Option<Diagnosis> {
    let design = &ran.done.design;
    let end = ran.done.finished_at()?;
    let budget = crate::scenarios::stories::history::budget();
    if end <= budget || design.concurrency >= ran.setting.pool {
        return None;
    }
    let dates = (design.last - design.first).num_days().saturating_add(1);
    let late = end - budget;
    ran.case.at(
        Cause::TooFewAtOnce,
        NodeKind::Backfill,
        &["concurrency"],
        format!(
            "Your backfill runs {} at a time while the source has {}. Its {}, {} of silver and gold each, took until {}. That is {} h {} min past the budget of {}.",
            counted(design.concurrency, "date"),
            counted(ran.setting.pool, "connection"),
            counted(dates, "partition"),
            counted(
                ran.setting.silver_minutes.saturating_add(ran.setting.gold_minutes),
                "minute"
            ),
            weekday_day_month_time(end),
            late.num_hours(),
            late.num_minutes() % 60,
            weekday_day_month_time(budget),
        ),
    )
}
