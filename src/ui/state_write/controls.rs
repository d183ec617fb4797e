//! The lab's controls: the late order, the crash, the lookback, the commit
//! order, the scheduler's outage and whether it catches up.

use leptos::prelude::*;

use crate::engine::CommitOrder;
use crate::labs::state_write::{Down, LateOrder};
use crate::vocabulary::Choice;

use super::super::widgets::RadioGroup;
use super::Lab;

#[component]
pub fn Controls() -> impl IntoView {
    let lab = expect_context::<Lab>();
    let settings = lab.controls;
    // The words the vocabulary gives each outage, as in a link's notes.
    let outages: Vec<(Down, &'static str)> =
        Down::ALL.into_iter().map(|d| (d, d.label())).collect();
    // Folded until wanted: the week's default is the lab's question, and
    // the settings are for the runs after it. A link that changes any of
    // them opens them, so the reader sees what the link set.
    let open = RwSignal::new(false);
    Effect::new(move |_| {
        if settings.get() != crate::labs::state_write::Controls::default() {
            open.set(true);
        }
    });
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
        </details>
    }
}
