//! The room's house rule for generated files: the file's text is a
//! template beside the code (`templates/`), read as it will be run,
//! and the code only fills its `{{name}}` holes. Python and SQL never
//! write `{{` followed by a name and `}}`, so a hole cannot be mistaken.

/// `template` with each `{{name}}` replaced by its value in `values`.
/// A hole with no value is left as it is, which the template's tests
/// catch (`holes`); values are not searched again for holes.
pub fn fill(template: &str, values: &[(&str, &str)]) -> String {
    let mut out = String::with_capacity(template.len() + 256);
    let mut rest = template;
    while let Some(at) = rest.find("{{") {
        let (before, from) = rest.split_at(at);
        out.push_str(before);
        let hole = from
            .get(2..)
            .and_then(|inner| inner.find("}}").map(|end| (inner, end)))
            .and_then(|(inner, end)| {
                let name = inner.get(..end)?;
                let is_name =
                    !name.is_empty() && name.chars().all(|c| c.is_ascii_lowercase() || c == '_');
                is_name.then_some(name)
            });
        match hole.and_then(|name| {
            values
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| (name, v))
        }) {
            Some((name, value)) => {
                out.push_str(value);
                rest = from.get(name.len() + 4..).unwrap_or_default();
            }
            None => {
                out.push_str("{{");
                rest = from.get(2..).unwrap_or_default();
            }
        }
    }
    out.push_str(rest);
    out
}

/// The holes `text` still has: none, once filled.
pub fn holes(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find("{{") {
        rest = rest.get(at + 2..).unwrap_or_default();
        if let Some(end) = rest.find("}}") {
            let name = rest.get(..end).unwrap_or_default();
            if !name.is_empty() && name.chars().all(|c| c.is_ascii_lowercase() || c == '_') {
                found.push(name.to_string());
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn holes_are_filled_once_and_nothing_else_is_touched() {
        let t = "a {{x}} b {{y}} {z} {{ not }} {{x}}";
        assert_eq!(
            fill(t, &[("x", "1"), ("y", "{{x}}")]),
            "a 1 b {{x}} {z} {{ not }} 1"
        );
        assert_eq!(holes("{{left}} and {{ not }}"), ["left"]);
        assert!(holes(&fill(t, &[("x", "1"), ("y", "2")])).is_empty());
        assert_eq!(fill("{{unknown}}", &[]), "{{unknown}}");
        assert_eq!(fill("ends {{", &[]), "ends {{");
    }
}
