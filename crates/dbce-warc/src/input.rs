//! A seekable byte source with its own buffer, so that magic bytes can be peeked across reads
//! and every consumed byte has a known file offset.

use std::io::{self, Read, Seek, SeekFrom};

const INPUT_CAPACITY: usize = 256 * 1024;

/// Buffered input that knows the file offset of its next unconsumed byte.
#[derive(Debug)]
pub(crate) struct Input<R> {
    inner: R,
    buf: Box<[u8]>,
    start: usize,
    end: usize,
    /// File offset of `buf[start]`.
    offset: u64,
    eof: bool,
}

impl<R: Read + Seek> Input<R> {
    pub(crate) fn new(mut inner: R) -> io::Result<Self> {
        let offset = inner.stream_position()?;
        Ok(Self {
            inner,
            buf: vec![0; INPUT_CAPACITY].into_boxed_slice(),
            start: 0,
            end: 0,
            offset,
            eof: false,
        })
    }

    /// File offset of the next unconsumed byte.
    pub(crate) fn offset(&self) -> u64 {
        self.offset
    }

    /// The buffered, unconsumed bytes.
    pub(crate) fn buffered(&self) -> &[u8] {
        &self.buf[self.start..self.end]
    }

    /// Marks `n` buffered bytes as consumed.
    pub(crate) fn consume(&mut self, n: usize) {
        debug_assert!(n <= self.end - self.start);
        self.start += n;
        self.offset += n as u64;
    }

    /// Makes at least `n` bytes available unless the file ends first; returns what is there.
    pub(crate) fn fill_to(&mut self, n: usize) -> io::Result<&[u8]> {
        let n = n.min(self.buf.len());
        if self.end - self.start < n && !self.eof {
            self.buf.copy_within(self.start..self.end, 0);
            self.end -= self.start;
            self.start = 0;
            while self.end < n && !self.eof {
                match self.inner.read(&mut self.buf[self.end..]) {
                    Ok(0) => self.eof = true,
                    Ok(read) => self.end += read,
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    Err(e) => return Err(e),
                }
            }
        }
        Ok(self.buffered())
    }

    /// Makes at least one byte available unless the file ends; returns what is there.
    pub(crate) fn fill(&mut self) -> io::Result<&[u8]> {
        self.fill_to(1)
    }

    /// The last `n` consumed bytes (fewer at the start of the file), re-read from the file when
    /// they are no longer buffered.
    pub(crate) fn recent(&mut self, n: usize) -> io::Result<Vec<u8>> {
        if self.start >= n {
            return Ok(self.buf[self.start - n..self.start].to_vec());
        }
        let offset = self.offset;
        let from = offset.saturating_sub(n as u64);
        self.seek(from)?;
        // At most `n` bytes, so the difference fits in usize.
        let len = usize::try_from(offset - from).unwrap_or(n);
        let bytes = self.fill_to(len)?[..len].to_vec();
        self.consume(len);
        Ok(bytes)
    }

    /// Moves to file offset `to`, dropping the buffer.
    pub(crate) fn seek(&mut self, to: u64) -> io::Result<()> {
        if to >= self.offset && to - self.offset <= (self.end - self.start) as u64 {
            // Within the buffer: `to - offset` fits in usize because it is at most the buffer's length.
            self.consume(usize::try_from(to - self.offset).unwrap_or(0));
            return Ok(());
        }
        self.inner.seek(SeekFrom::Start(to))?;
        self.start = 0;
        self.end = 0;
        self.offset = to;
        self.eof = false;
        Ok(())
    }

    /// Consumes bytes up to the first occurrence of `magic`, or to the end of the file.
    /// Returns how many bytes were consumed.
    pub(crate) fn scan_to(&mut self, magic: &[u8]) -> io::Result<u64> {
        let mut skipped = 0;
        loop {
            let available = self.fill_to(magic.len())?;
            if available.len() < magic.len() {
                let n = available.len();
                self.consume(n);
                return Ok(skipped + n as u64);
            }
            match memchr::memmem::find(available, magic) {
                Some(at) => {
                    self.consume(at);
                    return Ok(skipped + at as u64);
                }
                None => {
                    // Keep a tail that could be the start of a match straddling the refill.
                    let n = available.len() - (magic.len() - 1);
                    self.consume(n);
                    skipped += n as u64;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    #[test]
    fn scan_finds_magic_across_refills() {
        let mut data = vec![b'x'; INPUT_CAPACITY - 1];
        data.extend_from_slice(b"MAGIC rest");
        let mut input = Input::new(Cursor::new(data)).unwrap();
        let skipped = input.scan_to(b"MAGIC").unwrap();
        assert_eq!(skipped, (INPUT_CAPACITY - 1) as u64);
        assert_eq!(input.offset(), skipped);
        assert!(input.fill_to(5).unwrap().starts_with(b"MAGIC"));
    }

    #[test]
    fn scan_without_match_consumes_everything() {
        let mut input = Input::new(Cursor::new(b"no magic here".to_vec())).unwrap();
        assert_eq!(input.scan_to(b"\x1f\x8b\x08").unwrap(), 13);
        assert!(input.fill().unwrap().is_empty());
    }

    #[test]
    fn seek_back_rereads() {
        let mut input = Input::new(Cursor::new(b"0123456789".to_vec())).unwrap();
        input.fill().unwrap();
        input.consume(8);
        input.seek(2).unwrap();
        assert_eq!(input.fill().unwrap(), b"23456789");
    }
}
