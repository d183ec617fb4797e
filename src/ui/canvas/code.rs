//! "Export as code": the design as dbt, Airflow and Spark, each with a
//! copy button; until the design is valid, why there is none yet.

use leptos::prelude::*;

use crate::design::code::export_code;
use crate::ui::copy::CopyButton;

use super::Designer;

#[component]
pub fn ExportCode() -> impl IntoView {
    let d = expect_context::<Designer>();
    let code = Memo::new(move |_| d.graph.with(|g| export_code(g).map_err(|p| p.len())));
    view! {
        <details class="export-code">
            <summary>"Export as code"</summary>
            {move || match code.get() {
                Ok(blocks) => blocks
                    .into_iter()
                    .map(|block| {
                        let what = format!("The {} code", block.tool);
                        view! {
                            <div class="code-block">
                                <h4>{block.tool}</h4>
                                <p class="muted versions">"For " {block.versions}</p>
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
