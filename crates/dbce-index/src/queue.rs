//! Back-pressure in bytes between the caller and tantivy's indexing thread.
//!
//! tantivy's `IndexWriter` queues up to 10,000 documents for its indexing thread, however large
//! they are, and the caller fills that queue faster than the thread tokenises: with pages of
//! ~8 KB of text the queue alone held over 100 MB (docs/SCALE.md). Each document here carries
//! a [`Ticket`] for its bytes; the thread drops the document once it is indexed, which hands the
//! bytes back, and [`InFlight::admit`] waits while the queue holds more than its limit.

use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};

use tantivy::TantivyDocument;
use tantivy::schema::document::Document;

/// The bytes of the documents handed to the indexing thread and not yet indexed.
#[derive(Debug, Default)]
pub(crate) struct InFlight {
    counts: Mutex<Counts>,
    fallen: Condvar,
}

#[derive(Debug, Default)]
struct Counts {
    bytes: usize,
    peak: usize,
}

impl InFlight {
    /// A ticket for a document of `bytes`, once the queue holds at most `limit - bytes` (or
    /// nothing: a document larger than the limit goes alone).
    pub(crate) fn admit(self: &Arc<Self>, bytes: usize, limit: usize) -> Ticket {
        let mut counts = self.lock();
        while counts.bytes > 0 && counts.bytes.saturating_add(bytes) > limit {
            counts = self
                .fallen
                .wait(counts)
                .unwrap_or_else(PoisonError::into_inner);
        }
        counts.bytes += bytes;
        counts.peak = counts.peak.max(counts.bytes);
        Ticket {
            bytes,
            in_flight: Arc::clone(self),
        }
    }

    /// The most bytes that were in flight at once.
    pub(crate) fn peak(&self) -> usize {
        self.lock().peak
    }

    fn lock(&self) -> MutexGuard<'_, Counts> {
        // Nothing panics while holding the lock; a poisoned one still holds true counts.
        self.counts.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// A document's bytes, counted in flight until the ticket is dropped.
#[derive(Debug)]
pub(crate) struct Ticket {
    bytes: usize,
    in_flight: Arc<InFlight>,
}

impl Drop for Ticket {
    fn drop(&mut self) {
        let mut counts = self.in_flight.lock();
        counts.bytes -= self.bytes;
        drop(counts);
        self.in_flight.fallen.notify_one();
    }
}

/// A document on its way to the indexing thread, with its [`Ticket`]: tantivy indexes it
/// through [`Document`] as the document itself and drops it when done.
#[derive(Debug)]
pub(crate) struct QueuedDocument {
    pub(crate) document: TantivyDocument,
    /// Held for its drop, when tantivy is done with the document.
    pub(crate) _ticket: Ticket,
}

impl Document for QueuedDocument {
    type Value<'a>
        = <TantivyDocument as Document>::Value<'a>
    where
        Self: 'a;
    type FieldsValuesIter<'a>
        = <TantivyDocument as Document>::FieldsValuesIter<'a>
    where
        Self: 'a;

    fn iter_fields_and_values(&self) -> Self::FieldsValuesIter<'_> {
        self.document.iter_fields_and_values()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::thread;
    use std::time::Duration;

    #[test]
    fn admission_waits_until_the_queue_has_room() {
        let in_flight = Arc::new(InFlight::default());
        let first = in_flight.admit(60, 100);
        let waiting = {
            let in_flight = Arc::clone(&in_flight);
            thread::spawn(move || drop(in_flight.admit(60, 100)))
        };
        thread::sleep(Duration::from_millis(50));
        assert!(!waiting.is_finished(), "admitted past the limit");
        drop(first);
        waiting.join().unwrap();
        assert_eq!(in_flight.peak(), 60);
        assert_eq!(in_flight.lock().bytes, 0);
    }

    #[test]
    fn a_document_over_the_limit_goes_alone() {
        let in_flight = Arc::new(InFlight::default());
        let big = in_flight.admit(500, 100);
        assert_eq!(in_flight.peak(), 500);
        drop(big);
        let small = in_flight.admit(10, 100);
        let other = in_flight.admit(10, 100);
        assert_eq!(in_flight.lock().bytes, 20);
        drop((small, other));
        assert_eq!(in_flight.lock().bytes, 0);
    }
}
