//! The room's show of hands at a prediction in presenter mode: how many
//! chose each answer, entered by the presenter before the reveal and drawn
//! beside the answer after it. In the address (`room=3.0.12.1`, a count
//! per answer in the question's order), so the moment after the reveal,
//! the room's spread included, is a link for next year's class.

// Outside input arrives here: no unchecked indexing or arithmetic.
#![deny(clippy::indexing_slicing, clippy::arithmetic_side_effects)]

/// The most hands one answer can have: a lecture hall's, with room.
pub const MOST_HANDS: u16 = 999;
/// The most answers a question has: as many as a clicker's keys 1 to 9.
pub const MOST_ANSWERS: usize = 9;

/// Fixed size, so a lab's settings that hold one stay `Copy`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Tally {
    hands: [u16; MOST_ANSWERS],
    answers: usize,
}

/// One answer's line in the room's spread.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bar {
    pub hands: u16,
    /// Its length, in whole percent of the most hands any answer had.
    pub length: u8,
    /// Its share of every hand raised, in whole percent (rounded).
    pub share: u8,
}

impl Tally {
    /// No hands yet, for a question of `answers` answers (at most
    /// `MOST_ANSWERS`).
    pub fn empty(answers: usize) -> Tally {
        Tally {
            hands: [0; MOST_ANSWERS],
            answers: answers.min(MOST_ANSWERS),
        }
    }

    pub fn hands(&self) -> &[u16] {
        self.hands.get(..self.answers).unwrap_or(&[])
    }

    /// `answer` given `hands` (at most `MOST_HANDS`); an answer the
    /// question does not have changes nothing.
    pub fn set(&mut self, answer: usize, hands: u16) {
        if answer < self.answers {
            if let Some(slot) = self.hands.get_mut(answer) {
                *slot = hands.min(MOST_HANDS);
            }
        }
    }

    /// One more hand for `answer`.
    pub fn add(&mut self, answer: usize) {
        let now = self.hands().get(answer).copied().unwrap_or(0);
        self.set(answer, now.saturating_add(1));
    }

    /// Every hand raised.
    pub fn total(&self) -> u32 {
        self.hands().iter().map(|h| u32::from(*h)).sum()
    }

    /// As the address writes it.
    pub fn value(&self) -> String {
        self.hands()
            .iter()
            .map(u16::to_string)
            .collect::<Vec<_>>()
            .join(".")
    }

    /// From the address: exactly `answers` counts, each a number the form
    /// allows; `None` for anything else.
    pub fn read(given: &str, answers: usize) -> Option<Tally> {
        let hands: Option<Vec<u16>> = given
            .trim()
            .split('.')
            .map(|n| {
                (!n.is_empty() && n.len() <= 3 && n.bytes().all(|b| b.is_ascii_digit()))
                    .then(|| n.parse::<u16>().ok())
                    .flatten()
                    .filter(|h| *h <= MOST_HANDS)
            })
            .collect();
        let hands = hands.filter(|h| h.len() == answers && answers <= MOST_ANSWERS)?;
        let mut tally = Tally::empty(answers);
        for (i, h) in hands.into_iter().enumerate() {
            tally.set(i, h);
        }
        Some(tally)
    }

    /// Each answer's bar: the drawing follows the counts, so a room of 3
    /// and a hall of 300 read the same way.
    pub fn bars(&self) -> Vec<Bar> {
        let most = self.hands().iter().copied().max().unwrap_or(0);
        let total = self.total();
        self.hands()
            .iter()
            .map(|&hands| Bar {
                hands,
                length: percent(u32::from(hands), u32::from(most)),
                share: percent(u32::from(hands), total),
            })
            .collect()
    }
}

/// `part` of `whole` in whole percent, rounded half up (0 of nothing is 0).
fn percent(part: u32, whole: u32) -> u8 {
    if whole == 0 {
        return 0;
    }
    let scaled = part
        .saturating_mul(200)
        .checked_div(whole)
        .unwrap_or(0)
        .saturating_add(1)
        / 2;
    u8::try_from(scaled.min(100)).unwrap_or(100)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tally_round_trips_through_the_address() {
        let mut t = Tally::empty(7);
        t.add(0);
        t.add(0);
        t.set(3, 12);
        t.set(6, 5000);
        t.set(9, 4);
        assert_eq!(t.value(), "2.0.0.12.0.0.999");
        assert_eq!(Tally::read(&t.value(), 7), Some(t));
        assert_eq!(t.total(), 1013);
        for bad in [
            "",
            "1.2",
            "1.2.3.4.5.6.7.8",
            "1..2.3.4.5.6",
            "1.2.3.4.5.6.1000",
            "1.2.3.4.5.6.-1",
            "a.2.3.4.5.6.7",
            "+1.2.3.4.5.6.7",
            "0001.2.3.4.5.6.7",
        ] {
            assert_eq!(Tally::read(bad, 7), None, "{bad}");
        }
    }

    #[test]
    fn bars_follow_the_counts() {
        let mut t = Tally::empty(3);
        assert!(t.bars().iter().all(|b| b.length == 0 && b.share == 0));
        t.set(0, 3);
        t.set(1, 1);
        let bars = t.bars();
        assert_eq!(
            bars.iter().map(|b| b.length).collect::<Vec<_>>(),
            [100, 33, 0]
        );
        assert_eq!(
            bars.iter().map(|b| b.share).collect::<Vec<_>>(),
            [75, 25, 0]
        );
        t.set(2, 2);
        assert_eq!(
            t.bars().iter().map(|b| b.share).collect::<Vec<_>>(),
            [50, 17, 33]
        );
    }
}
