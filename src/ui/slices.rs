//! Long work a slice at a time: between two slices the page gives the
//! browser its turn (a paint, a click on Stop), then carries on.

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
