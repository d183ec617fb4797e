//! Markup written as text, for large read-only parts of a page that are
//! redrawn whole (the lateness lab's results for the user's own data).
//!
//! Typed views cost the bundle code for every dynamic node; a block that
//! only ever changes as a whole is far smaller as one string set with
//! `inner_html`. Every piece of text goes through `escape`, so nothing a
//! user typed or uploaded (a file name, a row of their file) can become
//! markup.

/// `text` with the five characters that mean something in HTML escaped.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// Markup under construction: tags are ours, text is always escaped.
#[derive(Default)]
pub struct Html(String);

impl Html {
    /// An opening tag with its attributes (values escaped).
    pub fn open(&mut self, tag: &str, attributes: &[(&str, &str)]) -> &mut Self {
        self.0.push('<');
        self.0.push_str(tag);
        for (name, value) in attributes {
            self.0.push(' ');
            self.0.push_str(name);
            self.0.push_str("=\"");
            self.0.push_str(&escape(value));
            self.0.push('"');
        }
        self.0.push('>');
        self
    }

    pub fn close(&mut self, tag: &str) -> &mut Self {
        self.0.push_str("</");
        self.0.push_str(tag);
        self.0.push('>');
        self
    }

    pub fn text(&mut self, text: &str) -> &mut Self {
        self.0.push_str(&escape(text));
        self
    }

    /// `<tag attributes>text</tag>`.
    pub fn element(&mut self, tag: &str, attributes: &[(&str, &str)], text: &str) -> &mut Self {
        self.open(tag, attributes).text(text).close(tag)
    }

    pub fn finish(self) -> String {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_and_attribute_values_cannot_become_markup() {
        let mut html = Html::default();
        html.element(
            "p",
            &[("data-x", "\"><script>")],
            "<img src=x onerror=alert(1)> & 'q'",
        );
        assert_eq!(
            html.finish(),
            "<p data-x=\"&quot;&gt;&lt;script&gt;\">&lt;img src=x onerror=alert(1)&gt; &amp; &#39;q&#39;</p>"
        );
    }
}
