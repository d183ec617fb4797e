//! The practitioner's shelf: this plan in real tools (each tool's
//! commands, a runnable project): a chunk of the backfill part's wasm of
//! its own (`ui::later`), so the lab's first screen answers before the
//! command writers and the project's tar writer have downloaded. The
//! shelf fetches it a moment after the lab is live, or when it is opened
//! first.

use leptos::prelude::*;

use crate::export::backfill_lab::commands;
use crate::labs::backfill::Choices;
use crate::ui::copy::CopyButton;
use crate::ui::download::DownloadOnDemand;
use crate::ui::later::Later;

use super::Lab;

/// What the chunk holds: the shelf's section.
pub struct Shelf {
    pub section: fn() -> AnyView,
}

/// The section itself: only the backfill part's `#[lazy]` loader names it
/// (src/bin/partition-lab-backfill.rs).
pub static SHELF: Shelf = Shelf { section };

/// The shelf, in the backfill part a chunk of its own.
pub static LATER: Later<Shelf> = Later::new();

/// What the shelf opened early says while it downloads.
pub const FETCHING: &str = "Fetching the commands…";
/// What it says when it could not be fetched.
pub const NOT_FETCHED: &str =
    "The commands could not be fetched: check the connection, then try again.";

fn section() -> AnyView {
    let lab = expect_context::<Lab>();
    let choices = lab.choices;
    let cmds = Memo::new(move |_| commands(&choices.get().plan()));
    view! {
        <section aria-labelledby="commands-heading">
            <p>
                "The lab's two overwrites in the tools: replacing every date a rebuild targets is dbt's delete+insert and microbatch, and Delta's replaceWhere. Replacing only the dates it writes rows to is Spark's dynamic partition overwrite."
            </p>
            <p>
                {move || {
                    let plan = choices.get().plan();
                    let dates = crate::labs::dates::Pipeline {
                        day: plan.first,
                        first: plan.first,
                        last: plan.last,
                        ..Default::default()
                    };
                    view! {
                        "Each tool counts these dates its own way (a logical date, a partition key, an end left out): "
                        <a href=crate::labs::dates::query::href(&dates, false)>"this backfill's dates in every tool"</a>
                        "."
                    }
                }}
            </p>
            // Not on a page drawn ahead of time: the link works only
            // once the live page can make the project.
            {crate::ui::browser::in_browser().then(|| view! {
                <p>
                    <DownloadOnDemand
                        inputs=choices
                        make=move |c: &Choices| project(lab, c)
                        mime="application/x-tar"
                    >
                        "Download this plan as a runnable project (Airflow DAG, dbt rebuild, SQLMesh restatement, Dagster launch, drift query)"
                    </DownloadOnDemand>
                </p>
            })}
            {move || {
                cmds.get()
                    .into_iter()
                    .map(|c| {
                        view! {
                            <div class="command">
                                <div class="command-head">
                                    <h3>{c.title()}</h3>
                                    <CopyButton text=c.code.clone() what=c.title().to_string() />
                                </div>
                                <p class="muted versions">"For " {c.versions()}</p>
                                <pre tabindex="0"><code>{c.code}</code></pre>
                            </div>
                        }
                    })
                    .collect_view()
            }}
        </section>
    }
    .into_any()
}

/// The plan `c` as a runnable project over the lab's August. A download
/// asked for before the lab's engine has come builds the August itself
/// rather than wait for it: this chunk carries what that takes.
fn project(lab: Lab, c: &Choices) -> Option<(String, Vec<u8>)> {
    lab.case.with_untracked(|case| match case {
        Some(case) => crate::export::backfill_lab::runnable(case, &c.plan()),
        None => {
            let case = crate::labs::backfill::Case::in_august(c.august, c.sunday);
            crate::export::backfill_lab::runnable(&case, &c.plan())
        }
    })
}
