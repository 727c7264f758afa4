//! zstd frames, one record each, as the IIPC `.warc.zst` proposal lays them out: an optional
//! dictionary in a skippable frame (magic `0x184D2A5D`) first, raw or itself zstd-compressed.

use std::io::{self, Read, Seek};

use std::hash::Hasher as _;

use twox_hash::XxHash64;
use zstd::stream::raw::{DParameter, Decoder, InBuffer, Operation, OutBuffer};

use super::{Begin, Damage, Outcome};
use crate::input::Input;

/// The first bytes of a zstd frame.
pub(crate) const FRAME_MAGIC: &[u8] = &[0x28, 0xb5, 0x2f, 0xfd];
const SKIPPABLE_MASK: u32 = 0xffff_fff0;
const SKIPPABLE: u32 = 0x184d_2a50;
const DICTIONARY_FRAME: u32 = 0x184d_2a5d;
/// The largest dictionary accepted.
const MAX_DICTIONARY: usize = 16 * 1024 * 1024;

/// Whether `head` starts a zstd frame or a skippable frame.
pub(crate) fn starts_frame(head: &[u8]) -> bool {
    head.starts_with(FRAME_MAGIC) || skippable_magic(head).is_some()
}

fn skippable_magic(head: &[u8]) -> Option<u32> {
    let magic = u32::from_le_bytes(head.get(..4)?.try_into().ok()?);
    (magic & SKIPPABLE_MASK == SKIPPABLE).then_some(magic)
}

/// The frame header descriptor's bit saying that the frame ends with a content checksum.
const CONTENT_CHECKSUM_FLAG: u8 = 0x04;
/// The most output asked of zstd in one call.
const OUTPUT_WINDOW: usize = 16 * 1024;
/// Length of a frame's content checksum: the low 32 bits of its XXH64, little-endian.
const CHECKSUM_LEN: usize = 4;

/// Decoder state for zstd frames; keeps the dictionary across frames.
///
/// The decoder is told to ignore content checksums, which it would otherwise check only by
/// failing the whole last step of a frame, losing its output; the checksum is checked here
/// instead, so a frame whose only fault is its checksum gives all its data and a
/// [`Damage::Checksum`].
pub(crate) struct ZstdFrames {
    decoder: Decoder<'static>,
    finished: bool,
    seen_frame: bool,
    /// The hash of the current frame's content, when the frame has a checksum.
    content_hash: Option<XxHash64>,
    /// File offset of the current frame.
    frame_start: u64,
    /// Bytes of the current frame handed out so far.
    delivered: u64,
}

impl ZstdFrames {
    pub(crate) fn new() -> io::Result<Self> {
        Ok(Self {
            decoder: checksum_ignoring(Decoder::new()?)?,
            finished: false,
            seen_frame: false,
            content_hash: None,
            frame_start: 0,
            delivered: 0,
        })
    }

    /// Reads a frame start at the input's position; passes over skippable frames, loading a
    /// dictionary frame that comes before the first data frame.
    pub(crate) fn begin<R: Read + Seek>(&mut self, input: &mut Input<R>) -> io::Result<Begin> {
        let head = input.fill_to(8)?;
        if head.starts_with(FRAME_MAGIC) {
            let descriptor = head.get(FRAME_MAGIC.len()).copied().unwrap_or(0);
            self.content_hash =
                (descriptor & CONTENT_CHECKSUM_FLAG != 0).then(|| XxHash64::with_seed(0));
            self.decoder.reinit()?;
            self.frame_start = input.offset();
            self.delivered = 0;
            self.finished = false;
            self.seen_frame = true;
            return Ok(Begin::Started);
        }
        let Some(magic) = skippable_magic(head) else {
            return Ok(Begin::NotAMember);
        };
        let Some(size) = head
            .get(4..8)
            .map(|s| u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
        else {
            return Ok(Begin::Corrupt);
        };
        let size = size as usize;
        if magic == DICTIONARY_FRAME && !self.seen_frame {
            return self.load_dictionary(input, size);
        }
        let at = input.offset();
        input.seek(at + 8 + size as u64)?;
        Ok(Begin::Skipped)
    }

    fn load_dictionary<R: Read + Seek>(
        &mut self,
        input: &mut Input<R>,
        size: usize,
    ) -> io::Result<Begin> {
        if size > MAX_DICTIONARY {
            return Ok(Begin::Corrupt);
        }
        let frame = input.fill_to(8 + size)?;
        if frame.len() < 8 + size {
            return Ok(Begin::Corrupt);
        }
        let raw = &frame[8..8 + size];
        let dictionary = if raw.starts_with(FRAME_MAGIC) {
            match zstd::bulk::decompress(raw, MAX_DICTIONARY) {
                Ok(dictionary) => dictionary,
                Err(_) => return Ok(Begin::Corrupt),
            }
        } else {
            raw.to_vec()
        };
        let Ok(decoder) = Decoder::with_dictionary(&dictionary) else {
            return Ok(Begin::Corrupt);
        };
        self.decoder = checksum_ignoring(decoder)?;
        input.consume(8 + size);
        Ok(Begin::Skipped)
    }

    /// Decodes more of the current frame into `out`.
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
            let mut source = InBuffer::around(available);
            // Output in pieces: on an error zstd reports none of what it wrote in the failing
            // call, and recovering those bytes costs a call per byte.
            let window = out.len().min(OUTPUT_WINDOW);
            let mut sink = OutBuffer::around(&mut out[..window]);
            let result = self.decoder.run(&mut source, &mut sink);
            let (consumed, produced) = (source.pos(), sink.pos());
            input.consume(consumed);
            if let Some(hash) = &mut self.content_hash {
                hash.write(&out[..produced]);
            }
            let Ok(hint) = result else {
                return Ok(Outcome::Damaged {
                    produced: self.recover_unreported(input, out)?,
                    damage: Damage::Corrupt,
                });
            };
            self.delivered += produced as u64;
            self.finished = hint == 0;
            if self.finished && !self.checksum_matches(input)? {
                return Ok(Outcome::Damaged {
                    produced,
                    damage: Damage::Checksum,
                });
            }
            if let Some(outcome) = Outcome::of_step(produced, self.finished, at_eof, consumed) {
                return Ok(outcome);
            }
        }
    }

    /// After a decoding error, whose call reports none of the bytes it wrote: decodes the frame
    /// again from its start, and past what was handed out asks for one byte per call, so that
    /// each call either gives a byte or fails before writing any. Writes the bytes decoded
    /// before the damage that were not handed out to `out`; returns how many.
    fn recover_unreported<R: Read + Seek>(
        &mut self,
        input: &mut Input<R>,
        out: &mut [u8],
    ) -> io::Result<usize> {
        input.seek(self.frame_start)?;
        self.decoder.reinit()?;
        let mut to_pass = self.delivered;
        let mut scratch = vec![0; OUTPUT_WINDOW];
        let mut written = 0;
        while written < out.len() {
            let available = input.fill()?;
            if available.is_empty() {
                break;
            }
            let mut source = InBuffer::around(available);
            let passing = usize::try_from(to_pass).map_or(scratch.len(), |n| n.min(scratch.len()));
            let mut sink = if passing > 0 {
                OutBuffer::around(&mut scratch[..passing])
            } else {
                OutBuffer::around(&mut out[written..=written])
            };
            let result = self.decoder.run(&mut source, &mut sink);
            let (consumed, produced) = (source.pos(), sink.pos());
            input.consume(consumed);
            if result.is_err() || result.is_ok_and(|hint| hint == 0) {
                break;
            }
            if passing > 0 {
                to_pass -= produced as u64;
            } else {
                written += produced;
            }
            if consumed == 0 && produced == 0 {
                break;
            }
        }
        Ok(written)
    }

    /// At the end of a frame: whether its content checksum, the last bytes consumed, matches
    /// the content decoded (true for a frame without one).
    fn checksum_matches<R: Read + Seek>(&mut self, input: &mut Input<R>) -> io::Result<bool> {
        let Some(hash) = self.content_hash.take() else {
            return Ok(true);
        };
        let Ok(stored) = <[u8; CHECKSUM_LEN]>::try_from(input.recent(CHECKSUM_LEN)?) else {
            return Ok(false);
        };
        // The checksum is the low 32 bits of the hash: the truncation is the format's.
        #[allow(clippy::cast_possible_truncation)]
        let computed = hash.finish() as u32;
        Ok(u32::from_le_bytes(stored) == computed)
    }
}

/// `decoder`, told not to check content checksums itself.
fn checksum_ignoring(mut decoder: Decoder<'static>) -> io::Result<Decoder<'static>> {
    decoder.set_parameter(DParameter::ForceIgnoreChecksum(true))?;
    Ok(decoder)
}
