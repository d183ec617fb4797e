//! The verdicts: which pipelines lose orders silently, and each cell's
//! verdict with its reasons: a chunk of the State x Write part's wasm of
//! its own (`ui::later`). They are shown only after the prediction, so the
//! lab fetches them while the student predicts (a moment after it is
//! live), or at once when a link opens it already answered.

use leptos::prelude::*;

use crate::engine::Outcome;
use crate::labs::state_write::explain::{verdict, VerdictKind};
use crate::labs::state_write::{script, Cell, Controls};
use crate::ui::later::Later;

use super::Lab;

/// The pipelines that lose orders silently in a week's outcomes.
pub type SilentOf = fn(&[(Cell, Outcome)], &Controls) -> Vec<Cell>;

/// What the chunk holds.
pub struct Verdicts {
    pub silent: SilentOf,
    /// A cell's verdict, drawn.
    pub panel: fn(Cell) -> AnyView,
}

/// The verdicts themselves: only the State x Write part's `#[lazy]`
/// loader names them (src/bin/partition-lab-state-write.rs).
pub static VERDICTS: Verdicts = Verdicts { silent, panel };

/// The verdicts, in the State x Write part a chunk of their own.
pub static LATER: Later<Verdicts> = Later::new();

/// What the page says while they download (after a prediction made
/// before they came).
pub const FETCHING: &str = "Fetching the verdicts…";
/// What it says when they could not be fetched.
pub const NOT_FETCHED: &str =
    "The verdicts could not be fetched: check the connection, then try again.";

fn silent(outcomes: &[(Cell, Outcome)], controls: &Controls) -> Vec<Cell> {
    let script = script(controls);
    outcomes
        .iter()
        .filter(|(cell, outcome)| {
            verdict(outcome, &cell.config(controls), &script).kind == VerdictKind::Silent
        })
        .map(|(cell, _)| *cell)
        .collect()
}

fn panel(cell: Cell) -> AnyView {
    let lab = expect_context::<Lab>();
    let verdict_view = Memo::new(move |_| {
        let controls = lab.controls.get();
        lab.outcomes
            .read()
            .iter()
            .flatten()
            .find(|(c, _)| *c == cell)
            .map(|(_, o)| verdict(o, &cell.config(&controls), &script(&controls)))
    });
    (move || {
        verdict_view.get().map(|v| {
            let (class, label) = match v.kind {
                VerdictKind::Correct => ("verdict ok", "✓ Correct"),
                VerdictKind::Loud => ("verdict loud", "⚠ Loud"),
                VerdictKind::Silent => ("verdict silent", "✕ Silent loss"),
            };
            view! {
                <div class=class>
                    <p class="verdict-label"><strong>{label}</strong></p>
                    <p>{v.headline}</p>
                    <ul>{v.details.into_iter().map(|d| view! { <li>{d}</li> }).collect_view()}</ul>
                    <p class="cost">{format!("Rows read in total: {}", v.rows_read_total)}</p>
                </div>
            }
        })
    })
    .into_any()
}
