//! numpy's legacy `RandomState(seed)`: MT19937 plus the bounded-integer draws of
//! `RandomState.randint`, as far as datasketch uses them.
//!
//! Ported from numpy's `mt19937.c` and `distributions.c` (`random_bounded_uint{32,64}_fill`
//! with `use_masked = true`, which is what `RandomState` uses).

/// Words of MT19937 state.
const N: usize = 624;
/// MT19937's middle word offset.
const M: usize = 397;
const MATRIX_A: u32 = 0x9908_b0df;
const UPPER_MASK: u32 = 0x8000_0000;
const LOWER_MASK: u32 = 0x7fff_ffff;

/// A numpy `RandomState` seeded with an integer.
pub(crate) struct RandomState {
    state: Box<[u32; N]>,
    pos: usize,
}

impl RandomState {
    /// `np.random.RandomState(seed)`: MT19937 `init_genrand(seed)`.
    pub(crate) fn new(seed: u32) -> Self {
        let mut state = Box::new([0u32; N]);
        let mut value = seed;
        for (i, word) in (1u32..).zip(state.iter_mut()) {
            *word = value;
            value = 1_812_433_253_u32
                .wrapping_mul(value ^ (value >> 30))
                .wrapping_add(i);
        }
        Self { state, pos: N }
    }

    /// The next 32-bit output of MT19937 (`genrand_int32`).
    pub(crate) fn next_u32(&mut self) -> u32 {
        if self.pos == N {
            self.regenerate();
        }
        let mut y = self.state[self.pos];
        self.pos += 1;
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c_5680;
        y ^= (y << 15) & 0xefc6_0000;
        y ^ (y >> 18)
    }

    /// numpy's `mt19937_next64`: the first 32-bit draw is the high word.
    fn next_u64(&mut self) -> u64 {
        let high = u64::from(self.next_u32());
        (high << 32) | u64::from(self.next_u32())
    }

    /// A uniform draw from `0..=max` by numpy's masked rejection on 32-bit draws
    /// (`buffered_bounded_masked_uint32`).
    pub(crate) fn masked_u32(&mut self, max: u32) -> u32 {
        if max == 0 {
            return 0; // numpy draws nothing for an empty range
        }
        let mask = u32::MAX >> max.leading_zeros();
        loop {
            let value = self.next_u32() & mask;
            if value <= max {
                return value;
            }
        }
    }

    /// A uniform draw from `0..=max` by numpy's masked rejection on 64-bit draws
    /// (`bounded_masked_uint64`). numpy takes this path only for `max > u32::MAX`, the only
    /// ranges datasketch asks of it.
    pub(crate) fn masked_u64(&mut self, max: u64) -> u64 {
        debug_assert!(
            max > u64::from(u32::MAX),
            "numpy draws 32-bit ranges from next_u32"
        );
        let mask = u64::MAX >> max.leading_zeros();
        loop {
            let value = self.next_u64() & mask;
            if value <= max {
                return value;
            }
        }
    }

    /// MT19937's twist of the whole state.
    fn regenerate(&mut self) {
        let mix = |upper: u32, lower: u32, far: u32| {
            let y = (upper & UPPER_MASK) | (lower & LOWER_MASK);
            far ^ (y >> 1) ^ if y & 1 == 1 { MATRIX_A } else { 0 }
        };
        let s = &mut self.state;
        for i in 0..N {
            s[i] = mix(s[i], s[(i + 1) % N], s[(i + M) % N]);
        }
        self.pos = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reference output of MT19937 (mt19937ar.c's default seed 5489).
    #[test]
    fn matches_reference_mt19937() {
        let mut rng = RandomState::new(5489);
        let first: Vec<u32> = (0..3).map(|_| rng.next_u32()).collect();
        assert_eq!(first, [3_499_211_612, 581_869_302, 3_890_346_734]);
        let mut rng = RandomState::new(5489);
        let ten_thousandth = (0..10_000).map(|_| rng.next_u32()).last();
        assert_eq!(ten_thousandth, Some(4_123_659_995));
    }

    /// `np.random.RandomState(1).randint(0, 2**31, 3, dtype=np.uint32)` and
    /// `RandomState(1).randint(1, 2**61 - 1, dtype=np.uint64)`.
    #[test]
    fn matches_numpy_randint() {
        let mut rng = RandomState::new(1);
        let draws: Vec<u32> = (0..3).map(|_| rng.masked_u32((1 << 31) - 1)).collect();
        assert_eq!(draws, [1_791_095_845, 2_135_392_491, 946_286_476]);
        let mut rng = RandomState::new(1);
        assert_eq!(1 + rng.masked_u64((1 << 61) - 3), 775_169_054_918_279_404);
    }

    #[test]
    fn masked_draws_stay_in_range() {
        let mut rng = RandomState::new(7);
        for max in [0u32, 1, 2, 5, 1000, u32::MAX] {
            assert!((0..200).all(|_| rng.masked_u32(max) <= max));
        }
        for max in [(1u64 << 32), (1 << 61) - 2, u64::MAX] {
            assert!((0..200).all(|_| rng.masked_u64(max) <= max));
        }
    }
}
