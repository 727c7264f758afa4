//! One module per subcommand.

pub(crate) mod cdx;
pub(crate) mod config;
pub(crate) mod eval;
pub(crate) mod extract;
pub(crate) mod get;
pub(crate) mod inspect;
pub(crate) mod report;
pub(crate) mod run;
pub(crate) mod search;
pub(crate) mod stage;
pub(crate) mod template;
pub(crate) mod train;
pub(crate) mod train_page_type;
pub(crate) mod train_single_page;

use std::fs::File;
use std::io::BufReader;
use std::path::Path;

use anyhow::Context as _;
use dbce_warc::{ReaderConfig, WarcReader};

/// Opens an archive for reading.
pub(crate) fn open(
    path: &Path,
    config: ReaderConfig,
) -> anyhow::Result<WarcReader<BufReader<File>>> {
    let file = File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
    WarcReader::new(BufReader::with_capacity(1 << 16, file), config)
        .with_context(|| format!("cannot read {}", path.display()))
}

/// Whether `error` is a closed standard output (`dbce … | head`), which is not a failure.
pub(crate) fn is_broken_pipe(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// `error` and its causes, joined by `: `, each cause once: a library error that prints its
/// source in its own message (`cannot read dataset D: …: No such file`) is not followed by the
/// same text again, as `{error:#}` would repeat it.
pub(crate) fn error_message(error: &anyhow::Error) -> String {
    let mut message = error.to_string();
    for cause in error.chain().skip(1) {
        let cause = cause.to_string();
        if !message.contains(&cause) {
            message.push_str(": ");
            message.push_str(&cause);
        }
    }
    message
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An error whose message holds its source's, as the libraries' `thiserror` errors do.
    #[derive(Debug)]
    struct Quoting {
        source: std::io::Error,
    }

    impl std::fmt::Display for Quoting {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            write!(f, "cannot read meta.jsonl: {}", self.source)
        }
    }

    impl std::error::Error for Quoting {
        fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
            Some(&self.source)
        }
    }

    #[test]
    fn a_cause_already_in_the_message_is_not_repeated() {
        let missing = || std::io::Error::from(std::io::ErrorKind::NotFound);
        let error = anyhow::Error::new(Quoting { source: missing() })
            .context("cannot read dataset /data/x");
        assert_eq!(
            error_message(&error),
            format!(
                "cannot read dataset /data/x: cannot read meta.jsonl: {}",
                missing()
            )
        );
        let plain = anyhow::Error::new(missing()).context("cannot open a.warc");
        assert_eq!(
            error_message(&plain),
            format!("cannot open a.warc: {}", missing())
        );
    }
}
