//! The allowed lateness as SQLMesh's `lookback`: the model for the page's
//! month and setting, to copy or download.

use leptos::prelude::*;

use crate::engine::lateness::Lateness;
use crate::export::sqlmesh::{lookback_model, LOOKBACK_FILE};
use crate::export::SQLMESH_VERSIONS;
use crate::labs::lateness::model::august;
use crate::tool::Tool;

use super::Lab;
use crate::ui::code_file::CodeFile;

#[component]
pub fn Lookback() -> impl IntoView {
    let lab = expect_context::<Lab>();
    let lateness = Memo::new(move |_| lab.settings.read().lateness);
    let code = Memo::new(move |_| lookback_model("shop.orders", august(1), lateness.get()));
    let how = move || {
        match lateness.get() {
        Lateness::Days(0) => "With no allowed lateness the model has no lookback: each run processes only the days it has not done, so the run at 02:00 on d+1 is the only one that builds day d.".to_string(),
        Lateness::Days(l) => format!(
            "With {} of allowed lateness the model has lookback {l}: each run processes the days it has not done and the {l} before them again, so the run at 02:00 on d+1+{l} is the last to rebuild day d, the lab's rule.",
            crate::counted::counted(l, "day"),
        ),
        Lateness::Never => "Never final has no lookback: the model is FULL, and every run rebuilds the whole month from what has arrived.".to_string(),
    }
    };
    let file = LOOKBACK_FILE.rsplit('/').next().unwrap_or(LOOKBACK_FILE);
    view! {
        <section class="warehouse" aria-labelledby="lookback-heading">
            <h3 id="lookback-heading">"The same lateness in SQLMesh"</h3>
            <p>
                "In SQLMesh allowed lateness is a model's "<code>"lookback"</code>", counted in its intervals, here days. "
                {how}
                " It reads raw.arrivals, the table ingestion appends to, which at each run holds only what has arrived by then: that is what makes an order late (a table holding the whole month books every order). The project below replays the month that way, a run at each 02:00 after loading what arrived since the one before, and lists the orders the model never books."
                {format!(" CI runs the project as downloaded for every profile at 0, 2 and 7 days and never final on {SQLMESH_VERSIONS}: the orders it never books are exactly the ones the lab says arrive after their day is final, by id.")}
            </p>
            <CodeFile
                summary=format!("SQLMesh model ({LOOKBACK_FILE})")
                what="The SQLMesh model"
                code=code
                file=file.to_string()
                mime="text/x-sql"
            />
            <super::project::Project tool=Tool::SqlMesh />
        </section>
    }
}
