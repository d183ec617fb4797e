//! The three labs' pages. Each gets its full view in its own issue; until
//! then the page says what it will hold.

use leptos::prelude::*;

use super::page::set_title;

#[component]
fn LabIntro(title: &'static str, summary: &'static str, ideas: &'static str) -> impl IntoView {
    set_title(title);
    view! {
        <section class="page">
            <h1>{title}</h1>
            <p class="lede">{summary}</p>
            <p class="muted">{ideas}</p>
        </section>
    }
}

#[component]
pub fn BackfillLab() -> impl IntoView {
    view! {
        <LabIntro
            title="Currency-bug backfill lab"
            summary="A conversion bug shipped early in August: find the partitions it damaged from the data, plan the rebuild's order and speed, run it, interrupt it, and copy the commands that match your plan."
            ideas="Ideas: blast radius, backfill range, partition-scoped reprocess, completion markers, restatement."
        />
    }
}
