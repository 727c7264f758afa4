//! Class vocabularies: how the templates of different sites name the same parts of a page.

/// A class-naming scheme, after a family of real-world sites.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Naming {
    /// Block–element–modifier classes (`site-header__nav`).
    Bem,
    /// Bootstrap grid and components (`col-lg-8`, `card-body`).
    Bootstrap,
    /// Early-2000s ids and short classes (`#content`, `.box`).
    Legacy,
    /// WordPress theme classes (`entry-content`, `widget-area`).
    WordPress,
    /// Utility classes (`mx-auto max-w-7xl px-4`).
    Utility,
}

/// A part of a page that gets a class.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Role {
    Page,
    Skip,
    Cookie,
    CookieButtons,
    Header,
    Brand,
    TopLinks,
    Nav,
    NavList,
    NavItem,
    Breadcrumb,
    Ad,
    Layout,
    MainCol,
    Content,
    Headline,
    Standfirst,
    Byline,
    ArticleBody,
    Figure,
    Share,
    Tags,
    Related,
    Teaser,
    SideCol,
    Widget,
    WidgetTitle,
    Comments,
    Comment,
    CommentForm,
    Footer,
    FooterCol,
    About,
    Copyright,
    IndexList,
    Dek,
}

const ROLES: usize = Role::Dek as usize + 1;

#[rustfmt::skip]
const BEM: [&str; ROLES] = [
    "page page--article", "skip-link", "consent-banner", "consent-banner__actions", "site-header",
    "site-header__brand", "site-header__service", "main-nav", "main-nav__list", "main-nav__item",
    "breadcrumb", "ad-slot", "page-grid", "page-grid__main", "story", "story__headline",
    "story__standfirst", "story__byline", "story__body", "story__figure", "share-bar", "story__tags",
    "related", "teaser", "page-grid__aside", "aside-box", "aside-box__title", "comments",
    "comments__item", "comments__form", "site-footer", "site-footer__col", "site-footer__about",
    "site-footer__legal", "stream", "teaser__dek",
];

#[rustfmt::skip]
const BOOTSTRAP: [&str; ROLES] = [
    "bg-light", "visually-hidden-focusable", "alert alert-dark fixed-bottom", "btn-group",
    "navbar navbar-expand-lg", "navbar-brand", "nav nav-pills small", "collapse navbar-collapse",
    "navbar-nav me-auto", "nav-item", "breadcrumb", "text-center my-3 ad-wrapper", "row",
    "col-lg-8", "card border-0", "card-title display-5", "lead", "text-muted small", "card-text",
    "figure", "d-flex gap-2", "badge-list", "card mt-4", "list-group-item", "col-lg-4", "card mb-3",
    "card-header", "mt-5", "media", "needs-validation", "footer py-5", "col-md-3", "small text-muted",
    "text-center border-top pt-3", "list-group list-group-flush", "card-subtitle",
];

#[rustfmt::skip]
const LEGACY: [&str; ROLES] = [
    "main", "hidden", "cookiebox", "cookiebtns", "kopf", "logo", "service", "navi", "navlist",
    "navpunkt", "pfad", "werbung", "rahmen", "inhalt", "artikel", "ueberschrift", "teaser",
    "autor", "text", "bild", "share", "schlagworte", "mehrzumthema", "kasten", "rechts", "box",
    "boxhead", "kommentare", "kommentar", "formular", "fuss", "fussspalte", "ueberuns",
    "copyright", "liste", "anriss",
];

#[rustfmt::skip]
const WORDPRESS: [&str; ROLES] = [
    "home blog wp-custom-logo", "skip-link screen-reader-text", "cookie-notice-container",
    "cn-buttons", "site-header", "site-branding", "secondary-menu", "main-navigation",
    "menu nav-menu", "menu-item", "breadcrumbs", "adsense-widget", "site-content", "content-area",
    "post hentry", "entry-title", "entry-summary", "entry-meta", "entry-content", "wp-caption",
    "sharedaddy", "tags-links", "jp-relatedposts", "related-post", "widget-area", "widget",
    "widget-title", "comments-area", "comment-body", "comment-respond", "site-footer",
    "footer-widget", "site-info", "copyright", "posts-list", "entry-excerpt",
];

#[rustfmt::skip]
const UTILITY: [&str; ROLES] = [
    "bg-white text-gray-900 antialiased", "sr-only focus:not-sr-only",
    "fixed inset-x-0 bottom-0 z-50 bg-gray-800 p-4", "mt-2 flex gap-3",
    "border-b border-gray-200", "text-2xl font-black", "hidden md:flex gap-4 text-sm",
    "relative z-10", "flex flex-wrap gap-x-6", "py-2", "text-sm text-gray-500 my-3",
    "my-6 flex justify-center", "grid grid-cols-12 gap-8", "col-span-12 lg:col-span-8",
    "max-w-prose", "text-4xl font-bold leading-tight", "text-xl text-gray-700 mt-4",
    "text-sm text-gray-500 mt-2", "prose prose-lg mt-6", "my-8", "flex gap-2 mt-6",
    "flex flex-wrap gap-2 mt-4", "mt-10 border-t pt-6", "py-3 border-b",
    "col-span-12 lg:col-span-4", "rounded bg-gray-50 p-4 mb-6", "font-semibold uppercase mb-2",
    "mt-12", "py-4 border-b", "mt-6 space-y-3", "bg-gray-900 text-gray-300 mt-16",
    "col-span-6 md:col-span-3", "text-sm leading-relaxed mt-6", "text-xs mt-8",
    "divide-y", "text-gray-600 mt-1",
];

impl Naming {
    /// The class of `role` in this scheme.
    pub(crate) fn class(self, role: Role) -> &'static str {
        let table = match self {
            Self::Bem => &BEM,
            Self::Bootstrap => &BOOTSTRAP,
            Self::Legacy => &LEGACY,
            Self::WordPress => &WORDPRESS,
            Self::Utility => &UTILITY,
        };
        table[role as usize]
    }

    /// Classes of layout-only wrapper `div`s, which templates stack to different depths.
    pub(crate) fn wrappers(self) -> &'static [&'static str] {
        match self {
            Self::Bem => &[
                "l-page",
                "l-page__inner",
                "l-container",
                "l-container__inner",
                "l-region",
                "l-region__inner",
                "l-stack",
                "l-cluster",
                "l-box",
                "l-box__inner",
            ],
            Self::Bootstrap => &[
                "container",
                "container-xl",
                "row",
                "col-12",
                "wrapper",
                "inner",
                "clearfix",
                "position-relative",
                "d-block",
                "py-3",
            ],
            Self::Legacy => &[
                "wrapper",
                "container",
                "outer",
                "inner",
                "clearfix",
                "spalte",
                "mitte",
                "box",
                "boxinner",
                "floatbox",
            ],
            Self::WordPress => &[
                "site",
                "site-inner",
                "wrap",
                "container",
                "row",
                "col-full",
                "inside-article",
                "grid-container",
                "inner-wrap",
                "content-wrap",
            ],
            Self::Utility => &[
                "mx-auto max-w-7xl",
                "px-4 sm:px-6 lg:px-8",
                "flex flex-col",
                "relative",
                "w-full",
                "space-y-6",
                "overflow-hidden",
                "py-6",
                "lg:flex",
                "min-h-screen",
            ],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schemes_name_roles_differently() {
        let all = [
            Naming::Bem,
            Naming::Bootstrap,
            Naming::Legacy,
            Naming::WordPress,
            Naming::Utility,
        ];
        for (i, a) in all.iter().enumerate() {
            for b in &all[i + 1..] {
                assert_ne!(a.class(Role::Content), b.class(Role::Content));
                assert_ne!(a.wrappers(), b.wrappers());
            }
            assert!(a.class(Role::Dek).len() > 2);
        }
    }
}
