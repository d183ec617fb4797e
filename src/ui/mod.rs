//! Leptos views. They render what the engine and the lab models compute
//! and keep no pipeline logic of their own.

#[cfg(feature = "prerender")]
pub mod ahead;
pub mod app;
pub mod backfill;
pub mod below;
pub mod browser;
pub mod canvas;
pub mod class;
pub mod code_file;
pub mod copy;
pub mod dates;
pub mod download;
pub mod drift_lookback;
pub mod drift_table;
pub mod html;
pub mod lateness;
pub mod later;
pub mod my_work;
pub mod not_found;
pub mod offline;
pub mod overview;
pub mod page;
pub mod pool_timeline;
pub mod presenter;
pub mod room_tally;
pub mod route;
pub mod runners;
pub mod scenario_data;
pub mod scenarios;
pub mod slices;
pub mod state_write;
pub mod storage;
pub mod teach;
pub mod variant_choice;
pub mod widgets;
pub mod your_name;

pub use app::{BackfillApp, ClassApp, DatesApp, HomeApp, LatenessApp, ScenariosApp, StateWriteApp};

/// Starts one part of the site in the browser (each bundle's `main`): the
/// live page takes over the one drawn ahead of time, in the same task, and
/// the reader is given back their scroll and focus; the service worker is
/// registered once the page has loaded.
pub fn start<F, N>(app: F)
where
    F: FnOnce() -> N + 'static,
    N: leptos::prelude::IntoView,
{
    start_with::<false, F, N>(app)
}

/// `start` for a part whose pages have parts below their first screen
/// (`below::Below`): those are drawn once the first screen is painted.
/// A part of its own, so the others' bundles carry none of it.
pub fn start_first_screen_first<F, N>(app: F)
where
    F: FnOnce() -> N + 'static,
    N: leptos::prelude::IntoView,
{
    start_with::<true, F, N>(app)
}

fn start_with<const BELOW_LATER: bool, F, N>(app: F)
where
    F: FnOnce() -> N + 'static,
    N: leptos::prelude::IntoView,
{
    console_error_panic_hook::set_once();
    if BELOW_LATER {
        below::wait();
    }
    let reading = browser::take_over::<BELOW_LATER>();
    leptos::mount::mount_to_body(app);
    if !BELOW_LATER {
        if let Some(reading) = reading {
            reading.resume();
        }
        offline::register();
        return;
    }
    below::busy(true);
    if let Some(reading) = &reading {
        reading.hand_over();
        reading.resume();
    }
    leptos::task::spawn_local(async move {
        below::first_paint().await;
        below::draw_rest();
        // A task later, the parts are drawn: the reader's place again.
        gloo_timers::future::TimeoutFuture::new(0).await;
        if let Some(reading) = reading {
            reading.resume();
        }
        below::busy(false);
    });
    offline::register();
}
