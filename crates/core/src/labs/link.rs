//! What the labs' URL parsers share: how an unusable value is reported.

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

/// The query's `key` read as one of `C`'s names (trimmed, any case); a
/// value it cannot use gives `default` and a note naming the choices.
pub fn choice<C: crate::vocabulary::Choice>(
    get: &impl Fn(&str) -> Option<String>,
    key: &str,
    default: C,
    notes: &mut Vec<String>,
) -> C {
    let Some(given) = get(key) else {
        return default;
    };
    C::from_name(&given.trim().to_ascii_lowercase()).unwrap_or_else(|| {
        notes.push(ignored(key, &given, &C::names_listed(), default.name()));
        default
    })
}

/// The query's `present` (presenter mode): `1` on, `0` or absent off.
pub fn present(get: &impl Fn(&str) -> Option<String>, notes: &mut Vec<String>) -> bool {
    match get("present").as_deref().map(str::trim) {
        None | Some("0") => false,
        Some("1") => true,
        Some(other) => {
            notes.push(ignored("present", other, "0 or 1", "0"));
            false
        }
    }
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

    /// What the link itself holds that no page can use, said on every
    /// page: a key given more than once (its later values are ignored,
    /// as an ignored value always is, with a note), and a link longer
    /// than the app makes.
    pub fn notes(&self, path_length: usize) -> Vec<String> {
        let mut notes = Vec::new();
        let mut seen: Vec<&str> = Vec::new();
        let mut repeated = 0usize;
        for (key, first) in &self.pairs {
            if seen.contains(&key.as_str()) {
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
        let length = path_length.saturating_add(self.length);
        if length > LONGEST_LINK {
            notes.push(format!(
                "This link is {} characters long: many hosts and chat apps cut or refuse links over {}, and the lab never makes one. The page shows what it could read from it; copy the link again from here for a short one.",
                crate::counted::grouped(length),
                crate::counted::grouped(LONGEST_LINK)
            ));
        }
        notes
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

/// A query string as a lookup, for the parsers' tests: as the pages read it.
#[cfg(test)]
pub fn lookup(query: &str) -> impl Fn(&str) -> Option<String> {
    let query = Query::parse(query);
    move |key| query.get(key)
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
    fn a_key_given_twice_is_noted_as_any_ignored_value_is() {
        let q = Query::parse("day=9&day=20&lateness=1&lateness=99&from=3&from=x");
        assert_eq!(q.get("day").as_deref(), Some("9"));
        assert_eq!(
            q.notes(6),
            [
                "Ignored day=20: expected day= once in a link; showing its first value, 9.",
                "Ignored lateness=99: expected lateness= once in a link; showing its first value, 1.",
                "Ignored from=x: expected from= once in a link; showing its first value, 3.",
            ]
        );
        assert!(Query::parse("day=9&lateness=1").notes(6).is_empty());
        let many = Query::parse(&"predict=a&".repeat(100));
        assert_eq!(
            many.notes(16),
            ["Ignored 99 later values of predict=: expected predict= once in a link; showing its first value, a."]
        );
        let keys: String = (0..20).map(|k| format!("k{k}=1&k{k}=2&")).collect();
        let notes = Query::parse(&keys).notes(1);
        assert_eq!(notes.len(), REPEAT_NOTES + 1);
        assert_eq!(
            notes.last().map(String::as_str),
            Some("15 more keys are given more than once; only their first values are used.")
        );
    }

    #[test]
    fn a_link_longer_than_the_app_makes_loads_with_a_note() {
        let query = format!("predict={}", "watermark-overwrite,".repeat(1000));
        let notes = Query::parse(&query).notes("/lab/state-write".len());
        assert_eq!(notes.len(), 1);
        let note = notes.first().expect("a note");
        assert!(
            note.starts_with("This link is 20,024 characters long"),
            "{note}"
        );
        assert!(note.contains("over 8,192"), "{note}");
        let edge = "x".repeat(LONGEST_LINK - 10);
        assert!(Query::parse(&edge).notes(10).is_empty());
        assert_eq!(Query::parse(&edge).notes(11).len(), 1);
    }

    #[test]
    fn long_values_are_cut_short() {
        let note = ignored("late", &"x".repeat(500), "off", "tue");
        assert!(note.len() < 100);
        assert!(note.contains('…'));
    }
}
