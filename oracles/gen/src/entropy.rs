//! Where the generators' choices come from.
//!
//! Every generator in this module draws its choices through [`Entropy`], so
//! the same code serves three drivers: libFuzzer (an [`arbitrary::Unstructured`]
//! over the fuzz input, so that byte mutations change individual choices),
//! proptest (a byte vector it can shrink, read the same way) and plain
//! pseudo-random runs (a splitmix64 stream from a seed).
//!
//! Contract: when the bytes run out every choice is 0, and every generator
//! maps choice 0 to its simplest option, so that a short or all-zero input
//! still makes a small valid case and shrinking bytes towards zero shrinks
//! the case.

use arbitrary::Unstructured;

/// A stream of choices.
pub trait Entropy {
    /// A number in `0..n` (`n > 0`; `n == 0` is treated as 1).
    fn below(&mut self, n: u64) -> u64;

    /// 64 raw bits.
    fn bits64(&mut self) -> u64;

    /// `true` with probability about `num / den`; `false` once the input is
    /// exhausted.
    fn chance(&mut self, num: u64, den: u64) -> bool {
        // `below` is 0 when exhausted, so the comparison must be
        // `>= den - num` for exhaustion to mean `false`.
        den > 0 && self.below(den) >= den.saturating_sub(num)
    }

    /// A number in `lo..=hi` (`lo` when `hi < lo`).
    fn range(&mut self, lo: u64, hi: u64) -> u64 {
        if hi <= lo {
            return lo;
        }
        lo + self.below(hi - lo + 1)
    }

    /// An index into a slice of `len` elements (`len > 0`).
    fn index(&mut self, len: usize) -> usize {
        self.below(len as u64) as usize
    }

    /// An index drawn with the given weights; 0 if all are zero.
    fn weighted(&mut self, weights: &[u32]) -> usize {
        let total: u64 = weights.iter().map(|w| u64::from(*w)).sum();
        if total == 0 {
            return 0;
        }
        let mut x = self.below(total);
        for (i, w) in weights.iter().enumerate() {
            let w = u64::from(*w);
            if x < w {
                return i;
            }
            x -= w;
        }
        weights.len() - 1
    }
}

impl dyn Entropy + '_ {
    /// One element of a non-empty slice. (Generic, so not a trait method:
    /// the generators pass `&mut dyn Entropy` around.)
    pub fn pick<'s, T>(&mut self, items: &'s [T]) -> &'s T {
        &items[self.index(items.len())]
    }

    /// [`Entropy::weighted`] on weights an iterator gives (made twice: for
    /// the total, then for the walk), for lists whose weights are not held
    /// in a slice; the same index from the same stream.
    pub fn weighted_by<I: Iterator<Item = u32>>(&mut self, weights: impl Fn() -> I) -> usize {
        let total: u64 = weights().map(u64::from).sum();
        if total == 0 {
            return 0;
        }
        let mut x = self.below(total);
        let mut last = 0;
        for (i, w) in weights().enumerate() {
            let w = u64::from(w);
            if x < w {
                return i;
            }
            x -= w;
            last = i;
        }
        last
    }
}

/// A short list of weighted choices held on the stack. The generator draws
/// from such a list at every step; a `Vec` of candidates and another of
/// weights each time were a good part of its allocations. Drawing is
/// [`Entropy::weighted`] on the weights pushed, so a list gives exactly the
/// choice the two `Vec`s gave.
pub struct Choices<T: Copy, const N: usize> {
    items: [T; N],
    weights: [u32; N],
    len: usize,
}

impl<T: Copy, const N: usize> Choices<T, N> {
    /// An empty list (`fill` only initialises the unused slots).
    pub fn new(fill: T) -> Self {
        Choices {
            items: [fill; N],
            weights: [0; N],
            len: 0,
        }
    }
    /// Appends a choice; more than `N` is a bug of the caller.
    pub fn push(&mut self, item: T, weight: u32) {
        assert!(self.len < N, "Choices: more than {N} choices");
        self.items[self.len] = item;
        self.weights[self.len] = weight;
        self.len += 1;
    }
    pub fn len(&self) -> usize {
        self.len
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    /// Whether every weight is zero (or there is no choice).
    pub fn all_zero(&self) -> bool {
        self.weights[..self.len].iter().all(|w| *w == 0)
    }
    pub fn weight_mut(&mut self, i: usize) -> &mut u32 {
        &mut self.weights[..self.len][i]
    }
    /// One choice, drawn by weight (the first when all weigh zero).
    pub fn draw(&self, e: &mut (impl Entropy + ?Sized)) -> T {
        self.items[..self.len][e.weighted(&self.weights[..self.len])]
    }
}

/// A splitmix64 stream: reproducible pseudo-random choices from a seed.
#[derive(Clone, Debug)]
pub struct SplitMix(pub u64);

impl Entropy for SplitMix {
    fn below(&mut self, n: u64) -> u64 {
        let n = n.max(1);
        // Multiply-shift maps 64 random bits onto 0..n without a division.
        ((u128::from(self.bits64()) * u128::from(n)) >> 64) as u64
    }

    fn bits64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        diopter_semantics::context::splitmix64(self.0)
    }
}

/// Choices read from the front of a fuzz input.
pub struct Bytes<'u, 'a> {
    pub u: &'u mut Unstructured<'a>,
}

impl<'u, 'a> Bytes<'u, 'a> {
    pub fn new(u: &'u mut Unstructured<'a>) -> Self {
        Bytes { u }
    }
}

impl Entropy for Bytes<'_, '_> {
    fn below(&mut self, n: u64) -> u64 {
        if n <= 1 {
            return 0;
        }
        // `int_in_range` reads only as many bytes as the range needs and
        // gives the lower bound once the data is used up.
        self.u.int_in_range(0..=n - 1).unwrap_or(0)
    }

    fn bits64(&mut self) -> u64 {
        self.u.arbitrary::<u64>().unwrap_or(0)
    }
}

/// Choices read from an owned byte string (proptest, quickcheck, replaying a
/// fuzz input outside libFuzzer).
pub fn with_bytes<R>(data: &[u8], f: impl FnOnce(&mut dyn Entropy) -> R) -> R {
    let mut u = Unstructured::new(data);
    let mut b = Bytes::new(&mut u);
    f(&mut b)
}

impl<E: Entropy + ?Sized> Entropy for &mut E {
    fn below(&mut self, n: u64) -> u64 {
        (**self).below(n)
    }
    fn bits64(&mut self) -> u64 {
        (**self).bits64()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exhausted_bytes_choose_zero() {
        let mut u = Unstructured::new(&[]);
        let mut b = Bytes::new(&mut u);
        assert_eq!(b.below(10), 0);
        assert_eq!(b.bits64(), 0);
        assert!(!b.chance(9, 10));
        assert_eq!(b.range(3, 9), 3);
        assert_eq!(b.weighted(&[0, 5, 1]), 1);
    }

    #[test]
    fn splitmix_stays_in_range() {
        let mut s = SplitMix(1);
        for n in 1..200 {
            assert!(s.below(n) < n);
        }
        let hits = (0..10_000).filter(|_| s.chance(1, 4)).count();
        assert!((2000..3000).contains(&hits), "{hits}");
    }

    /// A `Choices` list, and `weighted_by`, draw what `weighted` draws on
    /// the same weights from the same stream (so replacing the `Vec`s kept
    /// every case).
    #[test]
    fn choices_draw_as_weighted_does() {
        for seed in 0..500u64 {
            let mut e = SplitMix(seed);
            let n = 1 + e.below(8) as usize;
            let w: Vec<u32> = (0..n).map(|_| e.below(5) as u32).collect();
            let mut c: Choices<usize, 8> = Choices::new(usize::MAX);
            for (i, x) in w.iter().enumerate() {
                c.push(i, *x);
            }
            assert_eq!(c.len(), n);
            assert_eq!(c.all_zero(), w.iter().all(|x| *x == 0));
            let (mut a, mut b) = (SplitMix(seed ^ 77), SplitMix(seed ^ 77));
            let mut by = SplitMix(seed ^ 77);
            let by: &mut dyn Entropy = &mut by;
            for _ in 0..4 {
                let want = b.weighted(&w);
                assert_eq!(c.draw(&mut a), want, "weights {w:?}");
                // `weighted_by` too, on weights from an iterator.
                assert_eq!(by.weighted_by(|| w.iter().copied()), want, "{w:?}");
            }
        }
    }

    #[test]
    #[should_panic(expected = "more than 2 choices")]
    fn choices_refuse_more_than_their_capacity() {
        let mut c: Choices<u8, 2> = Choices::new(0);
        for i in 0..3 {
            c.push(i, 1);
        }
    }
}
