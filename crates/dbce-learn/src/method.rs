//! The methods that classify a cross page's runs after the diff (`annotate.method`).

use serde::{Deserialize, Serialize};

/// How runs are classified after the diff (thesis test cases and the joint variant).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ClassifyMethod {
    /// T001: the bit patterns, then the thesis's parent propagation (§2.3.5): an `invalid`
    /// run takes the class its decided neighbours lift to its nearest ancestor, and is left out
    /// of the text when none does.
    T001,
    /// T002: the bit patterns, `invalid` runs are boilerplate.
    T002,
    /// T003: the bit patterns, then k nearest neighbours (k = 5), trained per site on the runs
    /// they decided, classify the `invalid` runs from each run's vector with its previous and
    /// next run in its layer group.
    T003,
    /// T004: as T003, with the window widened to the parent's neighbourhood (2 layers).
    T004,
    /// T005: as T003, with a 3-layer window (parent's and grandparent's neighbourhoods).
    T005,
    /// T006: as T005 with a random forest instead of nearest neighbours (the thesis's best).
    T006,
    /// The bit patterns label the training runs; a random forest per site, trained on the other
    /// half of the site's pages, classifies every run, and may overturn the patterns.
    Joint,
    /// Every page by the single-page classifier (`annotate.single-page`), ignoring the cross.
    Single,
    /// A random forest trained offline on ground truth (`dbce train`) classifies every run of a
    /// cross page from its shallow features, its occurrence bits, its pattern class and the
    /// partners' similarity: the model in `annotate.model`, or the one built into dbce.
    Model,
    /// The diff decides, and a page-level judge trained on ground truth (`dbce train --judge`)
    /// weighs it against the single-page classifier: per cross page it takes the runs the
    /// patterns keep (after T001's parent propagation), those both keep, or the single-page
    /// verdict ([`crate::judge`]). A page
    /// whose route yields no text takes the next route that yields some.
    #[default]
    Evidence,
}

impl ClassifyMethod {
    /// Every method, for evaluation.
    pub const ALL: [ClassifyMethod; 10] = [
        Self::T001,
        Self::T002,
        Self::T003,
        Self::T004,
        Self::T005,
        Self::T006,
        Self::Joint,
        Self::Single,
        Self::Model,
        Self::Evidence,
    ];

    /// The method's name in configuration files and reports.
    pub fn name(self) -> &'static str {
        match self {
            Self::T001 => "t001",
            Self::T002 => "t002",
            Self::T003 => "t003",
            Self::T004 => "t004",
            Self::T005 => "t005",
            Self::T006 => "t006",
            Self::Joint => "joint",
            Self::Single => "single",
            Self::Model => "model",
            Self::Evidence => "evidence",
        }
    }

    /// Layers of the neighbourhood window the method's classifier reads (thesis §4.2), 0 for
    /// methods that read none.
    pub fn window_layers(self) -> usize {
        match self {
            Self::T003 => 1,
            Self::T004 => 2,
            Self::T005 | Self::T006 => 3,
            Self::T001 | Self::T002 | Self::Joint | Self::Single | Self::Model | Self::Evidence => {
                0
            }
        }
    }

    /// Whether the method learns from a whole site's pages before it classifies any.
    pub fn learns_per_site(self) -> bool {
        self.window_layers() > 0 || self == Self::Joint
    }

    /// Whether the method is one of the thesis's test cases, `t001`–`t006`, whose text stays
    /// as the thesis defines it (every later refinement, such as dropping repeated passages,
    /// is left out of them).
    pub fn is_thesis_case(self) -> bool {
        matches!(
            self,
            Self::T001 | Self::T002 | Self::T003 | Self::T004 | Self::T005 | Self::T006
        )
    }
}
