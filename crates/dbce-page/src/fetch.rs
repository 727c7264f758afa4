//! Rereading a page's record from its archive by locator: how later stages get at the HTML
//! without carrying it through the intermediate files.

use std::io::{BufReader, Read, Seek, SeekFrom};
use std::path::PathBuf;
use std::sync::Arc;

use dbce_http::HttpLimits;
use dbce_warc::{Entry, ReaderConfig, Record, WarcReader};

use crate::html::{CapturedHtml, captured_html};
use crate::page::{PageRef, Source};

/// Reads pages back from a run's input files, with the reader settings and HTTP limits the run
/// read them with.
#[derive(Debug, Clone)]
pub struct PageFetcher {
    inputs: Vec<PathBuf>,
    reader: ReaderConfig,
    limits: HttpLimits,
}

/// Why a page could not be read back from its archive.
#[derive(Debug, Clone, thiserror::Error)]
pub enum RefetchError {
    /// The page's file is not among the run's inputs.
    #[error("the page's file is not among the run's inputs")]
    NoSuchFile,
    /// The file cannot be opened or read at the record's offset.
    #[error("the page's file cannot be read at its offset")]
    Io(#[source] Arc<std::io::Error>),
    /// No record with the page's id starts at its offset (the file changed since it was read).
    #[error("no record with the page's id starts at its offset")]
    NotAtOffset,
    /// The record no longer decodes as an HTML page.
    #[error("the page's record is no HTML page")]
    NotAPage,
}

impl PageFetcher {
    /// A fetcher over the run's `inputs` (the list stage `read` recorded, which a page's
    /// [`FileId`](crate::FileId) indexes), reading with `reader` and `limits` as `read` did.
    pub fn new(inputs: Vec<PathBuf>, reader: ReaderConfig, limits: HttpLimits) -> Self {
        Self {
            inputs,
            reader,
            limits,
        }
    }

    /// The decoded HTML of `page`, read from its file at its offset. A record inside a
    /// member that holds more (a file compressed as one gzip stream) is reached by
    /// decompressing the file up to its stream offset, without parsing the records before it:
    /// each such refetch still decompresses the archive up to the record (recompress such
    /// archives per record, as `warcio recompress` does, to read each record alone).
    ///
    /// # Errors
    /// Returns why the record could not be read back.
    pub fn fetch(&self, page: &PageRef) -> Result<CapturedHtml, RefetchError> {
        let path = self
            .inputs
            .get(page.source.file.0 as usize)
            .ok_or(RefetchError::NoSuchFile)?;
        let file = std::fs::File::open(path).map_err(|e| RefetchError::Io(Arc::new(e)))?;
        let record = self.record_at(file, &page.source, &page.record_id)?;
        captured_html(&record, &self.limits).map_err(|_| RefetchError::NotAPage)
    }

    /// The record `record_id` in `file` at `source`: at its offset, or, inside a shared
    /// member, at its offset in the decompressed stream counted from the file's start (as
    /// `read` counted it).
    fn record_at<R: Read + Seek>(
        &self,
        mut file: R,
        source: &Source,
        record_id: &str,
    ) -> Result<Record, RefetchError> {
        let start = match source.stream_offset {
            Some(_) => 0,
            None => source.offset,
        };
        file.seek(SeekFrom::Start(start))
            .map_err(|e| RefetchError::Io(Arc::new(e)))?;
        let mut reader =
            WarcReader::new(BufReader::with_capacity(1 << 16, file), self.reader.clone())
                .map_err(|_| RefetchError::NotAtOffset)?;
        if let Some(stream_offset) = source.stream_offset {
            let reached = reader
                .skip_decompressed(stream_offset)
                .map_err(|_| RefetchError::NotAtOffset)?;
            if reached != stream_offset {
                return Err(RefetchError::NotAtOffset);
            }
        }
        let Ok(Some(Entry::Record(record))) = reader.next_entry() else {
            return Err(RefetchError::NotAtOffset);
        };
        let id_matches = match record.header.record_id() {
            Some(id) => id == record_id,
            // ARC records have no id; read named them by file and offset.
            None => record_id.starts_with("<urn:dbce:file-"),
        };
        // Records of an uncompressed file count their offsets from where the reader started.
        let offset = record.locator.offset;
        if (offset != source.offset && offset != 0) || !id_matches {
            return Err(RefetchError::NotAtOffset);
        }
        Ok(record)
    }
}

#[cfg(test)]
mod tests {
    use std::io::{Cursor, Write as _};

    use dbce_warc::{NewRecord, WarcWriter};

    use super::*;
    use crate::page::FileId;

    /// An archive of `n` HTML responses compressed as one gzip stream.
    fn whole_file_gzip(n: usize) -> Vec<u8> {
        let mut writer = WarcWriter::new(Vec::new());
        for i in 0..n {
            let html = format!("<html><body><p>page {i}</p></body></html>");
            let record = NewRecord::html_response(
                &format!("<urn:test:{i}>"),
                "2024-05-01T12:00:00Z",
                &format!("https://example.com/{i}"),
                html.as_bytes(),
            );
            writer.write_record(&record).unwrap();
        }
        let per_record = writer.finish().unwrap();
        let mut plain = Vec::new();
        flate2::read::MultiGzDecoder::new(&per_record[..])
            .read_to_end(&mut plain)
            .unwrap();
        let mut whole = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::new(6));
        whole.write_all(&plain).unwrap();
        whole.finish().unwrap()
    }

    #[test]
    fn a_record_of_a_whole_file_gzip_archive_is_reached_by_its_stream_offset() {
        let archive = whole_file_gzip(200);
        let records: Vec<Record> = WarcReader::new(Cursor::new(&archive), ReaderConfig::default())
            .unwrap()
            .map(|entry| match entry.unwrap() {
                Entry::Record(record) => record,
                Entry::Skip(skip) => panic!("{skip}"),
            })
            .collect();
        assert_eq!(records.len(), 200);
        let fetcher = PageFetcher::new(Vec::new(), ReaderConfig::default(), HttpLimits::default());
        for record in &records {
            let source = Source::of_record(FileId(0), record);
            assert!(
                source.stream_offset.is_some(),
                "every record shares the member"
            );
            let id = record.header.record_id().unwrap();
            let found = fetcher
                .record_at(Cursor::new(&archive), &source, id)
                .unwrap();
            assert_eq!(found.header.record_id(), Some(id));
            assert_eq!(found.body.bytes(), record.body.bytes());
        }
        let last = records.last().unwrap();
        let wrong = Source::of_record(FileId(0), last);
        assert!(matches!(
            fetcher.record_at(Cursor::new(&archive), &wrong, "<urn:test:0>"),
            Err(RefetchError::NotAtOffset)
        ));
    }
}
