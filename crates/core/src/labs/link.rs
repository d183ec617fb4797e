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

/// A query string as a lookup, for the parsers' tests.
#[cfg(test)]
pub fn lookup(query: &str) -> impl Fn(&str) -> Option<String> {
    let map: std::collections::HashMap<String, String> = query
        .split('&')
        .filter_map(|pair| pair.split_once('='))
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    move |key| map.get(key).cloned()
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
