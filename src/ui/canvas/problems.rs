//! The list of structural problems under the board; each one takes the
//! student to its node.

use leptos::prelude::*;

use crate::design::inspector::describe::name_of;

use super::Designer;

#[component]
pub fn Problems() -> impl IntoView {
    let d = expect_context::<Designer>();
    let count = move || d.problems.with(Vec::len);
    view! {
        <section class="problems" aria-labelledby="problems-title">
            <h3 id="problems-title">
                {move || match count() {
                    0 => "No structural problems".to_string(),
                    1 => "1 structural problem".to_string(),
                    n => format!("{n} structural problems"),
                }}
            </h3>
            <ul>
                {move || {
                    d.problems.with(|problems| {
                        problems
                            .iter()
                            .map(|p| {
                                let message = p.message.clone();
                                match p.node {
                                    Some(id) => {
                                        let who = d.graph.with_untracked(|g| name_of(g, id));
                                        view! {
                                            <li>
                                                <button type="button" class="link-button" on:click=move |_| {
                                                    d.selected.set(Some(id));
                                                    d.focus_request.set(Some(id));
                                                }>{who}</button>
                                                ": " {message}
                                            </li>
                                        }
                                        .into_any()
                                    }
                                    None => view! { <li>{message}</li> }.into_any(),
                                }
                            })
                            .collect_view()
                    })
                }}
            </ul>
        </section>
    }
}
