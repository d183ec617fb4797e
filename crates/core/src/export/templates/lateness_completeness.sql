-- Completeness by allowed lateness, 0 to {{max_days}} days, by events and {{value_note}},
-- as Partition Lab's lateness lab computes it ({{name}}).
-- Partitions are dated in {{zone}}: an event of day d there is complete at
-- allowed lateness L when it arrived by the daily run at {{run}} {{zone}} on day
-- d+1+L. Where the clocks change, a run time they skip is read as if they
-- had not changed yet (02:30 in a 02:00-03:00 gap runs at 03:30), and one
-- that happens twice runs at its first. Times without an offset are UTC.
-- Rows whose times or value do not read, or that arrived before they
-- happened, are left out, as in the lab
-- (what reads is the warehouse's own cast: it also takes a few shapes the lab
-- refuses, such as a date without a time or a value with an exponent).
-- The counts and sums are exact; the _pct columns are rounded down to
-- hundredths of a percent in floating point, so at an exact boundary they
-- can read 0.01 below the lab. With no events or no value, 100 % (as the lab).
{{setting}}
WITH rows_read AS (
    SELECT
        {{try_cast}}({{event}} AS {{timestamp}}) AS event_at,
        {{try_cast}}({{arrival}} AS {{timestamp}}) AS arrived_at,
        {{size}} AS size
    FROM {{table}}
),
usable AS (
    SELECT * FROM rows_read
    WHERE event_at IS NOT NULL AND arrived_at IS NOT NULL AND size IS NOT NULL
      AND arrived_at >= event_at{{since}}
),
dated AS (
    -- The event's partition day and the arrival's day, in {{zone}}.
    SELECT size, arrived_at, {{event_day}} AS event_day, {{arrival_day}} AS arrival_day
    FROM usable
),
later AS (
    -- The run on the arrival's day (a time that happens twice: its later
    -- occurrence in DuckDB, its first in Spark).
    SELECT *, {{run_later}} AS run_later FROM dated
),
runs AS (
    -- Its first occurrence is an hour before the later one (every clock
    -- change in the zones the lab holds is an hour).
    SELECT *,
        CASE WHEN {{earlier_clock}} = {{run_clock}}
             THEN run_later - INTERVAL 1 HOUR ELSE run_later END AS run_at
    FROM later
),
by_event AS (
    -- Read first by the run on the arrival's day, or the next day's if it came
    -- after that run: needed lateness is the days from d+1 to that run's day.
    SELECT size, greatest(0, {{needed}} - 1) AS needed_days
    FROM runs
)
SELECT
    l.allowed_lateness_days,
    {{count_if}} AS events_complete,
    count(*) AS events_total,
    coalesce(sum(CASE WHEN b.needed_days <= l.allowed_lateness_days THEN b.size END), 0) AS value_complete,
    sum(b.size) AS value_total,
    floor(10000.0 * {{count_if}} / count(*)) / 100 AS events_complete_pct,
    CASE WHEN sum(b.size) = 0 THEN 100.0
         ELSE floor(10000.0 * CAST(coalesce(sum(CASE WHEN b.needed_days <= l.allowed_lateness_days THEN b.size END), 0) AS DOUBLE) / CAST(sum(b.size) AS DOUBLE)) / 100 END AS value_complete_pct
FROM {{days}}
CROSS JOIN by_event AS b
GROUP BY l.allowed_lateness_days
ORDER BY l.allowed_lateness_days;
