//! A pipeline's "Equivalent code" (dbt and Spark for the week's controls)
//! and its runnable project: a chunk of the State x Write part's wasm of
//! its own (`ui::later`), so the lab's first screen answers before the
//! code generators and the project's tar writer have downloaded. Each
//! panel fetches it a moment after the lab is live, or when it is opened
//! first.

use leptos::prelude::*;

use crate::export::state_write::equivalent;
use crate::labs::state_write::{Cell, Controls};
use crate::ui::download::DownloadOnDemand;
use crate::ui::later::Later;
use crate::ui::runners::{use_runners, Runners};

use super::Lab;

/// What the chunk holds: a cell's code panel.
pub struct Code {
    pub panel: fn(Cell) -> AnyView,
}

/// The panel itself: only the State x Write part's `#[lazy]` loader names
/// it (src/bin/partition-lab-state-write.rs).
pub static CODE: Code = Code { panel };

/// The code panels, in the State x Write part a chunk of their own.
pub static LATER: Later<Code> = Later::new();

/// What a panel opened early says while its code downloads.
pub const FETCHING: &str = "Fetching the code…";
/// What it says when the code could not be fetched.
pub const NOT_FETCHED: &str =
    "The code could not be fetched: check the connection, then try again.";

fn panel(cell: Cell) -> AnyView {
    let lab = expect_context::<Lab>();
    let runners = use_runners();
    view! {
        {move || {
            equivalent(cell, &lab.controls.get())
                .into_iter()
                .map(|(tool, code)| view! {
                    <p class="muted">{format!("In {tool}:")}</p>
                    <pre tabindex="0" data-tool=tool.name()><code>{code}</code></pre>
                })
                .collect_view()
        }}
        {move || match runners.get() {
            Runners::Ready(files) => Some(view! {
                <p>
                    <DownloadOnDemand
                        inputs=lab.controls
                        make=move |controls: &Controls| crate::export::state_write::runnable(cell, controls, &files)
                        mime="application/x-tar"
                    >
                        "Download this week as a runnable project (dbt and Spark)"
                    </DownloadOnDemand>
                </p>
            }.into_any()),
            Runners::Loading => Some(view! { <p class="muted" role="status">"Preparing the runnable project…"</p> }.into_any()),
            Runners::Failed => Some(view! { <p class="muted" role="status">"The runnable project's Python runners could not be loaded: check the connection, then reload the page."</p> }.into_any()),
        }}
    }
    .into_any()
}
