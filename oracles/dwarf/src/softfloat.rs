//! Half, bfloat and binary128 values for AMD's DWARF extension evaluator
//! ([`super::ext`], decision 14), the floats of [`super::ops`]'s base types
//! `BaseType::F16` (`half`, IEEE binary16), `BaseType::BF16` (`__bf16`,
//! bfloat16) and `BaseType::F128` (`__float128`, IEEE binary128).
//!
//! gimli's `Value` has `F32` and `F64` only, so that a lowering can compute
//! with these floats the evaluator's stack holds a [`SoftFloat`] (a kind and
//! its encoding) next to gimli's values and the wide integers of
//! [`super::wide`]. The arithmetic is `rustc_apfloat`'s, a port of LLVM's
//! `APFloat`: the same library the reference interpreter's floats go
//! through, as the ground truth of IEEE-754 arithmetic, but called here
//! directly and not through `diopter_semantics::value`'s float helpers, so
//! that the evaluator stays independent of the reference's code.
//!
//! # Semantics decisions
//!
//! They mirror gimli's conventions for `F32`/`F64` (`Value`'s methods on a
//! Rust `f32`/`f64`) where those apply.
//!
//! * `plus`, `minus`, `mul`, `div` ([`SoftFloat::arith`]) take two values of
//!   the same kind and compute the IEEE result rounded to nearest, ties to
//!   even (`APFloat`'s `add_r` … `div_r` with `NearestTiesToEven`). A NaN
//!   result is whatever `APFloat` gives (its payload is not specified by
//!   IEEE-754, and the caller treats the payload of a computed float as
//!   unspecified).
//! * The comparisons ([`SoftFloat::compare`]) are IEEE's: any NaN operand
//!   makes the values unordered, so `eq`, `lt`, `le`, `gt`, `ge` are false
//!   and `ne` is true, as Rust's `==`, `<`, `!=` … on `f32` that gimli uses;
//!   `-0 == +0`.
//! * `neg` ([`SoftFloat::negate`]) flips the sign bit (of a NaN too), as
//!   gimli's `-value`. `abs` ([`SoftFloat::abs`]) is gimli's
//!   `if value < 0. { -value } else { value }`: only a value that compares
//!   below zero changes, so `abs(-0.0)` stays `-0.0` and a NaN with the sign
//!   bit set stays as it is.
//! * Conversions ([`SoftFloat::convert`], [`SoftFloat::from_single`] …) go
//!   through `APFloat`'s `convert_r`, rounding to nearest, ties to even (an
//!   overflow is an infinity); a NaN converts as `APFloat` converts it (a
//!   signalling NaN is quieted, the payload kept as far as it fits).
//!   `float`/`double` values enter and leave as `Single`/`Double` from
//!   their bits.
//! * An integer converts as gimli converts one to `F32`/`F64` (`value as
//!   f32` of `to_u64`): [`SoftFloat::from_u64`] takes the unsigned 64-bit
//!   number, rounded to nearest, ties to even. (A signed type's value
//!   arrives sign-extended to 64 bits, so `-1` is `2^64 - 1`; the caller
//!   decides that reading.)
//! * [`SoftFloat::reinterpret`] keeps the bits and needs equal sizes (half
//!   and bfloat are both 16 bits).

use super::ops::BaseType;
use rustc_apfloat::ieee::{BFloat, Double, Half, Quad, Single};
use rustc_apfloat::{Float, FloatConvert, Round};
use std::cmp::Ordering;

/// Which of the three floats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SoftKind {
    /// IEEE binary16 (`half`).
    Half,
    /// bfloat16 (`__bf16`): float's exponent, 7 fraction bits.
    BFloat,
    /// IEEE binary128 (`__float128`).
    Quad,
}

impl SoftKind {
    /// The kind of a base type (`F16`, `BF16`, `F128`).
    pub fn of_base(b: BaseType) -> Option<SoftKind> {
        match b {
            BaseType::F16 => Some(SoftKind::Half),
            BaseType::BF16 => Some(SoftKind::BFloat),
            BaseType::F128 => Some(SoftKind::Quad),
            _ => None,
        }
    }

    /// The size in bits.
    pub fn bits(self) -> u64 {
        match self {
            SoftKind::Half | SoftKind::BFloat => 16,
            SoftKind::Quad => 128,
        }
    }

    /// The base type's name (`half`, `__bf16`, `__float128`).
    pub fn name(self) -> &'static str {
        match self {
            SoftKind::Half => "half",
            SoftKind::BFloat => "__bf16",
            SoftKind::Quad => "__float128",
        }
    }

    /// The bits an encoding has.
    fn mask(self) -> u128 {
        match self {
            SoftKind::Half | SoftKind::BFloat => 0xffff,
            SoftKind::Quad => u128::MAX,
        }
    }

    fn sign_bit(self) -> u128 {
        1u128 << (self.bits() - 1)
    }

    fn format(self) -> Format {
        match self {
            SoftKind::Half => Format::Half,
            SoftKind::BFloat => Format::BFloat,
            SoftKind::Quad => Format::Quad,
        }
    }
}

/// Every `APFloat` format this module converts between: the soft kinds and
/// gimli's `float`/`double`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Format {
    Half,
    BFloat,
    Single,
    Double,
    Quad,
}

/// Runs `$body` with `$F` naming the `rustc_apfloat` type of the [`Format`]
/// `$format`.
macro_rules! with_format {
    ($format:expr, $F:ident => $body:expr) => {
        match $format {
            Format::Half => {
                type $F = Half;
                $body
            }
            Format::BFloat => {
                type $F = BFloat;
                $body
            }
            Format::Single => {
                type $F = Single;
                $body
            }
            Format::Double => {
                type $F = Double;
                $body
            }
            Format::Quad => {
                type $F = Quad;
                $body
            }
        }
    };
}

/// `bits`, an `A` encoding, converted to `B` (nearest, ties to even).
fn convert_to<A, B>(bits: u128) -> u128
where
    A: Float + FloatConvert<B>,
    B: Float,
{
    let mut loses_info = false;
    let r: B = A::from_bits(bits)
        .convert_r(Round::NearestTiesToEven, &mut loses_info)
        .value;
    r.to_bits()
}

/// `bits`, a `from` encoding, converted to `to`.
fn convert_bits(from: Format, to: Format, bits: u128) -> u128 {
    with_format!(from, A => with_format!(to, B => convert_to::<A, B>(bits)))
}

/// The four arithmetic operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arith {
    Add,
    Sub,
    Mul,
    Div,
}

fn arith_in<F: Float>(op: Arith, a: u128, b: u128) -> u128 {
    let (x, y) = (F::from_bits(a), F::from_bits(b));
    let r = Round::NearestTiesToEven;
    let v = match op {
        Arith::Add => x.add_r(y, r),
        Arith::Sub => x.sub_r(y, r),
        Arith::Mul => x.mul_r(y, r),
        Arith::Div => x.div_r(y, r),
    };
    v.value.to_bits()
}

fn compare_in<F: Float>(a: u128, b: u128) -> Option<Ordering> {
    F::from_bits(a).partial_cmp(&F::from_bits(b))
}

/// A half, bfloat or binary128 value: its kind and encoding. Equality
/// (`==` on the struct) is of the encodings, not IEEE's (see
/// [`SoftFloat::compare`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SoftFloat {
    kind: SoftKind,
    /// The encoding; bits above the kind's size are zero.
    bits: u128,
}

impl SoftFloat {
    /// The value whose encoding is the low bits of `bits`.
    pub fn new(kind: SoftKind, bits: u128) -> SoftFloat {
        SoftFloat {
            kind,
            bits: bits & kind.mask(),
        }
    }

    pub fn kind(self) -> SoftKind {
        self.kind
    }

    /// The encoding.
    pub fn bits(self) -> u128 {
        self.bits
    }

    /// A NaN (any payload, either sign).
    pub fn is_nan(self) -> bool {
        with_format!(self.kind.format(), F => F::from_bits(self.bits).is_nan())
    }

    /// `self op rhs`, rounded to nearest, ties to even; `None` if `rhs` is
    /// of another kind.
    pub fn arith(self, op: Arith, rhs: SoftFloat) -> Option<SoftFloat> {
        if rhs.kind != self.kind {
            return None;
        }
        let bits = with_format!(self.kind.format(), F => arith_in::<F>(op, self.bits, rhs.bits));
        Some(SoftFloat::new(self.kind, bits))
    }

    /// IEEE's ordering of `self` and `rhs`: `None` if either is a NaN (or
    /// `rhs` is of another kind, which callers rule out first).
    pub fn compare(self, rhs: SoftFloat) -> Option<Ordering> {
        if rhs.kind != self.kind {
            return None;
        }
        with_format!(self.kind.format(), F => compare_in::<F>(self.bits, rhs.bits))
    }

    /// `DW_OP_neg`: the sign bit flipped.
    pub fn negate(self) -> SoftFloat {
        SoftFloat::new(self.kind, self.bits ^ self.kind.sign_bit())
    }

    /// `DW_OP_abs` as gimli computes it for `f32`: negated if it compares
    /// below zero, else unchanged (`-0.0` and NaNs included).
    pub fn abs(self) -> SoftFloat {
        let zero = SoftFloat::new(self.kind, 0);
        if self.compare(zero) == Some(Ordering::Less) {
            self.negate()
        } else {
            self
        }
    }

    /// The value converted to `to`, rounded to nearest, ties to even.
    pub fn convert(self, to: SoftKind) -> SoftFloat {
        SoftFloat::new(to, convert_bits(self.kind.format(), to.format(), self.bits))
    }

    /// The same bits as a `to`; `None` unless the sizes are equal.
    pub fn reinterpret(self, to: SoftKind) -> Option<SoftFloat> {
        (to.bits() == self.kind.bits()).then(|| SoftFloat::new(to, self.bits))
    }

    /// The `float` whose encoding is `bits`, converted to `to`.
    pub fn from_single(to: SoftKind, bits: u32) -> SoftFloat {
        SoftFloat::new(
            to,
            convert_bits(Format::Single, to.format(), u128::from(bits)),
        )
    }

    /// The `double` whose encoding is `bits`, converted to `to`.
    pub fn from_double(to: SoftKind, bits: u64) -> SoftFloat {
        SoftFloat::new(
            to,
            convert_bits(Format::Double, to.format(), u128::from(bits)),
        )
    }

    /// The encoding of the value converted to `float`.
    pub fn to_single(self) -> u32 {
        convert_bits(self.kind.format(), Format::Single, self.bits) as u32
    }

    /// The encoding of the value converted to `double`.
    pub fn to_double(self) -> u64 {
        convert_bits(self.kind.format(), Format::Double, self.bits) as u64
    }

    /// The unsigned 64-bit integer `x` as a `to`, rounded to nearest, ties
    /// to even (gimli's `x as f32` for `F32`).
    pub fn from_u64(to: SoftKind, x: u64) -> SoftFloat {
        let bits = with_format!(to.format(), F => {
            F::from_u128_r(u128::from(x), Round::NearestTiesToEven)
                .value
                .to_bits()
        });
        SoftFloat::new(to, bits)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn h(bits: u128) -> SoftFloat {
        SoftFloat::new(SoftKind::Half, bits)
    }
    fn bf(bits: u128) -> SoftFloat {
        SoftFloat::new(SoftKind::BFloat, bits)
    }
    fn q(bits: u128) -> SoftFloat {
        SoftFloat::new(SoftKind::Quad, bits)
    }
    fn add(a: SoftFloat, b: SoftFloat) -> u128 {
        a.arith(Arith::Add, b).expect("same kind").bits()
    }

    // Half: sign, 5 exponent bits (bias 15), 10 fraction bits.
    // 1.0 = 0 01111 0000000000 = 0x3c00; 2.0 = 0 10000 0… = 0x4000;
    // 3.0 = 1.5 · 2^1 = 0 10000 1000000000 = 0x4200.
    const H1: u128 = 0x3c00;
    const H2: u128 = 0x4000;
    const H3: u128 = 0x4200;
    // A quiet NaN (exponent all ones, top fraction bit) and its negation.
    const HNAN: u128 = 0x7e00;
    const HNEG_NAN: u128 = 0xfe00;
    // binary128: sign, 15 exponent bits (bias 16383), 112 fraction bits.
    // 1.0 = 0x3fff << 112, 2.0 = 0x4000 << 112.
    const Q1: u128 = 0x3fff << 112;
    const Q2: u128 = 0x4000 << 112;

    #[test]
    fn half_addition_rounds_to_nearest_even() {
        assert_eq!(add(h(H1), h(H2)), H3);
        // 2048 = 2^11: exponent 11 + 15 = 26 = 0b11010, 0 11010 0… =
        // 0x6800. At 2^11 the 10 fraction bits leave a spacing of 2:
        // 2049 lies halfway between 2048 (fraction 0, even) and 2050
        // (fraction 1, odd), so it rounds to 2048.
        assert_eq!(add(h(0x6800), h(H1)), 0x6800);
        // 2051 lies halfway between 2050 (fraction 1) and 2052 (fraction 2,
        // even): 2052 = 0x6802.
        assert_eq!(add(h(0x6800), h(H3)), 0x6802);
        // 65504 = (2 - 2^-10) · 2^15 = 0 11110 1111111111 = 0x7bff, the
        // largest half; twice it overflows to +inf = 0 11111 0… = 0x7c00.
        assert_eq!(add(h(0x7bff), h(0x7bff)), 0x7c00);
        // 3 - 1 = 2; 3 · 2 = 6 = 1.5 · 2^2 = 0 10001 1000000000 = 0x4600;
        // 1 / 2 = 0.5 = 0 01110 0… = 0x3800.
        assert_eq!(h(H3).arith(Arith::Sub, h(H1)).unwrap().bits(), H2);
        assert_eq!(h(H3).arith(Arith::Mul, h(H2)).unwrap().bits(), 0x4600);
        assert_eq!(h(H1).arith(Arith::Div, h(H2)).unwrap().bits(), 0x3800);
        // 1 / 0 = +inf; 0 / 0 is a NaN (payload unspecified).
        assert_eq!(h(H1).arith(Arith::Div, h(0)).unwrap().bits(), 0x7c00);
        assert!(h(0).arith(Arith::Div, h(0)).unwrap().is_nan());
        assert!(h(HNAN).arith(Arith::Add, h(H1)).unwrap().is_nan());
        // Kinds must match.
        assert_eq!(h(H1).arith(Arith::Add, bf(0x3f80)), None);
    }

    #[test]
    fn bfloat_and_quad_arithmetic() {
        // bfloat is float's top half: 1.0 = 0x3f80, 3.0 = 0x4040.
        assert_eq!(
            bf(0x3f80).arith(Arith::Mul, bf(0x4040)).unwrap().bits(),
            0x4040
        );
        // bfloat has 7 fraction bits: 1 + 2^-8 is halfway between 1.0
        // (0x3f80, even) and 1 + 2^-7 (0x3f81), so 1 + 2^-8 (exponent
        // 127 - 8 = 119 = 0x77: 0 01110111 0… = 0x3b80) added to 1 gives 1.
        assert_eq!(add(bf(0x3f80), bf(0x3b80)), 0x3f80);
        // binary128: 1 + 1 = 2.
        assert_eq!(add(q(Q1), q(Q1)), Q2);
        // 1 / 3 = 1.0101…₂ · 2^-2: exponent 16381 = 0x3ffd, fraction 0101…
        // (112 bits, 28 hex 5s); the next bits 0101… are below half, so
        // it rounds down.
        // 3.0 = 1.5 · 2^1: exponent 0x4000, the top fraction bit (bit 111).
        let three = q((0x4000 << 112) | (1 << 111));
        let third = q(Q1).arith(Arith::Div, three).unwrap();
        assert_eq!(third.bits(), 0x3ffd_5555_5555_5555_5555_5555_5555_5555);
    }

    #[test]
    fn comparisons_are_ieee() {
        let c = |a: u128, b: u128| h(a).compare(h(b));
        assert_eq!(c(H1, H2), Some(Ordering::Less));
        assert_eq!(c(H3, H2), Some(Ordering::Greater));
        // -0 (0x8000) equals +0.
        assert_eq!(c(0x8000, 0), Some(Ordering::Equal));
        // -1 (0xbc00) < +0.
        assert_eq!(c(0xbc00, 0), Some(Ordering::Less));
        // A NaN is unordered with anything, itself included.
        assert_eq!(c(HNAN, H1), None);
        assert_eq!(c(HNAN, HNAN), None);
        assert_eq!(c(H1, HNEG_NAN), None);
        // +inf (0x7c00) > 65504 (0x7bff).
        assert_eq!(c(0x7c00, 0x7bff), Some(Ordering::Greater));
        assert_eq!(
            q(Q1).compare(q(Q2 | (1 << 127))),
            Some(Ordering::Greater),
            "1 > -2"
        );
    }

    #[test]
    fn neg_flips_the_sign_and_abs_follows_gimli() {
        assert_eq!(h(H1).negate().bits(), 0xbc00);
        assert_eq!(h(0).negate().bits(), 0x8000);
        assert_eq!(h(HNAN).negate().bits(), HNEG_NAN);
        assert_eq!(q(Q1).negate().bits(), Q1 | (1 << 127));
        assert_eq!(bf(0x3f80).negate().bits(), 0xbf80);
        // abs: -1 becomes 1; 1 stays.
        assert_eq!(h(0xbc00).abs().bits(), H1);
        assert_eq!(h(H1).abs().bits(), H1);
        // gimli's `if value < 0. { -value }`: -0.0 < 0 is false, a NaN
        // compares false, so both keep their sign bit.
        assert_eq!(h(0x8000).abs().bits(), 0x8000);
        assert_eq!(h(HNEG_NAN).abs().bits(), HNEG_NAN);
        // -inf (0xfc00) becomes +inf.
        assert_eq!(h(0xfc00).abs().bits(), 0x7c00);
    }

    #[test]
    fn conversions_round_to_nearest_even() {
        // half 1.0 → float 1.0 = 0x3f800000.
        assert_eq!(h(H1).to_single(), 0x3f80_0000);
        // 65520 = 0xfff0 = 1.11111111111₂ · 2^15 (eleven ones after the
        // point): float 0 10001110 11111111111 000…0 = 0x477ff000. In half
        // it lies halfway between 65504 (fraction 0x3ff, odd) and 2^16 (the
        // next exponent, fraction 0, even): ties to even goes up, which
        // overflows to +inf.
        assert_eq!(
            SoftFloat::from_single(SoftKind::Half, 0x477f_f000).bits(),
            0x7c00
        );
        // 65519 would round down: 65519 < 65520 → 65504 (0x7bff). As a
        // float: 65519 = 0xffef, fraction bits 0xffef << 8 - 2^23 → 0x477fef00.
        assert_eq!(
            SoftFloat::from_single(SoftKind::Half, 0x477f_ef00).bits(),
            0x7bff
        );
        // double 0.1 = 0x3fb999999999999a: exponent 0x3fb - 1023 = -4, so
        // binary128's exponent is 16383 - 4 = 0x3ffb and the 52 fraction
        // bits move up by 112 - 52 = 60: exact both ways.
        let tenth = SoftFloat::from_double(SoftKind::Quad, 0x3fb9_9999_9999_999a);
        assert_eq!(tenth.bits(), 0x3ffb_9999_9999_9999_a000_0000_0000_0000);
        assert_eq!(tenth.to_double(), 0x3fb9_9999_9999_999a);
        // half 1.0 → bfloat 1.0 (0x3f80) and → binary128 1.0.
        assert_eq!(h(H1).convert(SoftKind::BFloat).bits(), 0x3f80);
        assert_eq!(h(H1).convert(SoftKind::Quad).bits(), Q1);
        // float 1 + 2^-8 (0x3f808000) to bfloat: halfway between 0x3f80
        // (even) and 0x3f81 → 0x3f80; 1 + 3 · 2^-8 (0x3f818000) halfway
        // between 0x3f81 and 0x3f82 (even) → 0x3f82.
        assert_eq!(
            SoftFloat::from_single(SoftKind::BFloat, 0x3f80_8000).bits(),
            0x3f80
        );
        assert_eq!(
            SoftFloat::from_single(SoftKind::BFloat, 0x3f81_8000).bits(),
            0x3f82
        );
        // -0.0 stays -0.0; +inf stays +inf.
        assert_eq!(h(0x8000).to_single(), 0x8000_0000);
        assert_eq!(h(0x7c00).to_double(), 0x7ff0_0000_0000_0000);
        // A NaN stays a NaN.
        assert!(SoftFloat::from_single(SoftKind::Half, 0x7fc0_0000).is_nan());
    }

    #[test]
    fn integers_convert_as_unsigned_64_bit_numbers() {
        assert_eq!(SoftFloat::from_u64(SoftKind::Half, 3).bits(), H3);
        assert_eq!(SoftFloat::from_u64(SoftKind::Half, 0).bits(), 0);
        // 2049 → 2048 (ties to even, as above).
        assert_eq!(SoftFloat::from_u64(SoftKind::Half, 2049).bits(), 0x6800);
        // 2^64 - 1 overflows half (max 65504): +inf.
        assert_eq!(SoftFloat::from_u64(SoftKind::Half, u64::MAX).bits(), 0x7c00);
        // In bfloat (8 bits of precision) it rounds up to 2^64: exponent
        // 64 + 127 = 191 = 0b10111111, 0 10111111 0000000 = 0x5f80.
        assert_eq!(
            SoftFloat::from_u64(SoftKind::BFloat, u64::MAX).bits(),
            0x5f80
        );
        // binary128 holds 2^64 - 1 exactly: 1.11…1 (63 ones after the
        // point) · 2^63, exponent 16383 + 63 = 0x403e, fraction the 63
        // ones at the top of 112 bits.
        let exact = (0x403e_u128 << 112) | (((1u128 << 63) - 1) << (112 - 63));
        assert_eq!(SoftFloat::from_u64(SoftKind::Quad, u64::MAX).bits(), exact);
    }

    #[test]
    fn reinterpret_needs_equal_sizes() {
        assert_eq!(h(H1).reinterpret(SoftKind::BFloat), Some(bf(H1)));
        assert_eq!(h(H1).reinterpret(SoftKind::Quad), None);
        assert_eq!(SoftKind::of_base(BaseType::F16), Some(SoftKind::Half));
        assert_eq!(SoftKind::of_base(BaseType::BF16), Some(SoftKind::BFloat));
        assert_eq!(SoftKind::of_base(BaseType::F128), Some(SoftKind::Quad));
        assert_eq!(SoftKind::of_base(BaseType::F32), None);
        // Bits above the kind's size are dropped.
        assert_eq!(h(0x1_3c00).bits(), H1);
    }
}
