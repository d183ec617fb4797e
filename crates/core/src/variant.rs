//! A variant: one seed that moves a lab's or a scenario's numbers within
//! ranges that keep every rule's meaning (SPEC 14). The chapter's own data
//! is the variant `CHAPTER`, so every link and file made before variants
//! keeps its meaning. A student's variant comes from their class code and
//! name, the same on any machine; a self-learner can ask for fresh data.

// Outside input arrives here: no unchecked indexing or arithmetic.
#![deny(clippy::indexing_slicing, clippy::arithmetic_side_effects)]

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A variant's seed: 0 is the chapter's data.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Variant(u32);

/// The most digits a variant has in an address (`u32::MAX` has ten).
const MAX_DIGITS: usize = 10;

impl Variant {
    /// The chapter's data: what every page shows without a variant.
    pub const CHAPTER: Variant = Variant(0);

    /// A student's variant: their class code and name, whatever the
    /// spacing and the case of their ASCII letters (full Unicode case
    /// folding would put its tables, some 10 KB, into every page that
    /// names a student). Without a class code it is the chapter's data (a
    /// self-learner's name alone changes nothing).
    pub fn of_student(class: &str, name: &str) -> Variant {
        let tidy = |s: &str| {
            s.split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
                .to_ascii_lowercase()
        };
        let class = tidy(class);
        if class.is_empty() {
            return Variant::CHAPTER;
        }
        let mut text = class.into_bytes();
        // A byte no text holds between the two: "ab"+"c" is not "a"+"bc".
        text.push(0);
        text.extend(tidy(name).bytes());
        Variant::from_seed(fnv1a(&text))
    }

    /// A variant from any number (fresh data: the page gives the time and
    /// a random number). Never the chapter's.
    pub fn from_seed(seed: u64) -> Variant {
        let folded = (seed ^ (seed >> 32)) as u32;
        Variant(if folded == 0 { 1 } else { folded })
    }

    pub fn is_chapter(self) -> bool {
        self == Variant::CHAPTER
    }

    /// As the address writes it: its number.
    pub fn name(self) -> String {
        self.0.to_string()
    }

    /// The variant an address gives: digits only, as `name` writes them.
    pub fn read(text: &str) -> Option<Variant> {
        let text = text.trim();
        if text.is_empty() || text.len() > MAX_DIGITS || !text.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        text.parse::<u32>().ok().map(Variant)
    }

    /// A number in `range`, the same for this variant and `what` on every
    /// machine: each thing a variant moves asks by its own name, so adding
    /// one never moves another.
    pub fn pick(self, what: &str, range: std::ops::RangeInclusive<u32>) -> u32 {
        self.rng(what).random_range(range)
    }

    /// A seed for a generator (orders, clicks), the same for this variant
    /// and `what` on every machine.
    pub fn seed(self, what: &str) -> u64 {
        self.rng(what).random()
    }

    fn rng(self, what: &str) -> ChaCha8Rng {
        let mut text = self.0.to_le_bytes().to_vec();
        text.extend(what.bytes());
        ChaCha8Rng::seed_from_u64(fnv1a(&text))
    }
}

/// FNV-1a, 64 bits: stable by definition (the standard library's hashers
/// may change between releases, and a student's variant must not).
fn fnv1a(bytes: &[u8]) -> u64 {
    const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    bytes
        .iter()
        .fold(OFFSET, |hash, b| (hash ^ u64::from(*b)).wrapping_mul(PRIME))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The published FNV-1a 64 test vectors (Fowler, Noll and Vo's
    /// reference list): the hash is the algorithm's, not ours.
    #[test]
    fn fnv1a_gives_the_reference_values() {
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a(b"foobar"), 0x8594_4171_f739_67e8);
    }

    #[test]
    fn a_student_variant_follows_class_and_name_not_their_case_or_spacing() {
        let ada = Variant::of_student("MATH-7", "Ada Lovelace");
        assert_eq!(ada, Variant::of_student(" math-7 ", "ada   LOVELACE"));
        assert_ne!(ada, Variant::of_student("MATH-7", "Grace Hopper"));
        assert_ne!(ada, Variant::of_student("MATH-8", "Ada Lovelace"));
        // Letters beyond ASCII are taken as typed.
        assert_eq!(
            Variant::of_student("m", "Ådne Øvre"),
            Variant::of_student("M", " Ådne  Øvre")
        );
        assert_ne!(
            Variant::of_student("ab", "c"),
            Variant::of_student("a", "bc")
        );
        assert!(!ada.is_chapter());
        assert_eq!(Variant::of_student("", "Ada Lovelace"), Variant::CHAPTER);
        // Fixed for good: a change here would move every student's data.
        assert_eq!(ada.name(), "3061885297");
    }

    #[test]
    fn an_address_gives_back_the_variant_it_was_given() {
        for v in [
            Variant::CHAPTER,
            Variant(1),
            Variant(u32::MAX),
            Variant::from_seed(99),
        ] {
            assert_eq!(Variant::read(&v.name()), Some(v));
        }
        for bad in [
            "",
            "-1",
            "x",
            "4294967296",
            "12345678901",
            "1.5",
            "+3",
            "1 2",
        ] {
            assert_eq!(Variant::read(bad), None, "{bad}");
        }
        assert_eq!(Variant::read(" 42 "), Some(Variant(42)));
    }

    #[test]
    fn fresh_data_is_never_the_chapters() {
        assert_eq!(Variant::from_seed(0), Variant(1));
        assert_eq!(Variant::from_seed(1 << 32 | 1), Variant(1));
        assert_ne!(Variant::from_seed(7), Variant::CHAPTER);
    }

    #[test]
    fn picks_stay_in_range_and_do_not_move_each_other() {
        for seed in 0..200 {
            let v = Variant::from_seed(seed);
            let day = v.pick("ship", 2..=6);
            assert!((2..=6).contains(&day));
            assert_eq!(day, v.pick("ship", 2..=6));
        }
        let v = Variant::from_seed(5);
        assert_ne!(v.seed("orders"), v.seed("clicks"));
    }
}
