//! What kind of page a page is: an article, a forum thread, a product, a collection, a
//! listing, documentation, a service page, or an error page.
//!
//! The seven types of the WCXB benchmark (Foley 2026) are learned: [`PageTypeModel`] is one
//! random forest per type (one against the rest) over [`page_type_features`], from the URL, the
//! sanitised DOM and its text. The eighth, [`PageType::Error`], has no labelled examples: it is
//! decided by the explicit rules of [`error_page`], before the model is asked.

mod error_page;
mod features;
mod model;
mod smooth;
mod validate;

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

pub use error_page::{
    ErrorPageRule, LOGIN_WALL_WORDS, SHORT_PAGE_WORDS, TINY_PAGE_WORDS, error_page,
};
pub use features::{PAGE_TYPE_FEATURE_NAMES, page_type_features};
pub use model::{PageTypeModel, PageTypeModelError};
pub use smooth::{SMOOTHING_CONFIDENCE, smooth_page_types};
pub use validate::{Confusion, PageTypeValidation, grouped_folds, validate_page_types};

/// The kind of a page.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize, Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum PageType {
    /// A news story, blog post or other article: one main text.
    #[default]
    Article,
    /// A forum thread or a question-and-answer page: posts and replies.
    Forum,
    /// One product: title, description, specifications, reviews.
    Product,
    /// A grid of products or items of a category.
    Collection,
    /// An index of content: teasers of articles or posts.
    Listing,
    /// Documentation: headings, prose, code and tables.
    Documentation,
    /// A product or SaaS marketing page: feature sections.
    Service,
    /// A soft-404, a login wall or an error template: no content.
    Error,
}

impl PageType {
    /// Every type, in declaration order.
    pub const ALL: [PageType; 8] = [
        PageType::Article,
        PageType::Forum,
        PageType::Product,
        PageType::Collection,
        PageType::Listing,
        PageType::Documentation,
        PageType::Service,
        PageType::Error,
    ];

    /// The types [`PageTypeModel`] learns from labelled pages: all but [`PageType::Error`].
    pub const LEARNED: [PageType; 7] = [
        PageType::Article,
        PageType::Forum,
        PageType::Product,
        PageType::Collection,
        PageType::Listing,
        PageType::Documentation,
        PageType::Service,
    ];

    /// The lowercase name, as in WCXB's `page_type` and dbce's JSONL.
    pub fn name(self) -> &'static str {
        match self {
            PageType::Article => "article",
            PageType::Forum => "forum",
            PageType::Product => "product",
            PageType::Collection => "collection",
            PageType::Listing => "listing",
            PageType::Documentation => "documentation",
            PageType::Service => "service",
            PageType::Error => "error",
        }
    }

    /// Position in [`PageType::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for PageType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is not a [`PageType`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown page type {0:?}: expected one of article, forum, product, collection, listing, documentation, service, error"
)]
pub struct ParsePageTypeError(pub String);

impl FromStr for PageType {
    type Err = ParsePageTypeError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        PageType::ALL
            .into_iter()
            .find(|t| t.name() == s)
            .ok_or_else(|| ParsePageTypeError(s.to_owned()))
    }
}

/// A page's type with the classifier's confidence in it, a probability in `[0, 1]`.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct PageTypeGuess {
    /// The type.
    pub page_type: PageType,
    /// How sure the classifier is: the type's share of the forests' votes, or the fixed
    /// confidence of the error rule that fired.
    pub confidence: f32,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_back_as_their_type() {
        for page_type in PageType::ALL {
            assert_eq!(page_type.name().parse::<PageType>(), Ok(page_type));
            assert_eq!(PageType::ALL[page_type.index()], page_type);
        }
        assert!("blog".parse::<PageType>().is_err());
    }

    #[test]
    fn serde_uses_the_lowercase_names() {
        let json = serde_json::to_string(&PageType::Documentation).unwrap();
        assert_eq!(json, "\"documentation\"");
    }
}
