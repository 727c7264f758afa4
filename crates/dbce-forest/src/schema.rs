//! The names of the values a stored model reads, kept with the model and checked when it is
//! loaded: a model trained on features in another order, or on other features, is refused
//! instead of reading garbage.

use serde::{Deserialize, Serialize};

/// The feature names a model was trained on, in order. Serialised as the plain list of names.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct FeatureSchema(Vec<String>);

/// Why a stored model's features are not the ones this build computes.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "trained on {found} features, this build computes {expected}; the first that differs: {first_difference}"
)]
pub struct SchemaMismatch {
    /// How many features this build computes.
    pub expected: usize,
    /// How many the model was trained on.
    pub found: usize,
    /// The first position that differs, as `model's name != this build's name`.
    pub first_difference: String,
}

impl FeatureSchema {
    /// The schema of features named `names`, in that order.
    pub fn new<S: AsRef<str>>(names: &[S]) -> Self {
        Self(names.iter().map(|n| n.as_ref().to_owned()).collect())
    }

    /// The names, in order.
    pub fn names(&self) -> &[String] {
        &self.0
    }

    /// How many features there are.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Checks that the model's features are `expected`, in that order.
    ///
    /// # Errors
    /// [`SchemaMismatch`] naming the first position that differs.
    pub fn check<S: AsRef<str>>(&self, expected: &[S]) -> Result<(), SchemaMismatch> {
        let ours = self.0.iter().map(String::as_str);
        let theirs = expected.iter().map(AsRef::as_ref);
        if ours.clone().eq(theirs.clone()) {
            return Ok(());
        }
        let none = std::iter::repeat("(none)");
        let first_difference = ours
            .chain(none.clone())
            .zip(theirs.chain(none))
            .enumerate()
            .find(|(_, (a, b))| a != b)
            .map(|(i, (a, b))| format!("#{i}: {a} != {b}"))
            .unwrap_or_default();
        Err(SchemaMismatch {
            expected: expected.len(),
            found: self.0.len(),
            first_difference,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_names_in_order_pass() {
        let schema = FeatureSchema::new(&["words", "links"]);
        assert!(schema.check(&["words", "links"]).is_ok());
        assert_eq!(schema.len(), 2);
    }

    #[test]
    fn reordered_missing_or_extra_names_are_refused() {
        let schema = FeatureSchema::new(&["words", "links"]);
        let swapped = schema.check(&["links", "words"]).unwrap_err();
        assert_eq!(swapped.first_difference, "#0: words != links");
        let longer = schema.check(&["words", "links", "depth"]).unwrap_err();
        assert_eq!(longer.first_difference, "#2: (none) != depth");
        assert_eq!((longer.found, longer.expected), (2, 3));
    }

    #[test]
    fn it_is_stored_as_the_plain_list_of_names() {
        let names = vec!["a".to_owned(), "b".to_owned()];
        let schema = FeatureSchema::new(&names);
        assert_eq!(
            postcard::to_allocvec(&schema).unwrap(),
            postcard::to_allocvec(&names).unwrap()
        );
    }
}
