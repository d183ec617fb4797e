//! Bronze as the pipeline sees it: indexes for "what had arrived by then".

use crate::lean::sorted::SortedMap;

use super::calendar::{Day, Instant};
use super::config::ListDate;
use super::event::Event;

/// Read-only indexes over a script's events; bronze is append-only, so the
/// rows visible at an instant are always a prefix by arrival time.
pub struct Bronze<'a> {
    events: &'a [Event],
    by_arrival: Vec<usize>,
    by_event_date: SortedMap<Day, Vec<usize>>,
    by_change_date: SortedMap<Day, Vec<usize>>,
    has_versions: bool,
}

impl<'a> Bronze<'a> {
    pub fn index(events: &'a [Event]) -> Self {
        let mut by_arrival: Vec<usize> = (0..events.len()).collect();
        crate::lean::order::sort_by(&mut by_arrival, |&a, &b| {
            let (ea, eb) = (&events[a], &events[b]);
            (ea.arrived_at, &ea.id).cmp(&(eb.arrived_at, &eb.id))
        });
        let mut by_event_date: SortedMap<Day, Vec<usize>> = SortedMap::new();
        let mut by_change_date: SortedMap<Day, Vec<usize>> = SortedMap::new();
        for &i in &by_arrival {
            by_event_date
                .entry(events[i].event_date())
                .or_default()
                .push(i);
            by_change_date
                .entry(events[i].change_date())
                .or_default()
                .push(i);
        }
        let mut keys: Vec<&str> = events.iter().map(|e| &*e.key).collect();
        crate::lean::order::sort(&mut keys);
        let has_versions = keys.windows(2).any(|pair| pair[0] == pair[1]);
        Self {
            events,
            by_arrival,
            by_event_date,
            by_change_date,
            has_versions,
        }
    }

    /// Whether any key has more than one row (a mutable source).
    pub fn has_versions(&self) -> bool {
        self.has_versions
    }

    pub fn event(&self, i: usize) -> &'a Event {
        &self.events[i]
    }

    pub fn events(&self) -> &'a [Event] {
        self.events
    }

    /// Rows that had arrived by `at`, in arrival order.
    pub fn arrived_by(&self, at: Instant) -> &[usize] {
        &self.by_arrival[..self.count_arrived(&self.by_arrival, at)]
    }

    /// Rows that arrived in `(after, at]`, in arrival order.
    pub fn arrived_between(&self, after: Option<Instant>, at: Instant) -> &[usize] {
        let from = after.map_or(0, |after| self.count_arrived(&self.by_arrival, after));
        let to = self.count_arrived(&self.by_arrival, at);
        &self.by_arrival[from.min(to)..to]
    }

    /// One bronze partition as it stood at `at`.
    pub fn partition(&self, over: ListDate, dt: Day, at: Instant) -> &[usize] {
        let index = match over {
            ListDate::EventDate => &self.by_event_date,
            ListDate::ChangeDate => &self.by_change_date,
        };
        index
            .get(&dt)
            .map_or(&[], |rows| &rows[..self.count_arrived(rows, at)])
    }

    fn count_arrived(&self, sorted: &[usize], at: Instant) -> usize {
        sorted.partition_point(|&i| self.events[i].arrived_at <= at)
    }
}
