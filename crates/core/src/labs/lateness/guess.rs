//! The lateness lab's question before its figures (SPEC 9, 12): for the
//! profile and lateness on show, what share of August's value is in its
//! day when the day becomes final? Until the student answers (or skips),
//! no figure that answers it is drawn. The answer, with the lateness it was
//! given at, is in the address (`predict=`), so the moment after is a link.

use crate::engine::lateness::{percent, Lateness, LatenessFigures};
use crate::vocabulary::{choice, Choice};

use super::slider::{lateness_value, read_lateness};

/// The answers on offer: bands of the share by value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Share {
    Under90,
    Under99,
    Under999,
    AtLeast999,
}

choice!(Share {
    Under90 => "under90", "under 90 %";
    Under99 => "90to99", "90 % to under 99 %";
    Under999 => "99to99.9", "99 % to under 99.9 %";
    AtLeast999 => "99.9up", "99.9 % or more";
});

impl Share {
    /// The band a share (in hundredths of a percent) falls in.
    pub fn of(bp: u32) -> Self {
        match bp {
            0..9_000 => Share::Under90,
            9_000..9_900 => Share::Under99,
            9_900..9_990 => Share::Under999,
            _ => Share::AtLeast999,
        }
    }
}

/// What the student said, and at which lateness.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Guess {
    Picked { share: Share, at: Lateness },
    Skipped,
}

impl Guess {
    /// As the address writes it: `99to99.9@2`, `skip`.
    pub fn value(self) -> String {
        match self {
            Guess::Picked { share, at } => format!("{}@{}", share.name(), lateness_value(at)),
            Guess::Skipped => "skip".to_string(),
        }
    }

    /// From the address, if it is one the lab could have written.
    pub fn read(given: &str) -> Option<Self> {
        let given = given.trim();
        if given == "skip" {
            return Some(Guess::Skipped);
        }
        let (share, at) = given.split_once('@')?;
        Some(Guess::Picked {
            share: Share::from_name(share)?,
            at: read_lateness(at)?,
        })
    }
}

/// The question, for the profile and lateness on show.
pub fn question(profile: &str, lateness: Lateness) -> String {
    let wait = match lateness {
        Lateness::Never => "if no day is ever final".to_string(),
        Lateness::Days(n) => format!(
            "with {} of allowed lateness",
            crate::counted::counted(n, "day")
        ),
    };
    format!("On the {profile} profile, {wait}: what share of August's value is in its day's partition when that partition becomes final?")
}

/// What the answer was, from the figures at the lateness it was given at.
pub fn feedback(guess: Guess, at_guess: &LatenessFigures) -> String {
    let share = at_guess.complete_value_bp;
    let band = Share::of(share);
    match guess {
        Guess::Skipped => format!(
            "Prediction skipped. The share is {}: {}.",
            percent(share),
            band.label()
        ),
        Guess::Picked { share: picked, .. } if picked == band => format!(
            "You said {}, and it is {}: right.",
            picked.label(),
            percent(share)
        ),
        Guess::Picked { share: picked, .. } => {
            let direction = if (picked as u8) < (band as u8) {
                "more of it arrives in time than you expected"
            } else {
                "less of it arrives in time than you expected"
            };
            format!(
                "You said {}; it is {} ({}): {direction}.",
                picked.label(),
                percent(share),
                band.label()
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::labs::lateness::{study, Profile};

    #[test]
    fn a_guess_reads_back_what_it_writes_and_nothing_else() {
        for share in Share::ALL {
            for at in [Lateness::Days(0), Lateness::Days(14), Lateness::Never] {
                let g = Guess::Picked { share: *share, at };
                assert_eq!(Guess::read(&g.value()), Some(g));
            }
        }
        assert_eq!(Guess::read("skip"), Some(Guess::Skipped));
        for bad in [
            "",
            "under90",
            "@2",
            "under90@15",
            "nope@2",
            "under90@2@3",
            "99to99.9@-1",
        ] {
            assert_eq!(Guess::read(bad), None, "{bad}");
        }
    }

    /// The bands answer the lab's own figures: each is the right answer
    /// somewhere on the slider, for some profile.
    #[test]
    fn every_band_is_an_answer_somewhere_and_the_feedback_says_the_figure() {
        let mut seen = Vec::new();
        for profile in [Profile::Web, Profile::Mobile, Profile::Partner] {
            let s = study(profile);
            for l in 0..=14 {
                let f = s.figures(Lateness::Days(l));
                let band = Share::of(f.complete_value_bp);
                if !seen.contains(&band) {
                    seen.push(band);
                }
                let right = feedback(
                    Guess::Picked {
                        share: band,
                        at: f.lateness,
                    },
                    &f,
                );
                assert!(right.ends_with("right."), "{right}");
                assert!(right.contains(&percent(f.complete_value_bp)), "{right}");
                let wrong = Share::ALL
                    .iter()
                    .find(|b| **b != band)
                    .copied()
                    .unwrap_or(band);
                let said = feedback(
                    Guess::Picked {
                        share: wrong,
                        at: f.lateness,
                    },
                    &f,
                );
                assert!(
                    !said.ends_with("right.") && said.contains(&percent(f.complete_value_bp)),
                    "{said}"
                );
            }
        }
        assert_eq!(seen.len(), Share::ALL.len(), "{seen:?}");
    }
}
