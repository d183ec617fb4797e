//! Long work a slice at a time: between two slices the page gives the
//! browser its turn (a paint, a click on Stop), then carries on. `Slices`
//! drives any `Stepwise` work (a check, each candidate of the smallest-case
//! search); `yield_to_browser` is the turn itself.

use crate::engine::Stepwise;

/// How long a slice runs before the browser gets its turn: under a frame
/// at 60 Hz, with room left for the paint.
const SLICE_MS: f64 = 12.0;

/// Why work ended before it finished.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Halt {
    /// The view that showed its progress is gone (the student left the
    /// page, or a new check replaced it): nothing is left to tell.
    Gone,
    /// The student pressed Stop.
    Stopped,
}

/// The one driver of long work on the page. Its slice carries across
/// `run` calls, so many small pieces of work (the search's candidates)
/// share a slice instead of each yielding.
pub struct Slices {
    started: f64,
}

impl Slices {
    /// A driver whose first slice starts now.
    pub fn from_now() -> Self {
        Slices {
            started: js_sys::Date::now(),
        }
    }

    /// Steps `work` to its end. Whenever a slice is spent, `progress` sees
    /// the work (false when the view that shows it is gone), the browser
    /// takes its turn, then `stopped` is asked (`None`: its view is gone).
    pub async fn run<W: Stepwise + ?Sized>(
        &mut self,
        work: &mut W,
        mut progress: impl FnMut(&W) -> bool,
        stopped: impl Fn() -> Option<bool>,
    ) -> Result<(), Halt> {
        loop {
            if work.step() {
                return Ok(());
            }
            if js_sys::Date::now() - self.started >= SLICE_MS {
                if !progress(work) {
                    return Err(Halt::Gone);
                }
                yield_to_browser().await;
                match stopped() {
                    None => return Err(Halt::Gone),
                    Some(true) => return Err(Halt::Stopped),
                    Some(false) => {}
                }
                self.started = js_sys::Date::now();
            }
        }
    }
}

/// Lets the browser paint and handle input, then resumes. The turn comes
/// back through a `MessageChannel`, whose message the browser delivers as
/// the next task, not through `setTimeout(0)`, which browsers hold back
/// 4 ms once a few have nested (a hundred turns took 0.42 s by timer and
/// 3 ms by channel in Chromium here). The browser still paints between two
/// tasks when a frame is due. Without a channel (never in a browser that
/// runs the app) it falls back to a timer.
pub async fn yield_to_browser() {
    let Ok(channel) = web_sys::MessageChannel::new() else {
        gloo_timers::future::TimeoutFuture::new(0).await;
        return;
    };
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        channel.port1().set_onmessage(Some(&resolve));
        if channel
            .port2()
            .post_message(&wasm_bindgen::JsValue::NULL)
            .is_err()
        {
            let _ = resolve.call0(&wasm_bindgen::JsValue::NULL);
        }
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
    // Held until here, so the port waiting for the message stays alive.
    channel.port1().close();
}
