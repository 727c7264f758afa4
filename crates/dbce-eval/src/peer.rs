//! Other extractors' outputs on a dataset's pages (`dbce eval --peer NAME=DIR`).

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::str::FromStr;

use crate::dataset::read_text;
use crate::{EvalError, TruthPage};

/// Another extractor whose outputs are files: `DIR/<dataset>/<page id>.txt`, or
/// `DIR/<page id>.txt` when `DIR` has no folder named after the dataset (as
/// `scripts/peers` writes them).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Peer {
    /// The extractor's name in the table.
    pub name: String,
    /// Its output folder.
    pub dir: PathBuf,
}

/// A peer's texts for one dataset's pages.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PeerTexts {
    /// Text per page id, for the pages that have a file.
    pub texts: BTreeMap<String, String>,
    /// Ids of the pages without a file (scored as empty extractions when others have files).
    pub missing: Vec<String>,
}

impl FromStr for Peer {
    type Err = EvalError;

    /// Parses `NAME=DIR`.
    fn from_str(spec: &str) -> Result<Self, Self::Err> {
        match spec.split_once('=') {
            Some((name, dir)) if !name.trim().is_empty() && !dir.is_empty() => Ok(Peer {
                name: name.trim().to_owned(),
                dir: PathBuf::from(dir),
            }),
            _ => Err(EvalError::BadPeer {
                spec: spec.to_owned(),
            }),
        }
    }
}

impl Peer {
    /// The folder holding this peer's outputs for `dataset`.
    pub fn folder(&self, dataset: &str) -> PathBuf {
        let nested = self.dir.join(dataset);
        if nested.is_dir() {
            nested
        } else {
            self.dir.clone()
        }
    }

    /// Reads the peer's text of every page (UTF-8, line ends as Python's text mode reads
    /// them); `None` when the peer has no file for any of the pages (it did not run on this
    /// dataset).
    ///
    /// # Errors
    /// Fails when a file exists but cannot be read or is not UTF-8.
    pub fn texts(&self, pages: &[TruthPage]) -> Result<Option<PeerTexts>, EvalError> {
        let mut out = PeerTexts::default();
        let mut folders: BTreeMap<&str, PathBuf> = BTreeMap::new();
        for page in pages {
            let folder = folders
                .entry(&page.dataset)
                .or_insert_with(|| self.folder(&page.dataset));
            let path = folder.join(format!("{}.txt", page.page_id));
            if path.is_file() {
                out.texts.insert(page.page_id.clone(), read_text(&path)?);
            } else {
                out.missing.push(page.page_id.clone());
            }
        }
        Ok((!out.texts.is_empty()).then_some(out))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Split;

    fn page(id: &str) -> TruthPage {
        TruthPage {
            dataset: "news".into(),
            page_id: id.into(),
            record_id: format!("<urn:{id}>"),
            split: Split::Alone,
            page_type: None,
            text: String::new(),
        }
    }

    #[test]
    fn specs_are_name_equals_dir() {
        let peer: Peer = "trafilatura=/tmp/out/traf".parse().unwrap();
        assert_eq!(peer.name, "trafilatura");
        assert_eq!(peer.dir, PathBuf::from("/tmp/out/traf"));
        for bad in ["trafilatura", "=dir", "name=", ""] {
            assert!(bad.parse::<Peer>().is_err(), "{bad}");
        }
    }

    #[test]
    fn texts_come_from_the_dataset_folder_or_the_dir_itself() {
        let tmp = tempfile::tempdir().unwrap();
        let flat = tmp.path().join("flat");
        std::fs::create_dir_all(&flat).unwrap();
        std::fs::write(flat.join("a.txt"), "one\r\ntwo").unwrap();
        let peer = Peer {
            name: "x".into(),
            dir: flat.clone(),
        };
        let texts = peer.texts(&[page("a"), page("b")]).unwrap().unwrap();
        assert_eq!(texts.texts["a"], "one\ntwo");
        assert_eq!(texts.missing, ["b"]);

        std::fs::create_dir_all(flat.join("news")).unwrap();
        std::fs::write(flat.join("news/b.txt"), "nested").unwrap();
        let texts = peer.texts(&[page("a"), page("b")]).unwrap().unwrap();
        assert_eq!(texts.missing, ["a"]);
        assert_eq!(texts.texts["b"], "nested");

        assert_eq!(peer.texts(&[page("c")]).unwrap(), None);
        std::fs::write(flat.join("news/c.txt"), b"\xff").unwrap();
        assert!(matches!(
            peer.texts(&[page("c")]),
            Err(EvalError::NotUtf8 { .. })
        ));
    }
}
