//! A language-independent subset of Boilerpipe's `ArticleExtractor`: the number-of-words
//! classifier, then only the largest region of content and the page's title are kept.

use std::ops::Range;

use crate::block::TextBlock;

/// Settings of [`crate::SinglePageMethod::Article`].
///
/// After Algorithm 2 ([`crate::SinglePageMethod::NumWords`]) has marked content, content
/// blocks are grouped into regions: a region goes on across at most `max_gap` boilerplate
/// blocks (Boilerpipe's `BlockProximityFusion` with `contentOnly`; its `sameTagLevelOnly` is
/// left out, as requiring the same depth splits articles whose paragraphs sit in different
/// containers). The region with the most words stays content (`KeepLargestBlockFilter`), so do
/// content blocks elsewhere at the depth of the region's first block with at least
/// `min_large_words` words (`LargeBlockSameTagLevelToContentFilter`), and so does the first
/// block whose text is the page's `<title>` or a part of it (`DocumentTitleMatchClassifier`).
/// Boilerpipe's English phrase lists (`TerminatingBlocksFinder`) are left out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Article {
    /// Boilerplate blocks a region may span. By default, 6: measured on the development sets,
    /// F1 is flat from 4 to 8 and falls below (Boilerpipe's 1 loses 0.06 on average;
    /// `docs/single-page.md`).
    pub max_gap: u32,
    /// Words from which a content block outside the largest region, at its depth, stays
    /// content. By default, 100 (Boilerpipe's `LargeBlockSameTagLevelToContentFilter`).
    pub min_large_words: u32,
}

impl Default for Article {
    fn default() -> Self {
        Self {
            max_gap: 6,
            min_large_words: 100,
        }
    }
}

impl Article {
    /// Narrows `content` (one flag per block, from Algorithm 2) to the main region and the
    /// title.
    pub(crate) fn refine(
        &self,
        blocks: &[TextBlock],
        content: &[bool],
        title: Option<&str>,
    ) -> Vec<bool> {
        let regions = self.regions(blocks, content);
        let Some(main) = regions
            .iter()
            .max_by_key(|r| (words(blocks, content, r), std::cmp::Reverse(r.start)))
        else {
            return content.to_vec();
        };
        let depth = blocks[main.start].tag_depth;
        let mut out: Vec<bool> = (0..blocks.len())
            .map(|i| {
                content[i]
                    && (main.contains(&i)
                        || (blocks[i].tag_depth == depth
                            && blocks[i].words >= self.min_large_words))
            })
            .collect();
        if let Some(i) = title_block(blocks, title) {
            out[i] = true;
        }
        out
    }

    /// Runs of content blocks, as the struct doc describes.
    fn regions(&self, blocks: &[TextBlock], content: &[bool]) -> Vec<Range<usize>> {
        let mut regions: Vec<Range<usize>> = Vec::new();
        for i in (0..blocks.len()).filter(|&i| content[i]) {
            match regions.last_mut() {
                Some(r) if i - r.end <= self.max_gap as usize => {
                    r.end = i + 1;
                }
                _ => regions.push(i..i + 1),
            }
        }
        regions
    }
}

/// Words of the content blocks in `range`.
fn words(blocks: &[TextBlock], content: &[bool], range: &Range<usize>) -> u32 {
    range
        .clone()
        .filter(|&i| content[i])
        .map(|i| blocks[i].words)
        .sum()
}

/// The first block whose text equals the title or one of its parts, case and whitespace
/// ignored. Titles are often "Site - Headline" or "Headline | Site": the parts are split at
/// ` - `, ` | `, ` – `, ` — `, ` :: `, ` » ` and `: `, and only parts of two words or more
/// count.
fn title_block(blocks: &[TextBlock], title: Option<&str>) -> Option<usize> {
    let title = normalise(title?);
    if title.is_empty() {
        return None;
    }
    let mut candidates = vec![title.clone()];
    for sep in [" - ", " | ", " – ", " — ", " :: ", " » ", ": "] {
        candidates.extend(
            title
                .split(sep)
                .map(str::trim)
                .filter(|part| part.split(' ').count() >= 2 && *part != title)
                .map(str::to_owned),
        );
    }
    blocks
        .iter()
        .position(|b| candidates.contains(&normalise(&b.text)))
}

fn normalise(text: &str) -> String {
    text.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

#[cfg(test)]
mod tests {
    use dbce_dom::{Document, SanitizeConfig};

    use super::*;
    use crate::text_blocks;

    #[test]
    fn keeps_the_largest_region_and_the_title() {
        let para = |w: usize| format!("<p>{}</p>", vec!["word"; w].join(" "));
        let links =
            "<ul><li>a</li><li>b</li><li>c</li><li>d</li><li>e</li><li>f</li><li>g</li></ul>";
        let html = format!(
            "<div><h1>Budget agreed today</h1></div><div>{}{}<p>x</p>{}</div>{links}\
             <aside><div><p>{}</p></div></aside>",
            para(30),
            para(40),
            para(20),
            vec!["side"; 25].join(" ")
        );
        let doc = Document::parse(&html, &SanitizeConfig::default()).unwrap();
        let blocks = text_blocks(&doc);
        assert_eq!(blocks.len(), 13);
        let mut content = vec![false; 13];
        for i in [1, 2, 4, 12] {
            content[i] = true;
        }
        let kept = |out: Vec<bool>| -> Vec<usize> { (0..out.len()).filter(|&i| out[i]).collect() };
        let article = Article::default();
        let title = Some("News site - Budget agreed today");
        assert_eq!(kept(article.refine(&blocks, &content, title)), [0, 1, 2, 4]);
        assert_eq!(kept(article.refine(&blocks, &content, None)), [1, 2, 4]);
        let strict = Article {
            max_gap: 0,
            ..article
        };
        assert_eq!(kept(strict.refine(&blocks, &content, None)), [1, 2]);
        // A large block at the depth of the main region stays, one at another depth does not.
        let large = Article {
            max_gap: 0,
            min_large_words: 20,
        };
        assert_eq!(kept(large.refine(&blocks, &content, None)), [1, 2, 4]);
        let wide = Article {
            max_gap: 7,
            ..article
        };
        assert_eq!(kept(wide.refine(&blocks, &content, None)), [1, 2, 4, 12]);
    }

    #[test]
    fn title_parts_need_two_words() {
        let doc =
            Document::parse("<p>BBC</p><p>Big news here</p>", &SanitizeConfig::default()).unwrap();
        let blocks = text_blocks(&doc);
        assert_eq!(title_block(&blocks, Some("BBC - Big  News here")), Some(1));
        assert_eq!(title_block(&blocks, Some("BBC | Other")), None);
        assert_eq!(title_block(&blocks, Some("  ")), None);
    }
}
