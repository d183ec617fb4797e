//! The allowed lateness as a streaming engine's window setting: the Beam
//! pipeline for the page's month (a profile's, or the user's file), zone,
//! run time and lateness, to copy or download, with the month itself as the
//! CSV the pipeline replays when the lab generated it.

use leptos::prelude::*;

use crate::engine::lateness::Lateness;
use crate::export::beam::{pipeline, Stream, FILE};
use crate::export::BEAM_VERSIONS;

use super::Lab;
use crate::ui::code_file::CodeFile;

/// A generated month the student can download: its file name and a way to
/// write it, run only when the pipeline is opened (a month is about 2 MB).
#[derive(Clone)]
pub struct Month {
    pub file: Signal<String>,
    pub csv: Signal<String>,
}

/// What the page replays through Beam: `subject` names it in sentences
/// ("your file", "the month"); `late` is the page's own count of events
/// that miss their day at `lateness`, when it has one for that setting.
#[component]
pub fn Streaming(
    stream: Signal<Stream>,
    subject: &'static str,
    late: Signal<Option<(Lateness, u64)>>,
    #[prop(optional)] month: Option<Month>,
) -> impl IntoView {
    let lab = expect_context::<Lab>();
    let code = Memo::new(move |_| pipeline(&stream.read()));
    let zone = move || stream.read().zone.name().to_string();
    let drops = move || {
        let lateness = lab.settings.read().lateness;
        let n = late.get().filter(|(at, _)| *at == lateness).map(|(_, n)| n);
        match (lateness, n) {
            (Lateness::Days(l), Some(n)) => format!(
                "Run on {subject} with the lateness set above ({}), it drops {} as late, the ones this page says miss their day, and prints their {}.",
                crate::counted::counted(l, "day"),
                crate::counted::counted(n, "event"),
                if stream.read().id.is_some() { "ids" } else { "lines" },
            ),
            (Lateness::Days(_), None) => format!("Run on {subject}, it prints the events it drops as late."),
            (Lateness::Never, _) => "Partitions that are never final have no Beam equivalent: a window has to close some time, so the file allows ten years, and drops only an event later than that.".to_string(),
        }
    };
    // The month's CSV is written the first time the pipeline is opened.
    let opened = RwSignal::new(false);
    let month_link = month.map(|Month { file, csv }| {
        let url = crate::ui::storage::BlobUrl::owned();
        let href = Memo::new(move |_| {
            opened
                .get()
                .then(|| url.replace(&csv.get(), "text/csv"))
                .flatten()
        });
        view! {
            <p>
                {move || opened.get().then(|| match href.get() {
                    Some(h) => view! {
                        "The month this page shows, one line an event: "
                        <a class="button-link" href=h download=file.get()>{format!("Download {}", file.get())}</a>
                        ", then run "<code>{format!("python {FILE} {}", file.get())}</code>"."
                    }.into_any(),
                    None => "This browser would not make the month's file.".into_any(),
                })}
            </p>
        }
    });
    view! {
        <section class="warehouse" aria-labelledby="streaming-heading">
            <h3 id="streaming-heading">"The same lateness in a streaming engine"</h3>
            <p>
                {move || format!("In Apache Beam (and Flink) allowed lateness is a setting of the window: daily event-time windows in {} that still take an event so many days after their day, and drop what comes later. This file sets it, and replays {subject} through it on Beam's DirectRunner. The two rules meet when each daily run moves the watermark to midnight of its own day: a watermark at the run time itself drops a day too early. ", zone())}
                {drops}
                {format!(" A test runs it on {BEAM_VERSIONS} over the lab's profiles and test logs, across clock changes, and Beam drops exactly the events the lab says are late, by id.")}
            </p>
            <CodeFile
                summary="Apache Beam (Python)".to_string()
                what="The Beam pipeline"
                code=code
                file=FILE.to_string()
                mime="text/x-python"
                opened=opened
            >
                {month_link}
            </CodeFile>
        </section>
    }
}
