//! The allowed lateness in Dagster, which has none of its own: the
//! definitions whose schedule rebuilds each day as long as the lab keeps it
//! open, for the page's setting, to copy or download.

use leptos::prelude::*;

use crate::export::dagster::{lateness_definitions, lateness_rule, LATENESS_FILE};
use crate::export::DAGSTER_VERSIONS;
use crate::labs::lateness::model::august;
use crate::tool::Tool;

use super::Lab;
use crate::ui::code_file::CodeFile;

#[component]
pub fn Dagster() -> impl IntoView {
    let lab = expect_context::<Lab>();
    let lateness = Memo::new(move |_| lab.settings.read().lateness);
    let code = Memo::new(move |_| lateness_definitions("shop.orders", august(1), lateness.get()));
    view! {
        <section class="warehouse" aria-labelledby="dagster-heading">
            <h3 id="dagster-heading">"The same lateness in Dagster"</h3>
            <p>
                "Dagster has no allowed lateness: a day's partition is built whenever a run asks for it, so the lateness is the schedule's, which days each tick asks for. "
                {move || lateness_rule(lateness.get())}
                " Like the SQLMesh model, it reads raw.arrivals, which at each run holds only what has arrived by then."
                " The project below replays the month: at each 02:00 it loads what arrived since the tick before, evaluates the schedule and materializes the run it asks for, in process."
                {format!(" CI runs the project as downloaded for the mobile profile, whose late orders tell 0, 2 and 7 days apart, at each of them and never final on {DAGSTER_VERSIONS}: the orders it never books are exactly the ones the lab says arrive after their day is final, by id.")}
            </p>
            <CodeFile
                summary=format!("Dagster definitions ({LATENESS_FILE})")
                what="The Dagster definitions"
                code=code
                file=LATENESS_FILE.to_string()
                mime="text/x-python"
            />
            <super::project::Project tool=Tool::Dagster />
        </section>
    }
}
