//! A small deterministic random generator for bots.
//!
//! Seeded from WASI `random_get`, which botlens derives from the game seed, so a bot's random
//! choices differ from game to game yet repeat exactly when a game is replayed. The generator is
//! SplitMix64: fast, fine for games, not for cryptography.

/// A deterministic random generator (SplitMix64).
///
/// ```
/// use botlens_sdk::Rng;
///
/// let mut rng = Rng::from_seed(7);
/// let roll = rng.below(6) + 1;
/// assert!((1..=6).contains(&roll));
/// assert_eq!(Rng::from_seed(7).next_u64(), Rng::from_seed(7).next_u64());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rng {
    state: u64,
}

const GAMMA: u64 = 0x9e37_79b9_7f4a_7c15;

impl Rng {
    /// A generator seeded by botlens for this game (from WASI `random_get`).
    ///
    /// ```no_run
    /// let mut rng = botlens_sdk::Rng::new();
    /// let heads = rng.coin();
    /// ```
    pub fn new() -> Rng {
        let mut seed = [0u8; 8];
        crate::abi::random(&mut seed);
        Rng::from_seed(u64::from_le_bytes(seed))
    }

    /// A generator with a seed of your choosing, e.g. for unit tests of a bot's logic on the
    /// host.
    ///
    /// ```
    /// let a = botlens_sdk::Rng::from_seed(1).next_u64();
    /// let b = botlens_sdk::Rng::from_seed(2).next_u64();
    /// assert_ne!(a, b);
    /// ```
    pub fn from_seed(seed: u64) -> Rng {
        Rng { state: seed }
    }

    /// The next 64 random bits.
    ///
    /// ```
    /// let bits = botlens_sdk::Rng::from_seed(0).next_u64();
    /// assert_eq!(bits, 0xe220_a839_7b1d_cdaf);
    /// ```
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(GAMMA);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A uniform number in `0..bound`, without bias.
    ///
    /// # Panics
    ///
    /// If `bound` is 0.
    ///
    /// ```
    /// let mut rng = botlens_sdk::Rng::from_seed(3);
    /// assert!(rng.below(10) < 10);
    /// ```
    #[inline]
    pub fn below(&mut self, bound: u64) -> u64 {
        assert!(bound > 0, "Rng::below(0): the range is empty");
        // Lemire's multiply-and-shift: the high half of `random × bound` is uniform in
        // `0..bound` once draws whose low half falls under `2^bits mod bound` are rejected; the
        // division that computes that threshold is needed only when the low half is that small.
        // Bounds that fit 32 bits (every index on wasm32) take 32-bit draws, whose product is
        // one wasm multiplication rather than a 128-bit one.
        if let Ok(bound) = u32::try_from(bound) {
            let mut product = u64::from(self.next_u32()) * u64::from(bound);
            if (product as u32) < bound {
                let threshold = bound.wrapping_neg() % bound;
                while (product as u32) < threshold {
                    product = u64::from(self.next_u32()) * u64::from(bound);
                }
            }
            return product >> 32;
        }
        let mut product = u128::from(self.next_u64()) * u128::from(bound);
        if (product as u64) < bound {
            let threshold = bound.wrapping_neg() % bound;
            while (product as u64) < threshold {
                product = u128::from(self.next_u64()) * u128::from(bound);
            }
        }
        (product >> 64) as u64
    }

    /// The high 32 bits of the next 64-bit number (SplitMix64's best bits).
    #[inline]
    fn next_u32(&mut self) -> u32 {
        (self.next_u64() >> 32) as u32
    }

    /// A uniform index into a slice of `len` elements.
    ///
    /// # Panics
    ///
    /// If `len` is 0.
    ///
    /// ```
    /// let squares = ["a1", "b2", "c3"];
    /// let i = botlens_sdk::Rng::from_seed(5).index(squares.len());
    /// assert!(i < 3);
    /// ```
    #[inline]
    pub fn index(&mut self, len: usize) -> usize {
        self.below(len as u64) as usize
    }

    /// `true` or `false`, evenly.
    ///
    /// ```
    /// let _heads: bool = botlens_sdk::Rng::from_seed(9).coin();
    /// ```
    pub fn coin(&mut self) -> bool {
        self.next_u64() >> 63 == 1
    }

    /// A uniformly chosen element, or `None` for an empty slice.
    ///
    /// ```
    /// let mut rng = botlens_sdk::Rng::from_seed(11);
    /// assert_eq!(rng.choose::<u8>(&[]), None);
    /// assert_eq!(rng.choose(&[4]), Some(&4));
    /// ```
    pub fn choose<'a, T>(&mut self, items: &'a [T]) -> Option<&'a T> {
        if items.is_empty() { None } else { items.get(self.index(items.len())) }
    }

    /// Shuffles a slice in place (Fisher–Yates), every order equally likely.
    ///
    /// ```
    /// let mut order = [1, 2, 3, 4];
    /// botlens_sdk::Rng::from_seed(13).shuffle(&mut order);
    /// order.sort();
    /// assert_eq!(order, [1, 2, 3, 4]);
    /// ```
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.index(i + 1);
            items.swap(i, j);
        }
    }
}

impl Default for Rng {
    /// Same as [`Rng::new`]: seeded by botlens.
    fn default() -> Rng {
        Rng::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn below_covers_its_range_evenly() {
        let mut rng = Rng::from_seed(42);
        let mut seen = [0u32; 6];
        for _ in 0..6_000 {
            seen[rng.index(6)] += 1;
        }
        assert!(seen.iter().all(|&n| (850..1150).contains(&n)), "{seen:?}");
    }

    #[test]
    fn wide_bounds_cover_their_range_evenly() {
        let mut rng = Rng::from_seed(9);
        let bound = (1u64 << 40) * 3;
        let mut thirds = [0u32; 3];
        for _ in 0..3_000 {
            let value = rng.below(bound);
            assert!(value < bound);
            thirds[(value / (1 << 40)) as usize] += 1;
        }
        assert!(thirds.iter().all(|&n| (850..1150).contains(&n)), "{thirds:?}");
        assert_eq!(rng.below(1), 0);
        assert!(rng.below(u64::MAX) < u64::MAX);
    }

    #[test]
    fn the_same_seed_gives_the_same_sequence() {
        let a: Vec<u64> = (0..5).scan(Rng::from_seed(8), |r, _| Some(r.next_u64())).collect();
        let b: Vec<u64> = (0..5).scan(Rng::from_seed(8), |r, _| Some(r.next_u64())).collect();
        assert_eq!(a, b);
    }
}
