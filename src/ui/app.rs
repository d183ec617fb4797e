//! The shell (header, navigation, footer) and the routes of each part of
//! the site: each bundle mounts its own app (`HomeApp`, `StateWriteApp`,
//! `BackfillApp`, `LatenessApp`, `ScenariosApp`, `DatesApp`, `ClassApp`;
//! `crate::bundles` says why there are seven).

use leptos::prelude::*;

use super::backfill::BackfillLab;
use super::lateness::LatenessLab;
use super::not_found::NotFound;
use super::overview::Overview;
use super::route::{provide_router, use_path, NavLink};
use super::scenarios::{ScenarioList, ScenarioPage};
use super::state_write::StateWriteLab;
use crate::bundles::Bundle;

#[component]
pub fn HomeApp() -> impl IntoView {
    view! { <Shell serves=Bundle::Home page=home_page /> }
}

#[component]
pub fn StateWriteApp() -> impl IntoView {
    view! { <Shell serves=Bundle::StateWrite page=state_write_page /> }
}

#[component]
pub fn BackfillApp() -> impl IntoView {
    view! { <Shell serves=Bundle::Backfill page=backfill_page /> }
}

#[component]
pub fn LatenessApp() -> impl IntoView {
    view! { <Shell serves=Bundle::Lateness page=lateness_page /> }
}

#[component]
pub fn ScenariosApp() -> impl IntoView {
    view! { <Shell serves=Bundle::Scenarios page=scenarios_page /> }
}

#[component]
pub fn DatesApp() -> impl IntoView {
    view! { <Shell serves=Bundle::Dates page=dates_page /> }
}

#[component]
pub fn ClassApp() -> impl IntoView {
    view! { <Shell serves=Bundle::Class page=class_page /> }
}

#[component]
fn Shell(serves: Bundle, page: fn(&str) -> AnyView) -> impl IntoView {
    provide_router(serves);
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
                        <li><NavLink href="/dates">"Dates"</NavLink></li>
                        <li><NavLink href="/teach">"Teach"</NavLink></li>
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

/// The home part's page at `path`; each part's page is rebuilt only when
/// the path changes (the labs rewrite their query in place without leaving
/// the page).
fn home_page(path: &str) -> AnyView {
    match path {
        "/" => view! { <Overview /> }.into_any(),
        "/teach" => view! { <super::teach::Teach /> }.into_any(),
        _ if Bundle::of(path) != Bundle::Home => elsewhere(path),
        _ => view! { <NotFound /> }.into_any(),
    }
}

fn state_write_page(path: &str) -> AnyView {
    if Bundle::of(path) != Bundle::StateWrite {
        return elsewhere(path);
    }
    view! { <StateWriteLab /> }.into_any()
}

fn backfill_page(path: &str) -> AnyView {
    if Bundle::of(path) != Bundle::Backfill {
        return elsewhere(path);
    }
    view! { <BackfillLab /> }.into_any()
}

fn lateness_page(path: &str) -> AnyView {
    if Bundle::of(path) != Bundle::Lateness {
        return elsewhere(path);
    }
    view! { <LatenessLab /> }.into_any()
}

fn scenarios_page(path: &str) -> AnyView {
    if Bundle::of(path) != Bundle::Scenarios {
        return elsewhere(path);
    }
    match path.strip_prefix("/scenarios/") {
        Some(number) => {
            let number = number.to_string();
            view! { <ScenarioPage number /> }.into_any()
        }
        None => view! { <ScenarioList /> }.into_any(),
    }
}

fn class_page(path: &str) -> AnyView {
    if Bundle::of(path) != Bundle::Class {
        return elsewhere(path);
    }
    view! { <super::class::ClassPage /> }.into_any()
}

fn dates_page(path: &str) -> AnyView {
    if Bundle::of(path) != Bundle::Dates {
        return elsewhere(path);
    }
    view! { <super::dates::Dates /> }.into_any()
}

/// A path of another part, shown by this part's page: the host served
/// the wrong page for it (see the README's hosting rules). A link, not an
/// automatic reload, so a misconfigured host cannot loop.
fn elsewhere(path: &str) -> AnyView {
    let href = crate::ui::browser::window()
        .and_then(|w| w.location().href().ok())
        .unwrap_or_else(|| "/".to_string());
    view! {
        <section class="page">
            <h1>"This page is in another part of the lab"</h1>
            <p>
                "Each lab, the scenarios, the dates page, the class page and the overview load separately, and this address reached the wrong one: "
                <a href=href>"open it"</a>
                ". If this keeps happening, the site's host is not sending "
                <code>{path.to_string()}</code>
                " to "
                <code>{Bundle::of(path).html().trim_start_matches('/')}</code>
                " (see the README)."
            </p>
        </section>
    }
    .into_any()
}
