//! An HTML writer: indented block elements, inline elements on one line, escaped text.

/// Named entities some old templates use for accented letters.
pub(crate) const ENTITIES: &[(char, &str)] = &[
    ('ä', "auml"),
    ('ö', "ouml"),
    ('ü', "uuml"),
    ('Ä', "Auml"),
    ('Ö', "Ouml"),
    ('Ü', "Uuml"),
    ('ß', "szlig"),
    ('é', "eacute"),
    ('è', "egrave"),
    ('ê', "ecirc"),
    ('ë', "euml"),
    ('à', "agrave"),
    ('â', "acirc"),
    ('ç', "ccedil"),
    ('î', "icirc"),
    ('ï', "iuml"),
    ('ô', "ocirc"),
    ('ù', "ugrave"),
    ('û', "ucirc"),
    ('É', "Eacute"),
    ('À', "Agrave"),
    ('Ç', "Ccedil"),
    ('«', "laquo"),
    ('»', "raquo"),
    ('©', "copy"),
];

/// Builds one HTML document.
#[derive(Debug)]
pub(crate) struct Html {
    out: String,
    depth: usize,
    entities: bool,
    wrap: Option<usize>,
}

impl Html {
    /// An empty document; `entities` writes accented letters as named entities, `wrap` breaks
    /// long text runs onto new source lines.
    pub(crate) fn new(entities: bool, wrap: Option<usize>) -> Self {
        Self {
            out: String::with_capacity(48 * 1024),
            depth: 0,
            entities,
            wrap,
        }
    }

    /// Opens a block element on a new line.
    pub(crate) fn open(&mut self, tag: &str, attrs: &[(&str, &str)]) {
        self.newline();
        self.start_tag(tag, attrs);
        self.depth += 1;
    }

    /// Closes a block element on a new line.
    pub(crate) fn close(&mut self, tag: &str) {
        self.depth = self.depth.saturating_sub(1);
        self.newline();
        self.end(tag);
    }

    /// Opens an element on a new line, to be closed with [`Html::end`] on the same line.
    pub(crate) fn begin(&mut self, tag: &str, attrs: &[(&str, &str)]) {
        self.newline();
        self.start_tag(tag, attrs);
    }

    /// Opens an element without a line break.
    pub(crate) fn start_tag(&mut self, tag: &str, attrs: &[(&str, &str)]) {
        self.out.push('<');
        self.out.push_str(tag);
        for (name, value) in attrs {
            self.out.push(' ');
            self.out.push_str(name);
            self.out.push_str("=\"");
            escape_into(&mut self.out, value, true, false);
            self.out.push('"');
        }
        self.out.push('>');
    }

    /// Closes an element without a line break.
    pub(crate) fn end(&mut self, tag: &str) {
        self.out.push_str("</");
        self.out.push_str(tag);
        self.out.push('>');
    }

    /// A whole element with text content on its own line: `<tag …>text</tag>`.
    pub(crate) fn line(&mut self, tag: &str, attrs: &[(&str, &str)], text: &str) {
        self.newline();
        self.start_tag(tag, attrs);
        self.text(text);
        self.end(tag);
    }

    /// An inline link.
    pub(crate) fn link(&mut self, href: &str, text: &str) {
        self.start_tag("a", &[("href", href)]);
        self.text(text);
        self.end("a");
    }

    /// An element without content (`<meta>`, `<img>`) on a new line.
    pub(crate) fn void(&mut self, tag: &str, attrs: &[(&str, &str)]) {
        self.newline();
        self.start_tag(tag, attrs);
    }

    /// Escaped text, broken at spaces onto new lines when the template wraps.
    pub(crate) fn text(&mut self, text: &str) {
        match self.wrap {
            Some(width) if text.len() > width => {
                let mut column = 0;
                for (i, word) in text.split(' ').enumerate() {
                    if i > 0 && column > width {
                        self.newline();
                        column = 0;
                    } else if i > 0 {
                        self.out.push(' ');
                    }
                    column += word.len() + 1;
                    escape_into(&mut self.out, word, false, self.entities);
                }
            }
            _ => escape_into(&mut self.out, text, false, self.entities),
        }
    }

    /// Markup or script text written as is.
    pub(crate) fn raw(&mut self, markup: &str) {
        self.out.push_str(markup);
    }

    /// The document.
    pub(crate) fn finish(mut self) -> String {
        self.out.push('\n');
        self.out
    }

    fn newline(&mut self) {
        if !self.out.is_empty() {
            self.out.push('\n');
        }
        for _ in 0..self.depth.min(24) {
            self.out.push(' ');
        }
    }
}

fn escape_into(out: &mut String, text: &str, attribute: bool, entities: bool) {
    let mut rest = text;
    loop {
        let special =
            |b: &u8| matches!(b, b'&' | b'<' | b'>' | b'"') || (entities && !b.is_ascii());
        let next = if entities || attribute {
            rest.as_bytes().iter().position(special)
        } else {
            memchr::memchr3(b'&', b'<', b'>', rest.as_bytes())
        };
        let Some(at) = next else {
            out.push_str(rest);
            return;
        };
        out.push_str(&rest[..at]);
        // Every byte before `at` is ASCII, so `at` starts a character.
        let c = rest[at..].chars().next().unwrap_or(' ');
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' if attribute => out.push_str("&quot;"),
            c => match ENTITIES.iter().find(|(e, _)| *e == c).filter(|_| entities) {
                Some((_, name)) => {
                    out.push('&');
                    out.push_str(name);
                    out.push(';');
                }
                None => out.push(c),
            },
        }
        rest = &rest[at + c.len_utf8()..];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_text_and_attributes() {
        let mut html = Html::new(true, None);
        html.open("div", &[("class", "a\"b"), ("data-x", "<&>")]);
        html.line("p", &[], "Größe & <Maß> «ok» \"q\"");
        html.close("div");
        assert_eq!(
            html.finish(),
            "<div class=\"a&quot;b\" data-x=\"&lt;&amp;&gt;\">\n \
             <p>Gr&ouml;&szlig;e &amp; &lt;Ma&szlig;&gt; &laquo;ok&raquo; \"q\"</p>\n</div>\n"
        );
    }

    #[test]
    fn wrapping_only_replaces_spaces() {
        let mut html = Html::new(false, Some(10));
        html.open("p", &[]);
        html.text("one two three four five six seven");
        let out = html.finish();
        let collapsed: Vec<&str> = out.split_whitespace().collect();
        assert_eq!(collapsed.join(" "), "<p>one two three four five six seven");
        assert!(out.matches('\n').count() >= 3, "{out}");
    }
}
