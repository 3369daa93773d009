//! Half, bfloat, binary128 and x87 80-bit values for AMD's DWARF
//! extension evaluator ([`super::ext`], decisions 14 and 15), the floats of
//! [`super::ops`]'s base types `BaseType::F16` (`half`, IEEE binary16),
//! `BaseType::BF16` (`__bf16`, bfloat16), `BaseType::F128` (`__float128`,
//! IEEE binary128) and `BaseType::F80` (`__float80`, LLVM's `x86_fp80`).
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
//!
//! # x86_fp80
//!
//! [`SoftKind::X87`] is the x87 80-bit extended format (`rustc_apfloat`'s
//! `X87DoubleExtended`): sign (bit 79), 15 exponent bits (bias 16383), an
//! explicit integer bit (63) and 63 fraction bits, held in the low 80 bits
//! of the `u128`. Some of its encodings are no IEEE value: the
//! pseudo-infinity and pseudo-NaNs (exponent all ones, integer bit clear),
//! unnormals (exponent neither 0 nor all ones, integer bit clear) and
//! pseudo-denormals (exponent 0, integer bit set). This module does not
//! treat them itself; they are whatever `APFloat`'s `from_bits`, `to_bits`
//! and operations make of them, which agrees with the reference
//! interpreter's documented `X86_FP80_DECISIONS`
//! (`semantics/src/value.rs`; checked by the unit tests below on hand-worked
//! encodings, without calling the reference's code):
//!
//! * the pseudo-infinity, pseudo-NaNs and unnormals read as NaNs (so they
//!   compare unordered, and `abs` leaves them as they are);
//! * a pseudo-denormal reads as the normal number 2^-16382 · 1.f, and a
//!   result written back from it (a conversion, `x · 1`) has exponent 1;
//! * a NaN made by a conversion to x86_fp80 (from another kind, or from
//!   x86_fp80 itself) has the integer bit and the quiet bit set, its payload
//!   shifted into the top of the fraction;
//! * arithmetic on a pseudo-NaN, pseudo-infinity or unnormal gives a NaN
//!   whose integer bit is still clear (`APFloat` quiets a NaN it reads with
//!   the integer bit clear by setting the quiet bit alone, bug-compatible
//!   with LLVM; an unnormal's exponent becomes all ones), which a
//!   conversion to x86_fp80 then canonicalizes.
//!
//! A [`SoftFloat`] holds its encoding as it was read (from a constant, a
//! register, memory or a reinterpret): reading and moving a value never
//! canonicalizes it, `neg` flips the sign bit of those bits, and `abs`
//! changes nothing but the sign bit. Only arithmetic and conversions go
//! through `APFloat`, and their results are `APFloat`'s `to_bits`, which
//! may canonicalize as above.

use super::ops::BaseType;
use rustc_apfloat::ieee::{BFloat, Double, Half, Quad, Single, X87DoubleExtended};
use rustc_apfloat::{Float, FloatConvert, Round};
use std::cmp::Ordering;

/// Which of the four floats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SoftKind {
    /// IEEE binary16 (`half`).
    Half,
    /// bfloat16 (`__bf16`): float's exponent, 7 fraction bits.
    BFloat,
    /// IEEE binary128 (`__float128`).
    Quad,
    /// The x87 80-bit extended float (`__float80`, LLVM's `x86_fp80`):
    /// 15 exponent bits, an explicit integer bit, 63 fraction bits.
    X87,
}

impl SoftKind {
    /// The kind of a base type (`F16`, `BF16`, `F128`, `F80`).
    pub fn of_base(b: BaseType) -> Option<SoftKind> {
        match b {
            BaseType::F16 => Some(SoftKind::Half),
            BaseType::BF16 => Some(SoftKind::BFloat),
            BaseType::F128 => Some(SoftKind::Quad),
            BaseType::F80 => Some(SoftKind::X87),
            _ => None,
        }
    }

    /// The size in bits.
    pub fn bits(self) -> u64 {
        match self {
            SoftKind::Half | SoftKind::BFloat => 16,
            SoftKind::X87 => 80,
            SoftKind::Quad => 128,
        }
    }

    /// The base type's name (`half`, `__bf16`, `__float128`, `__float80`).
    pub fn name(self) -> &'static str {
        match self {
            SoftKind::Half => "half",
            SoftKind::BFloat => "__bf16",
            SoftKind::Quad => "__float128",
            SoftKind::X87 => "__float80",
        }
    }

    /// The bits an encoding has.
    fn mask(self) -> u128 {
        match self {
            SoftKind::Half | SoftKind::BFloat => 0xffff,
            SoftKind::X87 => (1 << 80) - 1,
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
            SoftKind::X87 => Format::X87,
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
    X87,
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
            Format::X87 => {
                type $F = X87DoubleExtended;
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

/// A half, bfloat, binary128 or x86_fp80 value: its kind and encoding (as
/// read: see the module doc's last section). Equality
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

    // x86_fp80: sign (bit 79), 15 exponent bits (64..79, bias 16383), the
    // explicit integer bit (63), 63 fraction bits (0..63).
    // 1.0 = exponent 0x3fff, integer bit: 0x3fff_8000_0000_0000_0000;
    // 2.0 = exponent 0x4000: 0x4000_8000…; 3.0 = 1.5 · 2^1: exponent
    // 0x4000, integer bit and the top fraction bit (62): 0x4000_c000….
    const X1: u128 = 0x3fff_8000_0000_0000_0000;
    const X2: u128 = 0x4000_8000_0000_0000_0000;
    const X3: u128 = 0x4000_c000_0000_0000_0000;
    const XINF: u128 = 0x7fff_8000_0000_0000_0000;
    // The encodings that are no IEEE value (value.rs's X86_FP80_DECISIONS):
    // pseudo-infinity (exponent all ones, integer bit and fraction clear),
    // a pseudo-NaN (exponent all ones, integer bit clear, fraction set), an
    // unnormal (exponent 0x3fff, integer bit clear: 0.1₂ · 2^0 read as
    // written) and a pseudo-denormal (exponent 0, integer bit set).
    const PSEUDO_INF: u128 = 0x7fff_0000_0000_0000_0000;
    const PSEUDO_NAN: u128 = 0x7fff_4000_0000_0000_0001;
    const UNNORMAL: u128 = 0x3fff_4000_0000_0000_0000;
    const PSEUDO_DENORMAL: u128 = 0x0000_8000_0000_0000_0000;
    // The smallest normal, 2^-16382: exponent 1, integer bit.
    const XMIN_NORMAL: u128 = 0x0001_8000_0000_0000_0000;

    fn x(bits: u128) -> SoftFloat {
        SoftFloat::new(SoftKind::X87, bits)
    }
    fn op(o: Arith, a: u128, b: u128) -> u128 {
        x(a).arith(o, x(b)).expect("same kind").bits()
    }

    #[test]
    fn x87_arithmetic_rounds_to_nearest_even() {
        assert_eq!(SoftKind::of_base(BaseType::F80), Some(SoftKind::X87));
        assert_eq!(SoftKind::X87.bits(), 80);
        assert_eq!(SoftKind::X87.name(), "__float80");
        // Bits above 80 are dropped.
        assert_eq!(x((1 << 80) | X1).bits(), X1);
        // 1 + 1 = 2; 3 - 1 = 2; 3 · 2 = 6 = 1.5 · 2^2 (exponent 0x4001);
        // 1 / 2 = 0.5 (exponent 0x3ffe).
        assert_eq!(op(Arith::Add, X1, X1), X2);
        assert_eq!(op(Arith::Sub, X3, X1), X2);
        assert_eq!(op(Arith::Mul, X3, X2), 0x4001_c000_0000_0000_0000);
        assert_eq!(op(Arith::Div, X1, X2), 0x3ffe_8000_0000_0000_0000);
        // 1 / 3 = 1.0101…₂ · 2^-2: exponent 0x3ffd; the 64 significand
        // bits (integer bit included) are 1010… = 0xaaaa_aaaa_aaaa_aaaa,
        // and the bits after them 1010… are 2/3 of a unit in the last
        // place, above half: rounded up to …aaab.
        assert_eq!(op(Arith::Div, X1, X3), 0x3ffd_aaaa_aaaa_aaaa_aaab);
        // 2^64 = exponent 0x3fff + 64 = 0x403f, integer bit. With 64 bits
        // of precision the spacing at 2^64 is 2: 2^64 + 1 is halfway
        // between 2^64 (last bit 0, even) and 2^64 + 2: → 2^64; 2^64 + 3
        // halfway between 2^64 + 2 (odd) and 2^64 + 4 (even): → …0002.
        let two64 = 0x403f_8000_0000_0000_0000;
        assert_eq!(op(Arith::Add, two64, X1), two64);
        assert_eq!(op(Arith::Add, two64, X3), two64 | 2);
        // The largest finite (exponent 0x7ffe, all significand bits) twice
        // overflows to +inf (exponent all ones, integer bit).
        let max = 0x7ffe_ffff_ffff_ffff_ffff;
        assert_eq!(op(Arith::Add, max, max), XINF);
        // 1 / 0 = +inf; 0 / 0 a NaN.
        assert_eq!(op(Arith::Div, X1, 0), XINF);
        assert!(x(op(Arith::Div, 0, 0)).is_nan());
        // The smallest normal / 2 = 2^-16383, a denormal: exponent 0,
        // integer bit clear, significand 0.1₂ (bit 62).
        assert_eq!(op(Arith::Div, XMIN_NORMAL, X2), 0x0000_4000_0000_0000_0000);
        // A signalling NaN with the integer bit (fraction 1, quiet bit 62
        // clear) comes out of arithmetic quiet: bit 62 set.
        assert_eq!(
            op(Arith::Add, 0x7fff_8000_0000_0000_0001, X1),
            0x7fff_c000_0000_0000_0001
        );
        // Kinds must match.
        assert_eq!(x(X1).arith(Arith::Add, q(Q1)), None);
    }

    #[test]
    fn x87_comparisons_neg_abs() {
        let c = |a: u128, b: u128| x(a).compare(x(b));
        assert_eq!(c(X1, X2), Some(Ordering::Less));
        assert_eq!(c(X3, X2), Some(Ordering::Greater));
        // -0 (sign bit 79) == +0.
        assert_eq!(c(1 << 79, 0), Some(Ordering::Equal));
        let qnan = 0x7fff_c000_0000_0000_0000;
        assert_eq!(c(qnan, qnan), None);
        assert_eq!(c(XINF, 0x7ffe_ffff_ffff_ffff_ffff), Some(Ordering::Greater));
        // neg flips bit 79; abs of -1 is 1, of -0 stays -0.
        assert_eq!(x(X1).negate().bits(), 0xbfff_8000_0000_0000_0000);
        assert_eq!(x(0xbfff_8000_0000_0000_0000).abs().bits(), X1);
        assert_eq!(x(1 << 79).abs().bits(), 1 << 79);
    }

    #[test]
    fn x87_conversions() {
        // double 1.0 = 0x3ff0000000000000: exponent 0x3ff - 1023 = 0 →
        // 0x3fff, the integer bit explicit, fraction 0; and back.
        assert_eq!(
            SoftFloat::from_double(SoftKind::X87, 0x3ff0_0000_0000_0000).bits(),
            X1
        );
        assert_eq!(x(X1).to_double(), 0x3ff0_0000_0000_0000);
        // float 1.0, half 1.0 → 1.0; 1.0 → binary128 1.0.
        assert_eq!(
            SoftFloat::from_single(SoftKind::X87, 0x3f80_0000).bits(),
            X1
        );
        assert_eq!(h(H1).convert(SoftKind::X87).bits(), X1);
        assert_eq!(x(X1).convert(SoftKind::Quad).bits(), Q1);
        // double 0.1 = 0x3fb999999999999a: exponent -4 → 0x3ffb; the
        // significand is the integer bit and the 52 fraction bits moved up
        // by 63 - 52 = 11: 0x8000… | 0x999999999999a << 11 =
        // 0xcccc_cccc_cccc_d000. Exact, and back.
        let tenth = SoftFloat::from_double(SoftKind::X87, 0x3fb9_9999_9999_999a);
        assert_eq!(tenth.bits(), 0x3ffb_cccc_cccc_cccc_d000);
        assert_eq!(tenth.to_double(), 0x3fb9_9999_9999_999a);
        // x87 1/3 (significand 0xaaaa_aaaa_aaaa_aaab) to double: 53 bits
        // kept, the 11 dropped are 0x2ab < 0x400 (half): rounded down, the
        // fraction 0101… = 0x5555555555555: 0x3fd5555555555555.
        assert_eq!(
            x(0x3ffd_aaaa_aaaa_aaaa_aaab).to_double(),
            0x3fd5_5555_5555_5555
        );
        // binary128 1/3 (fraction 0x5555…5, 112 bits) to x87: the 64
        // significand bits 1010… = 0xaaaa…aaaa, the 49 dropped bits 1010…1
        // are above half: rounded up to …aaab.
        assert_eq!(
            q(0x3ffd_5555_5555_5555_5555_5555_5555_5555)
                .convert(SoftKind::X87)
                .bits(),
            0x3ffd_aaaa_aaaa_aaaa_aaab
        );
        // The largest x87 overflows double to +inf.
        assert_eq!(
            x(0x7ffe_ffff_ffff_ffff_ffff).to_double(),
            0x7ff0_0000_0000_0000
        );
        // Integers: 3 → 3.0; 2^64 - 1 is exact in 64 bits of precision:
        // exponent 0x3fff + 63 = 0x403e, all 64 significand bits set.
        assert_eq!(SoftFloat::from_u64(SoftKind::X87, 3).bits(), X3);
        assert_eq!(
            SoftFloat::from_u64(SoftKind::X87, u64::MAX).bits(),
            0x403e_ffff_ffff_ffff_ffff
        );
        assert_eq!(SoftFloat::from_u64(SoftKind::X87, 0).bits(), 0);
        // Reinterpret only to 80 bits.
        assert_eq!(x(X1).reinterpret(SoftKind::X87), Some(x(X1)));
        assert_eq!(x(X1).reinterpret(SoftKind::Quad), None);
        assert_eq!(h(H1).reinterpret(SoftKind::X87), None);
    }

    /// value.rs's "x86_fp80: invalid encodings are NaNs".
    #[test]
    fn x87_invalid_encodings_are_nans() {
        for bits in [PSEUDO_INF, PSEUDO_NAN, UNNORMAL] {
            let v = x(bits);
            assert!(v.is_nan(), "{bits:#x}");
            // Unordered, with themselves too.
            assert_eq!(v.compare(x(X1)), None, "{bits:#x}");
            assert_eq!(v.compare(v), None, "{bits:#x}");
            // Held as read; neg flips the sign bit of those bits; abs of
            // the negated one (a NaN: not below zero) changes nothing.
            assert_eq!(v.bits(), bits);
            let neg = v.negate();
            assert_eq!(neg.bits(), bits | (1 << 79));
            assert_eq!(neg.abs(), neg);
        }
        // The same with the integer bit set: +inf, a quiet NaN, 1.5.
        assert!(!x(XINF).is_nan());
        assert!(x(0x7fff_c000_0000_0000_0001).is_nan());
        assert!(!x(0x3fff_c000_0000_0000_0000).is_nan());
    }

    /// value.rs's "x86_fp80: pseudo-denormals are normal".
    #[test]
    fn x87_pseudo_denormal_reads_normal_and_is_written_back_normal() {
        let pd = x(PSEUDO_DENORMAL);
        // Held as read.
        assert_eq!(pd.bits(), PSEUDO_DENORMAL);
        assert!(!pd.is_nan());
        // It is 2^-16382 · 1.0, the smallest normal.
        assert_eq!(pd.compare(x(XMIN_NORMAL)), Some(Ordering::Equal));
        // Written back (a conversion to x86_fp80, or x · 1) with exponent 1.
        assert_eq!(pd.convert(SoftKind::X87).bits(), XMIN_NORMAL);
        assert_eq!(op(Arith::Mul, PSEUDO_DENORMAL, X1), XMIN_NORMAL);
        assert_eq!(op(Arith::Add, PSEUDO_DENORMAL, 0), XMIN_NORMAL);
        // As binary128: 2^-16382 is exponent 16383 - 16382 = 1, fraction 0.
        assert_eq!(pd.convert(SoftKind::Quad).bits(), 1 << 112);
        // neg and abs only touch the sign bit (exponent 0 stays).
        assert_eq!(pd.negate().bits(), PSEUDO_DENORMAL | (1 << 79));
        assert_eq!(pd.negate().abs().bits(), PSEUDO_DENORMAL);
    }

    /// value.rs's "x86_fp80: NaNs made by conversion".
    #[test]
    fn x87_converted_nans_are_quiet_with_the_integer_bit() {
        // double's quiet NaN 0x7ff8_0000_0000_0000 (no payload): exponent
        // all ones, integer bit and quiet bit (62).
        assert_eq!(
            SoftFloat::from_double(SoftKind::X87, 0x7ff8_0000_0000_0000).bits(),
            0x7fff_c000_0000_0000_0000
        );
        // A signalling double NaN with payload 1 comes out quiet, the
        // payload shifted by the 11 more fraction bits: 1 << 11 = 0x800.
        assert_eq!(
            SoftFloat::from_double(SoftKind::X87, 0x7ff0_0000_0000_0001).bits(),
            0x7fff_c000_0000_0000_0800
        );
        // The sign is kept: double 0xfff8… → 0xffff_c000….
        assert_eq!(
            SoftFloat::from_double(SoftKind::X87, 0xfff8_0000_0000_0000).bits(),
            0xffff_c000_0000_0000_0000
        );
        // A signalling float NaN 0x7f800001 (payload 1): shifted by
        // 63 - 23 = 40 → 1 << 40.
        assert_eq!(
            SoftFloat::from_single(SoftKind::X87, 0x7f80_0001).bits(),
            0x7fff_c000_0100_0000_0000
        );
        // half's quiet NaN 0x7e00 (bit 9) moves up by 63 - 10 = 53 to the
        // quiet bit 62.
        assert_eq!(
            h(HNAN).convert(SoftKind::X87).bits(),
            0x7fff_c000_0000_0000_0000
        );
        // x86_fp80 to itself canonicalizes the invalid encodings: the
        // integer and quiet bits set, the rest of the fraction kept (an
        // unnormal's exponent becomes all ones).
        assert_eq!(
            x(PSEUDO_NAN).convert(SoftKind::X87).bits(),
            0x7fff_c000_0000_0000_0001
        );
        assert_eq!(
            x(PSEUDO_INF).convert(SoftKind::X87).bits(),
            0x7fff_c000_0000_0000_0000
        );
        assert_eq!(
            x(UNNORMAL).convert(SoftKind::X87).bits(),
            0x7fff_c000_0000_0000_0000
        );
    }

    /// value.rs's "x86_fp80: arithmetic keeps invalid operands' encodings".
    #[test]
    fn x87_arithmetic_keeps_the_clear_integer_bit() {
        // APFloat quiets a NaN read with the integer bit clear by setting
        // the quiet bit (62) alone: the pseudo-NaN already has it, so it
        // comes back as it was, whichever side it is on.
        assert_eq!(op(Arith::Add, PSEUDO_NAN, X1), PSEUDO_NAN);
        assert_eq!(op(Arith::Add, X1, PSEUDO_NAN), PSEUDO_NAN);
        assert_eq!(
            op(Arith::Mul, PSEUDO_NAN, 0xbfff_8000_0000_0000_0000),
            PSEUDO_NAN
        );
        // The unnormal reads as a NaN whose exponent is all ones: 0x7fff,
        // integer bit clear, bit 62 as it was (set).
        assert_eq!(op(Arith::Sub, UNNORMAL, X1), 0x7fff_4000_0000_0000_0000);
        // The pseudo-infinity (fraction 0) gets the quiet bit alone.
        assert_eq!(op(Arith::Div, PSEUDO_INF, X1), 0x7fff_4000_0000_0000_0000);
        // An unnormal with fraction 1 and bit 62 clear: bit 62 added.
        assert_eq!(
            op(Arith::Add, 0x3fff_0000_0000_0000_0001, X1),
            0x7fff_4000_0000_0000_0001
        );
        // A conversion to x86_fp80 then canonicalizes: integer bit set.
        let r = x(PSEUDO_NAN).arith(Arith::Add, x(X1)).unwrap();
        assert_eq!(r.convert(SoftKind::X87).bits(), 0x7fff_c000_0000_0000_0001);
    }

    /// Every operation on x86_fp80 encodings of each class (with either
    /// sign) gives a value, never a panic.
    #[test]
    fn x87_operations_on_every_class_do_not_panic() {
        let classes = [
            0,
            1,
            X1,
            XMIN_NORMAL,
            0x0000_4000_0000_0000_0000,
            XINF,
            0x7fff_c000_0000_0000_0000,
            0x7fff_8000_0000_0000_0001,
            PSEUDO_INF,
            PSEUDO_NAN,
            UNNORMAL,
            0x3fff_0000_0000_0000_0001,
            PSEUDO_DENORMAL,
            0x0000_ffff_ffff_ffff_ffff,
            0x7ffe_ffff_ffff_ffff_ffff,
        ];
        let all: Vec<u128> = classes.iter().flat_map(|b| [*b, b | (1 << 79)]).collect();
        let kinds = [
            SoftKind::Half,
            SoftKind::BFloat,
            SoftKind::Quad,
            SoftKind::X87,
        ];
        for &a in &all {
            for &b in &all {
                for o in [Arith::Add, Arith::Sub, Arith::Mul, Arith::Div] {
                    let _ = op(o, a, b);
                }
                let _ = x(a).compare(x(b));
            }
            for k in kinds {
                let _ = x(a).convert(k).convert(SoftKind::X87);
            }
            let _ = (
                x(a).to_single(),
                x(a).to_double(),
                x(a).abs(),
                x(a).is_nan(),
            );
        }
    }
}
