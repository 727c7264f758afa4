//! What sanitising keeps and drops (thesis §2.2 and `docs/dom.md`).

use dbce_dom::{Document, DropReason, NodeKind, SanitizeConfig};

fn parse(html: &str) -> Document {
    Document::parse(html, &SanitizeConfig::default()).expect("HTML parses")
}

/// Element names in document order.
fn elements(doc: &Document) -> Vec<&str> {
    doc.nodes().filter_map(|n| n.name()).collect()
}

#[test]
fn scripts_styles_comments_and_iframes_go_with_their_content() {
    let doc = parse(
        "<html><head><style>h1{}</style><script src=a.js></script></head><body>\
         <!-- note --><p>kept</p><script>document.write('<p>gone</p>')</script>\
         <style>p{}</style><iframe src=x><p>fallback</p></iframe></body></html>",
    );
    assert_eq!(elements(&doc), ["html", "head", "body", "p"]);
    assert_eq!(doc.visible_text(), "kept");
    let report = doc.report();
    assert_eq!(report.dropped(DropReason::Script), 2);
    assert_eq!(report.dropped(DropReason::Style), 2);
    assert_eq!(report.dropped(DropReason::Comment), 1);
    assert_eq!(report.dropped(DropReason::Frame), 1);
}

#[test]
fn noscript_content_never_reaches_the_page() {
    // With scripting off, the <img> in the head's <noscript> would close the head and land in
    // the body; with scripting on (as parsed here) the whole content is one dropped text node.
    let doc = parse(
        "<head><noscript><img src=pixel.gif></noscript></head>\
         <body><noscript><p>Enable JavaScript</p></noscript><p>text</p></body>",
    );
    assert_eq!(elements(&doc), ["html", "head", "body", "p"]);
    assert_eq!(doc.visible_text(), "text");
    assert_eq!(doc.report().dropped(DropReason::Noscript), 2);
}

#[test]
fn templates_objects_and_embeds_are_dropped() {
    let doc = parse(
        "<template><p>inert</p></template><object data=x.swf><param name=a>\
         <p>Get Flash</p></object><embed src=y><applet>z</applet><noembed>n</noembed><p>ok</p>",
    );
    assert_eq!(elements(&doc), ["html", "head", "body", "p"]);
    assert_eq!(doc.visible_text(), "ok");
    assert_eq!(doc.report().dropped(DropReason::Template), 1);
    assert_eq!(doc.report().dropped(DropReason::Embed), 4);
}

#[test]
fn cookie_consent_dialogs_go_with_their_content() {
    let doc = parse(
        "<body><div id=onetrust-consent-sdk><div id=onetrust-pc-sdk role=dialog>\
         <h2>Privacy Preference Center</h2><p>These cookies allow us</p></div></div>\
         <p class=cookie-card>Oatmeal cookies</p><div class='bar cookie-notice'>We use cookies</div>\
         </body>",
    );
    assert_eq!(elements(&doc), ["html", "head", "body", "p"]);
    assert_eq!(doc.visible_text(), "Oatmeal cookies");
    // Each dialog element counts, the one inside another too (as `<svg>`'s drawing does).
    assert_eq!(doc.report().dropped(DropReason::ConsentDialog), 3);
}

#[test]
fn svg_is_kept_without_its_drawing() {
    let doc = parse("<p>a<svg viewBox='0 0 1 1'><g><path d=M0/><text>label</text></g></svg>b</p>");
    assert_eq!(elements(&doc), ["html", "head", "body", "p", "svg"]);
    let svg = doc.nodes().find(|n| n.is_element("svg")).unwrap();
    assert_eq!(svg.children().count(), 0);
    assert_eq!(svg.attr("viewbox"), Some("0 0 1 1"));
    assert_eq!(doc.report().dropped(DropReason::SvgContent), 3);
    assert_eq!(doc.visible_text(), "ab");
}

#[test]
fn mathml_and_custom_elements_are_kept() {
    let doc = parse("<my-card><math><mi>x</mi></math></my-card>");
    assert_eq!(
        elements(&doc),
        ["html", "head", "body", "my-card", "math", "mi"]
    );
}

#[test]
fn head_elements_are_kept_and_title_is_read() {
    let doc = parse(
        "<head><meta charset=utf-8><title> A  page </title><link rel=icon href=/f.ico></head>\
         <body><p>x",
    );
    assert_eq!(
        elements(&doc),
        ["html", "head", "meta", "title", "link", "body", "p"]
    );
    assert_eq!(doc.title(), Some("A  page"));
    assert_eq!(doc.visible_text(), "x");
    assert_eq!(doc.body().and_then(|b| b.name()), Some("body"));
    assert_eq!(parse("<p>no title").title(), None);
}

#[test]
fn whitespace_text_is_kept_and_names_are_lowercase() {
    let doc = parse("<DIV CLASS=Box ID=main>\n  <SPAN>a</SPAN> <B>b</B>\n</DIV>");
    let div = doc.nodes().find(|n| n.is_element("div")).unwrap();
    let attrs: Vec<_> = div.attrs().collect();
    assert_eq!(attrs, [("class", "Box"), ("id", "main")]);
    let kinds: Vec<_> = div.children().map(|c| c.kind()).collect();
    assert_eq!(
        kinds,
        [
            NodeKind::Text,
            NodeKind::Element,
            NodeKind::Text,
            NodeKind::Element,
            NodeKind::Text
        ]
    );
    assert_eq!(doc.visible_text(), "a b");
    assert_eq!(doc.text_runs().count(), 2);
}

#[test]
fn br_and_hr_are_elements_that_break_lines() {
    let doc = parse("<p>one<br>two</p><hr><p>three</p>");
    assert_eq!(
        elements(&doc),
        ["html", "head", "body", "p", "br", "hr", "p"]
    );
    assert_eq!(doc.visible_text(), "one\ntwo\nthree");
}

#[test]
fn entities_are_decoded() {
    let doc = parse("<p>Fish &amp; Chips &copy; 2016 &#x41;&nbsp;</p>");
    let run = doc.text_runs().next().unwrap();
    assert_eq!(run.text, "Fish & Chips \u{a9} 2016 A\u{a0}");
}
