//! Bronze rows: what the source delivered, and when.

use std::sync::Arc;

use serde::Serialize;

use super::calendar::{Day, Instant};
use super::money::Money;

/// A row or business identifier; cheap to clone into traces.
pub type Id = Arc<str>;

/// Lifecycle of a mutable order (merge-style scenarios).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum OrderStatus {
    Placed,
    Paid,
    Shipped,
    Delivered,
    Returned,
    Refunded,
}

/// One bronze row. Immutable events have `id == key` and
/// `updated_at == event_time`; a mutable order has one row per change,
/// sharing `key` and `event_time` (when the order was placed).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event {
    /// The bronze row's own id (a change id for mutable orders).
    pub id: Id,
    /// The business key, e.g. the order id.
    pub key: Id,
    /// When it happened; its date is the event-date partition.
    pub event_time: Instant,
    /// When this version was produced at the source.
    pub updated_at: Instant,
    /// When it became visible to the pipeline.
    pub arrived_at: Instant,
    pub amount: Money,
    pub status: Option<OrderStatus>,
    /// When the source took this row back (a load test's orders deleted,
    /// a day corrected to empty): no read from then on sees it. Bronze
    /// stays append-only for everything else.
    pub withdrawn_at: Option<Instant>,
}

impl Event {
    /// An immutable event (a click, a purchase, a simple order).
    pub fn immutable(id: &str, event_time: Instant, arrived_at: Instant, amount: Money) -> Self {
        let id: Id = Arc::from(id);
        Self {
            key: id.clone(),
            id,
            event_time,
            updated_at: event_time,
            arrived_at,
            amount,
            status: None,
            withdrawn_at: None,
        }
    }

    /// Whether a read at `at` sees this row: arrived, and not taken back.
    pub fn visible_at(&self, at: Instant) -> bool {
        self.arrived_at <= at && self.withdrawn_at.is_none_or(|w| at < w)
    }

    /// The event-date partition this row belongs to.
    pub fn event_date(&self) -> Day {
        self.event_time.date()
    }

    /// The change-date partition (bronze partitions change rows by it).
    pub fn change_date(&self) -> Day {
        self.updated_at.date()
    }
}
