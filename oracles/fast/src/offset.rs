//! Bit offsets of single locations.
//!
//! The evaluator is generic over the offset type so that one body of code
//! serves two instantiations: `i128`, the fast path, where every offset
//! operation is a checked machine add and an overflow stops the run with
//! [`super::exec::Stop::Bail`]; and `BigInt`, which never overflows and is
//! only used to re-run an evaluation that bailed (a 1024-bit pointer, a
//! `DIOpBitOffset` by an `i256`, a context offset beyond 2^127).

use super::words;
use num_bigint::BigInt;
use num_traits::{Signed, ToPrimitive, Zero};
use std::fmt::Debug;

pub(crate) trait Off: Clone + PartialEq + Debug {
    fn zero() -> Self;
    fn small(v: i128) -> Self;
    /// `None` when the value does not fit (only for `i128`).
    fn from_bigint(v: &BigInt) -> Option<Self>;
    /// [`Off::from_bigint`], inlined: for the offsets of context singles,
    /// where the call cost as much as reading the digit. (The other
    /// callers, rare paths of the run loop, keep the call: inlined there
    /// it made the loop's code worse.)
    #[inline(always)]
    fn from_context(v: &BigInt) -> Option<Self> {
        Self::from_bigint(v)
    }
    fn to_bigint(&self) -> BigInt;
    fn checked_add(&self, o: &Self) -> Option<Self>;
    fn add_u64(&self, d: u64) -> Option<Self>;
    /// `8 * a`, the bit offset of byte address `a`.
    fn from_address(a: u128) -> Option<Self>;
    fn times8(&self) -> Option<Self>;
    /// The two's complement value of the `n` (more than 128) bits at `p`
    /// in `words`; `None` when it does not fit (only for `i128`, which so
    /// never builds the big integer).
    fn from_wide_signed(words: &[u64], p: u64, n: u64) -> Option<Self>;
    /// The bit offset of the byte address held (unsigned) in the `n` (more
    /// than 128) bits at `p` in `words`; `None` when it does not fit.
    fn from_wide_address(words: &[u64], p: u64, n: u64) -> Option<Self>;
    fn is_zero(&self) -> bool;
    fn is_negative(&self) -> bool;
    fn to_u128(&self) -> Option<u128>;
    fn to_i128(&self) -> Option<i128>;
}

impl Off for i128 {
    #[inline]
    fn zero() -> Self {
        0
    }
    #[inline]
    fn small(v: i128) -> Self {
        v
    }
    fn from_bigint(v: &BigInt) -> Option<Self> {
        Self::from_context(v)
    }
    #[inline(always)]
    fn from_context(v: &BigInt) -> Option<Self> {
        // Context offsets are nearly always one digit or zero: read those
        // directly rather than through the general conversion.
        let mut digits = v.iter_u64_digits();
        match (digits.next(), digits.next()) {
            (None, _) => Some(0),
            (Some(d), None) => Some(match v.sign() {
                num_bigint::Sign::Minus => -i128::from(d),
                _ => i128::from(d),
            }),
            _ => ToPrimitive::to_i128(v),
        }
    }
    fn to_bigint(&self) -> BigInt {
        // `From<i64>` for `BigInt` is cheaper than `From<i128>`.
        match i64::try_from(*self) {
            Ok(small) => BigInt::from(small),
            Err(_) => BigInt::from(*self),
        }
    }
    #[inline]
    fn checked_add(&self, o: &Self) -> Option<Self> {
        i128::checked_add(*self, *o)
    }
    #[inline]
    fn add_u64(&self, d: u64) -> Option<Self> {
        i128::checked_add(*self, i128::from(d))
    }
    #[inline]
    fn from_address(a: u128) -> Option<Self> {
        i128::try_from(a).ok()?.checked_mul(8)
    }
    #[inline]
    fn times8(&self) -> Option<Self> {
        self.checked_mul(8)
    }
    fn from_wide_signed(w: &[u64], p: u64, n: u64) -> Option<Self> {
        words::to_i128_signed(w, p, n)
    }
    fn from_wide_address(w: &[u64], p: u64, n: u64) -> Option<Self> {
        words::to_u128_unsigned(w, p, n).and_then(Self::from_address)
    }
    #[inline]
    fn is_zero(&self) -> bool {
        *self == 0
    }
    #[inline]
    fn is_negative(&self) -> bool {
        *self < 0
    }
    #[inline]
    fn to_u128(&self) -> Option<u128> {
        u128::try_from(*self).ok()
    }
    #[inline]
    fn to_i128(&self) -> Option<i128> {
        Some(*self)
    }
}

impl Off for BigInt {
    fn zero() -> Self {
        <BigInt as Zero>::zero()
    }
    fn small(v: i128) -> Self {
        BigInt::from(v)
    }
    fn from_bigint(v: &BigInt) -> Option<Self> {
        Some(v.clone())
    }
    fn to_bigint(&self) -> BigInt {
        self.clone()
    }
    fn checked_add(&self, o: &Self) -> Option<Self> {
        Some(self + o)
    }
    fn add_u64(&self, d: u64) -> Option<Self> {
        Some(self + BigInt::from(d))
    }
    fn from_address(a: u128) -> Option<Self> {
        Some(BigInt::from(a) << 3)
    }
    fn times8(&self) -> Option<Self> {
        Some(self << 3)
    }
    fn from_wide_signed(w: &[u64], p: u64, n: u64) -> Option<Self> {
        // A wide offset usually holds a small value.
        Some(match words::to_i128_signed(w, p, n) {
            Some(v) => BigInt::from(v),
            None => words::to_bigint_signed(w, p, n),
        })
    }
    fn from_wide_address(w: &[u64], p: u64, n: u64) -> Option<Self> {
        // A wide pointer usually holds a small address.
        Some(match words::to_u128_unsigned(w, p, n) {
            Some(a) => BigInt::from(a) << 3,
            None => BigInt::from(words::to_biguint(w, p, n)) << 3,
        })
    }
    fn is_zero(&self) -> bool {
        Zero::is_zero(self)
    }
    fn is_negative(&self) -> bool {
        Signed::is_negative(self)
    }
    fn to_u128(&self) -> Option<u128> {
        ToPrimitive::to_u128(self)
    }
    fn to_i128(&self) -> Option<i128> {
        ToPrimitive::to_i128(self)
    }
}
