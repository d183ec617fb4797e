//! "Export as code": the design as dbt, Airflow, Spark, SQLMesh, Dagster
//! and Beam (each runnable form, or what the tool lacks for this design),
//! each with a copy button; until the design is valid, why there is none.

use leptos::prelude::*;

use crate::design::Graph;
use crate::export::scenario::code as export_code;
use crate::ui::copy::CopyButton;

use super::Designer;

#[component]
pub fn ExportCode() -> impl IntoView {
    let d = expect_context::<Designer>();
    let code = Memo::new(move |_| {
        d.graph
            .with(|g| export_code(d.scenario, g).map_err(|p| p.len()))
    });
    // Built on request: a scenario's bronze can be a megabyte of CSV.
    let project = RwSignal::new(None::<(Graph, Result<(String, String), String>)>);
    let runners = crate::ui::runners::use_runners();
    let prepare = move |_| {
        use crate::ui::runners::Runners;
        let graph = d.graph.get_untracked();
        let made = match runners.get_untracked() {
            Runners::Ready(files) => crate::export::scenario::runnable(d.scenario, &graph, &files)
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
        <details class="export-code">
            // A heading, so the tools' h4s below sit under an h3 wherever
            // the panel opens (after a pass there is none above them).
            <summary><h3 class="summary-heading">"Export as code"</h3></summary>
            <div class="button-row">
                <button type="button" on:click=prepare>"Prepare a runnable project (dbt and Spark, this scenario's runs)"</button>
            </div>
            {move || current().map(|made| match made {
                Ok((file, url)) => view! {
                    <p><a class="button-link" href=url download=file>"Download the runnable project"</a></p>
                }.into_any(),
                Err(why) => view! { <p class="muted" role="status">{format!("No runnable project for this design: {why}.")}</p> }.into_any(),
            })}
            {move || match code.get() {
                Ok(blocks) => blocks
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
                Err(n) => view! {
                    <p class="muted">
                        {format!("Code appears once the design has no structural problems ({n} left).")}
                    </p>
                }
                .into_any(),
            }}
        </details>
    }
}
