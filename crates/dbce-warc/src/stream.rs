//! The decompressed byte stream of an archive, member by member.
//!
//! A gzip file is a sequence of members and a zstd file a sequence of frames; WARC writers put
//! one record in each, so a member's compressed offset and length locate a record in the file.
//! [`Stream`] decodes one member at a time and never mixes bytes of two members in its buffer,
//! so the reader can tell whether a record starts and ends on member boundaries.

use std::io::{self, Read, Seek};

use crate::input::Input;

mod gzip;
mod zstd;

const OUTPUT_CAPACITY: usize = 256 * 1024;

/// The compression of a whole file, detected from its first bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Compression {
    /// No compression.
    None,
    /// gzip, per record (multi-member) or for the whole file.
    Gzip,
    /// zstd frames, per record, optionally after a dictionary frame (IIPC `.warc.zst`).
    Zstd,
}

impl Compression {
    /// Detects the compression from the first bytes of a file.
    pub fn detect(head: &[u8]) -> Self {
        if head.starts_with(gzip::MAGIC) {
            Self::Gzip
        } else if zstd::starts_frame(head) {
            Self::Zstd
        } else {
            Self::None
        }
    }

    /// Like [`Compression::detect`], but a file that starts with neither a magic number nor a
    /// record (a damaged first member) is taken to be compressed as the first magic number in
    /// `head` says, so that its other members are still read.
    fn detect_damaged(head: &[u8]) -> Self {
        let detected = Self::detect(head);
        let text = head.trim_ascii_start();
        if detected != Self::None || text.starts_with(b"WARC/") || text.starts_with(b"filedesc:") {
            return detected;
        }
        let gzip = memchr::memmem::find(head, gzip::MAGIC).map(|at| (at, Self::Gzip));
        let zstd = memchr::memmem::find(head, zstd::FRAME_MAGIC).map(|at| (at, Self::Zstd));
        let Some((at, compression)) = gzip.into_iter().chain(zstd).min_by_key(|(at, _)| *at) else {
            return Self::None;
        };
        // A record line before the magic number: an uncompressed file with garbage in front
        // (the magic number is then inside a compressed HTTP payload).
        let before = &head[..at];
        let record_line = memchr::memmem::find(before, b"\nWARC/").is_some()
            || memchr::memmem::find(before, b"\nfiledesc:").is_some();
        if record_line { Self::None } else { compression }
    }
}

/// How many leading bytes are searched for a magic number when a file starts with neither.
const DETECT_WINDOW: usize = 64 * 1024;

/// What [`Stream::fill`] found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Status {
    /// Decoded bytes are buffered.
    Data,
    /// The current member ended and `fill` was asked not to start the next one.
    MemberEnd,
    /// The file ended.
    Eof,
    /// Something was wrong at file offset `offset`; the stream has moved on past it.
    Fault(Fault),
}

/// A problem with the compressed data. `stream` is the decompressed offset where the member's
/// intact data ends: every byte before it was decoded and handed to the reader.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Fault {
    /// The file ended inside the member starting at `offset`.
    Truncated { offset: u64, stream: u64 },
    /// The member starting at `offset` is corrupt.
    Corrupt { offset: u64, stream: u64 },
    /// The member starting at `offset` decompressed to its end, but its checksum or size does
    /// not match what was decoded.
    Checksum { offset: u64, stream: u64 },
    /// `length` bytes at `offset` are not a member.
    Garbage { offset: u64, length: u64 },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// Before a member (or, uncompressed, before anything).
    Between,
    /// Decoding a member.
    Inside,
}

/// Where the current member began.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Member {
    /// Compressed offset of the member in the file.
    pub(crate) file_start: u64,
    /// Decompressed offset of the member's first byte.
    pub(crate) stream_start: u64,
    /// Its header's magic number had a damaged byte (see [`gzip::starts_damaged_member`]).
    pub(crate) repaired: bool,
}

enum Decoder {
    Plain,
    Gzip(gzip::GzipMember),
    Zstd(zstd::ZstdFrames),
}

/// Decompressed bytes of an archive, with member boundaries.
pub(crate) struct Stream<R> {
    input: Input<R>,
    decoder: Decoder,
    compression: Compression,
    buf: Box<[u8]>,
    start: usize,
    end: usize,
    /// Decompressed offset of `buf[start]`.
    pos: u64,
    state: State,
    member: Member,
    /// A fault met while decoding, reported once the bytes decoded before it are consumed.
    pending: Option<Fault>,
}

impl<R: Read + Seek> Stream<R> {
    /// Opens `inner`, detecting its compression from its first bytes.
    pub(crate) fn new(inner: R) -> io::Result<Self> {
        let mut input = Input::new(inner)?;
        let compression = Compression::detect_damaged(input.fill_to(DETECT_WINDOW)?);
        let decoder = match compression {
            Compression::None => Decoder::Plain,
            Compression::Gzip => Decoder::Gzip(gzip::GzipMember::new()),
            Compression::Zstd => Decoder::Zstd(zstd::ZstdFrames::new()?),
        };
        let member = Member {
            file_start: input.offset(),
            stream_start: 0,
            repaired: false,
        };
        Ok(Self {
            input,
            decoder,
            compression,
            buf: vec![0; OUTPUT_CAPACITY].into_boxed_slice(),
            start: 0,
            end: 0,
            pos: 0,
            state: State::Between,
            member,
            pending: None,
        })
    }

    pub(crate) fn compression(&self) -> Compression {
        self.compression
    }

    /// The buffered decoded bytes.
    pub(crate) fn buffered(&self) -> &[u8] {
        &self.buf[self.start..self.end]
    }

    /// Marks `n` buffered bytes as consumed.
    pub(crate) fn consume(&mut self, n: usize) {
        debug_assert!(n <= self.end - self.start);
        self.start += n;
        self.pos += n as u64;
    }

    /// Decompressed offset of the next unconsumed byte.
    pub(crate) fn position(&self) -> u64 {
        self.pos
    }

    /// The member the next unconsumed byte belongs to.
    pub(crate) fn member(&self) -> Member {
        self.member
    }

    /// File offset of the next unconsumed compressed byte.
    pub(crate) fn file_offset(&self) -> u64 {
        match self.decoder {
            Decoder::Plain => self.pos,
            _ => self.input.offset(),
        }
    }

    /// The file offset of the next unconsumed byte, if it is exactly known: always for
    /// uncompressed files, at the start of a member for compressed ones.
    pub(crate) fn exact_file_offset(&self) -> Option<u64> {
        match self.decoder {
            Decoder::Plain => Some(self.pos),
            // Buffered bytes belong to the current member, even when it has been decoded to its end.
            _ if self.state == State::Inside || self.start < self.end => {
                (self.pos == self.member.stream_start).then_some(self.member.file_start)
            }
            _ => Some(self.input.offset()),
        }
    }

    /// Makes decoded bytes available. With `cross` false it stops at the end of the current
    /// member and reports [`Status::MemberEnd`].
    ///
    /// # Errors
    /// Only when reading the file fails.
    pub(crate) fn fill(&mut self, cross: bool) -> io::Result<Status> {
        loop {
            if self.start < self.end {
                return Ok(Status::Data);
            }
            if let Some(fault) = self.pending.take() {
                return Ok(Status::Fault(fault));
            }
            self.start = 0;
            self.end = 0;
            match self.state {
                State::Inside => match self.decode_more()? {
                    Some(status) => return Ok(status),
                    None => self.state = State::Between,
                },
                State::Between if !cross && !matches!(self.decoder, Decoder::Plain) => {
                    return Ok(Status::MemberEnd);
                }
                State::Between => {
                    if let Some(status) = self.begin_member()? {
                        return Ok(status);
                    }
                }
            }
        }
    }

    /// Makes up to `n` decoded bytes of the current member contiguous in the buffer (fewer if the
    /// member ends first). Returns [`Status::Data`] if any byte is buffered.
    ///
    /// # Errors
    /// Only when reading the file fails.
    pub(crate) fn peek(&mut self, n: usize) -> io::Result<Status> {
        let status = self.fill(false)?;
        if status != Status::Data {
            return Ok(status);
        }
        let n = n.min(self.buf.len());
        while self.end - self.start < n && self.state == State::Inside {
            if self.end == self.buf.len() {
                self.buf.copy_within(self.start..self.end, 0);
                self.end -= self.start;
                self.start = 0;
            }
            match self.decode_more()? {
                Some(Status::Data) => {}
                Some(fault) => return Ok(fault),
                None => self.state = State::Between,
            }
        }
        Ok(Status::Data)
    }

    /// Decodes more of the current member. `None` means the member ended cleanly.
    fn decode_more(&mut self) -> io::Result<Option<Status>> {
        let out = &mut self.buf[self.end..];
        let outcome = match &mut self.decoder {
            Decoder::Plain => plain_read(&mut self.input, out)?,
            Decoder::Gzip(member) => member.decode(&mut self.input, out)?,
            Decoder::Zstd(frames) => frames.decode(&mut self.input, out)?,
        };
        match outcome {
            Outcome::Produced(n) => {
                self.end += n;
                Ok(Some(Status::Data))
            }
            Outcome::Ended => Ok(None),
            Outcome::Damaged { produced, damage } => {
                // The bytes decoded before the damage are intact as far as the decoder knows:
                // they are handed on, and the reader checks each record's grammar and length.
                self.end += produced;
                let fault = match damage {
                    Damage::Truncated => self.after_truncation()?,
                    Damage::Corrupt => self.resync_after_corrupt()?,
                    Damage::Checksum => self.after_checksum()?,
                };
                if self.start < self.end {
                    self.pending = Some(fault);
                    Ok(Some(Status::Data))
                } else {
                    Ok(Some(Status::Fault(fault)))
                }
            }
        }
    }

    /// Decompressed offset of the end of the decoded bytes.
    fn decoded_end(&self) -> u64 {
        self.pos + (self.end - self.start) as u64
    }

    /// The file ended inside a member. Damage can make a decoder run on through the members
    /// that follow, so look for another member after this one's start: if there is one, this
    /// member was corrupt and reading goes on there; if not, the file was truncated.
    fn after_truncation(&mut self) -> io::Result<Fault> {
        self.state = State::Between;
        let offset = self.member.file_start;
        let stream = self.decoded_end();
        self.scan_to_next_member(offset + 1)?;
        if self.input.fill()?.is_empty() {
            Ok(Fault::Truncated { offset, stream })
        } else {
            Ok(Fault::Corrupt { offset, stream })
        }
    }

    /// The member decompressed to its end but its checksum is wrong. Reading goes on where the
    /// decoder stopped if another member starts there; otherwise the damage may have moved the
    /// member's end, and the next member is searched for after its start. That includes a
    /// decoder stopped by the end of the file: damage can make it run on through the members
    /// that follow, which would otherwise be lost unreported.
    fn after_checksum(&mut self) -> io::Result<Fault> {
        self.state = State::Between;
        let offset = self.member.file_start;
        let head = self.input.fill_to(8)?;
        let aligned = match self.decoder {
            Decoder::Plain => true,
            Decoder::Gzip(_) => head.starts_with(gzip::MAGIC),
            Decoder::Zstd(_) => zstd::starts_frame(head),
        };
        if !aligned {
            self.scan_to_next_member(offset + 1)?;
        }
        Ok(Fault::Checksum {
            offset,
            stream: self.decoded_end(),
        })
    }

    /// Starts the next member at the current input position. `None` means a member began and
    /// has nothing to show yet; the caller loops.
    fn begin_member(&mut self) -> io::Result<Option<Status>> {
        let offset = self.input.offset();
        let head = self.input.fill_to(18)?;
        if head.is_empty() {
            return Ok(Some(Status::Eof));
        }
        let started = match &mut self.decoder {
            Decoder::Plain => Begin::Started,
            Decoder::Gzip(member) => member.begin(&mut self.input)?,
            Decoder::Zstd(frames) => frames.begin(&mut self.input)?,
        };
        match started {
            Begin::Started | Begin::Repaired => {
                self.member = Member {
                    file_start: offset,
                    stream_start: self.pos,
                    repaired: matches!(started, Begin::Repaired),
                };
                self.state = State::Inside;
                Ok(None)
            }
            Begin::Skipped => Ok(None),
            Begin::NotAMember => {
                let length = 1 + self.scan_to_next_member(offset + 1)?;
                Ok(Some(Status::Fault(Fault::Garbage { offset, length })))
            }
            Begin::Corrupt => self
                .resync_after_corrupt()
                .map(|fault| Some(Status::Fault(fault))),
        }
    }

    /// Moves past a corrupt member: back to just after its first byte, then to the next magic.
    /// Bytes already decoded from it stay buffered.
    fn resync_after_corrupt(&mut self) -> io::Result<Fault> {
        let offset = self.member_or_input_start();
        let stream = self.decoded_end();
        self.scan_to_next_member(offset + 1)?;
        self.state = State::Between;
        Ok(Fault::Corrupt { offset, stream })
    }

    fn member_or_input_start(&self) -> u64 {
        match self.state {
            State::Inside => self.member.file_start,
            State::Between => self.input.offset(),
        }
    }

    /// Seeks to `from` and consumes up to the next member; returns the bytes passed over.
    fn scan_to_next_member(&mut self, from: u64) -> io::Result<u64> {
        self.input.seek(from)?;
        match &self.decoder {
            Decoder::Plain => Ok(0),
            Decoder::Gzip(_) => self.scan_to_gzip_member(),
            Decoder::Zstd(_) => self.input.scan_to(zstd::FRAME_MAGIC),
        }
    }

    /// Consumes bytes up to the next gzip member, or to the end of the file: the next magic
    /// number, or an earlier member whose magic number has one damaged byte
    /// ([`gzip::starts_damaged_member`]). Returns the bytes passed over.
    fn scan_to_gzip_member(&mut self) -> io::Result<u64> {
        const WINDOW: usize = 64 * 1024;
        let mut skipped = 0;
        loop {
            let window = self.input.fill_to(WINDOW)?;
            let at_eof = window.len() < WINDOW;
            // Positions with a whole probe's bytes after them (all of them at the end).
            let probed = if at_eof {
                window.len()
            } else {
                window.len() - gzip::PROBE_LEN
            };
            let exact = memchr::memmem::find(window, gzip::MAGIC);
            let damaged = (0..exact.unwrap_or(probed).min(probed))
                .find(|&at| gzip::starts_damaged_member(&window[at..]));
            let next = damaged.or(exact.filter(|&at| at <= probed));
            let passed = next.unwrap_or(probed);
            self.input.consume(passed);
            skipped += passed as u64;
            if next.is_some() || at_eof {
                return Ok(skipped);
            }
        }
    }

    /// Uncompressed files only: forgets buffered bytes and continues at `offset`.
    pub(crate) fn rewind_plain(&mut self, offset: u64) -> io::Result<bool> {
        if !matches!(self.decoder, Decoder::Plain) {
            return Ok(false);
        }
        self.input.seek(offset)?;
        self.pos = offset;
        self.start = 0;
        self.end = 0;
        Ok(true)
    }
}

/// What decoding a piece of a member gave.
pub(crate) enum Outcome {
    /// `n` bytes were written to the output buffer.
    Produced(usize),
    /// The member ended, its checksum verified.
    Ended,
    /// Decoding stopped at damage, after writing `produced` more bytes to the output buffer.
    Damaged {
        /// Bytes written before the damage was found.
        produced: usize,
        /// What the damage is.
        damage: Damage,
    },
}

/// What stopped a member's decoding.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Damage {
    /// The file ended inside the member.
    Truncated,
    /// The member's data is corrupt.
    Corrupt,
    /// The member's data decoded to its end, but its checksum or size is wrong.
    Checksum,
}

impl Outcome {
    /// What one decoder step comes to: bytes out, the member's end, the file's end inside the
    /// member, or no progress on available input (corrupt); `None` to feed the decoder more.
    pub(crate) fn of_step(
        produced: usize,
        ended: bool,
        at_eof: bool,
        consumed: usize,
    ) -> Option<Self> {
        let damaged = |damage| Self::Damaged {
            produced: 0,
            damage,
        };
        if produced > 0 {
            Some(Self::Produced(produced))
        } else if ended {
            Some(Self::Ended)
        } else if at_eof {
            Some(damaged(Damage::Truncated))
        } else if consumed == 0 {
            Some(damaged(Damage::Corrupt))
        } else {
            None
        }
    }
}

/// What starting a member gave.
pub(crate) enum Begin {
    /// A member header was read; decoding can start.
    Started,
    /// A frame without records (zstd skippable or dictionary frame) was passed over.
    Skipped,
    /// The bytes here do not start a member.
    NotAMember,
    /// The member header is invalid.
    Corrupt,
    /// A gzip member header whose magic number has one damaged byte was read; decoding can
    /// start.
    Repaired,
}

fn plain_read<R: Read + Seek>(input: &mut Input<R>, out: &mut [u8]) -> io::Result<Outcome> {
    let available = input.fill()?;
    if available.is_empty() {
        return Ok(Outcome::Ended);
    }
    let n = available.len().min(out.len());
    out[..n].copy_from_slice(&available[..n]);
    input.consume(n);
    Ok(Outcome::Produced(n))
}
