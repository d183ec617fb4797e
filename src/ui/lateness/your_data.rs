//! "Your data": the user's arrival log, read in this browser chunk by
//! chunk (the page keeps answering, with a progress bar and a Stop
//! button), and what the slider's allowed lateness means for it. The file
//! never leaves the page: it is not uploaded, stored or put in the link.

use std::sync::Arc;

use leptos::prelude::*;

use wasm_bindgen::JsCast;

use crate::engine::arrivals::{CloseRule, Completeness, LogFigures, MonthFigures};
use crate::engine::calendar::{month_short, weekday_day_month, weekday_day_month_time};
use crate::engine::lateness::{percent, Lateness};
use crate::engine::money::thousands;
use crate::export::drift::Dialect;
use crate::export::lateness_sql::{query, Source};
use crate::labs::lateness::arrival_csv::{Loaded, LogError, LogReader, MAX_ROWS};
use crate::labs::lateness::query::{parse_run, run_value, target_value};
use crate::labs::lateness::{Settings, CLOSE_DAYS, MAX_DAYS, TARGETS};

use crate::ui::html::Html;

use super::curve::Curve;
use super::histogram::Histogram;
use super::Lab;

/// Bytes read per slice: about 40,000 rows, a few tens of milliseconds.
const CHUNK: f64 = 2_097_152.0;

/// What the user gave: a file (read from disk a slice at a time) or text.
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
        let unreadable = || "the browser could not read the file".to_string();
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

/// A log read to the end, with where it came from.
pub struct Log {
    pub name: String,
    pub loaded: Loaded,
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
}

impl YourData {
    pub fn new() -> Self {
        YourData {
            log: RwSignal::new(None),
            reading: RwSignal::new(None),
            message: RwSignal::new(None),
            generation: StoredValue::new(0),
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
    fn read(self, name: String, input: Input) {
        let generation = self.next_generation();
        let size = input.size();
        self.message.set(None);
        self.reading.set(Some(Reading {
            name: name.clone(),
            done: 0.0,
            size,
            rows: 0,
        }));
        leptos::task::spawn_local(async move {
            let result = self.read_slices(&input, size, generation).await;
            self.finish(name, generation, result);
        });
    }

    async fn read_slices(
        &self,
        input: &Input,
        size: f64,
        generation: u64,
    ) -> Result<Option<Loaded>, String> {
        let mut reader = LogReader::new();
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
            gloo_timers::future::TimeoutFuture::new(0).await;
        }
        if !self.current(generation) {
            return Ok(None);
        }
        reader.finish().map(Some).map_err(|e| describe(&e))
    }

    fn finish(&self, name: String, generation: u64, result: Result<Option<Loaded>, String>) {
        if !self.current(generation) {
            return;
        }
        self.reading.set(None);
        match result {
            Ok(Some(loaded)) => {
                self.message.set(None);
                self.log.set(Some(Arc::new(Log { name, loaded })));
            }
            Ok(None) => {}
            Err(why) => {
                let kept = if self.log.read_untracked().is_some() {
                    " The figures below are still those of the data you read before."
                } else {
                    ""
                };
                self.message
                    .set(Some(format!("{name} could not be read: {why}{kept}")));
            }
        }
    }

    fn stop(&self) {
        self.next_generation();
        self.reading.set(None);
        self.message.set(Some(
            "Reading stopped. Nothing changed: the figures are those of the data read before, if any.".to_string(),
        ));
    }
}

fn describe(e: &LogError) -> String {
    match e {
        LogError::NoUsableRows { bad, .. } => {
            let reasons: Vec<String> = bad
                .by_problem()
                .into_iter()
                .map(|(p, n)| format!("{} row(s): {}", thousands(n), p.describe()))
                .collect();
            format!("{e} {}.", reasons.join("; "))
        }
        other => other.to_string(),
    }
}

fn month_name(month: (i32, u32)) -> String {
    let (year, m) = month;
    let name = chrono::NaiveDate::from_ymd_opt(year, m, 1).map_or("", month_short);
    format!("{name} {year}")
}

fn days_text(l: u32) -> String {
    if l == 1 {
        "1 day".to_string()
    } else {
        format!("{l} days")
    }
}

/// The latest month of the log, the one finance closes next.
fn latest(f: &LogFigures) -> Option<&MonthFigures> {
    f.months.last()
}

fn close_text(m: &MonthFigures, rule: u32) -> String {
    match (m.close_on, m.deadline) {
        (Some(close), Some(deadline)) if close <= deadline => format!(
            "✓ {}, within the rule ({} business day: {})",
            weekday_day_month(close),
            ordinal(rule),
            weekday_day_month(deadline)
        ),
        (Some(close), Some(deadline)) => format!(
            "✗ {}, after the rule ({} business day: {})",
            weekday_day_month(close),
            ordinal(rule),
            weekday_day_month(deadline)
        ),
        _ => "never: nothing is ever final".to_string(),
    }
}

fn ordinal(n: u32) -> String {
    let suffix = match (n % 10, n % 100) {
        (1, r) if r != 11 => "st",
        (2, r) if r != 12 => "nd",
        (3, r) if r != 13 => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

#[component]
pub fn YourDataPanel() -> impl IntoView {
    let lab = expect_context::<Lab>();
    let data = expect_context::<YourData>();
    let settings = lab.settings;
    let run = Memo::new(move |_| settings.read().run);
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
            .map(|l| {
                format!(
                    "{} events in {}, by delay between happening and arriving.",
                    thousands(l.loaded.used()),
                    l.name
                )
            })
            .unwrap_or_default()
    });

    let on_file = move |ev: leptos::ev::Event| {
        if let Some(file) = crate::ui::storage::chosen_file(&ev) {
            data.read(file.name(), Input::File(file));
        }
    };
    let on_drop = move |ev: leptos::ev::DragEvent| {
        ev.prevent_default();
        if let Some(file) = ev
            .data_transfer()
            .and_then(|t| t.files())
            .and_then(|files| files.get(0))
        {
            data.read(file.name(), Input::File(file));
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
                    {format!("A header row naming event_time and arrival_time, and value if you have one (any order; other columns are ignored). Times in ISO 8601, such as 2026-08-03T09:10:00Z or 2026-08-03 11:10:00+02:00; without an offset they are UTC. Up to {} rows or 250 MB.", thousands(MAX_ROWS))}
                </p>
            </div>
            <details class="paste">
                <summary>"Or paste CSV text"</summary>
                <label for="arrival-text">"CSV text, header row first"</label>
                <textarea id="arrival-text" rows="6" spellcheck="false" on:input=move |ev| pasted.set(event_target_value(&ev))></textarea>
                <button type="button" on:click=move |_| data.read("the pasted text".to_string(), Input::Text(pasted.get_untracked().into_bytes()))>"Read the pasted text"</button>
            </details>
            {move || {
                data.reading.get().map(|r| {
                    let share = if r.size > 0.0 { (r.done / r.size * 100.0).round() as u32 } else { 100 };
                    view! {
                        <div class="reading" role="status">
                            <label for="reading-progress">{format!("Reading {}", r.name)}</label>
                            <progress id="reading-progress" max="100" value=share.to_string()></progress>
                            <span>{format!("{} rows read ({share} %)", thousands(r.rows))}</span>
                            <button type="button" on:click=move |_| data.stop()>"Stop reading"</button>
                        </div>
                    }
                })
            }}
            <p class="field-error" role="alert">{move || data.message.get()}</p>
            <div class="your-settings">
                <div>
                    <label for="run-time">"Daily run time (UTC)"</label>
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
                            .map(|n| view! { <option value=n.to_string()>{format!("{} business day of the next month", ordinal(n))}</option> })
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
            <div
                class="yours-results"
                inner_html=move || {
                    let log = data.log.get();
                    let c = completeness.read();
                    let f = figures.read();
                    match (log, c.as_ref(), f.as_ref()) {
                        (Some(log), Some(c), Some(f)) => results_html(&log, c, f, &settings.read()),
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
                <Histogram buckets=buckets about=about />
            })}
            {move || data.log.get().map(|log| view! { <Warehouse log=log /> })}
        </section>
    }
}

/// Everything the log says at the current setting, as markup redrawn whole
/// on each change (see `ui::html`: far smaller in the bundle than a typed
/// view with a node per figure, and a slider step redraws in a millisecond).
/// The "set the slider" button is handled by the container's click.
fn results_html(log: &Log, c: &Completeness, f: &LogFigures, settings: &Settings) -> String {
    let loaded = &log.loaded;
    let bad = &loaded.bad;
    let rule = settings.close_day;
    let target = settings.target_bp;
    let mut h = Html::default();
    h.element(
        "p",
        &[("class", "data-summary"), ("data-figure", "yours-rows")],
        &format!(
            "Based on {} of the {} rows in {}{}.",
            thousands(loaded.used()),
            thousands(loaded.rows),
            log.name,
            if loaded.has_value {
                ""
            } else {
                " (no value column: by value means by events)"
            }
        ),
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
    );
    match c.recommend(target) {
        None => {
            h.element(
                "p",
                &[("data-figure", "yours-recommendation")],
                &format!(
                    "No allowed lateness up to a year reaches {} % of value.",
                    target_value(target)
                ),
            );
        }
        Some(l) => {
            let at = c.figures(Lateness::Days(l), CloseRule { business_day: rule });
            let month = latest(&at)
                .map(|m| {
                    format!(
                        " {} then closes {}.",
                        month_name(m.month),
                        close_text(m, rule)
                    )
                })
                .unwrap_or_default();
            h.element(
                "p",
                &[("data-figure", "yours-recommendation")],
                &format!(
                    "{}: the smallest allowed lateness that keeps {} % of value complete ({} by value, {} of events). Each run then rebuilds {}.{month}",
                    days_text(l),
                    target_value(target),
                    percent(at.value_bp),
                    percent(at.count_bp),
                    match l.saturating_add(1) {
                        1 => "1 partition".to_string(),
                        n => format!("{n} partitions"),
                    },
                ),
            );
            if l <= MAX_DAYS {
                h.element(
                    "button",
                    &[("type", "button"), ("data-set-lateness", &l.to_string())],
                    &format!("Set the slider to {}", days_text(l)),
                );
            }
        }
    }
    h.close("section");
    let open = match f.open_partitions {
        Some(1) => "1 partition".to_string(),
        Some(n) => format!("{n} partitions"),
        None => "all of them".to_string(),
    };
    let (close_big, close_line) = match latest(f) {
        Some(m) => (
            match (m.close_on, m.on_time()) {
                (None, _) => "never".to_string(),
                (Some(day), true) => format!("✓ {}", weekday_day_month(day)),
                (Some(day), false) => format!("✗ {}", weekday_day_month(day)),
            },
            format!("{}: {}", month_name(m.month), close_text(m, rule)),
        ),
        None => (String::new(), String::new()),
    };
    let complete_line = format!(
        "of the value reaches its own day before the day is final; {} of events ({} of {}). {} event(s) arrive after their day is final.",
        percent(f.count_bp),
        thousands(f.complete.count),
        thousands(f.total.count),
        thousands(f.after_final.count)
    );
    h.open("div", &[("class", "figures")]);
    for (id, title, figure, big, line) in [
        (
            "yours-complete-heading",
            "Complete",
            "yours-complete",
            percent(f.value_bp),
            complete_line,
        ),
        (
            "yours-open-heading",
            "Open each night",
            "yours-open",
            open,
            "Each daily run rebuilds yesterday and the allowed-lateness days before it."
                .to_string(),
        ),
        (
            "yours-close-heading",
            "Latest month closes",
            "yours-close",
            close_big,
            close_line,
        ),
    ] {
        h.open("section", &[("class", "figure"), ("aria-labelledby", id)])
            .element("h3", &[("id", id)], title)
            .element("p", &[("class", "big"), ("data-figure", figure)], &big)
            .element("p", &[], &line)
            .close("section");
    }
    h.close("div");
    h.open(
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
    )
    .open("thead", &[])
    .open("tr", &[]);
    for title in [
        "Month",
        "Events",
        "Complete by value",
        "Complete by events",
        "Last day final after the run of",
        "Finance can close",
    ] {
        h.element("th", &[("scope", "col")], title);
    }
    h.close("tr").close("thead").open("tbody", &[]);
    for m in &f.months {
        h.open(
            "tr",
            &[("data-month", &format!("{}-{:02}", m.month.0, m.month.1))],
        )
        .element("th", &[("scope", "row")], &month_name(m.month))
        .element("td", &[], &thousands(m.total.count))
        .element("td", &[], &percent(m.value_bp))
        .element("td", &[], &percent(m.count_bp))
        .element(
            "td",
            &[],
            &m.final_at
                .map(weekday_day_month_time)
                .unwrap_or_else(|| "never".to_string()),
        )
        .element("td", &[], &close_text(m, rule))
        .close("tr");
    }
    h.close("tbody")
        .close("table")
        .close("div")
        .close("section");
    if bad.total() > 0 {
        h.open(
            "section",
            &[
                ("class", "bad-rows"),
                ("aria-labelledby", "bad-rows-heading"),
            ],
        )
        .element(
            "h3",
            &[("id", "bad-rows-heading")],
            &format!("{} row(s) left out", thousands(bad.total())),
        )
        .open("ul", &[("data-figure", "yours-bad")]);
        for (p, n) in bad.by_problem() {
            h.element("li", &[], &format!("{}: {}", thousands(n), p.describe()));
        }
        h.close("ul")
            .open("div", &[("class", "table-wrap")])
            .open("table", &[])
            .element(
                "caption",
                &[],
                &format!(
                    "The first {} left out, by line (the header is line 1)",
                    bad.examples.len()
                ),
            )
            .open("thead", &[])
            .open("tr", &[]);
        for title in ["Line", "Why", "Row as read"] {
            h.element("th", &[("scope", "col")], title);
        }
        h.close("tr").close("thead").open("tbody", &[]);
        for b in &bad.examples {
            h.open("tr", &[])
                .element("th", &[("scope", "row")], &b.line.to_string())
                .element("td", &[], b.problem.describe())
                .open("td", &[])
                .element("code", &[], &b.text)
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

/// The same analysis as SQL for the user's warehouse.
#[component]
fn Warehouse(log: Arc<Log>) -> impl IntoView {
    let lab = expect_context::<Lab>();
    let table = RwSignal::new("arrivals".to_string());
    let event = RwSignal::new("event_time".to_string());
    let arrival = RwSignal::new("arrival_time".to_string());
    let value = RwSignal::new(if log.loaded.has_value { "value" } else { "" }.to_string());
    let sql = move |dialect| {
        let source = Source {
            table: table.get(),
            event_time: event.get(),
            arrival_time: arrival.get(),
            value: Some(value.get()).filter(|v| !v.trim().is_empty()),
            run: lab.settings.read().run,
        };
        query(dialect, &source)
    };
    let field = move |id: &'static str, label: &'static str, signal: RwSignal<String>| {
        view! {
            <div>
                <label for=id>{label}</label>
                <input id=id type="text" spellcheck="false" value=signal.get_untracked() on:input=move |ev| signal.set(event_target_value(&ev)) />
            </div>
        }
    };
    let block = move |dialect: Dialect, title: &'static str| {
        view! {
            <details class="sql">
                <summary>{title}</summary>
                {move || match sql(dialect) {
                    Ok(text) => view! {
                        <pre><code>{text.clone()}</code></pre>
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
                "Keep answering the question on your warehouse: one query returns completeness for every allowed lateness from 0 to 14 days, by events and by value, with the run time set above. It gives the numbers this page shows for the same rows (a test runs it on DuckDB and Spark against the lab). Names you type are quoted, never run."
            </p>
            <div class="your-settings">
                {field("sql-table", "Table", table)}
                {field("sql-event", "Event time column", event)}
                {field("sql-arrival", "Arrival time column", arrival)}
                {field("sql-value", "Value column (empty: none)", value)}
            </div>
            {block(Dialect::DuckDb, "DuckDB")}
            {block(Dialect::SparkSql, "Spark SQL")}
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordinals_are_spelled_out() {
        assert_eq!(ordinal(1), "1st");
        assert_eq!(ordinal(3), "3rd");
        assert_eq!(ordinal(11), "11th");
    }

    #[test]
    fn months_are_named() {
        assert_eq!(month_name((2028, 2)), "Feb 2028");
    }
}
