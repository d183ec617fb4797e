//! A link as the pages read it: its query (`Query`, the first value of a
//! key used), one page's reading of it (`Reading`, which says a key it
//! reads that the link gives twice), the longest link the lab makes, and
//! how an unusable value is reported. Below the labs and the canvas: both
//! make links.

// Outside input arrives here: no unchecked indexing or arithmetic.
#![deny(clippy::indexing_slicing, clippy::arithmetic_side_effects)]

/// Longest piece of a bad value repeated back to the user: a hostile link
/// must not fill the page.
const ECHO_LIMIT: usize = 24;

fn echo(value: &str) -> String {
    let mut shown: String = value.chars().take(ECHO_LIMIT).collect();
    if value.chars().count() > ECHO_LIMIT {
        shown.push('…');
    }
    shown
}

/// The note for a value a lab could not use and what it shows instead.
pub fn ignored(key: &str, given: &str, expected: &str, default: &str) -> String {
    format!(
        "Ignored {key}={}: expected {expected}; showing {default}.",
        echo(given)
    )
}

/// The longest link the app makes, query and fragment included: many
/// hosts, proxies and chat apps cut or refuse longer ones (8 KB).
pub const LONGEST_LINK: usize = 8 * 1024;

/// Notes about one key given more than once are at most this many: a
/// hostile link must not fill the page.
const REPEAT_NOTES: usize = 5;

/// A query string as the pages read it: every `key=value` pair in order,
/// `+` and `%XX` decoded (a value that does not decode to text is kept as
/// written). A key's first value is the one used.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Query {
    pairs: Vec<(String, String)>,
    /// Characters in the query as it arrived, for `notes`.
    length: usize,
}

impl Query {
    /// Reads a raw query string, with or without its `?`.
    pub fn parse(raw: &str) -> Self {
        let raw = raw.strip_prefix('?').unwrap_or(raw);
        let pairs = raw
            .split('&')
            .filter(|pair| !pair.is_empty())
            .map(|pair| {
                let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
                (decode(key), decode(value))
            })
            .collect();
        Query {
            pairs,
            length: raw.chars().count(),
        }
    }

    /// The first value given for `key`.
    pub fn get(&self, key: &str) -> Option<String> {
        self.pairs
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.clone())
    }

    /// Notes for each of `read`'s keys that the link gives more than
    /// once: its later values are ignored, and said, as any ignored value.
    pub fn repeated(&self, read: &[String]) -> Vec<String> {
        let mut notes = Vec::new();
        let mut repeated = 0usize;
        let mut seen: Vec<&str> = Vec::new();
        for (key, first) in &self.pairs {
            if seen.contains(&key.as_str()) || !read.contains(key) {
                continue;
            }
            seen.push(key);
            let later: Vec<&str> = self
                .pairs
                .iter()
                .filter(|(k, _)| k == key)
                .skip(1)
                .map(|(_, v)| v.as_str())
                .collect();
            let Some(second) = later.first() else {
                continue;
            };
            repeated = repeated.saturating_add(1);
            if repeated > REPEAT_NOTES {
                continue;
            }
            let expected = format!("{}= once in a link", echo(key));
            let showing = format!("its first value, {}", echo(first));
            notes.push(if later.len() == 1 {
                ignored(key, second, &expected, &showing)
            } else {
                format!(
                    "Ignored {} later values of {}=: expected {expected}; showing {showing}.",
                    crate::counted::grouped(later.len()),
                    echo(key)
                )
            });
        }
        if repeated > REPEAT_NOTES {
            notes.push(format!(
                "{} more keys are given more than once; only their first values are used.",
                crate::counted::grouped(repeated.saturating_sub(REPEAT_NOTES))
            ));
        }
        notes
    }

    /// The note for a link longer than the app makes (`path_length`: the
    /// characters before the query), said on every page that reads one.
    pub fn length_note(&self, path_length: usize) -> Option<String> {
        // The `?` is part of the link too.
        length_note(
            path_length
                .saturating_add(self.length)
                .saturating_add(usize::from(self.length > 0)),
        )
    }
}

/// The note for a link of `length` characters, if that is longer than the
/// lab makes.
pub fn length_note(length: usize) -> Option<String> {
    (length > LONGEST_LINK).then(|| {
        format!(
            "This link is {} characters long: many hosts and chat apps cut or refuse links over {}, and the lab never makes one. The page shows what it could read from it; copy the link again from here for a short one.",
            crate::counted::grouped(length),
            crate::counted::grouped(LONGEST_LINK)
        )
    })
}

/// One page's reading of a query: the keys it asks for are remembered, so
/// that a key the page reads and the link gives twice is said.
pub struct Reading<'a> {
    query: &'a Query,
    asked: std::cell::RefCell<Vec<String>>,
}

impl<'a> Reading<'a> {
    pub fn of(query: &'a Query) -> Self {
        Reading {
            query,
            // Every page's presenter bar reads the lesson step.
            asked: std::cell::RefCell::new(vec!["lesson".to_string()]),
        }
    }

    /// The first value of `key`, as `Query::get`.
    pub fn get(&self, key: &str) -> Option<String> {
        let mut asked = self.asked.borrow_mut();
        if !asked.iter().any(|k| k == key) {
            asked.push(key.to_string());
        }
        self.query.get(key)
    }

    /// Notes for the keys read so far that the link gives more than once.
    pub fn repeated(&self) -> Vec<String> {
        self.query.repeated(&self.asked.borrow())
    }
}

/// A query's key or value as text: `+` is a space, `%XX` a byte.
fn decode(text: &str) -> String {
    let spaced = text.replace('+', " ");
    match percent_encoding::percent_decode_str(&spaced).decode_utf8() {
        Ok(decoded) => decoded.into_owned(),
        Err(_) => spaced,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_query_is_decoded_and_its_first_value_used() {
        let q = Query::parse("?a=1+2&b=%E2%9C%93&c&a=3&d=%zz&e=%FF");
        assert_eq!(q.get("a").as_deref(), Some("1 2"));
        assert_eq!(q.get("b").as_deref(), Some("✓"));
        assert_eq!(q.get("c").as_deref(), Some(""));
        assert_eq!(q.get("d").as_deref(), Some("%zz"));
        // Not text once decoded: kept as written, never half-decoded.
        assert_eq!(q.get("e").as_deref(), Some("%FF"));
        assert_eq!(q.get("f"), None);
    }

    #[test]
    fn a_key_the_page_reads_given_twice_is_noted_as_any_ignored_value_is() {
        let q = Query::parse("day=9&day=20&lateness=1&lateness=99&from=3&from=x&utm=a&utm=b");
        let page = Reading::of(&q);
        for key in ["day", "lateness", "from", "to", "present"] {
            let _ = page.get(key);
        }
        assert_eq!(page.get("day").as_deref(), Some("9"));
        assert_eq!(
            page.repeated(),
            [
                "Ignored day=20: expected day= once in a link; showing its first value, 9.",
                "Ignored lateness=99: expected lateness= once in a link; showing its first value, 1.",
                "Ignored from=x: expected from= once in a link; showing its first value, 3.",
            ],
            "utm is not the page's: not noted"
        );
        let once = Query::parse("day=9&lateness=1");
        let page = Reading::of(&once);
        let _ = (page.get("day"), page.get("lateness"));
        assert!(page.repeated().is_empty());
        let many = Query::parse(&"predict=a&".repeat(100));
        assert_eq!(
            many.repeated(&["predict".to_string()]),
            ["Ignored 99 later values of predict=: expected predict= once in a link; showing its first value, a."]
        );
        let keys: String = (0..20).map(|k| format!("k{k}=1&k{k}=2&")).collect();
        let all: Vec<String> = (0..20).map(|k| format!("k{k}")).collect();
        let notes = Query::parse(&keys).repeated(&all);
        assert_eq!(notes.len(), REPEAT_NOTES + 1);
        assert_eq!(
            notes.last().map(String::as_str),
            Some("15 more keys are given more than once; only their first values are used.")
        );
        // The lesson step is every page's.
        let lesson = Query::parse("lesson=2&lesson=3");
        assert_eq!(Reading::of(&lesson).repeated().len(), 1);
    }

    #[test]
    fn a_link_longer_than_the_app_makes_loads_with_a_note() {
        let query = format!("predict={}", "watermark_overwrite,".repeat(1000));
        let note = Query::parse(&query)
            .length_note("/lab/state-write".len())
            .expect("a note");
        assert!(
            note.starts_with("This link is 20,025 characters long"),
            "{note}"
        );
        assert!(note.contains("over 8,192"), "{note}");
        let edge = "x".repeat(LONGEST_LINK - 11);
        assert_eq!(Query::parse(&edge).length_note(10), None);
        assert!(Query::parse(&edge).length_note(11).is_some());
    }
}
