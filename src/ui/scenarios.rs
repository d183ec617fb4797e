//! The scenario list and each scenario's page.

use leptos::prelude::*;
use leptos_router::components::A;
use leptos_router::hooks::use_params_map;

use super::canvas::Canvas;
use super::not_found::NotFound;
use super::page::set_title;
use crate::scenarios::catalog::{find, SCENARIOS};

#[component]
pub fn ScenarioList() -> impl IntoView {
    set_title("Scenarios");
    view! {
        <section class="page">
            <h1>"Five design scenarios"</h1>
            <p class="lede">
                "Each scenario is a small, realistic week (or two years) of data with its faults. You design a pipeline for it on a canvas; the lab runs your design through the simulated week and checks it against the scenario's requirements. Any design that meets them passes."
            </p>
            <ol class="card-list">
                {SCENARIOS
                    .iter()
                    .map(|s| {
                        view! {
                            <li class="card">
                                <h2>
                                    <A href=format!("/scenarios/{}", s.number)>
                                        {format!("{}. {}", s.number, s.title)}
                                    </A>
                                </h2>
                                <p>{s.brief}</p>
                                <p class="muted">"Idea: " {s.idea}</p>
                            </li>
                        }
                    })
                    .collect_view()}
            </ol>
        </section>
    }
}

#[component]
pub fn ScenarioPage() -> impl IntoView {
    let params = use_params_map();
    move || match params.read().get("number").as_deref().and_then(find) {
        Some(s) => {
            set_title(&format!("Scenario {}: {}", s.number, s.title));
            view! {
                <section class="page">
                    <p class="breadcrumb"><A href="/scenarios">"All scenarios"</A></p>
                    <h1>{format!("Scenario {}: {}", s.number, s.title)}</h1>
                    <p class="lede">{s.brief}</p>
                    <Canvas scenario=s.number source=s.source />
                </section>
            }
            .into_any()
        }
        None => view! { <NotFound /> }.into_any(),
    }
}
