use leptos::prelude::*;

use super::page::set_title;

#[component]
pub fn NotFound() -> impl IntoView {
    set_title("Page not found");
    view! {
        <section class="page">
            <h1>"No page here"</h1>
            <p>"That address does not match any page of the lab. It may be mistyped, or a link from an older version."</p>
            <p><a href="/">"Go to the overview"</a></p>
        </section>
    }
}
