//! [`SpanBuf`]: the characters of one token, kept as a range of the input while they are one.

use std::mem;

use html5ever::tendril::StrTendril;

/// Characters gathered for one token (text, an attribute value, a comment): a range of the
/// input while they are consecutive bytes of it, handed out then as a tendril sharing the
/// input's buffer (no copy), and copied into an owned tendril as soon as they are not.
#[derive(Default)]
pub(crate) struct SpanBuf {
    /// The range, while `owned` is empty.
    start: usize,
    end: usize,
    /// Everything gathered, once it is not one range of the input.
    owned: StrTendril,
}

/// A position in the input as the tendril API takes it; the input is a tendril, so it fits.
fn to_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

impl SpanBuf {
    #[inline]
    pub(crate) fn is_empty(&self) -> bool {
        self.start == self.end && self.owned.is_empty()
    }

    /// Appends `input[a..b]`.
    #[inline]
    pub(crate) fn push_span(&mut self, input: &str, a: usize, b: usize) {
        if self.owned.is_empty() {
            if self.start == self.end {
                (self.start, self.end) = (a, b);
                return;
            }
            if self.end == a {
                self.end = b;
                return;
            }
            self.spill(input);
        }
        self.owned.push_slice(&input[a..b]);
    }

    /// Appends characters that are not where they are in the input.
    pub(crate) fn push_str(&mut self, input: &str, s: &str) {
        self.spill(input);
        self.owned.push_slice(s);
    }

    /// Appends one character that is not where it is in the input.
    pub(crate) fn push_char(&mut self, input: &str, c: char) {
        self.spill(input);
        self.owned.push_char(c);
    }

    /// Copies the range into `owned`.
    fn spill(&mut self, input: &str) {
        if self.start != self.end {
            self.owned.push_slice(&input[self.start..self.end]);
            (self.start, self.end) = (0, 0);
        }
    }

    /// Everything gathered, leaving the buffer empty.
    pub(crate) fn take(&mut self, input: &StrTendril) -> StrTendril {
        if !self.owned.is_empty() {
            return mem::take(&mut self.owned);
        }
        let (start, end) = (self.start, self.end);
        (self.start, self.end) = (0, 0);
        if start == end {
            return StrTendril::new();
        }
        input.subtendril(to_u32(start), to_u32(end - start))
    }

    pub(crate) fn clear(&mut self) {
        (self.start, self.end) = (0, 0);
        self.owned.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adjacent_ranges_stay_one_range_and_others_are_copied() {
        let input = StrTendril::from_slice("abcdefghijklmnop");
        let mut buf = SpanBuf::default();
        assert!(buf.is_empty());
        buf.push_span(&input, 0, 3);
        buf.push_span(&input, 3, 12);
        assert_eq!(&*buf.take(&input), "abcdefghijkl");
        assert!(buf.is_empty());
        buf.push_span(&input, 0, 2);
        buf.push_span(&input, 5, 6);
        buf.push_char(&input, '\n');
        buf.push_str(&input, "xy");
        buf.push_span(&input, 6, 7);
        assert_eq!(&*buf.take(&input), "abf\nxyg");
        assert_eq!(&*buf.take(&input), "");
        buf.push_span(&input, 1, 2);
        buf.clear();
        assert!(buf.is_empty());
    }
}
