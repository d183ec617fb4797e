//! "Export as code": the design as dbt, Airflow, Spark, SQLMesh, Dagster
//! and Beam (each runnable form, or what the tool lacks for this design),
//! each with a copy button; until the design is valid, why there is none.

use leptos::prelude::*;

use crate::design::{Graph, Problem};
use crate::export::canvas::Code;
use crate::scenarios::Scenario;
use crate::ui::copy::CopyButton;
use crate::ui::later::{Fetch, Later};

use super::Designer;

/// The exporters the panel calls: a chunk of the scenarios part's wasm of
/// its own (`ui::later`), fetched when the panel is first opened.
pub struct Exporters {
    pub code: CodeOf,
    pub runnable: RunnableOf,
    /// Makes the script a runnable project carries (`Designer::script`).
    pub make_script: super::ScriptMaker,
}

/// Each tool's code for a design, or the design's structural problems.
pub type CodeOf = fn(&Scenario, &Graph) -> Result<Vec<Code>, Vec<Problem>>;
/// A runnable project's file name and bytes, or why there is none.
pub type RunnableOf = fn(
    &Scenario,
    &Graph,
    &crate::engine::Script,
    &[crate::export::File],
) -> Result<Project, String>;
/// A runnable project: its file name and its bytes.
type Project = (String, Vec<u8>);

/// The exporters themselves: only the scenarios part's `#[lazy]` loader
/// names them (src/bin/partition-lab-scenarios.rs).
pub static EXPORTERS: Exporters = Exporters {
    code: crate::export::scenario::code,
    runnable: crate::export::scenario::runnable,
    make_script: |scenario, variant| scenario.script_in(variant).into_owned(),
};

/// The exporters, in the scenarios part a chunk of their own.
pub static LATER: Later<Exporters> = Later::new();

/// What the panel says while its exporters download.
const FETCHING: &str = "Fetching the exporters…";
/// What it says when they could not be fetched.
const NOT_FETCHED: &str =
    "The exporters could not be fetched: check the connection, then try again.";

#[component]
pub fn ExportCode() -> impl IntoView {
    let d = expect_context::<Designer>();
    // Fetched when the panel is first opened: its code is made only then.
    let fetch = Fetch::new(&LATER);
    let exporters = fetch.ready;
    let open = move |ev: leptos::ev::Event| {
        if event_target::<web_sys::Element>(&ev).has_attribute("open") {
            fetch.start();
        }
    };
    let code = Memo::new(move |_| {
        let e = exporters.get()?;
        Some(
            d.graph
                .with(|g| (e.code)(d.scenario, g).map_err(|p| p.len())),
        )
    });
    // Built on request: a scenario's bronze can be a megabyte of CSV.
    let project = RwSignal::new(None::<(Graph, Result<(String, String), String>)>);
    let runners = crate::ui::runners::use_runners();
    let prepare = move |_| {
        use crate::ui::runners::Runners;
        let graph = d.graph.get_untracked();
        let Some(e) = exporters.get_untracked() else {
            return; // the button shows only once they have come
        };
        let made = match runners.get_untracked() {
            Runners::Ready(files) => (e.runnable)(d.scenario, &graph, &d.script(e.make_script), &files)
                .map(|(file, bytes)| (file, crate::ui::storage::tar_url(&bytes))),
            Runners::Loading => Err("its Python runners are still loading; try again in a moment".to_string()),
            Runners::Failed => Err("its Python runners could not be loaded (check the connection, then reload the page)".to_string()),
        };
        project.set(Some((graph, made)));
    };
    let current = move || {
        project.with(|p| {
            p.as_ref()
                .filter(|(g, _)| d.graph.with(|now| now == g))
                .map(|(_, made)| made.clone())
        })
    };
    view! {
        <details class="export-code" on:toggle=open>
            // A heading, so the tools' h4s below sit under an h3 wherever
            // the panel opens (after a pass there is none above them).
            <summary><h3 class="summary-heading">"Export as code"</h3></summary>
            {fetch.status(FETCHING, NOT_FETCHED)}
            <Show when=move || exporters.get().is_some()>
                <div class="button-row">
                    <button type="button" on:click=prepare>"Prepare a runnable project (dbt and Spark, this scenario's runs)"</button>
                </div>
            </Show>
            {move || current().map(|made| match made {
                Ok((file, url)) => view! {
                    <p><a class="button-link" href=url download=file>"Download the runnable project"</a></p>
                }.into_any(),
                Err(why) => view! { <p class="muted" role="status">{format!("No runnable project for this design: {why}.")}</p> }.into_any(),
            })}
            {move || match code.get() {
                None => ().into_any(),
                Some(Ok(blocks)) => blocks
                    .into_iter()
                    .map(|block| {
                        let what = format!("The {} code", block.tool);
                        view! {
                            <div class="code-block">
                                <h4>{block.tool.name()}</h4>
                                <p class="muted versions">"For " {block.versions()}</p>
                                <pre tabindex="0"><code>{block.text.clone()}</code></pre>
                                <CopyButton text=block.text what=what />
                            </div>
                        }
                    })
                    .collect_view()
                    .into_any(),
                Some(Err(n)) => view! {
                    <p class="muted">
                        {format!("Code appears once the design has no structural problems ({n} left).")}
                    </p>
                }
                .into_any(),
            }}
        </details>
    }
}
