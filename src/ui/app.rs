//! The shell: header, navigation, routes.

use leptos::prelude::*;

use super::backfill::BackfillLab;
use super::lateness::LatenessLab;
use super::not_found::NotFound;
use super::overview::Overview;
use super::route::{provide_router, use_path, NavLink};
use super::scenarios::{ScenarioList, ScenarioPage};
use super::state_write::StateWriteLab;

#[component]
pub fn App() -> impl IntoView {
    provide_router();
    let path = use_path();
    let main_ref = NodeRef::<leptos::html::Main>::new();
    // The skip link's whole point is to move keyboard focus, which
    // following "#main" alone does not do in every browser.
    let skip = move |ev: leptos::ev::MouseEvent| {
        ev.prevent_default();
        if let Some(main) = main_ref.get() {
            let _ = main.focus();
        }
    };
    view! {
            <a class="skip-link" href="#main" on:click=skip>"Skip to content"</a>
            <header class="site-header">
                <a href="/" class="brand">
                    <span class="brand-mark" aria-hidden="true">"▦"</span>
                    " Partition Lab"
                </a>
                <nav aria-label="Main">
                    <ul class="nav-list">
                        <li><NavLink href="/" exact=true>"Overview"</NavLink></li>
                        <li><NavLink href="/lab/state-write">"State x Write"</NavLink></li>
                        <li><NavLink href="/lab/lateness">"Lateness"</NavLink></li>
                        <li><NavLink href="/lab/backfill">"Backfill"</NavLink></li>
                        <li><NavLink href="/scenarios">"Scenarios"</NavLink></li>
                    </ul>
                </nav>
            </header>
            <main id="main" tabindex="-1" node_ref=main_ref>
                {move || page(&path.read())}
            </main>
            <footer class="site-footer">
                <p>
                    "Partition Lab runs entirely in your browser: every number on these pages comes from a simulated pipeline, computed on the spot."
                </p>
            </footer>
    }
}

/// The page at `path`; rebuilt only when the path changes (the labs
/// rewrite their query in place without leaving the page).
fn page(path: &str) -> AnyView {
    match path {
        "/" => view! { <Overview /> }.into_any(),
        "/lab/state-write" => view! { <StateWriteLab /> }.into_any(),
        "/lab/lateness" => view! { <LatenessLab /> }.into_any(),
        "/lab/backfill" => view! { <BackfillLab /> }.into_any(),
        "/scenarios" => view! { <ScenarioList /> }.into_any(),
        _ => match path.strip_prefix("/scenarios/") {
            Some(number) => {
                let number = number.to_string();
                view! { <ScenarioPage number /> }.into_any()
            }
            None => view! { <NotFound /> }.into_any(),
        },
    }
}
