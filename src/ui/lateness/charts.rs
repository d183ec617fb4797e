//! The month's charts below the three figures: the completeness curve,
//! the calendar, the delays and the late rows. A chunk of the lateness
//! part's wasm of its own (`ui::later`): a phone's first screen is the
//! slider, the question or the three figures, so the first load carries
//! none of these views. The lab asks for them as soon as it is live; the
//! page drawn ahead of time (the question's) keeps its delays in place
//! until then.

use leptos::prelude::*;

use crate::labs::lateness::MAX_DAYS;
use crate::ui::later::Later;

use super::{calendar, curve, histogram, late_rows, Lab};

/// What the chunk holds: the views, each drawn where the lab places it.
pub struct Charts {
    /// The generated month below its figures.
    pub month: fn() -> AnyView,
    /// The month's delays alone, beside the question.
    pub delays: fn() -> AnyView,
}

/// The views themselves: only the lateness part's `#[lazy]` loader names
/// them (src/bin/partition-lab-lateness.rs).
pub static CHARTS: Charts = Charts {
    month: || view! { <GeneratedMonth /> }.into_any(),
    delays: || view! { <Delays /> }.into_any(),
};

/// The charts, in the lateness part a chunk of their own.
pub static LATER: Later<Charts> = Later::new();

/// Drawn natively (the pages drawn ahead of time, the native tests) the
/// charts are part of the program: a page drawn ahead shows them.
#[cfg(not(target_arch = "wasm32"))]
pub const AT_ONCE: Option<&Charts> = Some(&CHARTS);
#[cfg(target_arch = "wasm32")]
pub const AT_ONCE: Option<&Charts> = None;

/// What the lab says where the charts go while they download.
pub const FETCHING: &str = "Fetching the month's charts…";
/// What it says when they could not be fetched.
pub const NOT_FETCHED: &str =
    "The month's charts could not be fetched: check the connection, then try again.";

/// The month's delays: what the question may be reasoned from, and
/// nothing that answers it.
#[component]
fn Delays() -> impl IntoView {
    let lab = expect_context::<Lab>();
    let buckets = Signal::derive(move || lab.study.read().histogram.clone());
    let about = Signal::derive(move || {
        format!(
            "{} purchases in August, by delay between happening and arriving.",
            lab.study.read().total.count
        )
    });
    view! { <histogram::Histogram buckets=buckets about=about /> }
}

/// The curve, the calendar, the delays and the late rows of a generated
/// profile's month.
#[component]
fn GeneratedMonth() -> impl IntoView {
    let lab = expect_context::<Lab>();
    let curve = Memo::new(move |_| lab.study.read().curve(MAX_DAYS));
    let current = Signal::derive(move || {
        let f = lab.figures.read();
        (f.lateness, f.complete_value_bp)
    });
    let full_at = Signal::derive(move || Some(lab.study.read().max_needed()));
    view! {
        <curve::Curve curve=curve current=current full_at=full_at subject="August" />
        <div class="two-col">
            <calendar::Calendar />
            <Delays />
        </div>
        <late_rows::LateRows />
    }
}
