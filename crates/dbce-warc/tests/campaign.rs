//! A mutation campaign: good archives in four framings (plain, gzip per record, whole-file gzip,
//! whole-file zstd) are damaged at random (flipped bits, zeroed runs, cuts, junk inserted, bytes
//! deleted) and read back. Every record the damage left intact must be read with its exact block,
//! no record read may carry bytes that are not its own, and every skip must lie inside the file.
//!
//! By default a fixed-seed sample of a few hundred mutants runs with the tests. For a long run,
//! `scripts/damage-campaign` sets `DBCE_CAMPAIGN_MUTANTS`, `DBCE_CAMPAIGN_SEED`,
//! `DBCE_CAMPAIGN_SAMPLES` (another folder of good archives) and `DBCE_CAMPAIGN_DUMP` (a folder to
//! write each mutant and the keys of its intact records to, for other readers to be compared).

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::collections::BTreeMap;
use std::io::{Read as _, Write as _};
use std::path::{Path, PathBuf};

use common::{gzip_whole, read_all};
use dbce_warc::{Compression, ReaderConfig, Record, Skip, SkipReason};
use rand::{Rng as _, SeedableRng as _};
use rand_chacha::ChaCha8Rng;

/// How a good archive is framed before it is damaged.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Framing {
    Plain,
    GzipPerRecord,
    WholeGzip,
    WholeZstd,
}

const FRAMINGS: [Framing; 4] = [
    Framing::Plain,
    Framing::GzipPerRecord,
    Framing::WholeGzip,
    Framing::WholeZstd,
];

/// A good archive: its uncompressed bytes and records, each with the key that names it, its
/// block and its range in the uncompressed bytes (up to the next record).
struct Source {
    name: String,
    plain: Vec<u8>,
    records: Vec<(String, Vec<u8>, u64, u64)>,
}

/// One framing of a source: the file, and each record's byte range in it.
struct Framed {
    bytes: Vec<u8>,
    ranges: Vec<(u64, u64)>,
}

/// A damage: bytes `start..end` of the file replaced by `with`.
#[derive(Debug, Clone)]
struct Damage {
    kind: &'static str,
    start: usize,
    end: usize,
    with: Vec<u8>,
}

impl Damage {
    fn apply(&self, bytes: &[u8]) -> Vec<u8> {
        [&bytes[..self.start], &self.with[..], &bytes[self.end..]].concat()
    }

    /// Whether the damage touches the byte range `a..b`: overlaps it, or inserts inside it.
    fn touches(&self, a: u64, b: u64) -> bool {
        let (start, end) = (self.start as u64, self.end as u64);
        if start == end {
            a < start && start < b
        } else {
            start < b && end > a
        }
    }
}

/// Key naming a record across reads: its record id, or for ARC its URI and date.
fn key(record: &Record) -> String {
    let fields = &record.header.fields;
    fields.get("WARC-Record-ID").map_or_else(
        || {
            format!(
                "{} {}",
                fields.get("WARC-Target-URI").unwrap_or_default(),
                fields.get("WARC-Date").unwrap_or_default()
            )
        },
        str::to_owned,
    )
}

fn decompress(bytes: &[u8]) -> Vec<u8> {
    let mut plain = Vec::new();
    match Compression::detect(bytes) {
        Compression::None => plain = bytes.to_vec(),
        Compression::Gzip => {
            flate2::read::MultiGzDecoder::new(bytes)
                .read_to_end(&mut plain)
                .unwrap();
        }
        Compression::Zstd => plain = zstd::decode_all(bytes).unwrap(),
    }
    plain
}

/// A good archive as a source, if every record in it reads without a skip and with a key of
/// its own.
fn source(name: String, bytes: &[u8]) -> Option<Source> {
    let plain = decompress(bytes);
    let (records, skips) = read_all(plain.clone(), ReaderConfig::default());
    if !skips.is_empty() || records.is_empty() || records.iter().any(|r| !r.warnings.is_empty()) {
        return None;
    }
    let mut ends: Vec<u64> = records.iter().skip(1).map(|r| r.stream_offset).collect();
    ends.push(plain.len() as u64);
    let records: Vec<_> = records
        .iter()
        .zip(ends)
        .map(|(r, end)| (key(r), r.body.bytes()?.to_vec(), r.stream_offset, end).into())
        .collect::<Option<_>>()?;
    let mut keys: Vec<&String> = records.iter().map(|r| &r.0).collect();
    keys.sort();
    keys.dedup();
    (keys.len() == records.len()).then_some(Source {
        name,
        plain,
        records,
    })
}

fn sources() -> Vec<Source> {
    let mut dirs = vec![PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../testdata/warc"
    ))];
    dirs.extend(std::env::var_os("DBCE_CAMPAIGN_SAMPLES").map(PathBuf::from));
    let mut sources: Vec<Source> = Vec::new();
    for dir in dirs {
        let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e != "md"))
            .collect();
        paths.sort();
        for path in paths {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let bytes = std::fs::read(&path).unwrap();
            let decodes = std::panic::catch_unwind(|| decompress(&bytes)).is_ok();
            if decodes && let Some(source) = source(name, &bytes) {
                sources.push(source);
            }
        }
    }
    let (plain, _) = common::plain_archive(40);
    sources.push(source("generated-40".to_owned(), &plain).unwrap());
    sources
}

fn frame(source: &Source, framing: Framing) -> Framed {
    let plain = &source.plain;
    let ranges: Vec<(u64, u64)> = source.records.iter().map(|r| (r.2, r.3)).collect();
    match framing {
        Framing::Plain => Framed {
            bytes: plain.clone(),
            ranges,
        },
        Framing::GzipPerRecord => {
            let head = &plain[..ranges[0].0 as usize];
            let mut bytes = if head.is_empty() {
                Vec::new()
            } else {
                gzip_whole(head)
            };
            let mut framed = Vec::new();
            for &(a, b) in &ranges {
                let start = bytes.len() as u64;
                bytes.extend(gzip_whole(&plain[a as usize..b as usize]));
                framed.push((start, bytes.len() as u64));
            }
            Framed {
                bytes,
                ranges: framed,
            }
        }
        Framing::WholeGzip => Framed {
            bytes: gzip_whole(plain),
            ranges,
        },
        Framing::WholeZstd => {
            let mut encoder = zstd::Encoder::new(Vec::new(), 3).unwrap();
            encoder.include_checksum(true).unwrap();
            encoder.write_all(plain).unwrap();
            Framed {
                bytes: encoder.finish().unwrap(),
                ranges,
            }
        }
    }
}

fn damage(rng: &mut ChaCha8Rng, len: usize) -> Damage {
    let at = rng.random_range(0..len);
    let run = |rng: &mut ChaCha8Rng| rng.random_range(1..=64).min(len - at);
    match rng.random_range(0..6) {
        0 => Damage {
            kind: "flip-bit",
            start: at,
            end: at + 1,
            with: Vec::new(),
        },
        1 => {
            let n = run(rng);
            Damage {
                kind: "zero-run",
                start: at,
                end: at + n,
                with: vec![0; n],
            }
        }
        2 => Damage {
            kind: "cut",
            start: at,
            end: len,
            with: Vec::new(),
        },
        3 => {
            let n = rng.random_range(1..=16);
            let junk = (0..n).map(|_| rng.random::<u8>()).collect();
            Damage {
                kind: "insert-junk",
                start: at,
                end: at,
                with: junk,
            }
        }
        4 => {
            let n = run(rng);
            Damage {
                kind: "delete",
                start: at,
                end: at + n,
                with: Vec::new(),
            }
        }
        _ => {
            let n = run(rng);
            Damage {
                kind: "random-run",
                start: at,
                end: at + n,
                with: (0..n).map(|_| rng.random::<u8>()).collect(),
            }
        }
    }
}

/// The damage with its bytes chosen: a flipped bit is the original byte with one bit changed.
fn concrete(mut damage: Damage, bytes: &[u8], rng: &mut ChaCha8Rng) -> Damage {
    if damage.kind == "flip-bit" {
        damage.with = vec![bytes[damage.start] ^ (1 << rng.random_range(0..8))];
    }
    damage
}

/// The length of the longest prefix of `plain` that a streaming decoder gives intact from the
/// damaged whole-file archive `bytes`, as zcat or zstdcat would before reporting the error.
fn intact_prefix(bytes: &[u8], plain: &[u8], framing: Framing) -> u64 {
    let mut out = Vec::new();
    match framing {
        Framing::WholeGzip => {
            let _ = flate2::read::GzDecoder::new(bytes).read_to_end(&mut out);
        }
        _ => {
            if let Ok(mut decoder) = zstd::stream::read::Decoder::new(bytes) {
                // As zstdcat reads, with the reader's output window (zstdcat's is 128 KiB).
                let mut chunk = [0; 16 * 1024];
                while let Ok(n) = decoder.read(&mut chunk) {
                    if n == 0 {
                        break;
                    }
                    out.extend_from_slice(&chunk[..n]);
                }
            }
        }
    }
    out.iter().zip(plain).take_while(|(a, b)| a == b).count() as u64
}

/// What went wrong with one mutant, if anything.
fn check(
    source: &Source,
    framed: &Framed,
    framing: Framing,
    damage: &Damage,
    damaged: &[u8],
) -> (Vec<String>, usize, usize, Vec<String>) {
    let prefix = match framing {
        Framing::WholeGzip | Framing::WholeZstd => {
            Some(intact_prefix(damaged, &source.plain, framing))
        }
        _ => None,
    };
    let intact_range = |a: u64, b: u64| match prefix {
        Some(prefix) => b <= prefix,
        None => !damage.touches(a, b),
    };
    let intact: Vec<bool> = framed
        .ranges
        .iter()
        .map(|&(a, b)| intact_range(a, b))
        .collect();
    let (records, skips) = read_all(damaged.to_vec(), ReaderConfig::default());
    let mut failures = Vec::new();
    let mut recovered = 0;
    for ((name, block, _, _), &intact) in source.records.iter().zip(&intact) {
        if !intact {
            continue;
        }
        // Damage can give another record this one's key: any record read with it may be it.
        let mut read = records.iter().filter(|r| key(r) == *name).peekable();
        if read.peek().is_none() {
            failures.push(format!("intact record {name} not read"));
        } else if read.any(|r| r.body.bytes() == Some(&block[..])) {
            recovered += 1;
        } else {
            failures.push(format!("intact record {name} read with other bytes"));
        }
    }
    for record in &records {
        let Some(at) = original_start(record, damage, prefix) else {
            continue;
        };
        let own = framed
            .ranges
            .iter()
            .position(|&(a, b)| a == at && intact_range(a, b));
        let starts = framed.ranges.iter().any(|&(a, _)| a == at);
        match own {
            Some(i)
                if key(record) != source.records[i].0
                    || record.body.bytes() != Some(&source.records[i].1[..]) =>
            {
                failures.push(format!("record {} carries bytes not its own", key(record)));
            }
            None if !starts => failures.push(format!(
                "record {} read in intact bytes where no record starts",
                key(record)
            )),
            _ => {}
        }
    }
    failures.extend(
        skips
            .iter()
            .filter_map(|skip| skip_fault(skip, damaged.len() as u64, framing)),
    );
    let intact_keys = source
        .records
        .iter()
        .zip(&intact)
        .filter(|(_, i)| **i)
        .map(|(r, _)| r.0.clone())
        .collect();
    let count = intact.iter().filter(|i| **i).count();
    (failures, count, recovered, intact_keys)
}

/// Where a record read from a damaged file starts in the good framing (file offset, or for
/// whole-file archives decompressed offset), when it lies wholly before or after the damage.
fn original_start(record: &Record, damage: &Damage, prefix: Option<u64>) -> Option<u64> {
    if let Some(prefix) = prefix {
        return (record.stream_offset < prefix).then_some(record.stream_offset);
    }
    let (offset, end) = (
        record.locator.offset,
        record.locator.offset + record.locator.length,
    );
    let (start, inserted) = (damage.start as u64, damage.with.len() as u64);
    if end <= start {
        Some(offset)
    } else if offset >= start + inserted {
        Some(offset - inserted + (damage.end - damage.start) as u64)
    } else {
        None
    }
}

/// Why a skip is wrong, if it is: it starts or (garbage) ends past the end of the file, or in a
/// whole-file archive it has no decompressed offset to reach the damage by.
fn skip_fault(skip: &Skip, file_len: u64, framing: Framing) -> Option<String> {
    let whole = matches!(framing, Framing::WholeGzip | Framing::WholeZstd);
    // Garbage without a decompressed offset is bytes of the file, measured in the file.
    let file_bytes = matches!(skip.reason, SkipReason::Garbage { .. });
    if whole && !file_bytes && skip.stream_offset.is_none() {
        return Some(format!("skip without a decompressed offset: {skip}"));
    }
    let end = match skip.reason {
        // With a decompressed offset, a length counts decompressed bytes.
        SkipReason::Garbage { length } if skip.stream_offset.is_none() => skip.offset + length,
        _ => skip.offset,
    };
    (end > file_len).then(|| format!("skip past the end of the file ({file_len}): {skip}"))
}

fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn dump(
    dir: &Path,
    n: u64,
    name: &str,
    framing: Framing,
    damage: &Damage,
    bytes: &[u8],
    intact_keys: &[String],
) {
    let file = format!("{n:06}-{framing:?}-{}-{name}", damage.kind);
    std::fs::write(dir.join(&file), bytes).unwrap();
    let line = serde_json::json!({
        "file": file, "framing": format!("{framing:?}"), "damage": damage.kind,
        "intact": intact_keys,
    });
    let mut manifest = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(dir.join("manifest.jsonl"))
        .unwrap();
    writeln!(manifest, "{line}").unwrap();
}

#[test]
fn every_intact_record_of_a_damaged_archive_is_read() {
    let mutants = env_number("DBCE_CAMPAIGN_MUTANTS", 320);
    let seed = env_number("DBCE_CAMPAIGN_SEED", 14);
    let dump_dir = std::env::var_os("DBCE_CAMPAIGN_DUMP").map(PathBuf::from);
    let sources = sources();
    let framed: Vec<Vec<Framed>> = sources
        .iter()
        .map(|s| FRAMINGS.iter().map(|&f| frame(s, f)).collect())
        .collect();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    // (framing, damage kind) -> (mutants, intact records, recovered)
    let mut tally: BTreeMap<(Framing, &str), (u64, usize, usize)> = BTreeMap::new();
    let mut failures = Vec::new();
    for n in 0..mutants {
        let s = rng.random_range(0..sources.len());
        let f = rng.random_range(0..FRAMINGS.len());
        let (source, framing, framed) = (&sources[s], FRAMINGS[f], &framed[s][f]);
        let damage = damage(&mut rng, framed.bytes.len());
        let damage = concrete(damage, &framed.bytes, &mut rng);
        let damaged = damage.apply(&framed.bytes);
        let (found, intact, recovered, keys) = check(source, framed, framing, &damage, &damaged);
        if let Some(dir) = &dump_dir {
            dump(dir, n, &source.name, framing, &damage, &damaged, &keys);
        }
        let entry = tally.entry((framing, damage.kind)).or_default();
        *entry = (entry.0 + 1, entry.1 + intact, entry.2 + recovered);
        failures.extend(
            found
                .into_iter()
                .map(|f| format!("mutant {n} ({} {framing:?} {damage:?}): {f}", source.name)),
        );
    }
    for ((framing, kind), (count, intact, recovered)) in &tally {
        eprintln!(
            "{framing:?} {kind}: {count} mutants, {recovered} of {intact} intact records read"
        );
    }
    let (intact, recovered) = tally.values().fold((0, 0), |t, v| (t.0 + v.1, t.1 + v.2));
    eprintln!(
        "campaign seed {seed}: {mutants} mutants, {recovered} of {intact} intact records read, {} failures",
        failures.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
