//! The user's allowed lateness as a streaming engine's window setting: the
//! Beam pipeline for their file, zone, run time and lateness, to copy or
//! download.

use std::sync::Arc;

use leptos::prelude::*;

use crate::engine::arrivals::LogFigures;
use crate::engine::lateness::Lateness;
use crate::engine::money::thousands;
use crate::export::beam::{pipeline, Stream, FILE};
use crate::export::BEAM_VERSIONS;

use super::your_data::Log;
use super::Lab;

#[component]
pub fn Streaming(log: Arc<Log>, figures: Memo<Option<LogFigures>>) -> impl IntoView {
    let lab = expect_context::<Lab>();
    let zone = log.loaded.log.zone();
    let mapping = log.mapping.clone();
    let code = Memo::new(move |_| {
        let s = lab.settings.read();
        pipeline(&Stream {
            event_time: mapping.event.clone(),
            arrival_time: mapping.arrival.clone(),
            value: mapping.value.clone(),
            id: None,
            run: s.run,
            zone,
            lateness: s.lateness,
        })
    });
    // What the file will print for this file, from the page's own figures.
    let drops = move || {
        let s = lab.settings.read();
        let late = figures
            .read()
            .as_ref()
            .filter(|f| f.lateness == s.lateness)
            .map(|f| f.after_final.count);
        match (s.lateness, late) {
            (Lateness::Days(l), Some(n)) => format!(
                "Run on your file with the lateness set above ({l} day{}), it drops {} event{} as late, the ones this page says miss their day, and prints their lines.",
                if l == 1 { "" } else { "s" },
                thousands(n),
                if n == 1 { "" } else { "s" },
            ),
            (Lateness::Days(_), None) => "Run on your file, it prints the lines of the events it drops as late.".to_string(),
            (Lateness::Never, _) => "Partitions that are never final have no Beam equivalent: a window has to close some time, so the file allows ten years, and drops only an event later than that.".to_string(),
        }
    };
    let download = move || crate::ui::storage::text_url(&code.get(), "text/x-python");
    view! {
        <section class="warehouse" aria-labelledby="streaming-heading">
            <h3 id="streaming-heading">"The same lateness in a streaming engine"</h3>
            <p>
                {format!("In Apache Beam (and Flink) allowed lateness is a setting of the window: daily event-time windows in {} that still take an event so many days after their day, and drop what comes later. This file sets it, and replays your file through it on Beam's DirectRunner. The two rules meet when each daily run moves the watermark to midnight of its own day: a watermark at the run time itself drops a day too early. ", zone.name())}
                {drops}
                {format!(" A test runs it on {BEAM_VERSIONS} over the lab's profiles and test logs, across clock changes, and Beam drops exactly the events the lab says are late, by id.")}
            </p>
            <details class="sql">
                <summary>"Apache Beam (Python)"</summary>
                <pre class="long-code" tabindex="0" aria-label="The Beam pipeline"><code>{move || code.get()}</code></pre>
                <crate::ui::copy::CopyButton text=code what="The Beam pipeline".to_string() />
                " "
                <a class="button-link" href=download download=FILE>{format!("Download {FILE}")}</a>
            </details>
        </section>
    }
}
