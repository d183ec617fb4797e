//! The lateness lab's settings and the month it studies.

use crate::engine::calendar::Day;
use crate::engine::generate::{orders, CurrencyMix, DelayProfile, OrderSpec};
use crate::engine::lateness::{Lateness, LatenessStudy};

/// The arrival profiles on offer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Profile {
    #[default]
    Web,
    Mobile,
    Partner,
}

crate::vocabulary::choice!(Profile {
    Web => "web", "Web checkout";
    Mobile => "mobile", "Mobile app, offline users";
    Partner => "partner", "Partner batch files";
});

crate::vocabulary::choice!(AfterPolicy {
    Drop => "drop", "drop them";
    Adjust => "adjust", "book them as adjustments";
});

impl Profile {
    pub const ALL: [Profile; 3] = [Profile::Web, Profile::Mobile, Profile::Partner];

    pub fn description(self) -> &'static str {
        match self {
            Profile::Web => "Purchases reach the pipeline within seconds or minutes; a few stragglers take hours.",
            Profile::Mobile => "Most purchases arrive within minutes, but phones that were offline upload days later: a long tail of up to three weeks.",
            Profile::Partner => "A partner sends a file each morning at 06:00 with yesterday's sales; some files come two or three days late, a few a week late.",
        }
    }

    fn delays(self) -> DelayProfile {
        match self {
            Profile::Web => DelayProfile::WebCheckout,
            Profile::Mobile => DelayProfile::MobileOffline,
            Profile::Partner => DelayProfile::PartnerBatch,
        }
    }
}

/// What happens to events that arrive after their partition is final.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum AfterPolicy {
    Drop,
    #[default]
    Adjust,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    pub profile: Profile,
    pub lateness: Lateness,
    pub after: AfterPolicy,
    pub present: bool,
    /// The day whose 02:00 run the calendar shows.
    pub today: Day,
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            profile: Profile::Web,
            lateness: Lateness::Days(2),
            after: AfterPolicy::Adjust,
            present: false,
            today: august(20),
        }
    }
}

/// The slider's range: 0..=14 days, then "never finalise".
pub const MAX_DAYS: u32 = 14;

/// A day of August 2026 (clamped into the month).
pub use crate::engine::calendar::aug as august;

/// Purchases a day in the studied month.
pub const PER_DAY: u32 = 1_200;

/// The month of events for a profile: seeded, so every visit sees the same data.
pub fn study(profile: Profile) -> LatenessStudy {
    let spec = OrderSpec {
        seed: 20_260_801 + profile as u64,
        first: august(1),
        last: august(31),
        per_day: PER_DAY,
        mix: CurrencyMix::GBP_ONLY,
        delays: profile.delays(),
        min_minor: 99,
        max_minor: 4_999,
    };
    LatenessStudy::new(&orders(&spec), august(1), august(31))
}

/// A partition's state as the calendar shows it, seen right after the
/// 02:00 run on `today`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DayStatus {
    /// Final: no run will change it again.
    Final,
    /// Rebuilt by today's run (and by later ones until it is final).
    Rebuilt,
    /// Its first build is still to come.
    NotBuilt,
}

pub fn day_status(day: Day, today: Day, lateness: Lateness) -> DayStatus {
    if day >= today {
        return DayStatus::NotBuilt;
    }
    match lateness {
        Lateness::Never => DayStatus::Rebuilt,
        Lateness::Days(l) => {
            let (first, _) = crate::engine::lateness::rebuilt_by_run_on(today, l);
            if day < first {
                DayStatus::Final
            } else {
                DayStatus::Rebuilt
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::calendar::days;

    #[test]
    fn today_rebuilds_lateness_plus_one_partitions_once_the_month_has_started() {
        for l in 0..=MAX_DAYS {
            for today in 2..=31 {
                let rebuilt = days(august(1), august(31))
                    .filter(|d| {
                        day_status(*d, august(today), Lateness::Days(l)) == DayStatus::Rebuilt
                    })
                    .count() as u32;
                let built_days = today - 1;
                assert_eq!(rebuilt, (l + 1).min(built_days), "L={l} today={today}");
            }
        }
    }

    #[test]
    fn never_finalising_rebuilds_every_built_day() {
        let rebuilt = days(august(1), august(31))
            .filter(|d| day_status(*d, august(20), Lateness::Never) == DayStatus::Rebuilt)
            .count();
        assert_eq!(rebuilt, 19);
    }
}
