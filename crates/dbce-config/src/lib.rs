//! The settings that decide a run's results, shared by every stage and recorded with its output:
//! their defaults, their validation and their fingerprint. Its own crate because the binary, the
//! stages, the report and the Python package all read them, and none of them owns them.
//!
//! ```
//! use dbce_config::Config;
//!
//! let config = Config::default();
//! config.validate()?;
//! assert_eq!(config.fingerprint()?.len(), 16);
//! # Ok::<(), dbce_config::ConfigError>(())
//! ```
#![deny(missing_docs)]

use std::collections::BTreeMap;

use dbce_classify::{LearnedBlocks, SinglePageMethod};
use dbce_dom::SanitizeConfig;
use dbce_http::HttpLimits;
pub use dbce_learn::ClassifyMethod;
use dbce_minhash::{LshParams, MinhashConfig};
use dbce_warc::{ReaderConfig, RecordType};
use serde::{Deserialize, Serialize};
use sha1::{Digest as _, Sha1};

/// Everything that affects what the stages produce. Paths, thread counts and shard numbers are
/// not here: they must not change the output. The one exception, `annotate.tasks-per-partition`
/// (the engines read it from the configuration as they read `lsh.partitions`), does not change
/// it either and is left out of [`Config::fingerprint`].
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields, rename_all = "kebab-case")]
pub struct Config {
    /// Reading archives.
    pub read: ReadConfig,
    /// Parsing and sanitising HTML.
    pub sanitize: SanitizeConfig,
    /// MinHash signatures of template tokens.
    pub minhash: MinhashConfig,
    /// Grouping pages with LSH.
    pub lsh: LshConfig,
    /// Crosses, diffs and classification.
    pub annotate: AnnotateConfig,
}

/// How pages are annotated and classified.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields, rename_all = "kebab-case")]
pub struct AnnotateConfig {
    /// How runs are classified: `t001` to `t006`, `joint`, `single`, `model` or `evidence`.
    /// By default, `evidence` (the diff weighed by the built-in judge, `docs/RESULTS.md`).
    pub method: ClassifyMethod,
    /// Seed of the random forests.
    pub seed: u64,
    /// In an LSH bucket larger than this, a page takes only this many of the bucket's other
    /// pages as candidates (its neighbours in page-id order), so huge templates cost linear
    /// time. By default, 64.
    pub max_candidates: u32,
    /// The most pages one pass of stage `annotate` holds, which bounds its memory whatever the
    /// site or partition size: a partition's sites go through in batches of at most this many
    /// pages, and a site with more is split into parts of consecutive URLs (captures of one
    /// URL stay together), each annotated as a site of its own, so its pages take partners only
    /// from their part (counted in the report as `site-split`, `site-split:partners-cut` and
    /// `site-split:alone`; on a sample of each partition, `site-split:best-partner-lost` of
    /// `site-split:sampled`).
    /// By default, 50,000 (about 200 MB of the stage's memory, `docs/SCALE.md`).
    pub max_site_pages: u64,
    /// How many tasks share one partition in stage `annotate`: the partition's batches (of at
    /// most `max-site-pages` pages) are dealt out among them, balanced by pages
    /// (`dbce_extract::Batches::share`), so the parts of a site of millions of pages are
    /// annotated by several tasks at once. The stage then has `lsh.partitions` × this many
    /// shards. What comes out does not depend on it, so it is left out of the fingerprint. By
    /// default, 1.
    #[serde(skip_serializing_if = "unfingerprinted::hashing")]
    pub tasks_per_partition: u32,
    /// The single-page classifier of pages without a cross, and of `invalid` runs where no
    /// learned classifier can be trained (`dbce_classify::SinglePageMethod`'s names:
    /// `readability`, `blocks` (the learned block classifier), `num-words`, `article`,
    /// `bf-plain`, …). By default, `blocks:0.5:0.55`: the learned block classifier anchored
    /// on Readability (a block Readability keeps is content at probability 0.5, any other at
    /// 0.55), which held out lifts wcxb-dev's articles from Readability's 0.883 to 0.939 and
    /// l3s-gn1 by 0.022, and costs the readability set 0.013 (`docs/single-page.md`).
    #[serde(with = "single_page_name")]
    pub single_page: SinglePageMethod,
    /// The single-page classifier of pages whose type (`page_type`) is not `article` (and of
    /// pages alone typed `article` with a confidence below `article-confidence`), in place of
    /// `single-page`; `none` uses `single-page` for every page. By default, `blocks` (the
    /// learned block classifier at 0.3, and for a page alone at 0.3 of the page's highest
    /// probability: held out on wcxb-dev it lifts pages of every other type by 0.11–0.32 over
    /// Readability, `docs/single-page.md`).
    // No field-level `default`: that would be `None`, not the section's default, for a
    // configuration file that leaves the setting out.
    #[serde(with = "optional_single_page_name")]
    pub single_page_beyond_articles: Option<SinglePageMethod>,
    /// A page classified alone (without a cross) and typed `article` with a confidence below
    /// this takes `single-page-beyond-articles` too: when the page-type model is unsure, the
    /// article route's high thresholds would drop the items of a listing or the sections of a
    /// service page it took for an article. In a cross the page's type alone picks the
    /// single-page evidence. By default, 0.45, the median of the choices made inside the
    /// training folds (15: five site folds, three seeds); held out it lifts wcxb-dev by 0.003
    /// (listings by 0.03) and moves the older news sets by at most 0.002
    /// (`docs/single-page.md`).
    pub article_confidence: f32,
    /// Partners poorer than this (estimated Jaccard similarity of template tokens) are not
    /// taken into a cross; a page left without one is classified alone, by the single-page
    /// classifier. Other captures of the page's URL are taken whatever their similarity. By
    /// default, 0 (every LSH candidate may be a partner).
    pub min_partner_similarity: f64,
    /// Write the annotated HTML of every page. By default, off.
    pub annotated_html: bool,
    /// Add each page's content as Markdown (headings, paragraphs, lists, tables, code, quotes
    /// from the DOM) to the JSONL as `markdown`. By default, off.
    pub markdown: bool,
    /// The run model of method `model` (a file written by `dbce train`); by default the model
    /// built into dbce.
    pub model: Option<std::path::PathBuf>,
    /// The judge of method `evidence` (a file written by `dbce train --judge`); by default the
    /// judge built into dbce.
    pub judge: Option<std::path::PathBuf>,
    /// The block model of the `blocks` single-page classifier (a file written by `dbce
    /// train-single-page --out`, e.g. one trained on your own labelled pages); by default the
    /// model built into dbce. Left out of the serialised settings when unset, so that the
    /// fingerprint of settings that do not name one is what it was before the setting existed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub block_model: Option<std::path::PathBuf>,
    /// Keep every cross page's run texts and model features in the stage's output, for
    /// `dbce train`. By default, off.
    pub training: bool,
    /// A page whose type is less certain than this takes the type its cross partners vote
    /// for (`dbce_classify::page_type::smooth_page_types`). By default, 0: off, because on
    /// wcxb-dev's multi-page sites it did not help (`docs/page-types.md`).
    pub page_type_smoothing: f32,
    /// A passage of the content that repeats an earlier one line for line, has at least this
    /// many words, and has a copy wholly in markup that hides it at some screen width or quotes
    /// it (a site builder's responsive copy, a forum reply quoting a post) is dropped: the
    /// reader sees it once (`dbce_annotate::RepeatedPassages`; the runs' decision is
    /// `repeated`). The thesis's methods `t001`–`t006` keep every copy. 0 keeps every copy.
    /// By default, 20: wcxb-dev +0.003, the older news sets level (`docs/single-page.md`).
    pub repeated_passage_words: u32,
}

impl Default for AnnotateConfig {
    fn default() -> Self {
        Self {
            method: ClassifyMethod::default(),
            seed: 0x00db_ce00,
            max_candidates: 64,
            max_site_pages: 50_000,
            tasks_per_partition: 1,
            single_page: SinglePageMethod::Blocks(LearnedBlocks::ARTICLES),
            single_page_beyond_articles: Some(SinglePageMethod::Blocks(LearnedBlocks::default())),
            article_confidence: 0.45,
            min_partner_similarity: 0.0,
            annotated_html: false,
            markdown: false,
            model: None,
            judge: None,
            block_model: None,
            training: false,
            page_type_smoothing: 0.0,
            repeated_passage_words: 20,
        }
    }
}

/// Settings that decide how the work is cut into tasks, not what comes out: serialised
/// everywhere but in [`Config::fingerprint`] (ruff's `#[cache_key(ignore)]`), so the
/// fingerprint, and the outputs that carry it, are the same whatever they are.
mod unfingerprinted {
    use std::cell::Cell;

    thread_local! {
        static HASHING: Cell<bool> = const { Cell::new(false) };
    }

    /// Whether the settings are being serialised for the fingerprint (a setting is then
    /// skipped).
    pub(super) fn hashing<T>(_: &T) -> bool {
        HASHING.with(Cell::get)
    }

    /// What `serialise` returns, with [`hashing`] true while it runs on this thread.
    pub(super) fn while_hashing<R>(serialise: impl FnOnce() -> R) -> R {
        let before = HASHING.with(|h| h.replace(true));
        let result = serialise();
        HASHING.with(|h| h.set(before));
        result
    }
}

/// An optional [`SinglePageMethod`] in configuration files: by its name, `none` for none.
mod optional_single_page_name {
    use dbce_classify::SinglePageMethod;
    use serde::{Deserialize as _, Deserializer, Serializer, de::Error as _};

    pub(super) fn serialize<S: Serializer>(
        method: &Option<SinglePageMethod>,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        match method {
            Some(method) => serializer.collect_str(method),
            None => serializer.serialize_str("none"),
        }
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Option<SinglePageMethod>, D::Error> {
        let name = String::deserialize(deserializer)?;
        if name == "none" {
            return Ok(None);
        }
        name.parse().map(Some).map_err(D::Error::custom)
    }
}

/// A [`SinglePageMethod`] in configuration files: by its name.
mod single_page_name {
    use dbce_classify::SinglePageMethod;
    use serde::{Deserialize as _, Deserializer, Serializer, de::Error as _};

    pub(super) fn serialize<S: Serializer>(
        method: &SinglePageMethod,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        serializer.collect_str(method)
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<SinglePageMethod, D::Error> {
        let name = String::deserialize(deserializer)?;
        name.parse().map_err(D::Error::custom)
    }
}

/// Which records become pages.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields, rename_all = "kebab-case")]
pub struct ReadConfig {
    /// Records with a larger block are skipped unread. By default, 256 MiB (as `dbce inspect`
    /// reads): a page larger than `sanitize.max-input-bytes` is read and cut to that size.
    pub max_record_size: u64,
    /// Undoing a content coding (gzip, deflate, brotli) stops after this many bytes: the page
    /// is read from its first part and flagged (`truncated: ["bytes"]`), and a zip bomb costs
    /// no more. By default, 32 MiB.
    pub max_decoded_bytes: u64,
}

impl Default for ReadConfig {
    fn default() -> Self {
        Self {
            max_record_size: 256 << 20,
            max_decoded_bytes: 32 << 20,
        }
    }
}

impl ReadConfig {
    /// The archive reader's settings: stage `read` and every refetch read alike, keeping the
    /// bodies of responses and resources only.
    pub fn reader(&self) -> ReaderConfig {
        ReaderConfig {
            max_record_size: self.max_record_size,
            keep_bodies: Some(vec![RecordType::Response, RecordType::Resource]),
            ..ReaderConfig::default()
        }
    }

    /// The HTTP decoding limits, shared by stage `read` and every refetch.
    pub fn http_limits(&self) -> HttpLimits {
        HttpLimits {
            max_decoded_bytes: self.max_decoded_bytes,
            ..HttpLimits::default()
        }
    }
}

/// How pages are grouped into LSH buckets.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields, rename_all = "kebab-case")]
pub struct LshConfig {
    /// The Jaccard threshold the bands and rows are chosen for (datasketch's optimum). By
    /// default, 0.3 (37 bands of 3 rows), not the thesis's 0.6, which leaves 14–46% of the
    /// development pages without a partner: see `docs/lsh-threshold.md`.
    pub threshold: f64,
    /// Thresholds for particular sites (registrable domains), overriding `threshold`.
    pub site_thresholds: BTreeMap<String, f64>,
    /// How many partitions the band rows are split into; `stage group` runs once per partition.
    /// By default, 16.
    pub partitions: u32,
}

impl Default for LshConfig {
    fn default() -> Self {
        Self {
            threshold: 0.3,
            site_thresholds: BTreeMap::new(),
            partitions: 16,
        }
    }
}

/// A configuration that cannot be used.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ConfigError {
    /// The MinHash or LSH settings are invalid.
    #[error("invalid MinHash/LSH setting: {0}")]
    Minhash(#[from] dbce_minhash::Error),
    /// There must be at least one partition.
    #[error("lsh.partitions must be at least 1")]
    NoPartitions,
    /// A pass of stage `annotate` must hold at least one page.
    #[error("annotate.max-site-pages must be at least 1")]
    NoSitePages,
    /// A partition must have at least one task in stage `annotate`.
    #[error("annotate.tasks-per-partition must be at least 1")]
    NoTasks,
    /// Stage `annotate`'s shards (partitions × tasks per partition) must be numbered by a
    /// 32-bit integer.
    #[error("lsh.partitions × annotate.tasks-per-partition must be below 2^32")]
    TooManyShards,
    /// `annotate.article-confidence` is a page type's confidence, in `[0, 1]`.
    #[error("annotate.article-confidence must be between 0 and 1, not {0}")]
    ArticleConfidence(f32),
    /// The settings could not be serialised for their fingerprint.
    #[error("cannot serialise the settings for their fingerprint: {0}")]
    Fingerprint(#[source] serde_json::Error),
}

impl Config {
    /// Checks the settings and returns the LSH parameters of every threshold in use.
    ///
    /// # Errors
    /// Fails on an invalid MinHash configuration, threshold or partition count.
    pub fn validate(&self) -> Result<(), ConfigError> {
        self.minhash.validate()?;
        if self.lsh.partitions == 0 {
            return Err(ConfigError::NoPartitions);
        }
        if self.annotate.max_site_pages == 0 {
            return Err(ConfigError::NoSitePages);
        }
        if self.annotate.tasks_per_partition == 0 {
            return Err(ConfigError::NoTasks);
        }
        if !(0.0..=1.0).contains(&self.annotate.article_confidence) {
            return Err(ConfigError::ArticleConfidence(
                self.annotate.article_confidence,
            ));
        }
        if self
            .lsh
            .partitions
            .checked_mul(self.annotate.tasks_per_partition)
            .is_none()
        {
            return Err(ConfigError::TooManyShards);
        }
        let thresholds =
            std::iter::once(self.lsh.threshold).chain(self.lsh.site_thresholds.values().copied());
        for threshold in thresholds {
            LshParams::optimal(threshold, self.minhash.num_perm)?;
        }
        Ok(())
    }

    /// How many shards stage `annotate` has: `lsh.partitions` × `annotate.tasks-per-partition`
    /// (shard `K` is task `K % tasks` of partition `K / tasks`).
    pub fn annotate_shards(&self) -> u32 {
        self.lsh
            .partitions
            .saturating_mul(self.annotate.tasks_per_partition)
    }

    /// The LSH bands and rows for `site`.
    ///
    /// # Errors
    /// Fails on an invalid threshold (checked by [`Config::validate`]).
    pub fn lsh_params(&self, site: &str) -> Result<LshParams, ConfigError> {
        let threshold = self
            .lsh
            .site_thresholds
            .get(site)
            .copied()
            .unwrap_or(self.lsh.threshold);
        Ok(LshParams::optimal(threshold, self.minhash.num_perm)?)
    }

    /// A short hash of what decides the output, recorded in every manifest: the settings (but
    /// `annotate.tasks-per-partition`, which does not), the dbce version, the models built into it and the contents of the model files the settings
    /// name. A stage refuses input made with another fingerprint, so a rerun after a retrain
    /// or an upgrade never mixes old and new annotations.
    ///
    /// # Errors
    /// Fails when the settings do not serialise.
    pub fn fingerprint(&self) -> Result<String, ConfigError> {
        let mut hasher = Sha1::new();
        let settings = unfingerprinted::while_hashing(|| serde_json::to_vec(self));
        hasher.update(settings.map_err(ConfigError::Fingerprint)?);
        hasher.update(env!("CARGO_PKG_VERSION"));
        hasher.update(dbce_learn::built_in_models_digest());
        for path in [
            &self.annotate.model,
            &self.annotate.judge,
            &self.annotate.block_model,
        ]
        .into_iter()
        .flatten()
        {
            // A file that cannot be read fails the stage that loads it, with its path.
            match std::fs::read(path) {
                Ok(bytes) => hasher.update(Sha1::digest(&bytes)),
                Err(e) => hasher.update(e.to_string()),
            }
        }
        let digest = hasher.finalize();
        Ok(digest[..8].iter().map(|b| format!("{b:02x}")).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_left_out_take_their_defaults() {
        let empty: Config = serde_json::from_str("{}").unwrap();
        assert_eq!(empty, Config::default());
        let sections: Config = serde_json::from_str(
            r#"{"annotate": {}, "lsh": {}, "read": {}, "sanitize": {}, "minhash": {}}"#,
        )
        .unwrap();
        assert_eq!(sections, Config::default());
        let one: Config = serde_json::from_str(r#"{"annotate": {"max-site-pages": 7}}"#).unwrap();
        let mut expected = Config::default();
        expected.annotate.max_site_pages = 7;
        assert_eq!(one, expected);
    }

    #[test]
    fn fingerprint_follows_result_affecting_settings() {
        let base = Config::default();
        let mut other = base.clone();
        other.lsh.threshold = 0.5;
        assert_ne!(base.fingerprint().unwrap(), other.fingerprint().unwrap());
        assert_eq!(
            base.fingerprint().unwrap(),
            Config::default().fingerprint().unwrap()
        );
        assert_eq!(base.fingerprint().unwrap().len(), 16);
    }

    #[test]
    fn the_tasks_per_partition_are_kept_but_not_fingerprinted() {
        let mut fanned = Config::default();
        fanned.annotate.tasks_per_partition = 3;
        // The fingerprint is that of the settings without the field (as before it existed).
        let json = serde_json::to_string(&Config::default()).unwrap();
        let without = json.replace(r#","tasks-per-partition":1"#, "");
        assert_ne!(json, without);
        let mut hasher = Sha1::new();
        hasher.update(without.as_bytes());
        hasher.update(env!("CARGO_PKG_VERSION"));
        hasher.update(dbce_learn::built_in_models_digest());
        let digest = hasher.finalize();
        let expected: String = digest[..8].iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(Config::default().fingerprint().unwrap(), expected);
        assert_eq!(fanned.fingerprint().unwrap(), expected);
        // Everywhere else the setting is written, and read back.
        let json = serde_json::to_string(&fanned).unwrap();
        assert!(json.contains(r#""tasks-per-partition":3"#), "{json}");
        assert_eq!(serde_json::from_str::<Config>(&json).unwrap(), fanned);
        assert_eq!(fanned.annotate_shards(), 48);
        fanned.annotate.tasks_per_partition = 0;
        assert!(matches!(fanned.validate(), Err(ConfigError::NoTasks)));
        fanned.annotate.tasks_per_partition = u32::MAX;
        assert!(matches!(fanned.validate(), Err(ConfigError::TooManyShards)));
    }

    #[test]
    fn the_article_confidence_is_a_probability() {
        let mut config: Config =
            serde_json::from_str(r#"{"annotate": {"article-confidence": 0.8}}"#).unwrap();
        assert_eq!(config.annotate.article_confidence, 0.8);
        assert!(config.validate().is_ok());
        for wrong in [-0.1, 1.5, f32::NAN] {
            config.annotate.article_confidence = wrong;
            assert!(matches!(
                config.validate(),
                Err(ConfigError::ArticleConfidence(_))
            ));
        }
    }

    #[test]
    fn fingerprint_follows_the_contents_of_model_files() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("judge.bin");
        std::fs::write(&path, b"first").unwrap();
        let mut config = Config::default();
        config.annotate.judge = Some(path.clone());
        let first = config.fingerprint().unwrap();
        assert_eq!(first, config.fingerprint().unwrap());
        std::fs::write(&path, b"retrained").unwrap();
        assert_ne!(first, config.fingerprint().unwrap());
        assert_ne!(first, Config::default().fingerprint().unwrap());
        let blocks = dir.path().join("blocks.bin");
        std::fs::write(&blocks, b"one").unwrap();
        config.annotate.block_model = Some(blocks.clone());
        let with_blocks = config.fingerprint().unwrap();
        assert_ne!(first, with_blocks);
        std::fs::write(&blocks, b"two").unwrap();
        assert_ne!(with_blocks, config.fingerprint().unwrap());
    }

    #[test]
    fn validation_catches_bad_settings() {
        assert!(Config::default().validate().is_ok());
        let mut bad = Config::default();
        bad.lsh.site_thresholds.insert("example.com".into(), 1.5);
        assert!(bad.validate().is_err());
        let mut bad = Config::default();
        bad.lsh.partitions = 0;
        assert!(matches!(bad.validate(), Err(ConfigError::NoPartitions)));
    }

    #[test]
    fn config_round_trips_through_json() {
        let mut config = Config::default();
        config.lsh.site_thresholds.insert("example.com".into(), 0.3);
        let json = serde_json::to_string(&config).unwrap();
        assert_eq!(serde_json::from_str::<Config>(&json).unwrap(), config);
        config.annotate.single_page = "bf-smoothed:0.38:7:0.35".parse().unwrap();
        let json = serde_json::to_string(&config).unwrap();
        assert!(
            json.contains(r#""single-page":"bf-smoothed:0.38:7:0.35""#),
            "{json}"
        );
        assert_eq!(serde_json::from_str::<Config>(&json).unwrap(), config);
    }

    #[test]
    fn an_unknown_single_page_method_is_refused_by_name() {
        let json = r#"{"annotate":{"single-page":"readablity"}}"#;
        let error = serde_json::from_str::<Config>(json)
            .unwrap_err()
            .to_string();
        assert!(
            error.contains("unknown single-page method \"readablity\""),
            "{error}"
        );
    }
}
