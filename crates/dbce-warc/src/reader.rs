//! Reading records one after another, reporting what cannot be read and resynchronising.

use std::collections::VecDeque;
use std::io::{self, Read, Seek};

use crate::arc;
use crate::digest::{self, DigestCheck};
use crate::stream::{Compression, Fault, Status, Stream};
use crate::{
    ArchiveFormat, Body, Error, Headers, ReadWarning, ReaderConfig, Record, RecordHeader,
    RecordLocator, Skip, SkipReason,
};

/// What the reader found next: a record, or bytes it had to pass over.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Entry {
    /// A record that was read.
    Record(Record),
    /// Bytes that could not be read as a record, with the reason.
    Skip(Skip),
}

/// The digest checks of a record whose block was kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Digests {
    /// `WARC-Block-Digest` against the block.
    pub block: DigestCheck,
    /// `WARC-Payload-Digest` against the HTTP payload.
    pub payload: DigestCheck,
}

/// Reads WARC or ARC records from an uncompressed, gzip or zstd file.
///
/// It is an iterator of [`Entry`]: every record in the file comes out either as
/// [`Entry::Record`] or as [`Entry::Skip`] with its file offset and reason, after which the
/// reader resynchronises at the next gzip member, zstd frame or `WARC/` line. Only a failing
/// read of the file itself ends the iteration with an [`Error`].
pub struct WarcReader<R> {
    stream: Stream<R>,
    config: ReaderConfig,
    format: Option<ArchiveFormat>,
    arc_version: arc::Version,
    header: Vec<u8>,
    failed: bool,
    /// A fault of the compressed stream met right after a record's block: reported after the
    /// record, which it did not damage.
    fault_after_block: Option<Fault>,
    /// Whether a line of the header block just read ends CR CR LF.
    header_lines_end_cr_cr_lf: bool,
    /// Skips to yield, in order, before reading on.
    pending: VecDeque<Skip>,
}

/// Where a record began.
#[derive(Debug, Clone, Copy)]
struct Start {
    stream: u64,
    exact: Option<u64>,
    member_file: u64,
    /// The record starts a compressed member, so it must end with it.
    framed: bool,
    /// The file is compressed: positions in the decompressed stream differ from file offsets.
    compressed: bool,
}

impl Start {
    fn offset(&self) -> u64 {
        self.exact.unwrap_or(self.member_file)
    }

    /// The decompressed offset, in a compressed file: lengths of skips count decompressed
    /// bytes from there, and for a member holding more than one record it is the only way to
    /// reach the record.
    fn stream_offset(&self) -> Option<u64> {
        self.compressed.then_some(self.stream)
    }
}

/// Why a record could not be read, and how to find the next one.
enum Problem {
    Io(io::Error),
    Fault(Fault),
    Skip(SkipReason, Resync),
    /// The file's last record, its block cut short by the end of the file (declared length).
    ShortBlock(Vec<u8>, u64),
}

enum Resync {
    /// The next record starts right here.
    Here,
    /// Scan forward for the next record start.
    Forward,
    /// Uncompressed: go back to this decompressed offset and scan from there.
    From(u64),
}

impl From<io::Error> for Problem {
    fn from(error: io::Error) -> Self {
        Self::Io(error)
    }
}

impl<R: Read + Seek> WarcReader<R> {
    /// A reader of `inner`, whose compression is detected from its first bytes.
    ///
    /// # Errors
    /// Fails when the first bytes cannot be read.
    pub fn new(inner: R, config: ReaderConfig) -> Result<Self, Error> {
        let stream = Stream::new(inner).map_err(|source| Error::Io { offset: 0, source })?;
        Ok(Self {
            stream,
            config,
            format: None,
            arc_version: arc::Version::V1,
            header: Vec::with_capacity(4096),
            failed: false,
            fault_after_block: None,
            header_lines_end_cr_cr_lf: false,
            pending: VecDeque::new(),
        })
    }

    /// The compression detected.
    pub fn compression(&self) -> Compression {
        self.stream.compression()
    }

    /// The format detected, once the first record has been seen.
    pub fn format(&self) -> Option<ArchiveFormat> {
        self.format
    }

    /// Passes over `n` decompressed bytes, as many as there are if the stream ends first, so
    /// that reading starts at a record inside a compressed member: a [`Skip::stream_offset`]
    /// or a [`Record::stream_offset`], counted from where the reader started. Damage on the
    /// way is passed over too (the decompressed offsets count the bytes decoded before it).
    /// Returns how many bytes were passed over.
    ///
    /// # Errors
    /// Only when reading the file fails.
    pub fn skip_decompressed(&mut self, n: u64) -> Result<u64, Error> {
        let start = self.stream.position();
        let mut remaining = n;
        while remaining > 0 {
            let status = self.stream.fill(true).map_err(|source| Error::Io {
                offset: self.stream.file_offset(),
                source,
            })?;
            match status {
                Status::Data => {
                    let available = self.stream.buffered().len();
                    let take = usize::try_from(remaining).map_or(available, |r| r.min(available));
                    self.stream.consume(take);
                    remaining -= take as u64;
                }
                Status::Fault(_) => {}
                Status::Eof | Status::MemberEnd => break,
            }
        }
        Ok(self.stream.position() - start)
    }

    /// The next record or skip; `None` at the end of the file.
    ///
    /// # Errors
    /// Only when reading the file fails.
    pub fn next_entry(&mut self) -> Result<Option<Entry>, Error> {
        self.next_entry_io().map_err(|source| Error::Io {
            offset: self.stream.file_offset(),
            source,
        })
    }

    fn next_entry_io(&mut self) -> io::Result<Option<Entry>> {
        if let Some(skip) = self.pending.pop_front() {
            return Ok(Some(Entry::Skip(skip)));
        }
        match self.skip_newlines(true)? {
            Status::Data => {}
            Status::Fault(fault) => return Ok(Some(Entry::Skip(fault_skip(fault, None, None)))),
            Status::Eof | Status::MemberEnd => return Ok(None),
        }
        let start = self.start();
        let status = self.stream.peek(arc::MAX_LINE)?;
        if let Status::Fault(fault) = status {
            return Ok(Some(Entry::Skip(fault_skip(fault, None, None))));
        }
        let head = self.stream.buffered();
        if self.format.is_none() && starts_record(None, head) {
            let format = detect_format(head);
            if format == ArchiveFormat::Arc && !head.starts_with(b"filedesc://") {
                // Started at a record inside an ARC file (random access by offset).
                self.arc_version = arc::version_of_line(head);
            }
            self.format = Some(format);
        }
        let Some(format) = self.format.filter(|&f| is_record_start(f, head)) else {
            let length = self.scan_to_record_start(!start.framed)?;
            let reason = SkipReason::Garbage { length };
            return Ok(Some(Entry::Skip(Skip {
                offset: start.offset(),
                stream_offset: start.stream_offset(),
                reason,
                record_id: None,
            })));
        };
        self.fault_after_block = None;
        let read = self.read_record(start, format);
        let fault_after_block = self.fault_after_block.take();
        match (read, fault_after_block) {
            (Ok(record), None) => Ok(Some(Entry::Record(record))),
            (Ok(record), Some(fault)) => {
                // The member was damaged after this record's block: the record stands if its
                // own digest (where it has one) vouches for it.
                if block_digest_fails(&record) {
                    let record_id = record.header.record_id().map(str::to_owned);
                    Ok(Some(Entry::Skip(fault_skip(
                        fault,
                        record_id,
                        start.stream_offset(),
                    ))))
                } else {
                    self.pending.push_back(fault_skip(fault, None, None));
                    Ok(Some(Entry::Record(record)))
                }
            }
            (Err(problem), fault_after_block) => {
                let entry = self.recover(start, problem)?;
                self.pending
                    .extend(fault_after_block.map(|fault| fault_skip(fault, None, None)));
                Ok(Some(entry))
            }
        }
    }

    fn start(&self) -> Start {
        let exact = self.stream.exact_file_offset();
        let compressed = self.stream.compression() != Compression::None;
        Start {
            stream: self.stream.position(),
            exact,
            member_file: self.stream.member().file_start,
            framed: compressed && exact.is_some(),
            compressed,
        }
    }

    fn recover(&mut self, start: Start, problem: Problem) -> io::Result<Entry> {
        let record_id = self.parsed_record_id();
        let (reason, resync) = match problem {
            Problem::Io(error) => return Err(error),
            Problem::Fault(fault) => {
                return Ok(Entry::Skip(fault_skip(
                    fault,
                    record_id,
                    start.stream_offset(),
                )));
            }
            Problem::Skip(reason, resync) => (reason, resync),
            Problem::ShortBlock(..) => (SkipReason::TruncatedRecord, Resync::Here),
        };
        match resync {
            Resync::Here => {}
            Resync::From(position) if self.stream.rewind_plain(position)? => {
                self.scan_to_record_start(true)?;
            }
            Resync::Forward | Resync::From(_) => {
                self.scan_to_record_start(!start.framed)?;
            }
        }
        Ok(Entry::Skip(Skip {
            offset: start.offset(),
            stream_offset: start.stream_offset(),
            reason,
            record_id,
        }))
    }

    fn is_compressed(&self) -> bool {
        self.stream.compression() != Compression::None
    }

    fn parsed_record_id(&self) -> Option<String> {
        let end = memchr::memmem::find(&self.header, b"\n")?;
        let fields = Headers::parse(&self.header[end + 1..]).ok()?;
        fields.get("WARC-Record-ID").map(str::to_owned)
    }

    fn read_record(&mut self, start: Start, format: ArchiveFormat) -> Result<Record, Problem> {
        let cross = !start.framed;
        self.read_header_block(format, cross)?;
        let header = match format {
            ArchiveFormat::Warc => parse_warc_header(&self.header)?,
            ArchiveFormat::Arc => arc::parse_header(&self.header, self.arc_version)
                .map_err(|reason| Problem::Skip(reason, Resync::Forward))?,
        };
        let length = header.content_length().ok_or(Problem::Skip(
            SkipReason::MissingHeader {
                field: "Content-Length",
            },
            Resync::Forward,
        ))?;
        let mut warnings = Vec::new();
        if self.header_lines_end_cr_cr_lf {
            warnings.push(ReadWarning::CrCrLf);
        }
        if start.framed && self.stream.member().repaired {
            warnings.push(ReadWarning::DamagedGzipMagic);
        }
        let body_start = self.stream.position();
        let body = match self.read_body(length, &header, cross) {
            Ok(body) => {
                let block_end = self.stream.position();
                self.read_trailer(length, body_start, &body, cross)?;
                (body, block_end)
            }
            Err(Problem::ShortBlock(kept, declared)) => {
                let read = kept.len() as u64;
                warnings.push(ReadWarning::ShortBlock { declared, read });
                (Body::Buffered(kept), self.stream.position())
            }
            Err(problem) => return Err(problem),
        };
        let (body, block_end) = body;
        let locator = self.locate(start, block_end)?;
        if format == ArchiveFormat::Warc {
            check_mandatory(&header)?;
        } else if let Some(block) = body.bytes() {
            self.arc_version = arc::version_of(&header, block).unwrap_or(self.arc_version);
        }
        let digests = self.check_digests(&header, &body);
        Ok(Record {
            header,
            body,
            locator,
            stream_offset: start.stream,
            format,
            digests,
            warnings,
        })
    }

    /// Reads header lines up to and including the blank line into `self.header`.
    fn read_header_block(&mut self, format: ArchiveFormat, cross: bool) -> Result<(), Problem> {
        self.header.clear();
        self.header_lines_end_cr_cr_lf = false;
        let limit = self.config.max_header_size;
        loop {
            let line_start = self.header.len();
            self.read_line(limit, cross)?;
            let line = &self.header[line_start..];
            // Lines ending CR CR LF (written by some tools) are read as warcio reads them.
            self.header_lines_end_cr_cr_lf |= line.ends_with(b"\r\r\n");
            let blank = line.iter().all(|&b| b == b'\r' || b == b'\n');
            if format == ArchiveFormat::Arc || (blank && line_start > 0) {
                return Ok(());
            }
        }
    }

    /// Appends one line, newline included, to `self.header`.
    fn read_line(&mut self, limit: usize, cross: bool) -> Result<(), Problem> {
        loop {
            match self.stream.fill(cross)? {
                Status::Data => {}
                Status::Fault(fault) => return Err(Problem::Fault(fault)),
                Status::Eof | Status::MemberEnd => {
                    return Err(Problem::Skip(SkipReason::TruncatedRecord, Resync::Here));
                }
            }
            let available = self.stream.buffered();
            let (take, done) = match memchr::memchr(b'\n', available) {
                Some(at) => (at + 1, true),
                None => (available.len(), false),
            };
            if self.header.len() + take > limit {
                let reason = SkipReason::HeaderTooLarge {
                    limit: limit as u64,
                };
                return Err(Problem::Skip(reason, Resync::Forward));
            }
            self.header.extend_from_slice(&available[..take]);
            self.stream.consume(take);
            if done {
                return Ok(());
            }
        }
    }

    fn read_body(
        &mut self,
        length: u64,
        header: &RecordHeader,
        mut cross: bool,
    ) -> Result<Body, Problem> {
        let limit = self.config.max_record_size;
        let keep = length <= limit && self.config.keeps(&header.record_type);
        let mut kept = if keep {
            // Bounded by `max_record_size`, so the reservation is bounded too.
            Vec::with_capacity(usize::try_from(length).unwrap_or(0))
        } else {
            Vec::new()
        };
        let body_start = self.stream.position();
        let mut remaining = length;
        while remaining > 0 {
            match self.stream.fill(cross)? {
                Status::Data => {}
                Status::Fault(fault) => return Err(Problem::Fault(fault)),
                Status::Eof => return Err(self.block_cut_by_eof(length, body_start, kept)),
                Status::MemberEnd if self.next_member_continues()? => {
                    cross = true;
                    continue;
                }
                Status::MemberEnd => {
                    let reason = SkipReason::LengthMismatch { declared: length };
                    return Err(Problem::Skip(reason, Resync::Here));
                }
            }
            let available = self.stream.buffered();
            let take = available
                .len()
                .min(usize::try_from(remaining).unwrap_or(usize::MAX));
            if keep {
                kept.extend_from_slice(&available[..take]);
            }
            self.stream.consume(take);
            remaining -= take as u64;
        }
        if length > limit {
            let reason = SkipReason::RecordTooLarge { length, limit };
            self.skip_newlines_counted(cross)?;
            return Err(Problem::Skip(reason, Resync::Here));
        }
        Ok(if keep {
            Body::Buffered(kept)
        } else {
            Body::Skipped { length }
        })
    }

    /// The file ended inside a block. In an uncompressed file, a `Content-Length` that runs
    /// over later records is found out by looking for a record start in the block: the rest is
    /// then read again from the block's start. With none, the record is the file's last: its
    /// kept block is taken as it is, as warcio takes it, with a [`ReadWarning::ShortBlock`].
    fn block_cut_by_eof(&mut self, declared: u64, body_start: u64, kept: Vec<u8>) -> Problem {
        let format = self.format.unwrap_or(ArchiveFormat::Warc);
        let rewindable = !self.is_compressed();
        if !rewindable {
            return Problem::Skip(SkipReason::TruncatedRecord, Resync::Here);
        }
        let keeps = self.stream.position() - body_start == kept.len() as u64;
        if keeps && find_record_start(format, &kept).is_none() {
            return Problem::ShortBlock(kept, declared);
        }
        Problem::Skip(
            SkipReason::LengthMismatch { declared },
            Resync::From(body_start),
        )
    }

    /// At the end of a member inside a block: whether the next member goes on with the block
    /// (some writers split a record over several members) rather than starting a record, which
    /// means the block's `Content-Length` was too long.
    fn next_member_continues(&mut self) -> Result<bool, Problem> {
        match self.stream.fill(true)? {
            Status::Data => {}
            Status::Fault(fault) => return Err(Problem::Fault(fault)),
            Status::Eof | Status::MemberEnd => return Ok(false),
        }
        let format = self.format.unwrap_or(ArchiveFormat::Warc);
        Ok(match self.stream.peek(arc::MAX_LINE)? {
            Status::Data => !is_record_start(format, self.stream.buffered()),
            Status::Fault(fault) => return Err(Problem::Fault(fault)),
            Status::Eof | Status::MemberEnd => false,
        })
    }

    /// Consumes the newlines after a block. A block followed by anything else (but the end of
    /// its member or file) was not as long as its `Content-Length` said.
    fn read_trailer(
        &mut self,
        declared: u64,
        body_start: u64,
        body: &Body,
        cross: bool,
    ) -> Result<(), Problem> {
        let before = self.stream.position();
        let status = self.skip_newlines(cross)?;
        if let Status::Fault(fault) = status {
            self.fault_after_block = Some(fault);
            return Ok(());
        }
        if self.stream.position() > before {
            return self.check_next_start(declared, body_start, body);
        }
        match self.stream.fill(false)? {
            Status::Data => {
                let reason = SkipReason::LengthMismatch { declared };
                Err(Problem::Skip(reason, Resync::From(body_start)))
            }
            Status::Fault(fault) => {
                self.fault_after_block = Some(fault);
                Ok(())
            }
            Status::Eof | Status::MemberEnd => Ok(()),
        }
    }

    /// After a block and its newlines: what follows should be a record, or the end of the member
    /// or file. If it is not, and a record starts inside the kept block of an uncompressed file,
    /// the `Content-Length` ran over that record (bytes were lost before it): the block is not
    /// this record's, and reading goes on from the block's start.
    fn check_next_start(
        &mut self,
        declared: u64,
        body_start: u64,
        body: &Body,
    ) -> Result<(), Problem> {
        let format = self.format.unwrap_or(ArchiveFormat::Warc);
        let Some(block) = body.bytes().filter(|_| !self.is_compressed()) else {
            return Ok(());
        };
        match self.stream.peek(arc::MAX_LINE)? {
            Status::Data if !is_record_start(format, self.stream.buffered()) => {}
            _ => return Ok(()),
        }
        if find_record_start(format, block).is_none() {
            return Ok(());
        }
        let reason = SkipReason::LengthMismatch { declared };
        Err(Problem::Skip(reason, Resync::From(body_start)))
    }

    /// The record's locator, once its trailer has been read. In an uncompressed file the
    /// record ends with its block, as warcio and cdxj-indexer count it; the newlines after it
    /// are not part of it.
    fn locate(&mut self, start: Start, block_end: u64) -> Result<RecordLocator, Problem> {
        let status = match self.stream.fill(false)? {
            Status::Fault(fault) => {
                self.fault_after_block = Some(fault);
                self.stream.fill(false)?
            }
            status => status,
        };
        let end = match status {
            Status::Fault(fault) => return Err(Problem::Fault(fault)),
            _ if self.stream.compression() == Compression::None => Some(block_end),
            Status::Eof | Status::MemberEnd => Some(self.stream.file_offset()),
            Status::Data => self.stream.exact_file_offset().filter(|_| !start.framed),
        };
        Ok(match (start.exact, end) {
            (Some(offset), Some(end)) => RecordLocator {
                offset,
                length: end - offset,
                shared: false,
            },
            _ => RecordLocator {
                offset: start.member_file,
                length: self.stream.file_offset() - start.member_file,
                shared: true,
            },
        })
    }

    fn check_digests(&self, header: &RecordHeader, body: &Body) -> Option<Digests> {
        let block = body.bytes().filter(|_| self.config.verify_digests)?;
        let payload_field = header.fields.get("WARC-Payload-Digest");
        let is_http = header.is_http_message();
        let payload = if is_http {
            digest::http_payload(block)
        } else {
            Some(block)
        };
        let payload = match (payload_field, payload) {
            (None, _) => DigestCheck::Absent,
            // A revisit's payload digest is that of the original capture, not of this block.
            (Some(_), _) if header.record_type == crate::RecordType::Revisit => {
                DigestCheck::Unverifiable
            }
            (Some(field), Some(payload)) => digest::check(Some(field), payload),
            (Some(_), None) => DigestCheck::Unverifiable,
        };
        Some(Digests {
            block: digest::check(header.fields.get("WARC-Block-Digest"), block),
            payload,
        })
    }

    fn skip_newlines(&mut self, cross: bool) -> io::Result<Status> {
        loop {
            let status = self.stream.fill(cross)?;
            if status != Status::Data {
                return Ok(status);
            }
            let available = self.stream.buffered();
            let n = available
                .iter()
                .take_while(|&&b| b == b'\r' || b == b'\n')
                .count();
            let all = n == available.len();
            self.stream.consume(n);
            if !all {
                return Ok(Status::Data);
            }
        }
    }

    fn skip_newlines_counted(&mut self, cross: bool) -> Result<u64, Problem> {
        let before = self.stream.position();
        match self.skip_newlines(cross)? {
            Status::Fault(fault) => Err(Problem::Fault(fault)),
            _ => Ok(self.stream.position() - before),
        }
    }

    /// Consumes bytes until a record start, the end of the member (without `cross`) or the end
    /// of the file; the byte at the current position is always passed over. A WARC version line
    /// is found even after junk on the same line; an ARC header line only at a line start.
    /// Returns how many bytes were passed over.
    fn scan_to_record_start(&mut self, cross: bool) -> io::Result<u64> {
        // Before the first record, either format's record start will do.
        let format = self.format;
        let before = self.stream.position();
        let mut at_line_start = false;
        loop {
            let status = match self.stream.fill(cross)? {
                Status::Data => self.stream.peek(arc::MAX_LINE)?,
                status => status,
            };
            match status {
                Status::Data => {}
                Status::Fault(fault) => {
                    self.pending.push_back(fault_skip(fault, None, None));
                    break;
                }
                Status::Eof | Status::MemberEnd => break,
            }
            let available = self.stream.buffered();
            if at_line_start && starts_record(format, available) {
                break;
            }
            let (take, found) = match memchr::memchr(b'\n', available) {
                Some(at) => (at + 1, true),
                None => (available.len(), false),
            };
            let first = usize::from(self.stream.position() == before);
            let glued = (format != Some(ArchiveFormat::Arc))
                .then(|| find_record_start(ArchiveFormat::Warc, &available[first.min(take)..take]))
                .flatten()
                .map(|at| at + first);
            if let Some(at) = glued {
                self.stream.consume(at);
                break;
            }
            self.stream.consume(take);
            at_line_start = found;
        }
        Ok(self.stream.position() - before)
    }
}

impl<R: Read + Seek> Iterator for WarcReader<R> {
    type Item = Result<Entry, Error>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        let next = self.next_entry();
        self.failed = next.is_err();
        next.transpose()
    }
}

/// The skip for a fault of the compressed stream. `stream_offset` is where the lost record
/// began in the decompressed stream; without it, where the intact data ends.
fn fault_skip(fault: Fault, record_id: Option<String>, stream_offset: Option<u64>) -> Skip {
    let (offset, stream, reason) = match fault {
        Fault::Truncated { offset, stream } => (offset, Some(stream), SkipReason::TruncatedMember),
        Fault::Corrupt { offset, stream } => (offset, Some(stream), SkipReason::CorruptMember),
        Fault::Checksum { offset, stream } => (offset, Some(stream), SkipReason::ChecksumMismatch),
        Fault::Garbage { offset, length } => (offset, None, SkipReason::Garbage { length }),
    };
    Skip {
        offset,
        stream_offset: stream_offset.or(stream),
        reason,
        record_id,
    }
}

/// Whether a record's kept block contradicts its `WARC-Block-Digest`.
fn block_digest_fails(record: &Record) -> bool {
    let Some(block) = record.body.bytes() else {
        return false;
    };
    digest::check(record.header.fields.get("WARC-Block-Digest"), block) == DigestCheck::Mismatch
}

/// ARC if the data starts with the `filedesc://` record, or (for a reader started at a record
/// inside an ARC file) with an ARC record line rather than `WARC/`.
fn detect_format(head: &[u8]) -> ArchiveFormat {
    if head.starts_with(b"filedesc://")
        || (!head.starts_with(b"WARC/") && arc::is_header_line(head))
    {
        ArchiveFormat::Arc
    } else {
        ArchiveFormat::Warc
    }
}

/// Where the first record starts in `bytes`: for WARC, a version line (`WARC/1.` or `WARC/0.`)
/// anywhere, even after junk on the same line; for ARC, a header line after a newline.
fn find_record_start(format: ArchiveFormat, bytes: &[u8]) -> Option<usize> {
    match format {
        ArchiveFormat::Warc => memchr::memmem::find_iter(bytes, b"WARC/")
            .find(|&at| matches!(bytes.get(at + 5..at + 7), Some([b'0' | b'1', b'.']))),
        ArchiveFormat::Arc => memchr::memchr_iter(b'\n', bytes)
            .map(|at| at + 1)
            .find(|&at| arc::is_header_line(&bytes[at..])),
    }
}

/// Whether `head` starts a record of `format`, or of either format when it is not known yet.
fn starts_record(format: Option<ArchiveFormat>, head: &[u8]) -> bool {
    match format {
        Some(format) => is_record_start(format, head),
        None => {
            is_record_start(ArchiveFormat::Warc, head)
                || head.starts_with(b"filedesc://")
                || is_record_start(ArchiveFormat::Arc, head)
        }
    }
}

fn is_record_start(format: ArchiveFormat, head: &[u8]) -> bool {
    match format {
        ArchiveFormat::Warc => head.starts_with(b"WARC/"),
        ArchiveFormat::Arc => arc::is_header_line(head),
    }
}

fn parse_warc_header(block: &[u8]) -> Result<RecordHeader, Problem> {
    let forward = |reason| Problem::Skip(reason, Resync::Forward);
    let line_end = memchr::memchr(b'\n', block).unwrap_or(block.len());
    let version = String::from_utf8_lossy(block[..line_end].trim_ascii()).into_owned();
    let known = ["WARC/1.0", "WARC/1.1", "WARC/0.17", "WARC/0.18"];
    if !known.contains(&version.as_str()) {
        return Err(forward(SkipReason::BadVersionLine));
    }
    let rest = block.get(line_end + 1..).unwrap_or_default();
    let fields = Headers::parse(rest).map_err(|_| forward(SkipReason::MalformedHeader))?;
    let record_type = fields
        .get("WARC-Type")
        .unwrap_or_default()
        .parse()
        .unwrap_or_else(|e| match e {});
    Ok(RecordHeader {
        version,
        record_type,
        fields,
    })
}

fn check_mandatory(header: &RecordHeader) -> Result<(), Problem> {
    for field in ["WARC-Record-ID", "WARC-Type", "WARC-Date"] {
        if header.fields.get(field).is_none_or(str::is_empty) {
            return Err(Problem::Skip(
                SkipReason::MissingHeader { field },
                Resync::Here,
            ));
        }
    }
    Ok(())
}
