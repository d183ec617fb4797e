//! The lab's controls: the late order, the crash, the lookback, the commit
//! order, the scheduler's outage and whether it catches up. They are
//! folded below the week, for the runs after the lab's question, so their
//! radio groups are a chunk of the State x Write part's wasm of their own
//! (`ui::later`): fetched a moment after the lab is live, when the fold is
//! opened first, or at once on a link that sets the week.

use leptos::prelude::*;

use crate::engine::CommitOrder;
use crate::labs::state_write::{Down, LateOrder};
use crate::ui::later::{Fetch, Later};
use crate::vocabulary::Choice;

use super::super::widgets::RadioGroup;
use super::Lab;

/// What the chunk holds: the settings' radio groups.
pub struct Settings {
    pub row: fn() -> AnyView,
}

/// The radio groups themselves: only the State x Write part's `#[lazy]`
/// loader names them (src/bin/partition-lab-state-write.rs).
pub static SETTINGS: Settings = Settings { row };

/// The settings, in the State x Write part a chunk of their own.
pub static LATER: Later<Settings> = Later::new();

/// What the fold opened early says while they download.
pub const FETCHING: &str = "Fetching the settings…";
/// What it says when they could not be fetched.
pub const NOT_FETCHED: &str =
    "The settings could not be fetched: check the connection, then try again.";

#[component]
pub fn Controls() -> impl IntoView {
    let lab = expect_context::<Lab>();
    let settings = lab.controls;
    let row = Fetch::new(&LATER);
    // Folded until wanted: the week's default is the lab's question, and
    // the settings are for the runs after it. A link that changes any of
    // them opens them, so the reader sees what the link set.
    let open = RwSignal::new(false);
    Effect::new(move |_| {
        if settings.get() != crate::labs::state_write::Controls::default() {
            open.set(true);
        }
    });
    Effect::new(move |_| {
        if open.get() {
            row.start();
        }
    });
    row.soon();
    view! {
        <details
            class="controls settings"
            id="settings"
            prop:open=move || open.get()
            on:toggle=super::super::widgets::fold_follows(open)
        >
            <summary>
                <h2 id="controls-heading">"Try another week"</h2>
                " (late order, crash, lookback, state, scheduler)"
            </summary>
            {move || row.ready.get().map(|it| (it.row)())}
            {row.status(FETCHING, NOT_FETCHED)}
        </details>
    }
}

fn row() -> AnyView {
    let lab = expect_context::<Lab>();
    let settings = lab.controls;
    // The words the vocabulary gives each outage, as in a link's notes.
    let outages: Vec<(Down, &'static str)> =
        Down::ALL.into_iter().map(|d| (d, d.label())).collect();
    view! {
        <div class="control-row">
            <RadioGroup
                legend="Late order o-105 (Mon 23:58)"
                name="late"
                options=vec![
                    (LateOrder::Off, "none"),
                    (LateOrder::Tue, "arrives Tue 03:10"),
                    (LateOrder::Wed, "arrives Wed 03:10"),
                    (LateOrder::Fri, "arrives Fri 03:10"),
                ]
                current=Signal::derive(move || settings.get().late)
                on_pick=move |late| lab.update_controls(|s| s.late = late)
            />
            <RadioGroup
                legend="Thursday's run (for Wed)"
                name="crash"
                options=vec![(true, "crashes, retried at 00:20"), (false, "runs cleanly")]
                current=Signal::derive(move || settings.get().crash)
                on_pick=move |crash| lab.update_controls(|s| s.crash = crash)
            />
            <RadioGroup
                legend="Lookback (the list) and window (the trailing window)"
                name="lookback"
                options=vec![(0, "0 days"), (1, "1 day"), (2, "2 days")]
                current=Signal::derive(move || settings.get().lookback)
                on_pick=move |lookback| lab.update_controls(|s| s.lookback = lookback)
            />
            <RadioGroup
                legend="State is saved"
                name="commit"
                options=vec![
                    (CommitOrder::StateAfterWrite, "after the write"),
                    (CommitOrder::StateBeforeWrite, "before the write"),
                ]
                current=Signal::derive(move || settings.get().commit)
                on_pick=move |commit| lab.update_controls(|s| s.commit = commit)
            />
            <RadioGroup
                legend="The scheduler"
                name="down"
                options=outages
                current=Signal::derive(move || settings.get().down)
                on_pick=move |down| lab.update_controls(|s| s.down = down)
            />
            <Show when=move || settings.get().down != Down::Off>
                <RadioGroup
                    legend="When the scheduler is back"
                    name="catchup"
                    options=vec![
                        (false, "it goes on with the next run"),
                        (true, "it catches up the missed runs first"),
                    ]
                    current=Signal::derive(move || settings.get().catch_up)
                    on_pick=move |catch_up| lab.update_controls(|s| s.catch_up = catch_up)
                />
            </Show>
        </div>
    }
    .into_any()
}
