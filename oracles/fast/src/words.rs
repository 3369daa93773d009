//! Bit-level helpers on machine words: values of up to 128 bits live in a
//! `u128`, wider ones in a little-endian run of `u64` words in the scratch
//! arena (bit `i` of a value is bit `i % 64` of word `i / 64`).

use diopter_semantics::value::Bits;
use num_bigint::{BigInt, BigUint};

/// `MASKS[w]`: the low `w` bits set.
static MASKS: [u128; 129] = {
    let mut m = [0u128; 129];
    let mut w = 1;
    while w <= 128 {
        m[w] = u128::MAX >> (128 - w);
        w += 1;
    }
    m
};

/// The low `w` bits set (all of them from 128 on). A table: a shift of a
/// `u128` by a variable amount, with its two edge cases, is a dozen
/// instructions, and masks are taken on every read.
#[inline]
pub(crate) fn mask128(w: u64) -> u128 {
    MASKS[w.min(128) as usize]
}

/// The low `w` bits set (all of them from 64 on): the low word of
/// [`mask128`]'s table.
#[inline]
pub(crate) fn mask64(w: u64) -> u64 {
    MASKS[w.min(64) as usize] as u64
}

/// The signed reading of the low `w` bits of `v` (`1 <= w <= 128`).
#[inline]
pub(crate) fn sext128(v: u128, w: u64) -> i128 {
    if w == 0 {
        return 0;
    }
    // Most values are at most 64 bits wide: shifts of one word.
    if w <= 64 {
        let s = 64 - w as u32;
        return i128::from(((v as u64) << s) as i64 >> s);
    }
    let s = 128 - w.min(128) as u32;
    ((v << s) as i128) >> s
}

/// ORs the low `len` (`<= 64`) bits of `v` into bits `pos..pos+len` (which
/// are zero: every region is written once).
#[inline]
pub(crate) fn put(words: &mut [u64], pos: u64, v: u64, len: u64) {
    if len == 0 {
        return;
    }
    let v = v & mask64(len);
    let w = (pos / 64) as usize;
    let s = pos % 64;
    words[w] |= v << s;
    if s + len > 64 {
        words[w + 1] |= v >> (64 - s);
    }
}

/// Bits `pos..pos+len` (`len <= 64`).
#[inline]
pub(crate) fn get(words: &[u64], pos: u64, len: u64) -> u64 {
    if len == 0 {
        return 0;
    }
    let w = (pos / 64) as usize;
    let s = pos % 64;
    let mut v = words[w] >> s;
    if s + len > 64 {
        v |= words[w + 1] << (64 - s);
    }
    v & mask64(len)
}

#[inline]
pub(crate) fn put128(words: &mut [u64], pos: u64, v: u128, len: u64) {
    if len > 64 {
        put(words, pos, v as u64, 64);
        put(words, pos + 64, (v >> 64) as u64, len - 64);
    } else {
        put(words, pos, v as u64, len);
    }
}

#[inline]
pub(crate) fn get128(words: &[u64], pos: u64, len: u64) -> u128 {
    if len > 64 {
        u128::from(get(words, pos, 64)) | (u128::from(get(words, pos + 64, len - 64)) << 64)
    } else {
        u128::from(get(words, pos, len))
    }
}

/// Copies `n` bits from `src` to the word-aligned `dst`, overwriting every
/// word from `dst` on that they reach (the bits above `n` in the last one
/// become zeros), so the region need not be zero (a scratch region reused).
pub(crate) fn copy_over(words: &mut [u64], src: u64, dst: u64, n: u64) {
    let full = (n / 64) as usize;
    store_words(words, src, dst, full);
    if !n.is_multiple_of(64) {
        words[dst as usize / 64 + full] = get(words, src + full as u64 * 64, n % 64);
    }
}

/// `full` whole words of bits from `src` stored at the word-aligned `dst`
/// (overwriting; the ranges do not overlap).
fn store_words(words: &mut [u64], src: u64, dst: u64, full: usize) {
    let (d, w, s) = ((dst / 64) as usize, (src / 64) as usize, src % 64);
    if s == 0 {
        words.copy_within(w..w + full, d);
    } else {
        // A whole chunk of source bits straddles two words (both inside
        // the source's bits).
        for i in 0..full {
            words[d + i] = (words[w + i] >> s) | (words[w + i + 1] << (64 - s));
        }
    }
}

/// Copies `n` bits from `src` to `dst` within one arena (the ranges do not
/// overlap).
pub(crate) fn copy(words: &mut [u64], src: u64, dst: u64, n: u64) {
    let mut done = 0;
    if dst.is_multiple_of(64) {
        // Whole destination words stored at once; the tail bit by bit below.
        store_words(words, src, dst, (n / 64) as usize);
        done = n / 64 * 64;
    } else if src.is_multiple_of(64) {
        // From whole source words into a zero region at a bit offset: each
        // word ORed into the two it straddles.
        let (w, d, s) = ((src / 64) as usize, (dst / 64) as usize, dst % 64);
        for i in 0..(n / 64) as usize {
            let x = words[w + i];
            words[d + i] |= x << s;
            words[d + i + 1] |= x >> (64 - s);
        }
        done = n / 64 * 64;
    }
    while done < n {
        let len = (n - done).min(64);
        let v = get(words, src + done, len);
        put(words, dst + done, v, len);
        done += len;
    }
}

/// The `n` bits at `pos` as an unsigned big integer.
pub(crate) fn to_biguint(words: &[u64], pos: u64, n: u64) -> BigUint {
    // A word of bits at a time, each two of `BigUint`'s `u32` input digits.
    let mut digits: Vec<u32> = Vec::with_capacity(2 * n.div_ceil(64) as usize);
    let mut done = 0;
    while done < n {
        let len = (n - done).min(64);
        let x = get(words, pos + done, len);
        digits.push(x as u32);
        digits.push((x >> 32) as u32);
        done += len;
    }
    BigUint::new(digits)
}

/// The `n` bits at `pos` as a `Bits` of width `n`.
pub(crate) fn to_bits(words: &[u64], pos: u64, n: u64) -> Bits {
    if pos.is_multiple_of(64) {
        // Word-aligned (every region is): each word is two of `BigUint`'s
        // `u32` input digits. Going through bytes (`Bits::from_le_bytes`)
        // packs the digits 8 bits at a time, and that dominated the
        // conversion of wide results (reports/profiles.md).
        let w = (pos / 64) as usize;
        let nw = n.div_ceil(64) as usize;
        let mut digits: Vec<u32> = Vec::with_capacity(2 * nw);
        for &x in &words[w..w + nw] {
            digits.push(x as u32);
            digits.push((x >> 32) as u32);
        }
        return Bits::from_biguint(n, &BigUint::new(digits));
    }
    Bits::from_biguint(n, &to_biguint(words, pos, n))
}

/// The `n` bits (more than 128) at `pos`, read as a two's complement
/// integer, if it fits an `i128`: when every bit from bit 127 up is the sign.
/// Wide offsets are nearly always small values sign- or zero-extended, and
/// going through `BigInt` for them allocates.
pub(crate) fn to_i128_signed(words: &[u64], pos: u64, n: u64) -> Option<i128> {
    let low = get128(words, pos, 128);
    let sign = if (low >> 127) == 1 { u64::MAX } else { 0 };
    let mut at = 128;
    if pos.is_multiple_of(64) {
        // Whole words compared as words (regions are word-aligned).
        let first = (pos / 64) as usize;
        let full = first + (n / 64) as usize;
        if words[first + 2..full].iter().any(|&x| x != sign) {
            return None;
        }
        at = n / 64 * 64;
    }
    while at < n {
        let len = (n - at).min(64);
        if get(words, pos + at, len) != sign & mask64(len) {
            return None;
        }
        at += len;
    }
    Some(low as i128)
}

/// The `n` (more than 128) bits at `pos` as an unsigned integer, if it
/// fits a `u128`.
pub(crate) fn to_u128_unsigned(words: &[u64], pos: u64, n: u64) -> Option<u128> {
    let mut at = 128;
    while at < n {
        let len = (n - at).min(64);
        if get(words, pos + at, len) != 0 {
            return None;
        }
        at += len;
    }
    Some(get128(words, pos, 128))
}

/// The `n` bits at `pos`, read as a two's complement integer: the
/// unsigned value, less `2^n` when the sign bit is set. (Through `Bits`,
/// the value was built twice, and this is what a run repeated with
/// `BigInt` offsets does with every wide offset it reads.)
pub(crate) fn to_bigint_signed(words: &[u64], pos: u64, n: u64) -> BigInt {
    if n == 0 {
        return BigInt::ZERO;
    }
    let unsigned = BigInt::from(to_biguint(words, pos, n));
    if get(words, pos + n - 1, 1) == 1 {
        unsigned - (BigInt::from(1u8) << n)
    } else {
        unsigned
    }
}

/// The value of `b`, at most 128 bits wide, read from its digits here:
/// `Bits::to_u128` is a call, which cost as much as the reading where
/// context values are loaded.
#[inline(always)]
pub(crate) fn small_bits(b: &Bits) -> u128 {
    debug_assert!(b.width() <= 128);
    let mut digits = b.iter_u64_digits();
    let lo = digits.next().unwrap_or(0);
    let hi = digits.next().unwrap_or(0);
    u128::from(lo) | u128::from(hi) << 64
}

/// Writes the bits of `b` at `pos` (zero bits there before).
pub(crate) fn put_bits(words: &mut [u64], pos: u64, b: &Bits) {
    let n = b.width();
    // The digits above the value's highest are zero, as the bits there are.
    for (i, d) in b.iter_u64_digits().enumerate() {
        let at = i as u64 * 64;
        put(words, pos + at, d, (n - at).min(64));
    }
}

/// Bits `lo..lo+n` of a `Bits` (in bounds), written at `pos`.
pub(crate) fn put_bits_slice(words: &mut [u64], pos: u64, b: &Bits, lo: u64, n: u64) {
    if n == 0 {
        return;
    }
    if b.width() <= 128 {
        let v = b.to_u128().unwrap_or(0) >> lo.min(127);
        put128(words, pos, v, n);
        return;
    }
    put_bits(words, pos, &b.slice(lo, n));
}

/// The little-endian words of a `Bits`, appended to `words`; the first
/// word's index.
pub(crate) fn push_bits(words: &mut Vec<u64>, b: &Bits) -> usize {
    let start = words.len();
    words.extend(b.iter_u64_digits());
    words.resize(start + b.width().div_ceil(64) as usize, 0);
    start
}

/// Sets bits `pos..pos+n` to one.
pub(crate) fn fill_ones(words: &mut [u64], pos: u64, n: u64) {
    let mut done = 0;
    while done < n {
        let len = (n - done).min(64 - (pos + done) % 64);
        let w = ((pos + done) / 64) as usize;
        words[w] |= mask64(len) << ((pos + done) % 64);
        done += len;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The table's masks, bit by bit: the low `w` bits, all of them from
    /// the width on.
    #[test]
    fn masks_have_the_low_bits() {
        for w in 0..=200u64 {
            let (m, m64) = (mask128(w), mask64(w));
            for i in 0..128 {
                assert_eq!(m >> i & 1 == 1, i < w, "mask128({w}) bit {i}");
            }
            for i in 0..64 {
                assert_eq!(m64 >> i & 1 == 1, i < w, "mask64({w}) bit {i}");
            }
        }
    }

    /// `to_bigint_signed` and `to_biguint` against the value built bit by
    /// bit (and the reference's reading of the same bits, `Bits::to_bigint`)
    /// at every alignment, for widths around word boundaries and with the sign
    /// bit set or clear.
    #[test]
    fn big_readings_match_bits() {
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let words: Vec<u64> = (0..40)
            .map(|i| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                // Some words all ones or all zeros, for long sign runs.
                match i % 5 {
                    3 => u64::MAX,
                    4 => 0,
                    _ => x,
                }
            })
            .collect();
        for pos in [0u64, 1, 31, 64, 65, 127, 200, 640] {
            for n in [
                1u64, 2, 31, 32, 33, 63, 64, 65, 127, 128, 129, 191, 256, 300, 1000,
            ] {
                // The value bit by bit, and as the reference reads it.
                let mut unsigned = BigUint::ZERO;
                for i in (0..n).rev() {
                    unsigned = (unsigned << 1u8) + BigUint::from(get(&words, pos + i, 1));
                }
                let signed = if get(&words, pos + n - 1, 1) == 1 {
                    BigInt::from(unsigned.clone()) - (BigInt::from(1u8) << n)
                } else {
                    BigInt::from(unsigned.clone())
                };
                assert_eq!(to_biguint(&words, pos, n), unsigned, "pos {pos} n {n}");
                assert_eq!(to_bigint_signed(&words, pos, n), signed, "pos {pos} n {n}");
                assert_eq!(
                    to_bits(&words, pos, n).to_bigint(),
                    signed,
                    "pos {pos} n {n}"
                );
            }
        }
    }

    /// `sext128` bit by bit: the low `w` bits kept, bit `w - 1` copied
    /// above them (0 for `w = 0`).
    #[test]
    fn sext128_copies_the_sign_bit() {
        let values = [
            0u128,
            1,
            u128::MAX,
            0x8000_0000,
            0x7fff_ffff,
            0x8000_0000_0000_0000,
            0x1234_5678_9abc_def0_0fed_cba9_8765_4321,
            1 << 127,
        ];
        for v in values {
            for w in 0..=128u64 {
                let r = sext128(v, w) as u128;
                let sign = w > 0 && v >> (w - 1) & 1 == 1;
                for i in 0..128 {
                    let want = if i < w { v >> i & 1 == 1 } else { sign };
                    assert_eq!(r >> i & 1 == 1, want, "sext128({v:#x}, {w}) bit {i}");
                }
            }
        }
    }

    /// `to_i128_signed` agrees with `to_bigint_signed` wherever the value
    /// fits, and declines where it does not.
    /// `copy` against a bit-by-bit copy, at every alignment of source and
    /// destination and lengths around word boundaries.
    #[test]
    fn copy_moves_exactly_the_bits() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let src: Vec<u64> = (0..12)
            .map(|_| {
                x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                x
            })
            .collect();
        for from in [0u64, 1, 7, 63, 64, 65, 100] {
            for to in [0u64, 3, 64, 130] {
                for n in [0u64, 1, 63, 64, 65, 127, 128, 129, 300] {
                    // The destination region starts zeroed after the source.
                    let mut words = src.clone();
                    words.resize(24, 0);
                    let dst = 12 * 64 + to;
                    copy(&mut words, from, dst, n);
                    for i in 0..n {
                        assert_eq!(
                            get(&words, dst + i, 1),
                            get(&src, from + i, 1),
                            "from {from} to {to} n {n} bit {i}"
                        );
                    }
                    assert_eq!(get(&words, dst + n, 1), 0, "past the end");
                }
            }
        }
    }

    /// `copy_over` writes the source bits and zeros above them over a
    /// region that held anything.
    #[test]
    fn copy_over_overwrites_the_region() {
        let src: Vec<u64> = (0..8u64)
            .map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1)
            .collect();
        for from in [0u64, 1, 63, 64, 100] {
            for n in [1u64, 63, 64, 65, 129, 200] {
                let mut words = src.clone();
                words.resize(16, u64::MAX);
                copy_over(&mut words, from, 12 * 64, n);
                for i in 0..n.div_ceil(64) * 64 {
                    let want = if i < n { get(&src, from + i, 1) } else { 0 };
                    assert_eq!(
                        get(&words, 12 * 64 + i, 1),
                        want,
                        "from {from} n {n} bit {i}"
                    );
                }
            }
        }
    }

    #[test]
    fn wide_values_that_fit_an_i128() {
        let cases: [(u64, [u64; 4]); 6] = [
            (200, [5, 0, 0, 0]),
            (200, [u64::MAX, u64::MAX, u64::MAX, 0xff]),
            (200, [0, 1 << 63, u64::MAX, 0xff]),
            (200, [0, 1 << 63, 0, 0]),
            (256, [7, 0, 0, 1 << 63]),
            (129, [0, 1 << 63, 1, 0]),
        ];
        for (n, w) in cases {
            let big = to_bigint_signed(&w, 0, n);
            let fits = i128::try_from(&big).ok();
            assert_eq!(to_i128_signed(&w, 0, n), fits, "{n} bits {w:x?}");
        }
    }
}
