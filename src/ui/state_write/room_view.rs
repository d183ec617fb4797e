//! Presenter mode's one screen of the week: every pipeline's silver at the
//! run on show, counted per day (`labs::state_write::room`); the full cells
//! follow for whoever wants the detail. Only presenter mode draws it, so it
//! is a chunk of the State x Write part's wasm of its own (`ui::later`),
//! fetched when presenter mode is on (at once on a link that opens it).

use leptos::prelude::*;

use crate::labs::state_write::room::days;
use crate::labs::state_write::view::{cell_view, day_label};
use crate::ui::later::Later;

use super::Lab;

/// What the chunk holds: the room view.
pub struct RoomView {
    pub view: fn() -> AnyView,
}

/// The view itself: only the State x Write part's `#[lazy]` loader names
/// it (src/bin/partition-lab-state-write.rs).
pub static ROOM_VIEW: RoomView = RoomView { view };

/// The room view, in the State x Write part a chunk of its own.
pub static LATER: Later<RoomView> = Later::new();

/// What presenter mode says while it downloads.
pub const FETCHING: &str = "Fetching the room view…";
/// What it says when it could not be fetched.
pub const NOT_FETCHED: &str =
    "The room view could not be fetched: check the connection, then try again.";

fn view() -> AnyView {
    let lab = expect_context::<Lab>();
    let rows = Memo::new(move |_| {
        let index = lab.run.get();
        lab.outcomes
            .read()
            .iter()
            .flatten()
            .filter_map(|(cell, o)| cell_view(*cell, o, index).map(|v| (*cell, days(&v))))
            .collect::<Vec<_>>()
    });
    let head = move || {
        rows.with(|r| {
            r.first().map(|(_, d)| {
                d.iter()
                    .map(|c| view! { <th scope="col">{day_label(c.day)}</th> })
                    .collect_view()
            })
        })
    };
    view! {
        <div class="table-wrap room-view">
            <table data-figure="room">
                <caption>"Silver at the run on show, every pipeline: ✓ in place · ❐ doubled · ↷ under the wrong day · ✕ missing · ✎ written by this run"</caption>
                <thead><tr><th scope="col">"Pipeline"</th>{head}</tr></thead>
                <tbody>
                    {move || rows.get().into_iter().map(|(cell, days)| view! {
                        <tr>
                            <th scope="row">{cell.name()}</th>
                            {days.into_iter().map(|d| view! {
                                <td class:written=d.written aria-label=d.words()>
                                    {d.short()}{d.written.then_some(" ✎")}
                                </td>
                            }).collect_view()}
                        </tr>
                    }).collect_view()}
                </tbody>
            </table>
        </div>
    }
    .into_any()
}
