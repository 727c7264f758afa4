//! Size limits enforced while parsing and decoding.

/// Limits that bound the work and memory spent on one response.
///
/// Both are checked before the allocation they guard.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HttpLimits {
    /// The longest accepted header block (status line included), in bytes.
    /// By default, 256 KiB.
    pub max_header_bytes: u64,
    /// The largest body that undoing one content coding may produce, in bytes: decoding stops
    /// there, keeping the first bytes (a guard against zip bombs, which a large page shares).
    /// By default, 64 MiB.
    pub max_decoded_bytes: u64,
}

impl Default for HttpLimits {
    fn default() -> Self {
        Self {
            max_header_bytes: 256 * 1024,
            max_decoded_bytes: 64 * 1024 * 1024,
        }
    }
}

/// `limit` as a `usize`, saturating on targets where it does not fit.
pub(crate) fn as_usize(limit: u64) -> usize {
    usize::try_from(limit).unwrap_or(usize::MAX)
}
