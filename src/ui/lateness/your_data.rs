//! "Your data": the user's arrival log, read in this browser chunk by
//! chunk (the page keeps answering, with a progress bar and a Stop
//! button), and what the slider's allowed lateness means for it. The file
//! never leaves the page: it is not uploaded, stored or put in the link.
//! Its header row is read first, so the user can say which columns hold
//! what; the file is kept while the page is open, so other columns or
//! another time zone read it again.

use std::sync::Arc;

use leptos::prelude::*;

use wasm_bindgen::JsCast;

use crate::engine::arrivals::{CloseRule, Completeness, LogFigures};
use crate::engine::calendar::{parse_iso_date, shift, Day};
use crate::engine::lateness::Lateness;
use crate::engine::money::thousands;
use crate::engine::zone::{Zone, NAMES};
use crate::export::beam::Stream;
use crate::export::drift::Dialect;
use crate::export::lateness_sql::{query, Source};
use crate::labs::lateness::arrival_csv::{
    header_names, Loaded, LogError, LogReader, Mapping, HEADER_BYTES, MAX_ROWS,
};
use crate::labs::lateness::query::{parse_run, run_value, target_value};
use crate::labs::lateness::your_data::{
    self, ColumnChoice, Late, Results, MONTH_COLUMNS, REPORT_COLUMNS,
};
use crate::labs::lateness::AfterPolicy;
use crate::labs::lateness::{CLOSE_DAYS, MAX_DAYS, TARGETS};
use crate::ui::later::{Fetch, Later};

use crate::ui::html::Html;

use super::curve::Curve;
use super::histogram::Histogram;
use super::streaming::Streaming;
use super::Lab;

/// Bytes read per slice: about 40,000 rows, a few tens of milliseconds.
const CHUNK: f64 = 2_097_152.0;

/// What the user gave: a file (read from disk a slice at a time) or text.
#[derive(Clone)]
enum Input {
    File(web_sys::File),
    Text(Vec<u8>),
}

impl Input {
    fn size(&self) -> f64 {
        match self {
            Input::File(file) => file.size(),
            Input::Text(bytes) => bytes.len() as f64,
        }
    }

    async fn slice(&self, start: f64, end: f64) -> Result<Vec<u8>, String> {
        let unreadable = || your_data::UNREADABLE.to_string();
        match self {
            Input::File(file) => {
                let blob = file
                    .slice_with_f64_and_f64(start, end)
                    .map_err(|_| unreadable())?;
                let buffer = wasm_bindgen_futures::JsFuture::from(blob.array_buffer())
                    .await
                    .map_err(|_| unreadable())?;
                Ok(js_sys::Uint8Array::new(&buffer).to_vec())
            }
            Input::Text(bytes) => Ok(bytes
                .get(start as usize..end as usize)
                .unwrap_or_default()
                .to_vec()),
        }
    }
}

/// A log read to the end, with where it came from and how it was read.
pub struct Log {
    pub name: String,
    pub loaded: Loaded,
    pub mapping: Mapping,
    /// The choice of file it was read from (`Chosen::id`).
    id: u64,
}

impl Log {
    fn zone(&self) -> Zone {
        self.loaded.log.zone()
    }
}

/// A file chosen (or text pasted), kept to be read again with other
/// columns or zone; `id` tells one choice from the next, whatever its name.
#[derive(Clone)]
struct Chosen {
    name: String,
    input: Input,
    id: u64,
}

/// The names the warehouse query uses: the file's columns until the user
/// types others, kept across reads of the same columns.
#[derive(Clone, Debug, PartialEq)]
struct SqlNames {
    table: String,
    event: String,
    arrival: String,
    value: String,
}

impl SqlNames {
    fn of(mapping: &Mapping, table: String) -> Self {
        SqlNames {
            table,
            event: mapping.event.clone(),
            arrival: mapping.arrival.clone(),
            value: mapping.value.clone().unwrap_or_default(),
        }
    }
}

/// The chosen file's columns as the picker holds them: the choice, the
/// file it belongs to, and why it cannot be read once the user tried.
#[derive(Clone, Debug, Default, PartialEq)]
struct Columns {
    /// The file's name and its choice's id.
    file: String,
    id: u64,
    choice: ColumnChoice,
    problem: Option<String>,
}

#[derive(Clone, Debug, PartialEq)]
struct Reading {
    name: String,
    done: f64,
    size: f64,
    rows: u64,
}

/// What the page holds of the user's data; it lives as long as the lab
/// page, so switching profile and back keeps it.
#[derive(Clone, Copy)]
pub struct YourData {
    log: RwSignal<Option<Arc<Log>>>,
    reading: RwSignal<Option<Reading>>,
    message: RwSignal<Option<String>>,
    /// Bumped to stop a read in progress (and by every new read).
    generation: StoredValue<u64>,
    /// The file chosen last, which the column picker reads.
    chosen: StoredValue<Option<Chosen>, LocalStorage>,
    /// The file the figures were read from, which a new zone reads again.
    read_from: StoredValue<Option<Chosen>, LocalStorage>,
    columns: RwSignal<Option<Columns>>,
    sql: RwSignal<SqlNames>,
}

impl Default for YourData {
    fn default() -> Self {
        Self::new()
    }
}

impl YourData {
    pub fn new() -> Self {
        YourData {
            log: RwSignal::new(None),
            reading: RwSignal::new(None),
            message: RwSignal::new(None),
            generation: StoredValue::new(0),
            chosen: StoredValue::new_local(None),
            read_from: StoredValue::new_local(None),
            columns: RwSignal::new(None),
            sql: RwSignal::new(SqlNames::of(
                &Mapping {
                    event: "event_time".to_string(),
                    arrival: "arrival_time".to_string(),
                    value: Some("value".to_string()),
                },
                "arrivals".to_string(),
            )),
        }
    }

    /// Reads a new file's header row; reads the file itself at once if
    /// the header has the lab's own names, else asks for its columns.
    fn choose(self, name: String, input: Input, zone: Zone) {
        // A new choice ends any read in progress.
        let generation = self.next_generation();
        self.reading.set(None);
        self.message.set(None);
        leptos::task::spawn_local(async move {
            let size = input.size();
            if size <= 0.0 {
                let why = LogError::Empty.to_string();
                self.message.set(Some(your_data::not_read(&name, &why, "")));
                return;
            }
            // The most of a file read to find its header row (1 MB: exact in f64).
            let end = size.min(HEADER_BYTES as f64);
            let start = match input.slice(0.0, end).await {
                Ok(bytes) => bytes,
                Err(why) => {
                    self.message.set(Some(your_data::not_read(&name, &why, "")));
                    return;
                }
            };
            if !self.current(generation) {
                return;
            }
            let names = match header_names(&start, end >= size) {
                Ok(names) => names,
                Err(why) => {
                    let why = why.to_string();
                    self.message.set(Some(your_data::not_read(&name, &why, "")));
                    return;
                }
            };
            let guess = Mapping::guess(&names);
            self.columns.set(Some(Columns {
                file: name.clone(),
                id: generation,
                choice: ColumnChoice::of(names, guess.as_ref()),
                problem: None,
            }));
            self.chosen.set_value(Some(Chosen {
                name,
                input,
                id: generation,
            }));
            if let Some(mapping) = guess {
                self.read(mapping, zone);
            }
        });
    }

    /// Reads the chosen file with `mapping`, its days in `zone`.
    fn read(self, mapping: Mapping, zone: Zone) {
        if let Some(chosen) = self.chosen.get_value() {
            self.read_input(chosen, mapping, zone);
        }
    }

    /// Reads the figures' own file again, with its columns, in `zone`.
    fn reread(self, zone: Zone) {
        let mapping = self
            .log
            .read_untracked()
            .as_ref()
            .map(|l| l.mapping.clone());
        if let (Some(chosen), Some(mapping)) = (self.read_from.get_value(), mapping) {
            self.read_input(chosen, mapping, zone);
        }
    }

    fn next_generation(&self) -> u64 {
        self.generation.update_value(|g| *g = g.wrapping_add(1));
        self.generation.get_value()
    }

    fn current(&self, generation: u64) -> bool {
        self.generation.get_value() == generation
    }

    /// Reads `input` slice by slice; a new read or Stop ends this one.
    fn read_input(self, chosen: Chosen, mapping: Mapping, zone: Zone) {
        let generation = self.next_generation();
        let size = chosen.input.size();
        self.message.set(None);
        self.reading.set(Some(Reading {
            name: chosen.name.clone(),
            done: 0.0,
            size,
            rows: 0,
        }));
        leptos::task::spawn_local(async move {
            let reader = LogReader::with(Some(mapping.clone()), zone);
            let result = self
                .read_slices(reader, &chosen.input, size, generation)
                .await;
            self.finish(chosen, mapping, generation, result);
        });
    }

    async fn read_slices(
        &self,
        mut reader: LogReader,
        input: &Input,
        size: f64,
        generation: u64,
    ) -> Result<Option<Loaded>, String> {
        let mut offset = 0.0;
        while offset < size {
            if !self.current(generation) {
                return Ok(None);
            }
            let end = (offset + CHUNK).min(size);
            let bytes = input.slice(offset, end).await?;
            reader.feed(&bytes).map_err(|e| e.to_string())?;
            offset = end;
            self.reading.update(|r| {
                if let Some(r) = r {
                    r.done = offset;
                    r.rows = reader.rows();
                }
            });
            // Let the browser paint the progress and handle input.
            crate::ui::slices::yield_to_browser().await;
        }
        if !self.current(generation) {
            return Ok(None);
        }
        reader
            .finish()
            .map(Some)
            .map_err(|e| your_data::describe(&e))
    }

    fn finish(
        &self,
        chosen: Chosen,
        mapping: Mapping,
        generation: u64,
        result: Result<Option<Loaded>, String>,
    ) {
        if !self.current(generation) {
            return;
        }
        self.reading.set(None);
        match result {
            Ok(Some(loaded)) => {
                self.message.set(None);
                // Names typed for the warehouse stay while the columns do.
                let same_columns = self
                    .log
                    .read_untracked()
                    .as_ref()
                    .is_some_and(|l| l.mapping == mapping);
                if !same_columns {
                    self.sql
                        .update(|n| *n = SqlNames::of(&mapping, std::mem::take(&mut n.table)));
                }
                self.log.set(Some(Arc::new(Log {
                    name: chosen.name.clone(),
                    loaded,
                    mapping,
                    id: chosen.id,
                })));
                self.read_from.set_value(Some(chosen));
            }
            Ok(None) => {}
            Err(why) => {
                self.message.set(Some(your_data::not_read(
                    &chosen.name,
                    &why,
                    &self.still_shown(),
                )));
            }
        }
    }

    /// What the figures still on the page are, after a read that did not end.
    fn still_shown(&self) -> String {
        let log = self.log.read_untracked();
        your_data::still_shown(log.as_ref().map(|l| (l.name.as_str(), l.zone())))
    }

    fn stop(&self) {
        self.next_generation();
        self.reading.set(None);
        self.message
            .set(Some(your_data::stopped(&self.still_shown())));
    }
}

/// The reader of a user's own log and its panel: a chunk of the lateness
/// part's wasm of its own (`ui::later`), fetched when "Your data" is
/// chosen or a moment after the lab is live.
pub struct Reader {
    pub panel: fn() -> AnyView,
}

/// The reader itself: only the lateness part's `#[lazy]` loader names it
/// (src/bin/partition-lab-lateness.rs).
pub static READER: Reader = Reader {
    panel: || view! { <YourDataPanel /> }.into_any(),
};

/// The reader, in the lateness part a chunk of its own.
pub static LATER: Later<Reader> = Later::new();

/// What the section says while the reader downloads.
const FETCHING: &str = "Fetching the reader for your own data…";
/// What it says when it could not be fetched.
const NOT_FETCHED: &str =
    "The reader for your own data could not be fetched: check the connection, then try again.";

/// "Your data" as the student chose it: the panel once its reader has
/// come, meanwhile a line that says it is on its way (and, if it could not
/// come, a way to try again).
#[component]
pub fn YourDataSection() -> impl IntoView {
    let fetch = Fetch::new(&LATER);
    fetch.start();
    move || match fetch.ready.get() {
        Some(r) => (r.panel)(),
        None => view! { <div class="your-data-fetch">{fetch.status(FETCHING, NOT_FETCHED)}</div> }
            .into_any(),
    }
}

#[component]
fn YourDataPanel() -> impl IntoView {
    let lab = expect_context::<Lab>();
    let data = expect_context::<YourData>();
    let settings = lab.settings;
    let run = Memo::new(move |_| settings.read().run);
    let zone = Memo::new(move |_| settings.read().zone);
    // A day in another zone holds other events: a new zone reads the file
    // again, with the columns it was read with.
    Effect::new(move |_| {
        let zone = zone.get();
        let stale = data
            .log
            .read()
            .as_ref()
            .is_some_and(|log| log.zone() != zone);
        if stale {
            data.reread(zone);
        }
    });
    let close = Memo::new(move |_| CloseRule {
        business_day: settings.read().close_day,
    });
    let completeness: Memo<Option<Arc<Completeness>>> = Memo::new(move |_| {
        data.log
            .read()
            .as_ref()
            .map(|log| Arc::new(log.loaded.log.at_run_time(run.get())))
    });
    let lateness = Memo::new(move |_| lab.live.get());
    let figures = Memo::new(move |_| {
        completeness
            .read()
            .as_ref()
            .map(|c| c.figures(lateness.get(), close.get()))
    });
    let curve = Signal::derive(move || {
        completeness
            .read()
            .as_ref()
            .map(|c| c.curve(MAX_DAYS))
            .unwrap_or_default()
    });
    let current = Signal::derive(move || {
        figures
            .read()
            .as_ref()
            .map_or((Lateness::Days(0), 0), |f| (f.lateness, f.value_bp))
    });
    let full_at = Signal::derive(move || {
        completeness
            .read()
            .as_ref()
            .and_then(|c| c.recommend(10_000))
    });
    let buckets = Signal::derive(move || {
        data.log
            .read()
            .as_ref()
            .map(|l| l.loaded.log.histogram())
            .unwrap_or_default()
    });
    let about = Signal::derive(move || {
        data.log
            .read()
            .as_ref()
            .map(|l| your_data::histogram_about(&l.name, &l.loaded))
            .unwrap_or_default()
    });

    let on_file = move |ev: leptos::ev::Event| {
        if let Some(file) = crate::ui::storage::chosen_file(&ev) {
            data.choose(
                file.name(),
                Input::File(file),
                settings.read_untracked().zone,
            );
        }
    };
    let on_drop = move |ev: leptos::ev::DragEvent| {
        ev.prevent_default();
        if let Some(file) = ev
            .data_transfer()
            .and_then(|t| t.files())
            .and_then(|files| files.get(0))
        {
            data.choose(
                file.name(),
                Input::File(file),
                settings.read_untracked().zone,
            );
        }
    };
    let pasted = RwSignal::new(String::new());

    view! {
        <section class="your-data" aria-labelledby="your-data-heading">
            <h2 id="your-data-heading">"Your arrival log"</h2>
            <p class="privacy">
                "Your file is read here, in this browser. Nothing is uploaded, stored, or put in the link; leaving the page forgets it."
            </p>
            <div
                class="drop-zone"
                on:dragover=move |ev: leptos::ev::DragEvent| ev.prevent_default()
                on:drop=on_drop
            >
                <label for="arrival-file">"Choose a CSV file (or drop it here)"</label>
                <input id="arrival-file" type="file" accept=".csv,text/csv,text/plain" on:change=on_file />
                <p class="muted">
                    {format!("A header row naming the columns: you choose which hold the event time, the arrival time and the value, if you have one (event_time, arrival_time and value are found by themselves; other columns are ignored). Times in ISO 8601, such as 2026-08-03T09:10:00Z or 2026-08-03 11:10:00+02:00; without an offset they are UTC. Up to {} rows or 250 MB.", thousands(MAX_ROWS))}
                </p>
            </div>
            <details class="paste">
                <summary>"Or paste CSV text"</summary>
                <label for="arrival-text">"CSV text, header row first"</label>
                <textarea id="arrival-text" rows="6" spellcheck="false" on:input=move |ev| pasted.set(event_target_value(&ev))></textarea>
                <button type="button" on:click=move |_| data.choose("the pasted text".to_string(), Input::Text(pasted.get_untracked().into_bytes()), settings.read_untracked().zone)>"Read the pasted text"</button>
            </details>
            {move || {
                data.reading.get().map(|r| {
                    let share = if r.size > 0.0 { (r.done / r.size * 100.0).round() as u32 } else { 100 };
                    view! {
                        <div class="reading" role="status">
                            <label for="reading-progress">{format!("Reading {}", r.name)}</label>
                            <progress id="reading-progress" max="100" value=share.to_string()></progress>
                            <span>{your_data::rows_read(r.rows, share)}</span>
                            <button type="button" on:click=move |_| data.stop()>"Stop reading"</button>
                        </div>
                    }
                })
            }}
            <p class="field-error" role="alert">{move || data.message.get()}</p>
            <ColumnPicker />
            <div class="your-settings">
                <ZonePicker />
                <div>
                    <label for="run-time">{move || format!("Daily run time ({})", zone.get().name())}</label>
                    <input
                        id="run-time"
                        type="time"
                        step="60"
                        prop:value=move || run_value(run.get())
                        on:change=move |ev| {
                            if let Some(t) = parse_run(&event_target_value(&ev)) {
                                lab.update(|s| s.run = t);
                            }
                        }
                    />
                </div>
                <div>
                    <label for="close-rule">"Finance closes a month by its"</label>
                    <select id="close-rule" prop:value=move || settings.read().close_day.to_string() on:change=move |ev| {
                        if let Ok(n) = event_target_value(&ev).parse::<u32>() {
                            lab.update(|s| s.close_day = n);
                        }
                    }>
                        {CLOSE_DAYS
                            .map(|n| view! { <option value=n.to_string()>{format!("{} business day of the next month", your_data::ordinal(n))}</option> })
                            .collect_view()}
                    </select>
                </div>
                <div>
                    <label for="target">"Target completeness by value"</label>
                    <select id="target" prop:value=move || target_value(settings.read().target_bp) on:change=move |ev| {
                        let given = event_target_value(&ev);
                        if let Some(t) = TARGETS.into_iter().find(|t| target_value(*t) == given) {
                            lab.update(|s| s.target_bp = t);
                        }
                    }>
                        {TARGETS
                            .map(|t| view! { <option value=target_value(t)>{format!("{} %", target_value(t))}</option> })
                            .collect_view()}
                    </select>
                </div>
            </div>
            <p id="zone-note" class="muted explain-text">
                {move || format!(
                    "Partition d holds the events of day d in {}, and the run is at its local time{}. Where the clocks change, a run time they skip runs as if they had not changed yet (an hour later by the clock), and one that happens twice runs once, at the first. Times in the file without an offset are read as UTC. The lab holds {} zones, with their clock rules since {}.",
                    zone.get().name(),
                    your_data::run_days(data.log.read().as_ref().and_then(|l| Some((l.loaded.log.first_day?, l.loaded.log.last_day?))), zone.get(), run.get()),
                    NAMES.len(),
                    crate::engine::zone::RULES_SINCE,
                )}
            </p>
            <div
                class="yours-results"
                inner_html=move || {
                    let log = data.log.get();
                    let c = completeness.read();
                    let f = figures.read();
                    match (log, c.as_ref(), f.as_ref()) {
                        (Some(log), Some(c), Some(f)) => results_html(&your_data::results(&log.name, &log.loaded, c, f, &settings.read())),
                        _ => "<p class=\"muted empty-data\">No data read yet: choose, drop or paste a file above. The slider and the settings are ready for it.</p>".to_string(),
                    }
                }
                on:click=move |ev| {
                    let set = ev
                        .target()
                        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                        .and_then(|e| e.get_attribute("data-set-lateness"))
                        .and_then(|v| v.parse::<u32>().ok());
                    if let Some(l) = set {
                        lab.update(|s| s.lateness = Lateness::Days(l));
                    }
                }
            ></div>
            {move || data.log.read().is_some().then(|| view! {
                <Curve curve=curve current=current full_at=full_at subject="your data" />
                <div class="two-col">
                    <YourCalendar />
                    <Histogram buckets=buckets about=about />
                </div>
                <YourLateRows figures=figures />
            })}
            {move || data.log.get().map(|log| view! {
                <Warehouse log=log.clone() />
                <YourStreaming log=log figures=figures />
            })}
        </section>
    }
}

/// The Beam pipeline for the user's file, its columns, zone and run time.
#[component]
fn YourStreaming(log: Arc<Log>, figures: Memo<Option<LogFigures>>) -> impl IntoView {
    let lab = expect_context::<Lab>();
    let zone = log.loaded.log.zone();
    let mapping = log.mapping.clone();
    let stream = Signal::derive(move || {
        let s = lab.settings.read();
        Stream {
            event_time: mapping.event.clone(),
            arrival_time: mapping.arrival.clone(),
            value: mapping.value.clone(),
            id: None,
            run: s.run,
            zone,
            lateness: s.lateness,
        }
    });
    let late = Signal::derive(move || {
        figures
            .read()
            .as_ref()
            .map(|f| (f.lateness, f.after_final.count))
    });
    view! { <Streaming stream=stream subject="your file" late=late /> }
}

/// Which of the chosen file's columns hold what: shown once its header
/// row is read, so a file with any column names can be read.
#[component]
fn ColumnPicker() -> impl IntoView {
    let lab = expect_context::<Lab>();
    let data = expect_context::<YourData>();
    let select = move |id: &'static str,
                       label: &'static str,
                       none: Option<&'static str>,
                       get: fn(&Columns) -> Option<usize>,
                       set: fn(&mut Columns, Option<usize>)| {
        view! {
            <div>
                <label for=id>{label}</label>
                <select
                    id=id
                    on:change=move |ev| {
                        let picked = event_target_value(&ev).parse::<usize>().ok();
                        data.columns.update(|c| {
                            if let Some(c) = c {
                                set(c, picked);
                                c.problem = None;
                            }
                        });
                    }
                >
                    <option value="" selected=move || data.columns.read().as_ref().and_then(get).is_none()>
                        {none.unwrap_or("choose a column")}
                    </option>
                    {move || {
                        let choice = data.columns.read().as_ref().map(|c| c.choice.clone()).unwrap_or_default();
                        (0..choice.names.len())
                            .map(|i| {
                                let shown = choice.shown(i);
                                view! {
                                    <option value=i.to_string() selected=move || data.columns.read().as_ref().and_then(get) == Some(i)>
                                        {shown}
                                    </option>
                                }
                            })
                            .collect_view()
                    }}
                </select>
            </div>
        }
    };
    let read = move |_| {
        let Some(columns) = data.columns.get_untracked() else {
            return;
        };
        match columns.choice.mapping() {
            Ok(mapping) => data.read(mapping, lab.settings.read_untracked().zone),
            Err(why) => data.columns.update(|c| {
                if let Some(c) = c {
                    c.problem = Some(why);
                }
            }),
        }
    };
    let name = move || {
        data.columns
            .read()
            .as_ref()
            .map(|c| c.file.clone())
            .unwrap_or_default()
    };
    view! {
        <Show when=move || data.columns.read().is_some()>
            <fieldset class="columns">
                <legend>{move || format!("The columns of {}", name())}</legend>
                <p class="muted" role="status">
                    {move || {
                        let id = data.columns.read().as_ref().map(|c| c.id);
                        let read = data.log.read().as_ref().is_some_and(|l| Some(l.id) == id);
                        your_data::picker_status(&name(), read)
                    }}
                </p>
                <div class="your-settings">
                    {select("column-event", "Event time (when it happened)", None, |c| c.choice.event, |c, i| c.choice.event = i)}
                    {select("column-arrival", "Arrival time (when it reached the pipeline)", None, |c| c.choice.arrival, |c, i| c.choice.arrival = i)}
                    {select("column-value", "Value (optional)", Some("none: each event counts 1"), |c| c.choice.value, |c, i| c.choice.value = i)}
                </div>
                <button type="button" on:click=read>{move || format!("Read {} with these columns", name())}</button>
                <p class="field-error" role="alert">
                    {move || data.columns.read().as_ref().and_then(|c| c.problem.clone())}
                </p>
            </fieldset>
        </Show>
    }
}

/// The time zone partitions are dated in: any of the zones the lab holds,
/// typed or picked; any other name is refused where it was typed.
#[component]
fn ZonePicker() -> impl IntoView {
    let lab = expect_context::<Lab>();
    let refused = RwSignal::new(None::<String>);
    view! {
        <div>
            <label for="zone">"Partitions are dated in (time zone)"</label>
            <input
                id="zone"
                type="text"
                list="zone-names"
                spellcheck="false"
                autocomplete="off"
                aria-describedby="zone-note"
                prop:value=move || lab.settings.read().zone.name()
                on:change=move |ev| match Zone::named(&event_target_value(&ev)) {
                    Ok(zone) => {
                        refused.set(None);
                        lab.update(|s| s.zone = zone);
                    }
                    Err(e) => refused.set(Some(e.to_string())),
                }
            />
            <datalist id="zone-names">
                {NAMES.map(|n| view! { <option value=n></option> }).collect_view()}
            </datalist>
            <p class="field-error" role="alert">{move || refused.get()}</p>
        </div>
    }
}

/// The month of the log a chosen run sees: which of its partitions that
/// run still rebuilds.
#[component]
fn YourCalendar() -> impl IntoView {
    let lab = expect_context::<Lab>();
    let data = expect_context::<YourData>();
    let range = Memo::new(move |_| {
        data.log
            .read()
            .as_ref()
            .and_then(|l| Some((l.loaded.log.first_day?, l.loaded.log.last_day?)))
    });
    // The run the day after the log's last day: the one that first builds it.
    let chosen = RwSignal::new(None::<Day>);
    let today = Signal::derive(move || {
        chosen
            .get()
            .or_else(|| range.get().map(|(_, last)| shift(last, 1)))
            .unwrap_or_default()
    });
    let bounds = move || {
        range
            .get()
            .map(|(first, last)| (first.to_string(), shift(last, 20).to_string()))
            .unwrap_or_default()
    };
    let picker = view! {
        <label for="your-today">
            {move || format!(
                "Look at the run at {} ({}) on",
                run_value(lab.settings.read().run),
                lab.settings.read().zone.name()
            )}
        </label>
        <input
            id="your-today"
            type="date"
            min=move || bounds().0
            max=move || bounds().1
            prop:value=move || today.get().to_string()
            on:change=move |ev| {
                if let Some(day) = parse_iso_date(&event_target_value(&ev)) {
                    chosen.set(Some(day));
                }
            }
        />
    };
    view! {
        <super::calendar::Month
            picker=picker.into_any()
            today=today
            lateness=Signal::derive(move || lab.live.get())
        />
    }
}

/// The log's events that arrive after their day is final, and where they go.
#[component]
fn YourLateRows(figures: Memo<Option<LogFigures>>) -> impl IntoView {
    let lab = expect_context::<Lab>();
    let data = expect_context::<YourData>();
    let policy = Memo::new(move |_| lab.settings.read().after);
    view! {
        <section class="late-rows" aria-labelledby="your-late-heading">
            <h3 id="your-late-heading">"Events that miss their day"</h3>
            <super::super::widgets::RadioGroup
                legend="An event that arrives after its partition is final is"
                name="your-after"
                options=vec![(AfterPolicy::Drop, "dropped"), (AfterPolicy::Adjust, "booked to an adjustments table")]
                current=Signal::derive(move || policy.get())
                on_pick=move |p| lab.update(|s| s.after = p)
            />
            <div inner_html=move || {
                let log = data.log.get();
                let f = figures.read();
                match (log, f.as_ref()) {
                    (Some(log), Some(f)) => late_html(&your_data::late(&log.loaded, f, &lab.settings.read())),
                    _ => String::new(),
                }
            }></div>
        </section>
    }
}

/// The log's figures at the current setting (`labs::lateness::your_data`),
/// as markup redrawn whole on each change (see `ui::html`: far smaller in
/// the bundle than a typed view with a node per figure, and a slider step
/// redraws in a millisecond). The "set the slider" button is handled by
/// the container's click.
fn results_html(r: &Results) -> String {
    let mut h = Html::default();
    h.element(
        "p",
        &[("class", "data-summary"), ("data-figure", "yours-rows")],
        &r.summary,
    );
    h.open(
        "section",
        &[
            ("class", "recommendation"),
            ("aria-labelledby", "recommendation-heading"),
        ],
    )
    .element(
        "h3",
        &[("id", "recommendation-heading")],
        "Recommended allowed lateness",
    )
    .element(
        "p",
        &[("data-figure", "yours-recommendation")],
        &r.recommendation,
    );
    if let Some((l, words)) = &r.set_slider {
        h.element(
            "button",
            &[("type", "button"), ("data-set-lateness", &l.to_string())],
            words,
        );
    }
    h.close("section").open("div", &[("class", "figures")]);
    for f in &r.figures {
        let id = format!("yours-{}-heading", f.key);
        h.open("section", &[("class", "figure"), ("aria-labelledby", &id)])
            .element("h3", &[("id", &id)], f.title)
            .element(
                "p",
                &[
                    ("class", "big"),
                    ("data-figure", &format!("yours-{}", f.key)),
                ],
                &f.big,
            )
            .element("p", &[], &f.line)
            .close("section");
    }
    h.close("div")
        .open(
            "section",
            &[("class", "months"), ("aria-labelledby", "months-heading")],
        )
        .element("h3", &[("id", "months-heading")], "Each month in the file")
        .open("div", &[("class", "table-wrap")])
        .open("table", &[])
        .element(
            "caption",
            &[("class", "visually-hidden")],
            "Completeness and close date per month at the current allowed lateness",
        );
    head(&mut h, &MONTH_COLUMNS);
    for m in &r.months {
        h.open("tr", &[("data-month", &m.key)])
            .element("th", &[("scope", "row")], &m.name);
        for cell in [
            &m.events,
            &m.by_value,
            &m.by_events,
            &m.final_after,
            &m.close,
        ] {
            h.element("td", &[], cell);
        }
        h.close("tr");
    }
    h.close("tbody")
        .close("table")
        .close("div")
        .close("section");
    if let Some(out) = &r.left_out {
        h.open(
            "section",
            &[
                ("class", "bad-rows"),
                ("aria-labelledby", "bad-rows-heading"),
            ],
        )
        .element("h3", &[("id", "bad-rows-heading")], &out.heading)
        .open("ul", &[("data-figure", "yours-bad")]);
        for reason in &out.reasons {
            h.element("li", &[], reason);
        }
        h.close("ul")
            .open("div", &[("class", "table-wrap")])
            .open("table", &[])
            .element("caption", &[], &out.caption);
        head(&mut h, &["Line", "Why", "Row as read"]);
        for (line, why, text) in &out.examples {
            h.open("tr", &[])
                .element("th", &[("scope", "row")], line)
                .element("td", &[], why)
                .open("td", &[])
                .element("code", &[], text)
                .close("td")
                .close("tr");
        }
        h.close("tbody")
            .close("table")
            .close("div")
            .close("section");
    }
    h.finish()
}

/// A table's head row of `titles`, and its body opened.
fn head(h: &mut Html, titles: &[&str]) {
    h.open("thead", &[]).open("tr", &[]);
    for title in titles {
        h.element("th", &[("scope", "col")], title);
    }
    h.close("tr").close("thead").open("tbody", &[]);
}

/// What happens to the late events at the current setting, as markup.
fn late_html(late: &Late) -> String {
    let mut h = Html::default();
    h.element("p", &[("data-figure", "yours-late")], &late.sentence);
    if let Some(lost) = &late.lost {
        h.open("p", &[("class", "alarm")])
            .element("span", &[("aria-hidden", "true")], "✕ ")
            .text(lost)
            .close("p");
    }
    if let Some(lines) = &late.report {
        h.open("div", &[("class", "table-wrap")])
            .open(
                "table",
                &[("class", "report"), ("data-figure", "yours-adjustments")],
            )
            .element(
                "caption",
                &[],
                "Report lines by the month they are booked in",
            );
        head(&mut h, &REPORT_COLUMNS);
        for line in lines {
            h.open("tr", &[])
                .element("th", &[("scope", "row")], &line.month)
                .element("td", &[], line.line)
                .element("td", &[], &line.events)
                .element("td", &[], &line.value)
                .close("tr");
        }
        h.close("tbody").close("table").close("div");
    }
    if let Some((lead, examples)) = &late.examples {
        h.element("p", &[], lead)
            .open("ul", &[("class", "late-examples")]);
        for e in examples {
            h.element("li", &[], e);
        }
        h.close("ul");
    }
    h.finish()
}

/// The same analysis as SQL for the user's warehouse.
#[component]
fn Warehouse(log: Arc<Log>) -> impl IntoView {
    let lab = expect_context::<Lab>();
    // The columns the file was read with, as the warehouse names them
    // (the user can change them: a table's names need not be the CSV's).
    let data = expect_context::<YourData>();
    let names = data.sql;
    let zone = log.zone();
    let sql = move |dialect| {
        let n = names.get();
        let source = Source {
            table: n.table,
            event_time: n.event,
            arrival_time: n.arrival,
            value: Some(n.value).filter(|v| !v.trim().is_empty()),
            run: lab.settings.read().run,
            zone,
        };
        query(dialect, &source)
    };
    let field = move |id: &'static str,
                      label: &'static str,
                      get: fn(&SqlNames) -> &String,
                      set: fn(&mut SqlNames) -> &mut String| {
        view! {
            <div>
                <label for=id>{label}</label>
                <input
                    id=id
                    type="text"
                    spellcheck="false"
                    prop:value=move || get(&names.read()).clone()
                    on:input=move |ev| names.update(|n| *set(n) = event_target_value(&ev))
                />
            </div>
        }
    };
    let block = move |dialect: Dialect, title: &'static str| {
        view! {
            <details class="sql">
                <summary>{title}</summary>
                {move || match sql(dialect) {
                    Ok(text) => view! {
                        <pre tabindex="0" aria-label=format!("The {title} query")><code>{text.clone()}</code></pre>
                        <crate::ui::copy::CopyButton text=text what=format!("The {title} query") />
                    }.into_any(),
                    Err(e) => view! { <p class="field-error" role="alert">{e.to_string()}</p> }.into_any(),
                }}
            </details>
        }
    };
    view! {
        <section class="warehouse" aria-labelledby="warehouse-heading">
            <h3 id="warehouse-heading">"The same analysis as SQL"</h3>
            <p>
                {format!("Keep answering the question on your warehouse: one query returns completeness for every allowed lateness from 0 to 14 days, by events and by value, with the run time set above and partitions dated in {}. It gives the numbers this page shows for the same rows (a test runs it on DuckDB and Spark against the lab, across clock changes). The column names are the ones this file was read with; names you type are quoted, never run.", zone.name())}
            </p>
            <div class="your-settings">
                {field("sql-table", "Table", |n| &n.table, |n| &mut n.table)}
                {field("sql-event", "Event time column", |n| &n.event, |n| &mut n.event)}
                {field("sql-arrival", "Arrival time column", |n| &n.arrival, |n| &mut n.arrival)}
                {field("sql-value", "Value column (empty: none)", |n| &n.value, |n| &mut n.value)}
            </div>
            {block(Dialect::DuckDb, "DuckDB")}
            {block(Dialect::SparkSql, "Spark SQL")}
        </section>
    }
}
