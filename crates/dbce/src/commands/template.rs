//! `dbce template`: the template tokens and MinHash signature of one HTML file (thesis §2.2), as
//! JSON, so that anyone can feed the same tokens to datasketch and compare the values.

use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context as _;
use dbce_dom::Document;
use dbce_minhash::{MinHasher, MinhashConfig, Scheme};
use serde::Serialize;

use super::config::ConfigArgs;

/// Arguments of `dbce template`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// An HTML file. Its encoding comes from a byte order mark, a `<meta>` declaration or
    /// detection, as for a captured page without an HTTP charset.
    file: PathBuf,
    /// Number of permutations (datasketch's `num_perm`). By default, the configuration's.
    #[arg(long, value_name = "N")]
    num_perm: Option<u32>,
    /// Seed of the permutations (datasketch's `seed`). By default, the configuration's.
    #[arg(long, value_name = "SEED")]
    seed: Option<u32>,
    /// Permutation scheme (datasketch's `scheme`). By default, the configuration's.
    #[arg(long, value_enum)]
    scheme: Option<SchemeArg>,
    #[command(flatten)]
    config: ConfigArgs,
}

/// [`Scheme`] as a command-line value.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
enum SchemeArg {
    /// datasketch before 2.0 (and `scheme="legacy"` since), as the thesis used.
    Legacy,
    /// datasketch 2.x's default.
    Affine32,
}

impl From<SchemeArg> for Scheme {
    fn from(scheme: SchemeArg) -> Self {
        match scheme {
            SchemeArg::Legacy => Self::Legacy,
            SchemeArg::Affine32 => Self::Affine32,
        }
    }
}

/// What `dbce template` prints: one JSON object.
#[derive(Debug, Serialize)]
struct Output<'a> {
    /// The settings the signature was computed with.
    minhash: MinhashConfig,
    /// The template tokens, in the order they are fed to MinHash.
    tokens: &'a [String],
    /// The signature's values (datasketch's `hashvalues`).
    signature: &'a [u32],
}

pub(crate) fn run(args: &Args) -> anyhow::Result<ExitCode> {
    let config = args.config.resolve()?;
    let minhash = MinhashConfig {
        num_perm: args.num_perm.unwrap_or(config.minhash.num_perm),
        seed: args.seed.unwrap_or(config.minhash.seed),
        scheme: args.scheme.map_or(config.minhash.scheme, Scheme::from),
    };
    let hasher = MinHasher::new(minhash).context("invalid MinHash settings")?;
    let bytes = std::fs::read(&args.file)
        .with_context(|| format!("cannot read {}", args.file.display()))?;
    // Decoded as stage `read` decodes a capture without an HTTP charset.
    let html = dbce_extract::decode_page(&bytes, "");
    let document = Document::parse(&html, &config.sanitize)
        .with_context(|| format!("cannot parse {}", args.file.display()))?;
    let tokens = document.template_tokens();
    let signature = hasher.signature(&tokens);
    let output = Output {
        minhash,
        tokens: &tokens,
        signature: signature.values(),
    };
    let mut out = std::io::stdout().lock();
    serde_json::to_writer(&mut out, &output)?;
    writeln!(out)?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}
