//! What the labs' URL parsers share: how an unusable value is reported
//! (`crate::address` reads the link itself).

// Outside input arrives here: no unchecked indexing or arithmetic.
#![deny(clippy::indexing_slicing, clippy::arithmetic_side_effects)]

pub use crate::address::{ignored, Query, Reading, LONGEST_LINK};

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
    fn long_values_are_cut_short() {
        let note = ignored("late", &"x".repeat(500), "off", "tue");
        assert!(note.len() < 100);
        assert!(note.contains('…'));
    }
}
