//! Stage `read`, the map step of stage 1: archive records → pages with their template
//! signatures, and LSH band rows partitioned by key.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use dbce_annotate::PageTokens;
use dbce_classify::PageTypeModel;
use dbce_dom::{Document, TemplateTokens, Truncation};
use dbce_http::HttpLimits;
use dbce_minhash::{BandKey, LshParams, MinHasher, Signature};
use dbce_warc::{Entry, Record, WarcReader};
use rayon::prelude::*;

use crate::bands::{BandRow, BucketKey};
use crate::doms::{Capture, DOMS, PackedDom, PageDom};
use crate::shard::Shard;
use crate::skips::{SkipLine, SkipLog};
use crate::work::{LAYOUT_VERSION, Manifest, WorkDir};
use crate::{Config, StageError, StageReport};
use dbce_artifact::{ArtifactKind, ArtifactWriter};
use dbce_page::captured_html;
use dbce_page::{FileId, PageId, PageRef, PayloadDigest, Source};

/// The stage's name and directory.
pub const STAGE: &str = crate::work::READ;
/// `read/pages/PART/RANK.bin` ([`WorkDir::read_pages`](crate::WorkDir::read_pages)): the [`PageRef`]s of
/// a shard whose site falls in partition `PART`, in input order.
pub const PAGES: ArtifactKind = ArtifactKind {
    tag: *b"PAGE",
    version: 5,
};
/// `read/words/PART/RANK.bin` ([`WorkDir::read_words`](crate::WorkDir::read_words)): each page's `html_annotate` words, hashed
/// ([`PageWords`]), in the order of the pages file: what a page lends to other pages' crosses,
/// so stage `annotate` need not parse it for that.
pub const WORDS: ArtifactKind = ArtifactKind {
    tag: *b"WORD",
    version: 1,
};

/// A page's body words as [`dbce_annotate::WordId`] hashes.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct PageWords {
    /// The page.
    pub page: PageId,
    /// Its words in document order.
    pub words: Vec<u64>,
}

/// Records decoded in parallel at a time.
const BATCH: usize = 128;

/// Runs `shard` of stage `read` over `inputs` (sorted and deduplicated by the caller, the same
/// for every shard), unless it is already done. Returns its report.
///
/// # Errors
/// Fails when the work directory is inconsistent, an input or output cannot be read or
/// written, or an input yields no record at all ([`StageError::NoRecords`]: not an archive);
/// damage inside archives is counted in the report, never an error.
pub fn run_read(
    work: &WorkDir,
    config: &Config,
    inputs: &[PathBuf],
    shard: Shard,
) -> Result<StageReport, StageError> {
    config.validate()?;
    work.begin(&Manifest {
        layout: LAYOUT_VERSION,
        stage: STAGE.to_owned(),
        fingerprint: config.fingerprint()?,
        config: config.clone(),
        inputs: inputs.to_vec(),
        shards: shard.world,
    })?;
    if work.is_done(STAGE, shard.rank) {
        return Ok(work.report(STAGE, shard.rank)?);
    }
    let mut step = ReadStep::new(work, config, shard)?;
    for (index, path) in inputs.iter().enumerate() {
        if shard.owns(index) {
            let file = FileId(u32::try_from(index).map_err(|_| StageError::TooManyInputs)?);
            step.read_file(path, file)?;
        }
    }
    step.finish(work)
}

/// One shard's state while it reads its files.
struct ReadStep {
    config: Config,
    hasher: MinHasher,
    limits: HttpLimits,
    /// Bands and rows for sites without a threshold of their own.
    default_params: LshParams,
    /// Bands and rows of the sites with their own threshold.
    site_params: BTreeMap<String, LshParams>,
    /// One writer per partition.
    pages: Vec<ArtifactWriter<PageRef>>,
    /// One writer per partition.
    words: Vec<ArtifactWriter<PageWords>>,
    /// One writer per partition.
    doms: Vec<ArtifactWriter<PageDom>>,
    bands: Vec<ArtifactWriter<BandRow>>,
    skips: SkipLog,
    report: StageReport,
}

/// What became of one record.
enum Outcome {
    /// The page, its band keys, its words and its DOM.
    Page(Box<PageRef>, Vec<BandKey>, PageWords, PackedDom),
    Skip(SkipLine),
}

impl ReadStep {
    fn new(work: &WorkDir, config: &Config, shard: Shard) -> Result<Self, StageError> {
        let skips_path = work.read_skips(shard.rank);
        Ok(Self {
            config: config.clone(),
            hasher: MinHasher::new(config.minhash)?,
            limits: config.read.http_limits(),
            default_params: LshParams::optimal(config.lsh.threshold, config.minhash.num_perm)?,
            site_params: config
                .lsh
                .site_thresholds
                .keys()
                .map(|site| Ok((site.clone(), config.lsh_params(site)?)))
                .collect::<Result<_, StageError>>()?,
            pages: (0..config.lsh.partitions)
                .map(|p| ArtifactWriter::create(&work.read_pages(p, shard.rank), PAGES))
                .collect::<Result<_, _>>()?,
            words: (0..config.lsh.partitions)
                .map(|p| ArtifactWriter::create(&work.read_words(p, shard.rank), WORDS))
                .collect::<Result<_, _>>()?,
            doms: (0..config.lsh.partitions)
                // Small buffers: a shard writes one DOM file per partition at once and DOMs
                // are tens of kilobytes, so larger buffers only add to the peak memory.
                .map(|p| ArtifactWriter::with_buffer(&work.read_doms(p, shard.rank), DOMS, 1 << 16))
                .collect::<Result<_, _>>()?,
            bands: (0..config.lsh.partitions)
                .map(|p| {
                    ArtifactWriter::create(
                        &work.read_band_rows(p, shard.rank),
                        crate::bands::BAND_ROWS,
                    )
                })
                .collect::<Result<_, _>>()?,
            skips: SkipLog::create(&skips_path)?,
            report: StageReport::new(STAGE, shard.rank),
        })
    }

    fn read_file(&mut self, path: &Path, file: FileId) -> Result<(), StageError> {
        let reader_config = self.config.read.reader();
        let handle = std::fs::File::open(path).map_err(|source| StageError::Input {
            path: path.to_owned(),
            source,
        })?;
        let reader = WarcReader::new(
            std::io::BufReader::with_capacity(1 << 16, handle),
            reader_config,
        )
        .map_err(|e| StageError::Archive {
            path: path.to_owned(),
            source: e,
        })?;
        let mut batch: Vec<Entry> = Vec::with_capacity(BATCH);
        let (mut records, mut skips) = (0_u64, 0_u64);
        for entry in reader {
            let entry = entry.map_err(|e| StageError::Archive {
                path: path.to_owned(),
                source: e,
            })?;
            match entry {
                Entry::Record(_) => records += 1,
                Entry::Skip(_) => skips += 1,
            }
            batch.push(entry);
            if batch.len() == BATCH {
                self.take_batch(std::mem::take(&mut batch), file)?;
            }
        }
        if records == 0 {
            return Err(StageError::NoRecords {
                path: path.to_owned(),
                skips,
            });
        }
        self.take_batch(batch, file)
    }

    fn take_batch(&mut self, batch: Vec<Entry>, file: FileId) -> Result<(), StageError> {
        for entry in &batch {
            if let Entry::Record(record) = entry {
                for warning in &record.warnings {
                    self.report.warn(format!("warc:{}", warning.name()));
                }
            }
        }
        let outcomes: Vec<Outcome> = batch
            .into_par_iter()
            .map(|entry| match entry {
                Entry::Record(record) => self.page(&record, file),
                Entry::Skip(skip) => Ok(Outcome::Skip(SkipLine::from_warc(file, &skip))),
            })
            .collect::<Result<_, _>>()?;
        for outcome in outcomes {
            match outcome {
                Outcome::Page(page, bands, words, dom) => {
                    self.add_page(&page, &bands, &words, dom)?;
                }
                Outcome::Skip(skip) => {
                    self.report.skip(skip.reason);
                    self.skips.push(&skip)?;
                }
            }
        }
        Ok(())
    }

    /// The page in `record` with its LSH band keys, or why it is not a page.
    fn page(&self, record: &Record, file: FileId) -> Result<Outcome, StageError> {
        let source = Source::of_record(file, record);
        let skip = |reason| Ok(Outcome::Skip(SkipLine::from_record(source, record, reason)));
        let captured = match captured_html(record, &self.limits) {
            Ok(captured) => captured,
            Err(not) => return skip(not.into()),
        };
        let document = match Document::parse(&captured.html, &self.config.sanitize) {
            Ok(document) => document,
            Err(error) => return skip((&error).into()),
        };
        let (signature, tokens) = template_signature(&self.hasher, &document)?;
        let params = self
            .site_params
            .get(&captured.site.0)
            .unwrap_or(&self.default_params);
        let bands = params.band_keys(&signature)?;
        // ARC records have no record id: the file and offset name them instead.
        let record_id = record.header.record_id().map_or_else(
            || format!("<urn:dbce:file-{}:offset-{}>", file.0, source.offset),
            str::to_owned,
        );
        let page_type =
            PageTypeModel::built_in().classify(&document, &captured.url, &captured.html);
        let page = PageRef {
            page: PageId::from_record_id(&record_id),
            record_id,
            url: captured.url,
            site: captured.site,
            captured: captured.captured,
            payload: PayloadDigest::of_record(record),
            source,
            tokens: u32::try_from(tokens).unwrap_or(u32::MAX),
            signature: signature.values().to_vec(),
            page_type,
            truncated: page_truncation(captured.cut_at_decoded_limit, &document),
        };
        let words = PageWords {
            page: page.page,
            words: PageTokens::read(&document)
                .words
                .iter()
                .map(|w| w.0)
                .collect(),
        };
        Ok(Outcome::Page(
            Box::new(page),
            bands,
            words,
            PackedDom::of(&document),
        ))
    }

    fn add_page(
        &mut self,
        page: &PageRef,
        bands: &[BandKey],
        words: &PageWords,
        dom: PackedDom,
    ) -> Result<(), StageError> {
        let partitions = self.config.lsh.partitions;
        let partition =
            crate::bands::site_partition(crate::bands::site_hash(&page.site), partitions);
        for &band in bands {
            let key = BucketKey::new(&page.site, band);
            let row = BandRow {
                key,
                page: page.page,
            };
            self.bands[key.partition(partitions) as usize].push(&row)?;
        }
        self.pages[partition as usize].push(page)?;
        self.words[partition as usize].push(words)?;
        self.doms[partition as usize].push(&PageDom {
            capture: Capture::of(page),
            dom,
        })?;
        self.report.emit();
        for cut in &page.truncated {
            self.report.warn(format!("page-truncated:{}", cut.name()));
        }
        Ok(())
    }

    fn finish(self, work: &WorkDir) -> Result<StageReport, StageError> {
        for pages in self.pages {
            pages.finish()?;
        }
        for words in self.words {
            words.finish()?;
        }
        for doms in self.doms {
            doms.finish()?;
        }
        self.skips.finish()?;
        // Rows are streamed out in input order, so memory does not grow with the shard;
        // `group` sorts each partition.
        for rows in self.bands {
            rows.finish()?;
        }
        work.finish_shard(&self.report)?;
        Ok(self.report)
    }
}

/// The limits that cut a page: [`Truncation::Bytes`] when its decoded body stopped at
/// `read.max-decoded-bytes` or its HTML at `sanitize.max-input-bytes`, then the DOM's others.
fn page_truncation(cut_at_decoded_limit: bool, document: &Document) -> Vec<Truncation> {
    let mut truncated = document.report().truncated.clone();
    if cut_at_decoded_limit && !truncated.contains(&Truncation::Bytes) {
        truncated.insert(0, Truncation::Bytes);
    }
    truncated
}

/// The MinHash signature of `doc`'s template tokens (thesis §2.2) and how many there are: each
/// token hashed as [`TemplateTokens`] writes it, none kept.
///
/// # Errors
/// Never with a `hasher` built from a valid configuration (the signature has its length).
pub fn template_signature(
    hasher: &MinHasher,
    doc: &Document,
) -> Result<(Signature, usize), dbce_minhash::Error> {
    let config = hasher.config();
    let (mut values, mut tokens) = (vec![u32::MAX; config.num_perm as usize], 0);
    TemplateTokens::new().for_each(doc, |token| {
        hasher.update(&mut values, [token]);
        tokens += 1;
    });
    Ok((Signature::from_values(config, values)?, tokens))
}

#[cfg(test)]
mod tests {
    use super::*;
    use dbce_dom::SanitizeConfig;
    use dbce_minhash::MinhashConfig;

    #[test]
    fn the_template_signature_is_the_signature_of_the_template_tokens() {
        let doc = Document::parse(
            "<html><body><ul class=menu><li>a<li>b</ul><div><p>x</p></div></body></html>",
            &SanitizeConfig::default(),
        )
        .unwrap();
        let hasher = MinHasher::new(MinhashConfig::default()).unwrap();
        let tokens = doc.template_tokens();
        let (signature, count) = template_signature(&hasher, &doc).unwrap();
        assert_eq!(signature, hasher.signature(&tokens));
        assert_eq!(count, tokens.len());
    }
}
