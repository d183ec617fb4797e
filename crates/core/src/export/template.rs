//! The room's house rule for a long generated file: its text is a
//! template beside the code (`templates/`), read as it will be run, and
//! the code only fills its `{{name}}` holes (short, branching texts, such
//! as a dbt model's config, are still built by small functions). A hole is
//! a lower-case name with no spaces; the templates hold nothing else of
//! that shape (Jinja's `{{ this }}` is written with spaces, and no
//! template here is Jinja), and a test fills every template and finds no
//! hole left.

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

    /// Every template, filled by its generator at settings that take each
    /// branch, has no hole left.
    #[test]
    fn every_template_is_filled_whole() {
        use crate::engine::calendar::aug;
        use crate::engine::lateness::Lateness;
        use crate::labs::lateness::model::Profile;
        let mut filled = vec![
            crate::export::dagster::definitions(aug(1)).text,
            crate::export::airflow::duckdb_dag("marlow_orders_daily", aug(1), "o.amount"),
        ];
        for lateness in [Lateness::Days(0), Lateness::Days(2), Lateness::Never] {
            filled.push(crate::export::dagster::lateness_definitions(
                "shop.orders",
                aug(1),
                lateness,
            ));
            filled.push(crate::export::beam::pipeline(
                &crate::export::beam::Stream::month(lateness),
            ));
            for tool in crate::export::lateness_lab::TOOLS {
                let files = crate::export::lateness_lab::files(tool, Profile::Mobile, lateness)
                    .expect("a project");
                filled.extend(files.into_iter().map(|f| f.text));
            }
        }
        for dialect in [
            crate::export::drift::Dialect::DuckDb,
            crate::export::drift::Dialect::SparkSql,
        ] {
            let source = crate::export::lateness_sql::Source::default();
            filled.push(crate::export::lateness_sql::query(dialect, &source).expect("a query"));
        }
        for s in crate::scenarios::SCENARIOS {
            let graph = crate::scenarios::sample::sample(
                s,
                crate::design::graph::WriteChoice::OverwritePartition,
            );
            let codes = crate::export::scenario::code(s, &graph).expect("the sample compiles");
            filled.extend(codes.into_iter().map(|c| c.text));
        }
        for text in &filled {
            let left: Vec<String> = holes(text)
                .into_iter()
                .filter(|h| !text.contains(&format!("{{{{ {h} }}}}")))
                .collect();
            assert!(left.is_empty(), "{left:?} left in:\n{text}");
        }
    }
}
