//! One gzip member at a time (RFC 1952), with its CRC-32 and size checked.

use std::io::{self, Read, Seek};

use flate2::{Crc, Decompress, FlushDecompress, Status};

use super::{Begin, Damage, Outcome};
use crate::input::Input;

/// The first bytes of a gzip member with the deflate method.
pub(crate) const MAGIC: &[u8] = &[0x1f, 0x8b, 0x08];

const FHCRC: u8 = 0x02;
const FEXTRA: u8 = 0x04;
const FNAME: u8 = 0x08;
const FCOMMENT: u8 = 0x10;
const RESERVED: u8 = 0xe0;
/// The longest member header accepted (the extra field, name and comment included).
const MAX_HEADER: usize = 64 * 1024;
/// How many bytes a probe for a member with a damaged magic number looks at: a header without
/// optional fields and the start of its deflate data.
pub(crate) const PROBE_LEN: usize = 1024;
/// How many decoded bytes a probe needs to recognise the start of a record.
const PROBE_DECODED: usize = 64;

/// Decoder state for the current gzip member; reused across members.
pub(crate) struct GzipMember {
    inflate: Decompress,
    crc: Crc,
    finished: bool,
}

impl GzipMember {
    pub(crate) fn new() -> Self {
        Self {
            inflate: Decompress::new(false),
            crc: Crc::new(),
            finished: false,
        }
    }

    /// Reads a member header at the input's position. A header whose magic number has one
    /// damaged byte is accepted ([`Begin::Repaired`]) when its data decodes to a record start.
    pub(crate) fn begin<R: Read + Seek>(&mut self, input: &mut Input<R>) -> io::Result<Begin> {
        let head = input.fill_to(PROBE_LEN)?;
        let repaired = !head.starts_with(MAGIC);
        if repaired && !starts_damaged_member(head) {
            return Ok(Begin::NotAMember);
        }
        if head.len() < 10 || head[3] & RESERVED != 0 {
            return Ok(Begin::Corrupt);
        }
        let flags = head[3];
        let header_len = if flags & (FEXTRA | FNAME | FCOMMENT | FHCRC) == 0 {
            Some(10)
        } else {
            header_length(input.fill_to(MAX_HEADER)?, flags)
        };
        let Some(header_len) = header_len else {
            return Ok(Begin::Corrupt);
        };
        input.consume(header_len);
        self.inflate.reset(false);
        self.crc.reset();
        self.finished = false;
        Ok(if repaired {
            Begin::Repaired
        } else {
            Begin::Started
        })
    }

    /// Decodes more of the member into `out`.
    pub(crate) fn decode<R: Read + Seek>(
        &mut self,
        input: &mut Input<R>,
        out: &mut [u8],
    ) -> io::Result<Outcome> {
        if self.finished {
            return Ok(Outcome::Ended);
        }
        loop {
            let available = input.fill()?;
            let at_eof = available.is_empty();
            let (in_before, out_before) = (self.inflate.total_in(), self.inflate.total_out());
            let result = self
                .inflate
                .decompress(available, out, FlushDecompress::None);
            let consumed = counted(self.inflate.total_in() - in_before);
            let produced = counted(self.inflate.total_out() - out_before);
            input.consume(consumed);
            self.crc.update(&out[..produced]);
            let Ok(status) = result else {
                return Ok(Outcome::Damaged {
                    produced,
                    damage: Damage::Corrupt,
                });
            };
            let ended = status == Status::StreamEnd;
            if ended && let Some(damage) = self.finish(input)? {
                return Ok(Outcome::Damaged { produced, damage });
            }
            if let Some(outcome) = Outcome::of_step(produced, ended, at_eof, consumed) {
                return Ok(outcome);
            }
        }
    }

    /// Checks the trailer; `Some` holds the failure.
    fn finish<R: Read + Seek>(&mut self, input: &mut Input<R>) -> io::Result<Option<Damage>> {
        let trailer = input.fill_to(8)?;
        if trailer.len() < 8 {
            return Ok(Some(Damage::Truncated));
        }
        let crc = u32::from_le_bytes([trailer[0], trailer[1], trailer[2], trailer[3]]);
        let size = u32::from_le_bytes([trailer[4], trailer[5], trailer[6], trailer[7]]);
        input.consume(8);
        self.finished = true;
        if crc != self.crc.sum() || size != self.crc.amount() {
            return Ok(Some(Damage::Checksum));
        }
        Ok(None)
    }
}

/// Whether `head` starts a member whose magic number has exactly one damaged byte: the other
/// two match, the header is well formed and its deflate data decodes to the start of a WARC or
/// ARC record. A damaged byte costs the member's record nothing, since the magic number is not
/// part of the data; without this the record would be lost with the bytes around it.
pub(crate) fn starts_damaged_member(head: &[u8]) -> bool {
    let Some(magic) = head.get(..MAGIC.len()) else {
        return false;
    };
    let matching = magic.iter().zip(MAGIC).filter(|(a, b)| a == b).count();
    if matching != MAGIC.len() - 1 || head.len() < 10 || head[3] & RESERVED != 0 {
        return false;
    }
    let Some(header_len) = header_length(head, head[3]) else {
        return false;
    };
    let mut decoded = [0; PROBE_DECODED];
    let mut inflate = Decompress::new(false);
    if inflate
        .decompress(&head[header_len..], &mut decoded, FlushDecompress::None)
        .is_err()
    {
        return false;
    }
    starts_record(&decoded[..counted(inflate.total_out())])
}

/// Whether `bytes` begin like a WARC record (`WARC/1.x`) or an ARC record (a URL line).
fn starts_record(bytes: &[u8]) -> bool {
    if bytes.starts_with(b"WARC/") {
        return bytes.len() > 5 && bytes[5].is_ascii_digit();
    }
    let line = bytes.split(|&b| b == b'\n').next().unwrap_or_default();
    let scheme = line.iter().take_while(|b| b.is_ascii_alphabetic()).count();
    scheme > 0 && line[scheme..].starts_with(b"://") && line.len() < bytes.len()
}

/// Byte counts of one decompress call are bounded by the slices passed, so they fit in usize.
fn counted(n: u64) -> usize {
    usize::try_from(n).unwrap_or(usize::MAX)
}

/// The length of a member header with optional fields, or `None` if it is incomplete.
fn header_length(head: &[u8], flags: u8) -> Option<usize> {
    let mut at = 10;
    if flags & FEXTRA != 0 {
        let extra = head.get(at..at + 2)?;
        at += 2 + usize::from(u16::from_le_bytes([extra[0], extra[1]]));
    }
    for flag in [FNAME, FCOMMENT] {
        if flags & flag != 0 {
            at += memchr::memchr(0, head.get(at..)?)? + 1;
        }
    }
    if flags & FHCRC != 0 {
        at += 2;
    }
    (at <= head.len()).then_some(at)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn optional_header_fields_are_measured() {
        let mut head = vec![0x1f, 0x8b, 8, FEXTRA | FNAME | FHCRC, 0, 0, 0, 0, 0, 3];
        head.extend_from_slice(&[2, 0, b'a', b'b']);
        head.extend_from_slice(b"name\0");
        head.extend_from_slice(&[0, 0]);
        assert_eq!(header_length(&head, head[3]), Some(head.len()));
        assert_eq!(header_length(&head[..head.len() - 3], head[3]), None);
    }

    fn member(data: &[u8]) -> Vec<u8> {
        use std::io::Write;
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::new(6));
        encoder.write_all(data).unwrap();
        encoder.finish().unwrap()
    }

    #[test]
    fn a_member_with_one_damaged_magic_byte_is_recognised_by_its_record() {
        let warc = member(b"WARC/1.0\r\nWARC-Type: resource\r\n\r\n");
        let arc = member(b"http://example.com/ 10.0.0.1 20200101000000 text/html 5\nhello\n");
        for good in [&warc, &arc] {
            assert!(
                !starts_damaged_member(good),
                "an intact magic is not damaged"
            );
            for at in 0..MAGIC.len() {
                let mut damaged = good.clone();
                damaged[at] ^= 0x40;
                assert!(starts_damaged_member(&damaged), "byte {at}");
            }
            let mut two = good.clone();
            two[0] ^= 1;
            two[1] ^= 1;
            assert!(
                !starts_damaged_member(&two),
                "two damaged bytes are too many"
            );
        }
    }

    #[test]
    fn a_damaged_magic_before_other_data_is_not_a_member() {
        let mut text = member(b"<html><body>not a record</body></html>");
        text[0] ^= 0x40;
        assert!(!starts_damaged_member(&text));
        let mut noise: Vec<u8> = (0..PROBE_LEN).map(|i| (i * 7 + 3) as u8).collect();
        noise[..3].copy_from_slice(&[0x1f, 0x8b, 0x09]);
        assert!(!starts_damaged_member(&noise));
    }
}
