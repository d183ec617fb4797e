//! The shell: header, navigation, routes.

use leptos::prelude::*;
use leptos_router::components::{Route, Router, Routes, A};
use leptos_router::path;

use super::backfill::BackfillLab;
use super::lateness::LatenessLab;
use super::not_found::NotFound;
use super::overview::Overview;
use super::scenarios::{ScenarioList, ScenarioPage};
use super::state_write::StateWriteLab;

#[component]
pub fn App() -> impl IntoView {
    let main_ref = NodeRef::<leptos::html::Main>::new();
    // The router treats "#main" as a navigation; the skip link's whole point
    // is to move keyboard focus, so it does that itself.
    let skip = move |ev: leptos::ev::MouseEvent| {
        ev.prevent_default();
        if let Some(main) = main_ref.get() {
            let _ = main.focus();
        }
    };
    view! {
        <Router>
            <a class="skip-link" href="#main" on:click=skip>"Skip to content"</a>
            <header class="site-header">
                <A href="/" attr:class="brand">
                    <span class="brand-mark" aria-hidden="true">"▦"</span>
                    " Partition Lab"
                </A>
                <nav aria-label="Main">
                    <ul class="nav-list">
                        <li><A href="/" exact=true>"Overview"</A></li>
                        <li><A href="/lab/state-write">"State x Write"</A></li>
                        <li><A href="/lab/lateness">"Lateness"</A></li>
                        <li><A href="/lab/backfill">"Backfill"</A></li>
                        <li><A href="/scenarios">"Scenarios"</A></li>
                    </ul>
                </nav>
            </header>
            <main id="main" tabindex="-1" node_ref=main_ref>
                <Routes fallback=NotFound>
                    <Route path=path!("/") view=Overview />
                    <Route path=path!("/lab/state-write") view=StateWriteLab />
                    <Route path=path!("/lab/lateness") view=LatenessLab />
                    <Route path=path!("/lab/backfill") view=BackfillLab />
                    <Route path=path!("/scenarios") view=ScenarioList />
                    <Route path=path!("/scenarios/:number") view=ScenarioPage />
                </Routes>
            </main>
            <footer class="site-footer">
                <p>
                    "Partition Lab runs entirely in your browser: every number on these pages comes from a simulated pipeline, computed on the spot."
                </p>
            </footer>
        </Router>
    }
}
