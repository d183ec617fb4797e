//! The lateness lab's settings and the month it studies.

use chrono::NaiveTime;

use crate::engine::calendar::Day;
use crate::engine::generate::{order_draws, CurrencyMix, DelayProfile, OrderDraw, OrderSpec};
use crate::engine::lateness::{Baked, Lateness, LatenessStudy};
use crate::engine::zone::Zone;

/// The arrival profiles on offer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Profile {
    #[default]
    Web,
    Mobile,
    Partner,
    /// The user's own arrival log (a CSV read in the browser).
    Yours,
}

crate::vocabulary::choice!(Profile {
    Web => "web", "Web checkout";
    Mobile => "mobile", "Mobile app, offline users";
    Partner => "partner", "Partner batch files";
    Yours => "yours", "Your data (CSV)";
});

crate::vocabulary::choice!(AfterPolicy {
    Drop => "drop", "drop them";
    Adjust => "adjust", "book them as adjustments";
});

impl Profile {
    pub fn description(self) -> &'static str {
        match self {
            Profile::Web => "Purchases reach the pipeline within seconds or minutes; a few stragglers take hours.",
            Profile::Mobile => "Most purchases arrive within minutes, but phones that were offline upload days later: a long tail of up to three weeks.",
            Profile::Partner => "A partner sends a file each morning at 06:00 with yesterday's sales; some files come two or three days late, a few a week late.",
            Profile::Yours => "Your own arrival log: a CSV file with a column for when each event happened, one for when it arrived (and its value, if you have one), partitioned by day in the time zone you name. It is read in this browser and never leaves it.",
        }
    }

    /// The generated profile's delays; `None` for the user's own data.
    fn delays(self) -> Option<DelayProfile> {
        match self {
            Profile::Web => Some(DelayProfile::WebCheckout),
            Profile::Mobile => Some(DelayProfile::MobileOffline),
            Profile::Partner => Some(DelayProfile::PartnerBatch),
            Profile::Yours => None,
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

/// What happens to a late event, as a sentence ends: "... and are {name}".
pub fn policy_name(policy: AfterPolicy) -> &'static str {
    match policy {
        AfterPolicy::Drop => "dropped",
        AfterPolicy::Adjust => "booked to the adjustments table",
    }
}

/// What becomes of the events that arrive after their day is final:
/// "3 events worth £12.00 arrive after their day is final and are
/// dropped.", one event in the singular. `worth` is empty or " worth X".
pub fn late_sentence(count: u64, worth: &str, policy: AfterPolicy) -> String {
    let events = crate::counted::counted(count, "event");
    let name = policy_name(policy);
    if count == 1 {
        format!("{events}{worth} arrives after its day is final and is {name}.")
    } else {
        format!("{events}{worth} arrive after their day is final and are {name}.")
    }
}

/// What dropping those events loses, said as an alarm.
pub fn lost_sentence(count: u64, worth: &str) -> String {
    let events = crate::counted::counted(count, "event");
    let reach = if count == 1 { "reaches" } else { "reach" };
    format!("Lost: {events}{worth} never {reach} any report, and nothing tells finance.")
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    pub profile: Profile,
    pub lateness: Lateness,
    pub after: AfterPolicy,
    pub present: bool,
    /// Presenter mode's second setting, shown beside the first.
    pub compare: Option<Lateness>,
    /// The day whose 02:00 run the calendar shows.
    pub today: Day,
    /// Your data: the daily run's time (local to `zone`, whole minutes).
    pub run: NaiveTime,
    /// Your data: the zone partitions are dated in.
    pub zone: Zone,
    /// Your data: finance closes a month by this business day of the next.
    pub close_day: u32,
    /// Your data: the completeness by value the recommendation aims for,
    /// in hundredths of a percent.
    pub target_bp: u32,
    /// The answer to the lab's question (`guess`): until there is one, no
    /// figure that answers it is drawn. A built-in profile's only.
    pub guess: Option<super::guess::Guess>,
    /// Presenter mode's show of hands: a count per answer band.
    pub room: Option<crate::labs::tally::Tally>,
}

/// The close rules on offer: the 1st to the 10th business day.
pub const CLOSE_DAYS: std::ops::RangeInclusive<u32> = 1..=10;

/// The completeness targets on offer, in hundredths of a percent.
pub const TARGETS: [u32; 6] = [9500, 9900, 9950, 9990, 9999, 10_000];

/// The daily run at 02:00, the lab's default.
pub const DEFAULT_RUN: NaiveTime = match NaiveTime::from_hms_opt(2, 0, 0) {
    Some(t) => t,
    None => NaiveTime::MIN,
};

impl Default for Settings {
    fn default() -> Self {
        Self {
            profile: Profile::Web,
            lateness: Lateness::Days(2),
            after: AfterPolicy::Adjust,
            present: false,
            compare: None,
            today: august(20),
            run: DEFAULT_RUN,
            zone: Zone::UTC,
            close_day: 3,
            target_bp: 9990,
            guess: None,
            room: None,
        }
    }
}

pub use super::slider::MAX_DAYS;

/// A day of August 2026 (clamped into the month).
pub use crate::engine::calendar::aug as august;

/// Purchases a day in the studied month.
pub const PER_DAY: u32 = 1_200;

/// The month of events for a profile, studied: seeded, so every visit sees
/// the same data, and studied ahead of time (`super::baked`, held equal to
/// `study_of_draws` by a test), so the page's first screen does not draw
/// and study 37,200 orders before it answers. The user's own data has its
/// own study (`engine::arrivals`); its month here is empty.
pub fn study(profile: Profile) -> LatenessStudy {
    match baked(profile) {
        Some(month) => LatenessStudy::from_baked(month),
        None => LatenessStudy::of_draws(&[], august(1), august(31)),
    }
}

/// The profile's month as the engine studies its draws: what `study`
/// reads ahead of time.
pub fn study_of_draws(profile: Profile) -> LatenessStudy {
    LatenessStudy::of_draws(&draws(profile), august(1), august(31))
}

fn baked(profile: Profile) -> Option<&'static Baked> {
    match profile {
        Profile::Web => Some(&super::baked::WEB),
        Profile::Mobile => Some(&super::baked::MOBILE),
        Profile::Partner => Some(&super::baked::PARTNER),
        Profile::Yours => None,
    }
}

/// A profile's orders, one by one (none for the user's own data).
pub fn draws(profile: Profile) -> Vec<OrderDraw> {
    let Some(delays) = profile.delays() else {
        return Vec::new();
    };
    let spec = OrderSpec {
        seed: 20_260_801 + profile as u64,
        first: august(1),
        last: august(31),
        per_day: PER_DAY,
        mix: CurrencyMix::GBP_ONLY,
        delays,
        min_minor: 99,
        max_minor: 4_999,
    };
    order_draws(&spec)
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

    /// The months `study` reads are the engine's study of each profile's
    /// draws, every number of them. After a change to the generator or the
    /// study, `PARTITION_LAB_BAKE=1 cargo test -p partition-lab-core baked`
    /// writes `baked.rs` again from the engine.
    #[test]
    fn the_baked_months_are_the_studies_of_their_draws() {
        let months = [
            (Profile::Web, "WEB"),
            (Profile::Mobile, "MOBILE"),
            (Profile::Partner, "PARTNER"),
        ];
        let mut source = String::from(BAKED_HEADER);
        for (profile, name) in months {
            source.push('\n');
            source.push_str(&study_of_draws(profile).bake(name));
        }
        if std::env::var_os("PARTITION_LAB_BAKE").is_some() {
            let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/labs/lateness/baked.rs");
            std::fs::write(path, source).unwrap_or_else(|e| panic!("{path}: {e}"));
            // What was compiled is the file before: it is checked on the
            // next run, without the variable.
            return;
        }
        assert!(
            include_str!("baked.rs") == source,
            "baked.rs is not what the engine studies today: PARTITION_LAB_BAKE=1 cargo test -p partition-lab-core baked"
        );
        for profile in Profile::ALL {
            let Some(_) = profile.delays() else {
                assert!(study(*profile).total.count == 0, "{profile:?}");
                continue;
            };
            assert!(
                months.iter().any(|(p, _)| p == profile),
                "{profile:?} is not baked"
            );
            assert!(
                study(*profile) == study_of_draws(*profile),
                "{profile:?}: the baked month is not the engine's; PARTITION_LAB_BAKE=1 cargo test -p partition-lab-core baked"
            );
        }
        assert!(study(Profile::Mobile).total.count > 30_000);
    }

    use crate::vocabulary::Choice;

    const BAKED_HEADER: &str =
        "//! The lateness lab's built-in months, studied ahead of time (`model::study`).
//! Written by `model::tests::the_baked_months_are_the_studies_of_their_draws`
//! with `PARTITION_LAB_BAKE=1`, which also holds every number here equal to
//! the engine's study of the profile's draws. Not edited by hand.

use crate::engine::lateness::Baked;
";
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
