//! A scenario as two values. `Scenario`: its story and numbers as the
//! pages show them, what a new node on its canvas starts with and its
//! rules as stated; a page's first screen needs nothing else. `Running`:
//! its script (made once), how a variant remakes it, and each rule's
//! judge; only the grader, the exporters and the class page's marking
//! reach it (`Scenario::running`), so neither a scenario page's first load
//! nor its canvas carries any of it. Every scenario module defines one `SCENARIO` and one `RUNNING`;
//! `scenarios::SCENARIOS` lists the one, `scenarios::running` finds the
//! other.

use std::borrow::Cow;
use std::sync::OnceLock;

use crate::design::choose::Palette;
use crate::design::Graph;
use crate::engine::script::Script;
use crate::variant::Variant;

use crate::scenarios::grading::backfilled::Setting;
use crate::scenarios::grading::judge::{BackfillRule, DailyRule};
use crate::scenarios::grading::report::Rule;

/// A rule's judge, named by the rule's id: a scenario's judges are in its
/// rules' order (a test holds each id to its rule).
#[derive(Clone, Copy)]
pub struct Judge<J> {
    pub id: &'static str,
    pub judge: J,
}

/// How a scenario's design runs and is judged: the judges, in the rules'
/// order.
#[derive(Clone, Copy)]
pub enum Judges {
    /// Daily runs only: each judge reads the one simulation.
    Daily(&'static [Judge<DailyRule>]),
    /// A backfill beside the daily runs, in the scenario's setting
    /// (launch, pool, durations).
    Backfill {
        judges: &'static [Judge<BackfillRule>],
        setting: fn() -> Setting,
    },
}

/// What a variant says on a scenario's page: what the chapter's text
/// gives away, what only a variant's data tells, and what fresh data does
/// to the chapter's figures. (Its script and designs: `Remake`.)
#[derive(Clone, Copy)]
pub struct Vary {
    /// What the chapter's text gives away that a variant's data hides
    /// (the page's "whose data" line: "These are the chapter's figures:
    /// ...").
    pub chapter_tells: &'static str,
    /// What only a variant's data tells, and that the check runs on it.
    pub data_tells: &'static str,
    /// What fresh data does to the chapter's figures, a sentence.
    pub fresh_moves: &'static str,
}

/// What a variant changes in a scenario's run: its script, and a design
/// made for the chapter's numbers made for the variant's (the lab's own
/// known designs, so each keeps its verdict in every variant).
#[derive(Clone, Copy)]
pub struct Remake {
    pub script: fn(Variant) -> Script,
    pub design: fn(&Graph, Variant) -> Graph,
}

/// What runs and judges a scenario (see the module's doc).
pub struct Running {
    /// Its scenario's number (`scenarios::running` is checked against it).
    pub number: u8,
    pub judges: Judges,
    /// Makes the script; `Scenario::script` keeps what it made. Only the
    /// scenario modules build the value, so nothing else can set the kept
    /// script.
    pub(super) make: fn() -> Script,
    /// How a variant remakes the run; `None` exactly when the scenario has
    /// no `Vary` (a test holds the two together).
    pub(super) remake: Option<Remake>,
    pub(super) made: OnceLock<Script>,
}

/// The figures a scenario's page states: fresh data moves them, and the
/// page then states the new data's (its ship date alone, scenario 4
/// leaves to the drift query).
pub const FRESH_MOVES_FIGURES: &str =
    "Fresh data moves them; the numbers above are then that data's.";

/// A scenario's paragraphs or numbers: as written, for a scenario no
/// variant moves, or made from a variant's numbers (the chapter's text is
/// then the chapter variant's, so the two cannot drift apart).
#[derive(Clone, Copy)]
pub enum Text {
    Fixed(&'static [&'static str]),
    Made(fn(Variant) -> Vec<String>),
}

impl Text {
    fn lines(self, variant: Variant) -> Vec<Cow<'static, str>> {
        match self {
            Text::Fixed(lines) => lines.iter().map(|l| Cow::Borrowed(*l)).collect(),
            Text::Made(make) => make(variant).into_iter().map(Cow::Owned).collect(),
        }
    }
}

pub struct Scenario {
    /// 1-based, as in the URL `/scenarios/<number>` and the save keys.
    pub number: u8,
    pub title: &'static str,
    pub brief: &'static str,
    /// The idea it exercises, as named in the glossary.
    pub idea: &'static str,
    /// The bronze table the scenario gives as the canvas's first node.
    pub source: &'static str,
    /// The situation, in a few paragraphs (`story_in`).
    pub(super) story: Text,
    /// The numbers the design must cope with (`facts_in`).
    pub(super) facts: Text,
    /// Whether its backfill builds history for a new pipeline (no date has
    /// run yet) rather than correcting dates that ran.
    pub history: bool,
    /// Whether its page gives the drift query to find what to rebuild (its
    /// story calls the query its evidence).
    pub drift_query: bool,
    /// What the canvas's palette gives a new node: the scenario's silver
    /// table and dates. No graded choice is in here.
    pub palette: Palette,
    /// The rules as the page states them, in order (their judges are
    /// the `Running`'s).
    pub rules: &'static [Rule],
    /// How a variant moves this scenario's numbers (SPEC 14); `None`:
    /// every variant is the chapter's.
    pub(super) vary: Option<Vary>,
}

impl Scenario {
    /// The situation in `variant`'s numbers, a paragraph each.
    pub fn story_in(&self, variant: Variant) -> Vec<Cow<'static, str>> {
        self.story.lines(self.variant(variant))
    }

    /// The numbers the design must cope with in `variant`.
    pub fn facts_in(&self, variant: Variant) -> Vec<Cow<'static, str>> {
        self.facts.lines(self.variant(variant))
    }

    /// What a variant changes, said on the page: what the chapter's text
    /// gives away, what only a variant's data tells, and what fresh data
    /// does to the chapter's figures.
    pub fn variant_tells(&self) -> Option<(&'static str, &'static str, &'static str)> {
        self.vary
            .map(|v| (v.chapter_tells, v.data_tells, v.fresh_moves))
    }

    /// Whether a variant moves this scenario's numbers.
    pub fn varies(&self) -> bool {
        self.vary.is_some()
    }

    /// The variant a page or a file asked for, as this scenario reads it:
    /// the chapter's where no variant moves it.
    pub fn variant(&self, asked: Variant) -> Variant {
        if self.varies() {
            asked
        } else {
            Variant::CHAPTER
        }
    }

    /// The rules' texts, in order.
    pub fn rules(&self) -> Vec<Rule> {
        self.rules.to_vec()
    }

    /// How many rules it has.
    pub fn rule_count(&self) -> usize {
        self.rules.len()
    }

    /// The rule at `index`, if there is one.
    pub fn rule(&self, index: usize) -> Option<Rule> {
        self.rules.get(index).copied()
    }
}

impl std::fmt::Debug for Scenario {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Scenario {}", self.number)
    }
}

/// The same scenario: there is one value for each.
impl PartialEq for Scenario {
    fn eq(&self, other: &Self) -> bool {
        self.number == other.number
    }
}

impl Eq for Scenario {}
