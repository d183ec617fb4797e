//! The source pool's connections over time (`labs::pool`), drawn: a lane
//! per connection, bars for what held it, a dashed gap for a scheduled
//! run's wait, and above them, when dates asked for more at once than
//! the pool has, a lane of the dates queueing for a connection. Every bar
//! is also a row of the table beside it, and carries its words, so the
//! picture never relies on colour alone.

use chrono::Duration;
use leptos::prelude::*;

use crate::engine::calendar::hh_mm;
use crate::labs::pool::{Holder, PoolPicture};

const WIDTH: i64 = 1000;
const LEFT: i64 = 96;
const LANE: i64 = 30;
const GAP: i64 = 8;
const AXIS: i64 = 26;
/// Room above the first lane for a wait's words.
const TOP: i64 = 18;
/// Rows of the table at most: a 730-date backfill would fill the page.
const TABLE_ROWS: usize = 80;

fn tick_every(minutes: i64) -> i64 {
    [5, 10, 15, 30, 60, 120, 240]
        .into_iter()
        .find(|t| minutes / t <= 10)
        .unwrap_or(480)
}

#[component]
pub fn PoolTimeline(
    picture: PoolPicture,
    #[prop(into)] id: String,
    title: &'static str,
) -> impl IntoView {
    let span = picture.minutes.max(1);
    let x = move |m: i64| LEFT + m.clamp(0, span) * (WIDTH - LEFT - 8) / span;
    // The queue, when there is one, takes the top lane.
    let queued = !picture.queue.is_empty();
    let first_lane = i64::from(queued);
    let lane_y = move |lane: u32| TOP + (i64::from(lane) + first_lane) * (LANE + GAP);
    let height = TOP + (i64::from(picture.lanes) + first_lane) * (LANE + GAP) + AXIS + 4;
    let start = picture.start;
    let at = move |m: i64| hh_mm(start + Duration::minutes(m));
    let summary = picture.summary();
    let lanes = (0..picture.lanes)
        .map(|lane| {
            let y = lane_y(lane);
            view! {
                <g class="pool-lane">
                    <rect class="pool-lane-bg" x=LEFT y=y width=WIDTH - LEFT - 8 height=LANE />
                    <text class="pool-lane-name" x=4 y=y + 20>{format!("connection {}", lane + 1)}</text>
                </g>
            }
        })
        .collect_view();
    let queue_lane = queued.then(|| {
        let y = TOP;
        let stretches = picture
            .queue
            .iter()
            .map(|q| {
                let (x0, x1) = (x(q.from), x(q.to));
                let n = q.dates.len();
                view! {
                    <g class="pool-queue">
                        <rect x=x0 y=y + 3 width=(x1 - x0).max(2) height=LANE - 6 rx=3 />
                        {(x1 - x0 >= 70).then(|| view! { <text x=x0 + 4 y=y + 20>{format!("{n} waiting")}</text> })}
                    </g>
                }
            })
            .collect_view();
        view! {
            <g class="pool-queue-lane">
                <rect class="pool-lane-bg" x=LEFT y=y width=WIDTH - LEFT - 8 height=LANE />
                <text class="pool-lane-name" x=4 y=y + 20>"queued"</text>
            </g>
            {stretches}
        }
    });
    let every = tick_every(span);
    let ticks = (0..=span / every)
        .map(|i| {
            let m = i * every;
            let tx = x(m);
            let ty = height - AXIS + 4;
            view! {
                <g class="pool-tick">
                    <line x1=tx x2=tx y1=0 y2=ty />
                    <text x=tx y=ty + 16>{at(m)}</text>
                </g>
            }
        })
        .collect_view();
    let bars = picture
        .bars
        .iter()
        .map(|b| {
            let class = match b.holder {
                Holder::Silver(_) => "pool-bar silver",
                Holder::Gold(_) => "pool-bar gold",
                Holder::Cancelled(_) => "pool-bar cancelled",
                Holder::Scheduled(_) => "pool-bar scheduled",
            };
            let mark = b.mark();
            let (x0, x1) = (x(b.from), x(b.to));
            let y = lane_y(b.lane);
            let wide = x1 - x0 >= 34;
            view! {
                <g class=class>
                    <rect x=x0 y=y + 3 width=(x1 - x0).max(2) height=LANE - 6 rx=3 />
                    {wide.then(|| view! { <text x=x0 + 4 y=y + 20>{mark}</text> })}
                </g>
            }
        })
        .collect_view();
    let waits = picture
        .waits
        .iter()
        .map(|w| {
            let y = lane_y(w.lane) + LANE / 2;
            let (x0, x1) = (x(w.asked), x(w.got));
            view! {
                <g class="pool-wait">
                    <line x1=x0 x2=x1 y1=y y2=y />
                    <circle cx=x0 cy=y r=4 />
                    <text x=x0 y=y - LANE / 2 - 4>{picture.wait_label(w)}</text>
                </g>
            }
        })
        .collect_view();
    let rows: Vec<String> = picture.bars.iter().map(|b| b.words(start)).collect();
    let more = rows.len().saturating_sub(TABLE_ROWS);
    let title_id = format!("{id}-title");
    let desc_id = format!("{id}-desc");
    let labelled_by = format!("{title_id} {desc_id}");
    view! {
        <figure class="pool" data-figure=id.clone()>
            <figcaption id=title_id.clone()>{title}</figcaption>
            // A phone scrolls the timeline sideways at its full size rather
            // than shrink its words to 4 px; the keyboard can scroll it too.
            <div class="pool-scroll" tabindex="0" role="group" aria-labelledby=title_id.clone()>
                <svg
                    class="pool-chart"
                    role="img"
                    aria-labelledby=labelled_by
                    viewBox=format!("0 0 {WIDTH} {height}")
                    preserveAspectRatio="xMinYMin meet"
                >
                    <desc id=desc_id>{summary.clone()}</desc>
                    {queue_lane}
                    {lanes}
                    {ticks}
                    {bars}
                    {waits}
                </svg>
            </div>
            <p class="legend-line">
                "S silver · G gold · ✕ started, then cancelled · run: a scheduled run · a dashed line: a run waiting for a connection"
                {queued.then_some(" · queued: dates under way with no connection free, how many at each moment")}
            </p>
            <details>
                <summary>"The timeline in words"</summary>
                <p>{summary}</p>
                <ul class="pool-rows">
                    {rows.into_iter().take(TABLE_ROWS).map(|r| view! { <li>{r}</li> }).collect_view()}
                </ul>
                {(more > 0).then(|| view! { <p class="muted">{format!("and {more} more")}</p> })}
            </details>
        </figure>
    }
}
