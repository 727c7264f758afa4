//! Times dbce's [`WarcReader`] against plain gzip decompression of the same file, in the same
//! process: records/s and MB/s, median of several repetitions.
//!
//! ```text
//! cargo run --release -p dbce-warc --example read_speed -- \
//!     [--reps N] [--json] [--way NAME]... FILE.warc.gz
//! ```
//!
//! The baseline is flate2's `MultiGzDecoder` copying the whole file into `io::sink()`. The ways
//! of reading are interleaved repetition by repetition, so a change of machine load affects them
//! alike, and each is timed by the CPU time of its thread (from `/proc/thread-self/schedstat`,
//! wall time where that is missing), which other processes on a shared machine disturb less than
//! the wall clock. `--way` picks ways of reading (for a profiler); `--json` prints one JSON
//! object per way, for `scripts/bench-warc`.

use std::error::Error;
use std::fs::File;
use std::hint::black_box;
use std::io::{self, BufReader, Read};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use dbce_warc::{Entry, ReaderConfig, RecordType, WarcReader};
use flate2::bufread::MultiGzDecoder;

type Result<T> = std::result::Result<T, Box<dyn Error>>;

/// One way of reading the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Way {
    /// flate2 `MultiGzDecoder` into `io::sink()`.
    Flate2,
    /// flate2 `MultiGzDecoder` read in 256 KiB pieces, as dbce's reader decodes.
    Flate2Large,
    /// dbce reader, every block read into memory (the default configuration).
    DbceAll,
    /// dbce reader, only `response` blocks read.
    DbceResponses,
    /// dbce reader, every block passed over.
    DbceHeaders,
}

impl Way {
    const ALL: [Way; 5] = [
        Way::Flate2,
        Way::Flate2Large,
        Way::DbceAll,
        Way::DbceResponses,
        Way::DbceHeaders,
    ];

    fn name(self) -> &'static str {
        match self {
            Way::Flate2 => "flate2",
            Way::Flate2Large => "flate2-256k",
            Way::DbceAll => "dbce-all",
            Way::DbceResponses => "dbce-responses",
            Way::DbceHeaders => "dbce-headers",
        }
    }

    fn label(self) -> &'static str {
        match self {
            Way::Flate2 => "flate2 MultiGzDecoder -> sink (baseline)",
            Way::Flate2Large => "flate2 MultiGzDecoder, 256 KiB reads",
            Way::DbceAll => "dbce WarcReader, every block read",
            Way::DbceResponses => "dbce WarcReader, response blocks only",
            Way::DbceHeaders => "dbce WarcReader, no block read",
        }
    }

    fn config(self) -> ReaderConfig {
        let keep_bodies = match self {
            Way::Flate2 | Way::Flate2Large | Way::DbceAll => None,
            Way::DbceResponses => Some(vec![RecordType::Response]),
            Way::DbceHeaders => Some(Vec::new()),
        };
        ReaderConfig {
            keep_bodies,
            ..ReaderConfig::default()
        }
    }
}

struct Args {
    path: PathBuf,
    reps: usize,
    json: bool,
    ways: Vec<Way>,
}

/// What one pass over the file saw.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Count {
    /// Records read (0 for flate2, which sees no records).
    records: u64,
    /// Decompressed bytes (flate2) or block bytes kept in memory (dbce).
    bytes: u64,
}

/// The repetitions of one way of reading.
struct Timing {
    way: Way,
    cpu: Vec<Duration>,
    wall: Vec<Duration>,
    count: Count,
}

fn main() -> Result<()> {
    let args = parse_args()?;
    let timings = measure(&args)?;
    let file_bytes = std::fs::metadata(&args.path)?.len();
    let records = timings.iter().map(|t| t.count.records).max().unwrap_or(0);
    let decompressed = timings.iter().map(|t| t.count.bytes).max().unwrap_or(0);
    let baseline = timings
        .iter()
        .find(|t| t.way == Way::Flate2)
        .map(|t| median(&t.cpu));
    if !args.json {
        println!(
            "{}: {:.1} MB gzip, {:.1} MB decompressed, {records} records; median of {} runs",
            args.path.display(),
            file_bytes as f64 / 1e6,
            decompressed as f64 / 1e6,
            args.reps,
        );
        println!(
            "{:<42} {:>8} {:>8} {:>10} {:>10} {:>10}",
            "way", "cpu s", "wall s", "records/s", "MB/s gzip", "vs flate2"
        );
    }
    for timing in &timings {
        let (cpu, wall) = (median(&timing.cpu), median(&timing.wall));
        if args.json {
            let runs: Vec<f64> = timing.cpu.iter().map(Duration::as_secs_f64).collect();
            let line = serde_json::json!({
                "way": timing.way.name(), "label": timing.way.label(),
                "seconds": cpu, "wall_seconds": wall, "runs": runs,
                "records": records, "file_bytes": file_bytes,
                "decompressed_bytes": decompressed, "kept_bytes": timing.count.bytes,
            });
            println!("{line}");
        } else {
            println!(
                "{:<42} {:>8.3} {:>8.3} {:>10.0} {:>10.1} {:>10}",
                timing.way.label(),
                cpu,
                wall,
                records as f64 / cpu,
                file_bytes as f64 / 1e6 / cpu,
                baseline.map_or_else(|| "-".to_owned(), |b| format!("{:.2}x", b / cpu)),
            );
        }
    }
    Ok(())
}

fn parse_args() -> Result<Args> {
    let usage = "usage: read_speed [--reps N] [--json] [--way NAME]... FILE";
    let mut args = Args {
        path: PathBuf::new(),
        reps: 5,
        json: false,
        ways: Vec::new(),
    };
    let mut argv = std::env::args().skip(1);
    while let Some(arg) = argv.next() {
        match arg.as_str() {
            "--reps" => args.reps = argv.next().ok_or(usage)?.parse::<usize>()?.max(1),
            "--json" => args.json = true,
            "--way" => {
                let name = argv.next().ok_or(usage)?;
                let way = Way::ALL.into_iter().find(|w| w.name() == name);
                args.ways
                    .push(way.ok_or_else(|| format!("unknown way {name}"))?);
            }
            "-h" | "--help" => return Err(usage.into()),
            _ => args.path = PathBuf::from(arg),
        }
    }
    if args.path.as_os_str().is_empty() {
        return Err(usage.into());
    }
    if args.ways.is_empty() {
        args.ways = Way::ALL.to_vec();
    }
    Ok(args)
}

/// Runs every way `reps` times, interleaved, after one untimed pass that warms the page cache.
fn measure(args: &Args) -> Result<Vec<Timing>> {
    let mut timings: Vec<Timing> = args
        .ways
        .iter()
        .map(|&way| Timing {
            way,
            cpu: Vec::new(),
            wall: Vec::new(),
            count: Count::default(),
        })
        .collect();
    read(&args.path, args.ways[0])?;
    for rep in 0..args.reps {
        for timing in &mut timings {
            let (wall, cpu) = (Instant::now(), cpu_time());
            let count = read(&args.path, timing.way)?;
            timing.wall.push(wall.elapsed());
            timing.cpu.push(match (cpu, cpu_time()) {
                (Some(start), Some(end)) => end.saturating_sub(start),
                _ => wall.elapsed(),
            });
            if rep > 0 && count != timing.count {
                return Err(format!("{}: counts differ between runs", timing.way.name()).into());
            }
            timing.count = count;
        }
    }
    Ok(timings)
}

fn read(path: &Path, way: Way) -> Result<Count> {
    let file = File::open(path)?;
    let gzip = |file| MultiGzDecoder::new(BufReader::with_capacity(256 * 1024, file));
    match way {
        Way::Flate2 => {
            let bytes = io::copy(&mut gzip(file), &mut io::sink())?;
            Ok(Count { records: 0, bytes })
        }
        Way::Flate2Large => Ok(read_large(gzip(file))?),
        Way::DbceAll | Way::DbceResponses | Way::DbceHeaders => read_dbce(file, way.config()),
    }
}

fn read_dbce(file: File, config: ReaderConfig) -> Result<Count> {
    let mut count = Count::default();
    for entry in WarcReader::new(file, config)? {
        match entry? {
            Entry::Record(record) => {
                count.records += 1;
                count.bytes += black_box(record.body.bytes()).map_or(0, |b| b.len() as u64);
            }
            Entry::Skip(skip) => return Err(format!("unexpected skip: {skip}").into()),
        }
    }
    Ok(count)
}

/// Reads `decoder` to its end in 256 KiB pieces, as dbce's reader decodes.
fn read_large(mut decoder: impl Read) -> io::Result<Count> {
    let mut buf = vec![0; 256 * 1024];
    let mut bytes = 0;
    loop {
        match decoder.read(&mut buf) {
            Ok(0) => return Ok(Count { records: 0, bytes }),
            Ok(n) => bytes += n as u64,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
}

/// CPU time of the calling thread so far, where Linux reports it.
fn cpu_time() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let nanos = stat.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(nanos))
}

/// The median of `times` in seconds (the mean of the middle two for an even count).
fn median(times: &[Duration]) -> f64 {
    let mut sorted = times.to_vec();
    sorted.sort();
    let mid = sorted.len() / 2;
    if sorted.len().is_multiple_of(2) {
        (sorted[mid - 1] + sorted[mid]).as_secs_f64() / 2.0
    } else {
        sorted[mid].as_secs_f64()
    }
}
