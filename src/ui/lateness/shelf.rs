//! The practitioner's shelf of a generated month: the lateness in Beam,
//! SQLMesh and Dagster, their projects, and the lateness as each tool's
//! dates: a chunk of the lateness part's wasm of its own (`ui::later`), so
//! the lab answers before the code writers and the projects' tar writer
//! have downloaded. The shelf fetches it a moment after the lab is live,
//! or when it is opened first.

use leptos::prelude::*;

use crate::engine::lateness::Lateness;
use crate::ui::later::Later;

use super::{dagster, lateness_text, lookback, streaming, Lab};

/// What the chunk holds: the shelf's content.
pub struct Shelf {
    pub section: fn() -> AnyView,
}

/// The content itself: only the lateness part's `#[lazy]` loader names it
/// (src/bin/partition-lab-lateness.rs).
pub static SHELF: Shelf = Shelf {
    section: || {
        view! {
            <GeneratedStreaming />
            <lookback::Lookback />
            <dagster::Dagster />
            <DatesLink />
        }
        .into_any()
    },
};

/// The shelf, in the lateness part a chunk of its own.
pub static LATER: Later<Shelf> = Later::new();

/// What the shelf opened early says while it downloads.
pub const FETCHING: &str = "Fetching the code…";
/// What it says when it could not be fetched.
pub const NOT_FETCHED: &str =
    "The code could not be fetched: check the connection, then try again.";

/// The lateness as a date in every tool, on the dates page.
#[component]
fn DatesLink() -> impl IntoView {
    let lab = expect_context::<Lab>();
    move || match lab.settings.read().lateness {
        Lateness::Days(l) => {
            let p = crate::labs::dates::Pipeline {
                lateness: l,
                ..Default::default()
            };
            view! {
                <p>
                    {crate::labs::dates::DAGSTER_HAS_NO_LATENESS}
                    " "
                    "When is a day final in Airflow, Dagster, SQLMesh, dbt or Beam? "
                    <a href=crate::labs::dates::query::href(&p, false)>{format!("This lateness ({}) as each tool's dates", lateness_text(Lateness::Days(l)))}</a>
                    "."
                </p>
            }
            .into_any()
        }
        Lateness::Never => ().into_any(),
    }
}

/// The Beam pipeline for the profile's month, and the month as its CSV.
#[component]
fn GeneratedStreaming() -> impl IntoView {
    use crate::export::beam::{month_csv, Stream};
    use crate::labs::lateness::model::draws;
    use crate::vocabulary::Choice;
    let lab = expect_context::<Lab>();
    let profile = Memo::new(move |_| lab.settings.read().profile);
    let stream = Signal::derive(move || Stream::month(lab.settings.read().lateness));
    let late = Signal::derive(move || {
        let f = lab.figures.read();
        Some((f.lateness, f.after_final.count))
    });
    let month = streaming::Month {
        file: Signal::derive(move || format!("august_{}.csv", profile.get().file())),
        csv: Signal::derive(move || month_csv(&draws(profile.get()))),
    };
    view! { <streaming::Streaming stream=stream subject="the month" late=late month=month /> }
}
