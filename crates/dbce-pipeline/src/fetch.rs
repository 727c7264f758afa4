//! Rereading a page's record from its archive by locator: how later stages get at the HTML
//! without carrying it through the intermediate files.

use std::io::{BufReader, Read, Seek, SeekFrom};
use std::path::PathBuf;
use std::sync::Arc;

use dbce_http::HttpLimits;
use dbce_warc::{Entry, ReaderConfig, Record, WarcReader};

use crate::SkipReason;
use dbce_page::{CapturedHtml, captured_html};
use dbce_page::{PageRef, Source};

/// Reads pages back from the run's input files.
#[derive(Debug, Clone)]
pub struct PageFetcher {
    inputs: Vec<PathBuf>,
    reader: ReaderConfig,
    limits: HttpLimits,
}

/// Why a page could not be read back; each is a counted skip of the stage that needed it.
#[derive(Debug, Clone, thiserror::Error)]
#[error("{}", self.reason())]
pub enum FetchError {
    /// The page's file is not among the run's inputs.
    NoSuchFile,
    /// The file cannot be opened or read at the record's offset.
    Io(#[source] Arc<std::io::Error>),
    /// No record with the page's id starts at its offset (the file changed since `read`).
    NotAtOffset,
    /// The record no longer decodes as an HTML page.
    NotAPage,
    /// The record reads as a page, but its words are not those the run labelled (the file or
    /// the parser's settings changed since `annotate`).
    RunsDoNotFit,
    /// Stage `read` saved no DOM for the page (`read/doms`).
    DomMissing,
    /// The DOM stage `read` saved for the page fails its checksum or does not decode.
    DomDamaged,
}

impl FetchError {
    /// The skip reason recorded in reports, and the error's message; an I/O error keeps its
    /// cause as its source.
    pub fn reason(&self) -> SkipReason {
        match self {
            Self::NoSuchFile => SkipReason::RefetchNoSuchFile,
            Self::Io(_) => SkipReason::RefetchIo,
            Self::NotAtOffset => SkipReason::RefetchNotAtOffset,
            Self::NotAPage => SkipReason::RefetchNotAPage,
            Self::RunsDoNotFit => SkipReason::RefetchRunsDoNotFit,
            Self::DomMissing => SkipReason::StoredDomMissing,
            Self::DomDamaged => SkipReason::StoredDomDamaged,
        }
    }
}

impl PageFetcher {
    /// A fetcher over the run's inputs (the list stage `read` recorded), with the settings
    /// `read` used.
    pub fn new(inputs: Vec<PathBuf>, config: &crate::Config) -> Self {
        Self {
            inputs,
            reader: config.read.reader(),
            limits: config.read.http_limits(),
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
    pub fn fetch(&self, page: &PageRef) -> Result<CapturedHtml, FetchError> {
        let path = self
            .inputs
            .get(page.source.file.0 as usize)
            .ok_or(FetchError::NoSuchFile)?;
        let file = std::fs::File::open(path).map_err(|e| FetchError::Io(Arc::new(e)))?;
        let record = self.record_at(file, &page.source, &page.record_id)?;
        captured_html(&record, &self.limits).map_err(|_| FetchError::NotAPage)
    }

    /// The record `record_id` in `file` at `source`: at its offset, or, inside a shared
    /// member, at its offset in the decompressed stream counted from the file's start (as
    /// `read` counted it).
    fn record_at<R: Read + Seek>(
        &self,
        mut file: R,
        source: &Source,
        record_id: &str,
    ) -> Result<Record, FetchError> {
        let start = match source.stream_offset {
            Some(_) => 0,
            None => source.offset,
        };
        file.seek(SeekFrom::Start(start))
            .map_err(|e| FetchError::Io(Arc::new(e)))?;
        let mut reader =
            WarcReader::new(BufReader::with_capacity(1 << 16, file), self.reader.clone())
                .map_err(|_| FetchError::NotAtOffset)?;
        if let Some(stream_offset) = source.stream_offset {
            let reached = reader
                .skip_decompressed(stream_offset)
                .map_err(|_| FetchError::NotAtOffset)?;
            if reached != stream_offset {
                return Err(FetchError::NotAtOffset);
            }
        }
        let Ok(Some(Entry::Record(record))) = reader.next_entry() else {
            return Err(FetchError::NotAtOffset);
        };
        let id_matches = match record.header.record_id() {
            Some(id) => id == record_id,
            // ARC records have no id; read named them by file and offset.
            None => record_id.starts_with("<urn:dbce:file-"),
        };
        // Records of an uncompressed file count their offsets from where the reader started.
        let offset = record.locator.offset;
        if (offset != source.offset && offset != 0) || !id_matches {
            return Err(FetchError::NotAtOffset);
        }
        Ok(record)
    }
}

#[cfg(test)]
mod tests {
    use std::io::{Cursor, Write as _};

    use dbce_warc::{NewRecord, WarcWriter};

    use super::*;
    use dbce_page::FileId;

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
        let fetcher = PageFetcher::new(Vec::new(), &crate::Config::default());
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
            Err(FetchError::NotAtOffset)
        ));
    }
}
