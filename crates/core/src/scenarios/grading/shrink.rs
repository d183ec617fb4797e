//! The smallest counterexample: delta debugging (Zeller's ddmin) over the
//! scenario's events and faults while the failed rule still fails. The
//! scheduled runs stay, so the case is one a correct design survives; the
//! work is bounded by a count of simulations.

use crate::design::Graph;
use crate::engine::calendar::{weekday_day_month_time, Instant};
use crate::engine::script::{RunKind, RunSpec, Script};

use crate::engine::Stepwise;
use crate::scenarios::grading::grade::{rule_fails, Judged};
use crate::scenarios::grading::report::{capital, run_name};
use crate::scenarios::Scenario;

/// One removable piece of a script.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Piece {
    Event(usize),
    /// The crash of run `i` (the run stays, without crashing).
    Crash(usize),
    /// A manual re-run, run `i` of the script.
    Manual(usize),
    /// A scheduled run beside a backfill (tonight's run, a nightly run),
    /// run `i` of the script: a fault for the backfill it competes with.
    Beside(usize),
    /// Interruption `i` of the backfill.
    Interruption(usize),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Shrunk {
    pub script: Script,
    /// Simulations spent.
    pub simulations: usize,
    /// True when no single piece can be removed any more (1-minimal);
    /// false when the budget ran out first and the case is only smaller.
    pub minimal: bool,
    pub original_events: usize,
    pub original_faults: usize,
    /// The backfill's launch, for scenarios that have one.
    pub launch: Option<Instant>,
}

impl Shrunk {
    /// Crashes plus manual re-runs left.
    pub fn faults(&self) -> usize {
        faults(&self.script, self.launch)
    }
}

fn faults(script: &Script, launch: Option<Instant>) -> usize {
    pieces(script, launch)
        .iter()
        .filter(|p| !matches!(p, Piece::Event(_)))
        .count()
}

/// The runs at or after a backfill's launch compete with it: they are
/// faults of the scenario, not the schedule a design must survive.
fn beside(launch: Option<Instant>, run: &RunSpec) -> bool {
    launch.is_some_and(|l| run.at >= l)
}

fn pieces(script: &Script, launch: Option<Instant>) -> Vec<Piece> {
    let mut pieces: Vec<Piece> = (0..script.events.len()).map(Piece::Event).collect();
    for (i, run) in script.runs.iter().enumerate() {
        if run.crash_then_retry_at.is_some() {
            pieces.push(Piece::Crash(i));
        }
        if run.kind == RunKind::Manual {
            pieces.push(Piece::Manual(i));
        } else if beside(launch, run) {
            pieces.push(Piece::Beside(i));
        }
    }
    pieces.extend((0..script.interruptions.len()).map(Piece::Interruption));
    pieces
}

/// `script` keeping only `kept` of its pieces.
fn rebuild(script: &Script, kept: &[Piece], launch: Option<Instant>) -> Script {
    let mut next = script.clone();
    next.events = kept
        .iter()
        .filter_map(|p| match p {
            Piece::Event(i) => script.events.get(*i).cloned(),
            _ => None,
        })
        .collect();
    let keeps = |piece: Piece| kept.contains(&piece);
    next.runs = script
        .runs
        .iter()
        .enumerate()
        .filter(|(i, run)| match run.kind {
            RunKind::Manual => keeps(Piece::Manual(*i)),
            _ if beside(launch, run) => keeps(Piece::Beside(*i)),
            _ => true,
        })
        .map(|(i, run)| {
            let mut run = run.clone();
            if !keeps(Piece::Crash(i)) {
                run.crash_then_retry_at = None;
            }
            run
        })
        .collect();
    next.interruptions = script
        .interruptions
        .iter()
        .enumerate()
        .filter(|(i, _)| keeps(Piece::Interruption(*i)))
        .map(|(_, cut)| *cut)
        .collect();
    next
}

/// Where a search is: ddmin's loop, unrolled so that each `step` runs at
/// most one simulation and the page can draw progress (and stop) between.
#[derive(Clone, Debug)]
enum Phase {
    /// The first simulation: does the rule fail at all?
    Start,
    /// About to split `current` into `n` chunks.
    Round,
    /// Trying chunk `i` alone.
    Subset(Vec<Vec<Piece>>, usize),
    /// Trying everything but chunk `i`.
    Complement(Vec<Vec<Piece>>, usize),
    /// Waiting for the verdict on a candidate.
    Asked(Question),
    /// The rule passed on the whole script: nothing to shrink.
    Passes,
    Done,
}

/// A candidate put to the judge, with where the search goes on either
/// answer.
#[derive(Clone, Debug)]
enum Question {
    Whole,
    /// Chunk `i` of the chunks, alone.
    Subset(Vec<Vec<Piece>>, usize, Vec<Piece>),
    /// Everything but chunk `i`.
    Complement(Vec<Vec<Piece>>, usize, Vec<Piece>),
}

/// A smallest-case search that runs a simulation per `step`.
#[derive(Clone, Debug)]
pub struct Search {
    scenario: &'static Scenario,
    graph: Graph,
    script: Script,
    rule: String,
    budget: usize,
    launch: Option<Instant>,
    current: Vec<Piece>,
    n: usize,
    minimal: bool,
    simulations: usize,
    phase: Phase,
}

impl Search {
    pub fn new(
        scenario: &'static Scenario,
        graph: Graph,
        script: Script,
        rule: &str,
        budget: usize,
    ) -> Search {
        Search {
            scenario,
            launch: scenario.launch(),
            graph,
            script,
            rule: rule.to_string(),
            budget,
            current: Vec::new(),
            n: 2,
            minimal: false,
            simulations: 0,
            phase: Phase::Start,
        }
    }

    /// Simulations spent so far (at most the budget).
    pub fn tried(&self) -> usize {
        self.simulations
    }

    pub fn budget(&self) -> usize {
        self.budget
    }

    pub fn finished(&self) -> bool {
        matches!(self.phase, Phase::Done | Phase::Passes)
    }

    /// The next question, counted as a simulation: does the rule still
    /// fail on this candidate?
    fn ask_about(&mut self, question: Question) -> Script {
        self.simulations = self.simulations.saturating_add(1);
        let candidate = self.candidate(&question);
        self.phase = Phase::Asked(question);
        candidate
    }

    fn candidate(&self, question: &Question) -> Script {
        match question {
            Question::Whole => self.script.clone(),
            Question::Subset(_, _, kept) | Question::Complement(_, _, kept) => {
                rebuild(&self.script, kept, self.launch)
            }
        }
    }

    fn finish(&mut self) {
        if self.current.len() < 2 && self.simulations < self.budget {
            self.minimal = true;
        }
        self.phase = Phase::Done;
    }

    /// The script the search wants judged next, or `None` once it has
    /// finished. Give the verdict to `answer` before asking again: the
    /// page judges each candidate a step at a time (`grade::Grading`), so
    /// not even one simulation holds it.
    pub fn ask(&mut self) -> Option<Script> {
        loop {
            let phase = std::mem::replace(&mut self.phase, Phase::Done);
            match phase {
                Phase::Start => return Some(self.ask_about(Question::Whole)),
                Phase::Round => {
                    if self.current.len() < 2 {
                        self.finish();
                    } else {
                        let chunk = self.current.len().div_ceil(self.n);
                        let chunks = self.current.chunks(chunk).map(<[Piece]>::to_vec).collect();
                        self.phase = Phase::Subset(chunks, 0);
                    }
                }
                Phase::Subset(chunks, i) => match chunks.get(i) {
                    Some(_) if self.simulations >= self.budget => self.finish(),
                    Some(subset) => {
                        let subset = subset.clone();
                        return Some(self.ask_about(Question::Subset(chunks, i, subset)));
                    }
                    None => self.phase = Phase::Complement(chunks, 0),
                },
                Phase::Complement(chunks, i) => {
                    if i < chunks.len() {
                        if self.simulations >= self.budget {
                            self.finish();
                            return None;
                        }
                        let complement: Vec<Piece> = chunks
                            .iter()
                            .enumerate()
                            .filter(|(j, _)| *j != i)
                            .flat_map(|(_, c)| c.iter().copied())
                            .collect();
                        return Some(self.ask_about(Question::Complement(chunks, i, complement)));
                    } else if self.n >= self.current.len() {
                        self.minimal = true;
                        self.finish();
                    } else {
                        self.n = self.n.saturating_mul(2).min(self.current.len());
                        self.phase = Phase::Round;
                    }
                }
                // Asked again before an answer: the same question.
                Phase::Asked(question) => {
                    let candidate = self.candidate(&question);
                    self.phase = Phase::Asked(question);
                    return Some(candidate);
                }
                Phase::Passes => {
                    self.phase = Phase::Passes;
                    return None;
                }
                Phase::Done => return None,
            }
        }
    }

    /// Whether the rule failed on the script `ask` gave.
    pub fn answer(&mut self, fails: bool) {
        if !matches!(self.phase, Phase::Asked(_)) {
            return;
        }
        let Phase::Asked(question) = std::mem::replace(&mut self.phase, Phase::Done) else {
            return;
        };
        self.phase = match (question, fails) {
            (Question::Whole, true) => {
                self.current = pieces(&self.script, self.launch);
                Phase::Round
            }
            (Question::Whole, false) => Phase::Passes,
            (Question::Subset(_, _, subset), true) => {
                self.current = subset;
                self.n = 2;
                Phase::Round
            }
            (Question::Subset(chunks, i, _), false) => Phase::Subset(chunks, i.saturating_add(1)),
            (Question::Complement(_, _, complement), true) => {
                self.current = complement;
                self.n = self.n.saturating_sub(1).max(2);
                Phase::Round
            }
            (Question::Complement(chunks, i, _), false) => {
                Phase::Complement(chunks, i.saturating_add(1))
            }
        };
    }

    /// The smallest case found; `None` if the rule did not fail to begin
    /// with (or the search has not finished).
    pub fn result(&self) -> Option<Shrunk> {
        if !matches!(self.phase, Phase::Done) {
            return None;
        }
        Some(Shrunk {
            script: rebuild(&self.script, &self.current, self.launch),
            simulations: self.simulations,
            minimal: self.minimal,
            original_events: self.script.events.len(),
            original_faults: faults(&self.script, self.launch),
            launch: self.launch,
        })
    }
}

/// One step judges one candidate in one go (the page judges each a step
/// at a time with `ask` and `answer`); true once the search has finished.
impl Stepwise for Search {
    fn step(&mut self) -> bool {
        if let Some(candidate) = self.ask() {
            let fails = rule_fails(self.scenario, &self.graph, &candidate, &self.rule);
            self.answer(fails);
        }
        self.finished()
    }
}

/// Shrinks `script` while rule `rule` still fails for `graph`, spending at
/// most `budget` simulations. `None` if the rule does not fail to begin with.
pub fn shrink(
    scenario: &'static Scenario,
    graph: &Graph,
    script: &Script,
    rule: &str,
    budget: usize,
) -> Option<Shrunk> {
    let mut search = Search::new(scenario, graph.clone(), script.clone(), rule, budget);
    search.run_to_end();
    search.result()
}

/// One line per run that read, wrote, crashed or was a fault: what it read
/// and what silver held afterwards. For a backfill scenario, one line per
/// moment of the backfill instead.
pub fn replay(scenario: &Scenario, graph: &Graph, script: &Script) -> Vec<String> {
    replay_at(scenario, graph, script)
        .into_iter()
        .map(|(_, line)| line)
        .collect()
}

/// `replay`'s lines, each with its moment for a backfill scenario (the
/// source pool's picture steps with them); `None` for a daily run's line.
pub fn replay_at(
    scenario: &Scenario,
    graph: &Graph,
    script: &Script,
) -> Vec<(Option<Instant>, String)> {
    crate::scenarios::grading::grade::at_once(scenario, graph, script)
        .1
        .map(|judged| lines(&judged, script))
        .unwrap_or_default()
}

/// The lines of a run a check judged: each run that read, wrote, crashed
/// or was a fault, or each moment of a backfill.
pub fn lines(judged: &Judged, script: &Script) -> Vec<(Option<Instant>, String)> {
    let (outcome, state) = match judged {
        Judged::Backfill(done, _) => {
            return crate::scenarios::grading::backfilled::replay_at(done, script)
                .into_iter()
                .map(|(at, line)| (Some(at), line))
                .collect();
        }
        Judged::Daily(daily) => (&daily.outcome, daily.config.state),
    };
    outcome
        .runs
        .iter()
        .filter(|r| {
            r.rows_read > 0
                || !r.writes.is_empty()
                || r.crashed
                || r.kind != crate::engine::script::RunKind::Scheduled
        })
        .map(|run| {
            let read: Vec<String> = run.read_ids.iter().map(|id| id.to_string()).collect();
            let after = run
                .snapshot
                .as_ref()
                .map(|s| {
                    let rows: Vec<String> = s
                        .silver
                        .rows()
                        .map(|r| format!("{} in {}", r.id, r.dt))
                        .collect();
                    if rows.is_empty() {
                        "silver is empty".to_string()
                    } else {
                        format!("silver holds {}", rows.join(", "))
                    }
                })
                .unwrap_or_default();
            format!(
                "{}: {}read {}{}; {}.",
                capital(&run_name(run)),
                state_words(state, run),
                if read.is_empty() {
                    "nothing".to_string()
                } else {
                    read.join(", ")
                },
                if run.crashed {
                    ", then crashed before saving its state"
                } else {
                    ""
                },
                after
            )
        })
        .map(|line| (None, line))
        .collect()
}

/// What a run's processing state did, as the smallest case's replay says
/// it before what the run read: the watermark before and after the run,
/// or the partitions a list or window read.
fn state_words(
    state: crate::engine::ProcessingState,
    run: &crate::engine::trace::RunTrace,
) -> String {
    use crate::engine::state::StateValue;
    use crate::engine::ProcessingState;
    match (state, &run.state_before, &run.state_after) {
        (
            ProcessingState::Watermark { .. },
            StateValue::Watermark(before),
            StateValue::Watermark(after),
        ) => {
            let mark = |m: &Option<crate::engine::calendar::Instant>| {
                m.map_or_else(|| "not set".to_string(), weekday_day_month_time)
            };
            let saved = if run.state_saved { "" } else { ", not saved" };
            format!("watermark {} → {}{saved}; ", mark(before), mark(after))
        }
        (ProcessingState::PartitionList { .. } | ProcessingState::TrailingWindow { .. }, _, _) => {
            let parts: Vec<String> = run.partitions_read.iter().map(|d| d.to_string()).collect();
            format!("partitions {}; ", parts.join(", "))
        }
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenarios::grading::grade::grade_on;
    use crate::scenarios::grading::report::Report;

    /// The search as one loop (ddmin as written before it was unrolled into
    /// steps), judging every rule of each candidate: the oracle the
    /// step-by-step search, which judges the one rule, must agree with.
    fn looped(
        scenario: &Scenario,
        graph: &Graph,
        script: &Script,
        rule: &str,
        budget: usize,
    ) -> Option<Shrunk> {
        let launch = scenario.launch();
        let simulations = std::cell::Cell::new(0usize);
        let fails = |candidate: &Script| {
            simulations.set(simulations.get() + 1);
            match grade_on(scenario, graph, candidate) {
                Report::Graded(rules) => rules.iter().any(|r| r.rule.id == rule && !r.passed),
                Report::Structural(_) => false,
            }
        };
        if !fails(script) {
            return None;
        }
        let mut current = pieces(script, launch);
        let mut n = 2usize;
        let mut minimal = false;
        'outer: while current.len() >= 2 {
            let chunk = current.len().div_ceil(n);
            let chunks: Vec<Vec<Piece>> = current.chunks(chunk).map(<[Piece]>::to_vec).collect();
            // A chunk alone, then everything but a chunk.
            for subset in &chunks {
                if simulations.get() >= budget {
                    break 'outer;
                }
                if fails(&rebuild(script, subset, launch)) {
                    current = subset.clone();
                    n = 2;
                    continue 'outer;
                }
            }
            for i in 0..chunks.len() {
                if simulations.get() >= budget {
                    break 'outer;
                }
                let complement: Vec<Piece> = chunks
                    .iter()
                    .enumerate()
                    .filter(|(j, _)| *j != i)
                    .flat_map(|(_, c)| c.iter().copied())
                    .collect();
                if fails(&rebuild(script, &complement, launch)) {
                    current = complement;
                    n = (n - 1).max(2);
                    continue 'outer;
                }
            }
            if n >= current.len() {
                minimal = true;
                break;
            }
            n = (n * 2).min(current.len());
        }
        if current.len() < 2 && simulations.get() < budget {
            minimal = true;
        }
        Some(Shrunk {
            script: rebuild(script, &current, launch),
            simulations: simulations.get(),
            minimal,
            original_events: script.events.len(),
            original_faults: faults(script, launch),
            launch,
        })
    }

    /// The page's way: each question answered by a check taken a step at a
    /// time; asking again before answering repeats the question, and an
    /// answer nobody asked for changes nothing.
    #[test]
    fn a_search_asked_and_answered_ends_where_the_loop_does() {
        use crate::scenarios::grading::grade::{fails_in, Grading};
        use crate::scenarios::sample::failing;
        use crate::scenarios::stories::{clicks, history};
        for scenario in [&clicks::SCENARIO, &history::SCENARIO] {
            let Some((graph, rule, _)) = failing(scenario) else {
                continue;
            };
            let s = scenario.script();
            let mut search = Search::new(scenario, graph.clone(), s.clone(), rule, 400);
            search.answer(true);
            let mut asked = 0;
            while let Some(candidate) = search.ask() {
                asked += 1;
                assert_eq!(search.ask().as_ref(), Some(&candidate), "the same question");
                assert_eq!(search.tried(), asked);
                let mut grading = Grading::only(scenario, &graph, &candidate, rule);
                while !grading.step() {}
                search.answer(fails_in(&grading.finish().0, rule));
            }
            assert!(search.finished());
            assert_eq!(
                search.result(),
                looped(scenario, &graph, s, rule, 400),
                "{scenario:?}"
            );
        }
    }

    #[test]
    fn the_step_by_step_search_ends_where_the_loop_does() {
        use crate::scenarios::sample::failing;
        use crate::scenarios::stories::{clicks, currency, history};
        for scenario in [&clicks::SCENARIO, &currency::SCENARIO, &history::SCENARIO] {
            let Some((graph, rule, _)) = failing(scenario) else {
                continue;
            };
            let s = scenario.script();
            for budget in [7, 60, 400] {
                let stepped = shrink(scenario, &graph, s, rule, budget);
                let looped = looped(scenario, &graph, s, rule, budget);
                assert_eq!(stepped, looped, "{scenario:?}, budget {budget}");
            }
        }
    }
    use crate::design::graph::{StateChoice, WriteChoice};
    use crate::design::{Edit, History, NodeConfig, NodeId, NodeKind};
    use crate::engine::ListDate;

    #[test]
    fn the_smallest_case_replays_the_second_copy_run_by_run() {
        let mut h = History::new(Graph::with_source("bronze.clicks"));
        let mut add = |config: NodeConfig| {
            h.edit(&Edit::Add { config, x: 0, y: 0 }).expect("add");
            NodeId(h.current.next_id - 1)
        };
        let s = add(NodeConfig::State {
            state: StateChoice::PartitionList {
                lookback: 1,
                over: ListDate::EventDate,
            },
            commit: Default::default(),
            catch_up: false,
        });
        let t = add(NodeConfig::default_for(NodeKind::Transform));
        let w = add(NodeConfig::Write {
            table: "silver.clicks".into(),
            mode: WriteChoice::Append,
        });
        for (from, to) in [(NodeId(0), s), (s, t), (t, w)] {
            h.edit(&Edit::Connect { from, to }).expect("connect");
        }
        let clicks = &crate::scenarios::stories::clicks::SCENARIO;
        let shrunk =
            shrink(clicks, &h.current, clicks.script(), "R2", 400).expect("append fails R2");
        let lines = replay(clicks, &h.current, &shrunk.script);
        assert!(!lines.is_empty() && lines.len() <= 4, "{lines:?}");
        let id = shrunk.script.events[0].id.to_string();
        assert!(
            lines
                .iter()
                .any(|l| l.contains(&format!("{id} in"))
                    && l.matches(&format!("{id} in")).count() >= 2),
            "a line shows the second copy: {lines:?}"
        );
    }
}
