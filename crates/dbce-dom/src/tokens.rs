//! Template tokens for MinHash, thesis §2.2 Listing 2.7.
//!
//! For every element, layer by layer and in [`Layers`] order, one token: the element and each of
//! its ancestors up to the document, each written `{node_nr}_{node_group_nr}_{level}_{name}` with
//! the numbers *of the element* (not of the ancestor), joined by `/`:
//! `0_0_2_ul/0_0_2_body/0_0_2_html/0_0_2_[document]`. Text nodes make no tokens and attributes
//! play no part (Listings 2.1, 2.2).

use std::fmt::Write;

use crate::document::{Document, NodeRef};
use crate::layers::Layers;
use crate::node::{Layer, NodeKind};

/// Name of the document node in template tokens (BeautifulSoup's name for it).
pub const DOCUMENT_NAME: &str = "[document]";

/// Writes the template tokens of documents, reusing its buffers from one document to the next.
///
/// ```
/// use dbce_dom::{Document, SanitizeConfig, TemplateTokens};
///
/// let doc = Document::parse("<ul><li>a<li>b</ul>", &SanitizeConfig::default())?;
/// let mut tokens = TemplateTokens::new();
/// let mut count = 0;
/// tokens.for_each(&doc, |token| {
///     assert!(token.ends_with("_[document]"));
///     count += 1;
/// });
/// assert_eq!(count, 6); // html, body, head, ul, li, li
/// # Ok::<(), dbce_dom::DomError>(())
/// ```
#[derive(Debug, Clone, Default)]
pub struct TemplateTokens {
    layers: Layers,
    prefix: String,
    token: String,
}

impl TemplateTokens {
    /// A generator with empty buffers.
    pub fn new() -> Self {
        Self::default()
    }

    /// Calls `f` with each token of `doc`, in the order Listing 2.7 feeds them to MinHash.
    ///
    /// The token text is only valid during the call; its length grows with the element's
    /// layer, which [`crate::SanitizeConfig::max_depth`] bounds.
    pub fn for_each(&mut self, doc: &Document, mut f: impl FnMut(&str)) {
        let Self {
            layers,
            prefix,
            token,
        } = self;
        layers.rebuild(doc);
        for level in 0..layers.len() {
            for group in layers.groups(doc, Layer::new(level)) {
                for (node_nr, node) in group.nodes() {
                    prefix.clear();
                    let _ = write!(prefix, "{node_nr}_{}_{level}_", group.number());
                    write_token(token, prefix, node);
                    f(token);
                }
            }
        }
    }
}

/// `prefix` + name for `node` and each ancestor, joined by `/`. Follows the parent links of the
/// arena directly: this is the inner loop of tokenising.
fn write_token(token: &mut String, prefix: &str, node: NodeRef<'_>) {
    let doc = node.document();
    token.clear();
    let mut at = node.id().index();
    while let Some(n) = doc.nodes.get(at) {
        if !token.is_empty() {
            token.push('/');
        }
        token.push_str(prefix);
        token.push_str(match n.kind {
            NodeKind::Element => n.data.get(&doc.names),
            _ => DOCUMENT_NAME,
        });
        at = n.parent as usize;
    }
}

impl Document {
    /// The template tokens of Listing 2.7, in MinHash feeding order. [`TemplateTokens`] gives
    /// the same without allocating a string per token.
    pub fn template_tokens(&self) -> Vec<String> {
        let mut out = Vec::new();
        TemplateTokens::new().for_each(self, |t| out.push(t.to_owned()));
        out
    }
}

#[cfg(test)]
mod tests {
    use crate::{Document, SanitizeConfig};

    fn tokens(html: &str) -> Vec<String> {
        Document::parse(html, &SanitizeConfig::default())
            .unwrap()
            .template_tokens()
    }

    #[test]
    fn thesis_example_token_shape() {
        // Listing 2.7's example token: a <ul> that is the last element child of <body>.
        let t = tokens("<body><p>x</p><ul></ul></body>");
        assert!(t.contains(&"0_0_2_ul/0_0_2_body/0_0_2_html/0_0_2_[document]".to_owned()));
        assert!(t.contains(&"1_0_2_p/1_0_2_body/1_0_2_html/1_0_2_[document]".to_owned()));
    }

    #[test]
    fn empty_groups_take_a_group_number() {
        // Layer 2 groups: body's children first (body is last in document order), then head's
        // empty group; layer 3 groups: <b>'s (empty), then <a>'s (one <i>).
        let t = tokens("<body><a><i></i></a><b></b></body>");
        assert!(t.contains(&"0_1_3_i/0_1_3_a/0_1_3_body/0_1_3_html/0_1_3_[document]".to_owned()));
    }

    #[test]
    fn text_and_attributes_make_no_difference() {
        let a = tokens("<div class=x id=y>one <b>two</b></div>");
        let b = tokens("<div>three<b style=z>four five</b></div>");
        assert_eq!(a, b);
    }

    #[test]
    fn reused_generator_gives_the_same_tokens() {
        let config = SanitizeConfig::default();
        let small = Document::parse("<p>a", &config).unwrap();
        let big = Document::parse("<div><p>a<p>b</div><table><tr><td>c</table>", &config).unwrap();
        let mut generator = super::TemplateTokens::new();
        for doc in [&big, &small, &big] {
            let mut got = Vec::new();
            generator.for_each(doc, |t| got.push(t.to_owned()));
            assert_eq!(got, doc.template_tokens());
        }
    }
}
