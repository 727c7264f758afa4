//! What sanitising keeps (thesis §2.2), decided once per element when the parser creates it.

use std::collections::HashSet;
use std::sync::OnceLock;

use html5ever::{Attribute, QualName, local_name, ns};

/// Why a node was left out of the document; [`crate::ParseReport::dropped`] counts each.
///
/// Thesis §2.2 removes "JavaScript, comments, iframes"; its prototype also removes `<noscript>`
/// and the `<style>` elements of the body. The other reasons are this crate's decisions
/// (`docs/dom.md`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum DropReason {
    /// A `<script>` element and its code.
    Script,
    /// A `<style>` element, in the head as well as in the body.
    Style,
    /// A comment (or a bogus comment such as `<?xml …?>`).
    Comment,
    /// A `<noscript>` element: its content is parsed as text, as in a browser with scripting on.
    Noscript,
    /// An `<iframe>`, `<frame>` or `<noframes>`: embedded or alternative pages.
    Frame,
    /// An `<object>`, `<embed>`, `<applet>` or `<noembed>`: plugin content and its fallback.
    Embed,
    /// A `<template>`: its content is inert, never rendered.
    Template,
    /// An element inside `<svg>`: drawing instructions, not page structure.
    SvgContent,
    /// A cookie-consent dialog, known by the `id` or a class its vendor gives it
    /// ([`CONSENT_DIALOGS`]): a script puts it on every page, and a capture of the rendered
    /// page keeps it.
    ConsentDialog,
}

impl DropReason {
    /// Every reason, in declaration order.
    pub const ALL: [DropReason; 9] = [
        DropReason::Script,
        DropReason::Style,
        DropReason::Comment,
        DropReason::Noscript,
        DropReason::Frame,
        DropReason::Embed,
        DropReason::Template,
        DropReason::SvgContent,
        DropReason::ConsentDialog,
    ];

    /// Position in [`DropReason::ALL`].
    pub(crate) fn index(self) -> usize {
        self as usize
    }
}

/// What happens to an element and its content.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ElementRule {
    /// Kept with its content.
    Keep,
    /// Kept, but nothing is ever appended to it (`<svg>`).
    KeepEmpty,
    /// Left out with everything inside it.
    Drop(DropReason),
}

/// The `id`s and classes of cookie-consent dialogs, as their vendors write them: OneTrust,
/// Cookiebot, Didomi, Quantcast, Sourcepoint (`sp_message_container_` and a number), Usercentrics,
/// TrustArc, Google's Funding Choices, consentmanager.net, iubenda, CookieYes, the WordPress
/// plugins Cookie Notice, GDPR Cookie Compliance and Complianz, Borlabs, CookieScript, Osano and
/// Termly, and the names sites give their own banner. Matched whole (a class is one of the
/// `class` attribute's words), so a recipe site's `cookie-card` is not one.
pub const CONSENT_DIALOGS: &[&str] = &[
    "onetrust-consent-sdk",
    "onetrust-banner-sdk",
    "onetrust-pc-sdk",
    "ot-sdk-btn-floating",
    "CybotCookiebotDialog",
    "didomi-host",
    "qc-cmp2-container",
    "usercentrics-root",
    "truste-consent-track",
    "consent_blackbar",
    "fc-consent-root",
    "cmpbox",
    "cmpwrapper",
    "iubenda-cs-banner",
    "cookie-law-info-bar",
    "cky-consent-container",
    "cookie-notice",
    "moove_gdpr_cookie_modal",
    "moove_gdpr_cookie_info_bar",
    "cmplz-cookiebanner-container",
    "BorlabsCookie",
    "cookiescript_injected",
    "osano-cm-window",
    "termly-code-snippet-support",
    "cookie-banner",
    "cookie_banner",
    "cookiebanner",
    "cookie-consent",
    "cookie-consent-banner",
    "cookieConsent",
];

/// Whether `name` names a cookie-consent dialog: one of [`CONSENT_DIALOGS`], or Sourcepoint's
/// numbered container.
fn is_consent_dialog_name(name: &str) -> bool {
    // A set: every class word of every element is looked up.
    static NAMES: OnceLock<HashSet<&'static str, foldhash::fast::FixedState>> = OnceLock::new();
    NAMES
        .get_or_init(|| CONSENT_DIALOGS.iter().copied().collect())
        .contains(name)
        || name
            .strip_prefix("sp_message_container_")
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// Whether an element's `id`, or a word of its `class`, names a cookie-consent dialog.
fn is_consent_dialog(attrs: &[Attribute]) -> bool {
    attrs.iter().any(|attr| match attr.name.local {
        local_name!("id") => is_consent_dialog_name(attr.value.trim()),
        local_name!("class") => attr
            .value
            .split_ascii_whitespace()
            .any(is_consent_dialog_name),
        _ => false,
    })
}

/// The rule for an element named `name` with attributes `attrs`.
pub(crate) fn element_rule(name: &QualName, attrs: &[Attribute]) -> ElementRule {
    if name.ns == ns!(svg) {
        return if name.local == local_name!("svg") {
            ElementRule::KeepEmpty
        } else {
            ElementRule::Drop(DropReason::SvgContent)
        };
    }
    if name.ns != ns!(html) {
        return ElementRule::Keep;
    }
    let reason = match name.local {
        local_name!("script") => DropReason::Script,
        local_name!("style") => DropReason::Style,
        local_name!("noscript") => DropReason::Noscript,
        local_name!("iframe") | local_name!("frame") | local_name!("noframes") => DropReason::Frame,
        local_name!("object")
        | local_name!("embed")
        | local_name!("applet")
        | local_name!("noembed") => DropReason::Embed,
        local_name!("template") => DropReason::Template,
        _ if is_consent_dialog(attrs) => DropReason::ConsentDialog,
        _ => return ElementRule::Keep,
    };
    ElementRule::Drop(reason)
}

/// Whether the start tag of `name` makes the HTML5 parser look through the whole stack of open
/// elements ("close a p element" if one is in button scope, and the like): nesting these is
/// quadratic in depth, so [`crate::SanitizeConfig::max_block_depth`] limits it.
pub(crate) fn scans_open_elements(name: &QualName) -> bool {
    name.ns == ns!(html)
        && matches!(
            name.local,
            local_name!("address")
                | local_name!("article")
                | local_name!("aside")
                | local_name!("blockquote")
                | local_name!("center")
                | local_name!("dd")
                | local_name!("details")
                | local_name!("dialog")
                | local_name!("dir")
                | local_name!("div")
                | local_name!("dl")
                | local_name!("dt")
                | local_name!("fieldset")
                | local_name!("figcaption")
                | local_name!("figure")
                | local_name!("footer")
                | local_name!("form")
                | local_name!("h1")
                | local_name!("h2")
                | local_name!("h3")
                | local_name!("h4")
                | local_name!("h5")
                | local_name!("h6")
                | local_name!("header")
                | local_name!("hgroup")
                | local_name!("hr")
                | local_name!("li")
                | local_name!("listing")
                | local_name!("main")
                | local_name!("menu")
                | local_name!("nav")
                | local_name!("ol")
                | local_name!("p")
                | local_name!("plaintext")
                | local_name!("pre")
                | local_name!("search")
                | local_name!("section")
                | local_name!("summary")
                | local_name!("table")
                | local_name!("ul")
                | local_name!("xmp")
        )
}

#[cfg(test)]
mod tests {
    use super::*;
    use html5ever::LocalName;

    fn html(local: &str) -> QualName {
        QualName::new(None, ns!(html), LocalName::from(local))
    }

    #[test]
    fn thesis_drops_scripts_iframes_noscript() {
        assert_eq!(
            element_rule(&html("script"), &[]),
            ElementRule::Drop(DropReason::Script)
        );
        assert_eq!(
            element_rule(&html("iframe"), &[]),
            ElementRule::Drop(DropReason::Frame)
        );
        assert_eq!(
            element_rule(&html("noscript"), &[]),
            ElementRule::Drop(DropReason::Noscript)
        );
        assert_eq!(element_rule(&html("div"), &[]), ElementRule::Keep);
        assert_eq!(element_rule(&html("my-widget"), &[]), ElementRule::Keep);
    }

    #[test]
    fn svg_is_kept_empty_and_its_content_dropped() {
        let svg = QualName::new(None, ns!(svg), local_name!("svg"));
        let path = QualName::new(None, ns!(svg), local_name!("path"));
        let math = QualName::new(None, ns!(mathml), local_name!("math"));
        assert_eq!(element_rule(&svg, &[]), ElementRule::KeepEmpty);
        assert_eq!(
            element_rule(&path, &[]),
            ElementRule::Drop(DropReason::SvgContent)
        );
        assert_eq!(element_rule(&math, &[]), ElementRule::Keep);
    }

    fn with(name: &str, value: &str) -> Vec<Attribute> {
        vec![Attribute {
            name: QualName::new(None, ns!(), LocalName::from(name)),
            value: value.into(),
        }]
    }

    #[test]
    fn consent_dialogs_are_dropped_by_id_or_class_word() {
        let dropped = ElementRule::Drop(DropReason::ConsentDialog);
        let div = html("div");
        assert_eq!(
            element_rule(&div, &with("id", "onetrust-consent-sdk")),
            dropped
        );
        assert_eq!(
            element_rule(&div, &with("class", "a cookie-notice b")),
            dropped
        );
        assert_eq!(
            element_rule(&div, &with("id", "sp_message_container_1355822")),
            dropped
        );
        // Whole names only, and only in `id` and `class`.
        for (name, value) in [
            ("id", "sp_message_container_"),
            ("id", "sp_message_container_x1"),
            ("class", "cookie-card"),
            ("class", "my-cookie-banner"),
            ("title", "cookie-banner"),
        ] {
            assert_eq!(
                element_rule(&div, &with(name, value)),
                ElementRule::Keep,
                "{value}"
            );
        }
        // Another rule comes first.
        assert_eq!(
            element_rule(&html("script"), &with("id", "cookie-banner")),
            ElementRule::Drop(DropReason::Script)
        );
    }

    #[test]
    fn block_start_tags_scan_the_stack() {
        assert!(scans_open_elements(&html("div")));
        assert!(scans_open_elements(&html("ul")));
        assert!(!scans_open_elements(&html("span")));
        assert!(!scans_open_elements(&html("b")));
    }

    #[test]
    fn reasons_index_their_position() {
        for (i, reason) in DropReason::ALL.iter().enumerate() {
            assert_eq!(reason.index(), i);
        }
    }
}
