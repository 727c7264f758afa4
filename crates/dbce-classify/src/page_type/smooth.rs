//! Page types smoothed over template peers: pages of one LSH bucket mostly share a type.

use super::{PageType, PageTypeGuess};

/// Below this confidence, [`smooth_page_types`] lets a page's template peers outvote it.
pub const SMOOTHING_CONFIDENCE: f32 = 0.5;

/// Each page's guess after its template peers had their say: a page whose own confidence is
/// below `min_confidence` takes the type its peers vote for most (votes weighted by their
/// confidence, averaged over the peers) when that vote is larger than its own confidence;
/// the vote becomes its confidence. Error pages neither vote nor are outvoted: an error
/// template says nothing of its bucket, nor its bucket of it.
///
/// `peers[i]` are the indices of page `i`'s peers; peers always vote with their own guess,
/// never a smoothed one, so the result does not depend on the order of the pages.
pub fn smooth_page_types(
    guesses: &[PageTypeGuess],
    peers: &[Vec<usize>],
    min_confidence: f32,
) -> Vec<PageTypeGuess> {
    guesses
        .iter()
        .zip(peers)
        .map(|(&own, peers)| {
            if own.confidence >= min_confidence || own.page_type == PageType::Error {
                return own;
            }
            let mut votes = [0.0f32; PageType::ALL.len()];
            for &peer in peers {
                let guess = guesses[peer];
                if guess.page_type != PageType::Error {
                    votes[guess.page_type.index()] += guess.confidence / peers.len() as f32;
                }
            }
            let mut best = 0;
            for (i, &v) in votes.iter().enumerate() {
                if v > votes[best] {
                    best = i;
                }
            }
            if votes[best] > own.confidence {
                PageTypeGuess {
                    page_type: PageType::ALL[best],
                    confidence: votes[best],
                }
            } else {
                own
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn guess(page_type: PageType, confidence: f32) -> PageTypeGuess {
        PageTypeGuess {
            page_type,
            confidence,
        }
    }

    #[test]
    fn an_unsure_page_takes_its_peers_type() {
        let guesses = [
            guess(PageType::Article, 0.35),
            guess(PageType::Listing, 0.8),
            guess(PageType::Listing, 0.7),
            guess(PageType::Article, 0.9),
        ];
        let peers = [vec![1, 2], vec![0, 2], vec![0, 1], vec![]];
        let smoothed = smooth_page_types(&guesses, &peers, SMOOTHING_CONFIDENCE);
        assert_eq!(smoothed[0], guess(PageType::Listing, 0.75));
        assert_eq!(&smoothed[1..], &guesses[1..]);
    }

    #[test]
    fn error_pages_neither_vote_nor_follow() {
        let guesses = [
            guess(PageType::Error, 0.4),
            guess(PageType::Forum, 0.45),
            guess(PageType::Error, 0.9),
        ];
        let peers = [vec![1], vec![0, 2], vec![1]];
        let smoothed = smooth_page_types(&guesses, &peers, SMOOTHING_CONFIDENCE);
        assert_eq!(smoothed, guesses);
    }
}
