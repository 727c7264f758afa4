//! zstd frames, one record each, as the IIPC `.warc.zst` proposal lays them out: an optional
//! dictionary in a skippable frame (magic `0x184D2A5D`) first, raw or itself zstd-compressed.

use std::io::{self, Read, Seek};

use zstd::stream::raw::{Decoder, InBuffer, Operation, OutBuffer};

use super::{Begin, Outcome};
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

/// Decoder state for zstd frames; keeps the dictionary across frames.
pub(crate) struct ZstdFrames {
    decoder: Decoder<'static>,
    finished: bool,
    seen_frame: bool,
}

impl ZstdFrames {
    pub(crate) fn new() -> io::Result<Self> {
        Ok(Self {
            decoder: Decoder::new()?,
            finished: false,
            seen_frame: false,
        })
    }

    /// Reads a frame start at the input's position; passes over skippable frames, loading a
    /// dictionary frame that comes before the first data frame.
    pub(crate) fn begin<R: Read + Seek>(&mut self, input: &mut Input<R>) -> io::Result<Begin> {
        let head = input.fill_to(8)?;
        if head.starts_with(FRAME_MAGIC) {
            self.decoder.reinit()?;
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
        self.decoder = decoder;
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
            let mut sink = OutBuffer::around(&mut *out);
            let Ok(hint) = self.decoder.run(&mut source, &mut sink) else {
                return Ok(Outcome::Corrupt);
            };
            let (consumed, produced) = (source.pos(), sink.pos());
            input.consume(consumed);
            self.finished = hint == 0;
            if let Some(outcome) = Outcome::of_step(produced, self.finished, at_eof, consumed) {
                return Ok(outcome);
            }
        }
    }
}
