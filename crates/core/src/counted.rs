//! Counts as the pages write them: a number and its noun ("1 event",
//! "3 events", "2 batches"), and a small number in words for a heading.

use crate::engine::money::thousands;

/// `n` and `one`, made plural unless `n` is 1: "es" after a hiss ("batch",
/// "box"), "s" otherwise; the number grouped in thousands ("1,868 events"),
/// as the pages write every count. A noun that plurals another way says so
/// with `counted_as`.
pub fn counted(n: impl TryInto<u64>, one: &str) -> String {
    let hiss = ["s", "x", "z", "ch", "sh"]
        .iter()
        .any(|end| one.ends_with(end));
    let many = format!("{one}{}", if hiss { "es" } else { "s" });
    counted_as(n, one, &many)
}

/// `n` and `one` or `many`, for a noun whose plural is not regular.
pub fn counted_as(n: impl TryInto<u64>, one: &str, many: &str) -> String {
    // Every count here is a length or a small setting: none is above u64.
    let n = n.try_into().unwrap_or(u64::MAX);
    format!("{} {}", thousands(n), if n == 1 { one } else { many })
}

/// A count without its noun, grouped as `counted` groups it ("1,234"), for
/// a number beside a counted one in the same sentence.
pub fn grouped(n: impl TryInto<u64>) -> String {
    thousands(n.try_into().unwrap_or(u64::MAX))
}

/// Items as a sentence lists them: "a", "a and b", "a, b and c".
pub fn listed(items: &[String]) -> String {
    match items.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
    }
}

/// `n` in words, capitalised ("Six"), for one to twelve; digits beyond.
pub fn in_words(n: usize) -> String {
    const WORDS: [&str; 12] = [
        "One", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten", "Eleven",
        "Twelve",
    ];
    n.checked_sub(1)
        .and_then(|i| WORDS.get(i))
        .map_or_else(|| n.to_string(), |w| (*w).to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_is_singular_and_every_other_count_plural() {
        assert_eq!(counted(1, "event"), "1 event");
        assert_eq!(counted(0, "event"), "0 events");
        assert_eq!(counted(3, "structural problem"), "3 structural problems");
        assert_eq!(counted(2, "batch"), "2 batches");
        assert_eq!(counted(1, "batch"), "1 batch");
        assert_eq!(counted(4, "box"), "4 boxes");
        assert_eq!(counted_as(2, "child", "children"), "2 children");
        assert_eq!(counted_as(1, "child", "children"), "1 child");
        assert_eq!(counted(1_868u64, "event"), "1,868 events");
        assert_eq!(counted(37_200u32, "order"), "37,200 orders");
        assert_eq!(grouped(1_235usize), "1,235");
    }

    #[test]
    fn lists_end_with_and() {
        let items = |list: &[&str]| list.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(listed(&items(&[])), "");
        assert_eq!(listed(&items(&["4 Aug"])), "4 Aug");
        assert_eq!(listed(&items(&["4 Aug", "11 Aug"])), "4 Aug and 11 Aug");
        assert_eq!(listed(&items(&["a", "b", "c"])), "a, b and c");
    }

    #[test]
    fn small_numbers_are_words_and_others_digits() {
        assert_eq!(in_words(6), "Six");
        assert_eq!(in_words(1), "One");
        assert_eq!(in_words(12), "Twelve");
        assert_eq!(in_words(13), "13");
        assert_eq!(in_words(0), "0");
    }
}
