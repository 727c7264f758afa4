//! Limits and filters of a [`crate::WarcReader`].

use crate::RecordType;

/// How a [`crate::WarcReader`] reads: size limits, which blocks to keep, digest checks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReaderConfig {
    /// Records whose block is larger than this many bytes are passed over unread and reported as
    /// [`crate::SkipReason::RecordTooLarge`]. By default, 256 MiB.
    pub max_record_size: u64,
    /// Header blocks longer than this many bytes are reported as
    /// [`crate::SkipReason::HeaderTooLarge`]. By default, 64 KiB.
    pub max_header_size: usize,
    /// Record types whose block is read into memory; others are passed over unread
    /// ([`crate::Body::Skipped`]). By default, `None`: every block is read.
    pub keep_bodies: Option<Vec<RecordType>>,
    /// Whether to check `WARC-Block-Digest` and `WARC-Payload-Digest` of kept blocks. By
    /// default, false.
    pub verify_digests: bool,
}

impl Default for ReaderConfig {
    fn default() -> Self {
        Self {
            max_record_size: 256 * 1024 * 1024,
            max_header_size: 64 * 1024,
            keep_bodies: None,
            verify_digests: false,
        }
    }
}

impl ReaderConfig {
    /// Whether blocks of `record_type` are read into memory.
    pub fn keeps(&self, record_type: &RecordType) -> bool {
        self.keep_bodies
            .as_ref()
            .is_none_or(|types| types.contains(record_type))
    }
}
