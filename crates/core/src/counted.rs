//! Counts as the pages write them: a number and its noun ("1 event",
//! "3 events", "2 batches"), and a small number in words for a heading.

/// `n` and `one`, made plural unless `n` is 1: "es" after a hiss ("batch",
/// "box"), "s" otherwise. A noun that plurals another way says so with
/// `counted_as`.
pub fn counted(n: usize, one: &str) -> String {
    if n == 1 {
        return format!("1 {one}");
    }
    let hiss = ["s", "x", "z", "ch", "sh"]
        .iter()
        .any(|end| one.ends_with(end));
    format!("{n} {one}{}", if hiss { "es" } else { "s" })
}

/// `n` and `one` or `many`, for a noun whose plural is not regular.
pub fn counted_as(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
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
