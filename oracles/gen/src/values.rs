//! Random values and literals, biased towards the edges where evaluators go
//! wrong: 0, 1, -1, `INT_MIN`, `INT_MAX`, all ones, shift amounts at and past
//! the width, zero divisors, signed zeros, infinities, NaNs, denormals,
//! invalid x87 encodings. What a value is used for ([`Hint`]) shifts the
//! bias: an offset is usually small, a divisor usually not zero.

use super::entropy::Entropy;
use diopter_semantics::ast::Literal;
use diopter_semantics::types::Type;
use diopter_semantics::value::{Bits, FloatKind};
use num_bigint::{BigInt, BigUint, Sign};
use num_traits::{One, ToPrimitive, Zero};

/// What a value will be used for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hint {
    None,
    /// A bit or byte offset (`DIOpBitOffset`, `DIOpByteOffset`, `DIOpOffset`).
    Offset,
    /// The amount of a shift.
    ShiftAmount,
    /// The divisor of `DIOpDiv` / `DIOpMod`.
    Divisor,
    /// A memory address (an integer converted to a pointer).
    Address,
}

/// Edge values of an integer of `width` bits, as the literal would spell
/// them (negative values are two's complement at the width).
fn edge_int(e: &mut dyn Entropy, width: u64, hint: Hint) -> BigInt {
    // The candidates by index, only the one drawn built (the same choice as
    // a `pick` from the list of ten, without building the other nine).
    let mut v = match e.index(10) {
        0 => BigInt::zero(),
        1 => BigInt::one(),
        2 => -BigInt::one(),
        3 => -(BigInt::one() << (width - 1)),
        4 => (BigInt::one() << (width - 1)) - 1,
        5 => (BigInt::one() << width) - 1,
        6 => BigInt::from(width),
        7 => BigInt::from(width) + 1,
        8 => BigInt::from(8),
        _ => BigInt::from(-8),
    };
    if hint == Hint::ShiftAmount && e.chance(1, 2) {
        // At or past the width: the result is 0 or the sign fill.
        v = BigInt::from(width + e.below(3));
    }
    clamp(v, width)
}

/// Whether `v` lies in `-2^(w-1) ..= 2^w - 1` (`w >= 1`), read off its
/// magnitude's bits: building the two bounds cost more than the rest of
/// drawing the value.
fn in_literal_range(v: &BigInt, width: u64) -> bool {
    let m = v.magnitude();
    if v.sign() == Sign::Minus {
        // |v| <= 2^(w-1): fewer bits, or exactly that power of two.
        m.bits() < width || (m.bits() == width && m.trailing_zeros() == Some(width - 1))
    } else {
        m.bits() <= width
    }
}

/// `v` as a literal of `width` bits: in `-2^(w-1) ..= 2^w - 1`.
fn clamp(v: BigInt, width: u64) -> BigInt {
    if !in_literal_range(&v, width) {
        // Reduce to the unsigned reading, which always fits.
        let m = BigInt::one() << width;
        ((v % &m) + &m) % m
    } else {
        v
    }
}

/// Random bits of `width`: the low limbs random, higher ones a random fill,
/// so that a 4096-bit value costs a handful of choices.
pub fn random_biguint(e: &mut dyn Entropy, width: u64) -> BigUint {
    let limbs = width.div_ceil(64) as usize;
    let fill = match e.below(3) {
        0 => 0u64,
        1 => u64::MAX,
        _ => e.bits64(),
    };
    if limbs <= 2 {
        // The common widths, in a machine word pair: the same draws and
        // value as below, without the digit vectors and the shifted mask.
        let lo = if limbs > 0 { e.bits64() } else { 0 };
        let hi = if limbs > 1 { e.bits64() } else { 0 };
        let v = u128::from(lo) | u128::from(hi) << 64;
        let mask = if width >= 128 {
            u128::MAX
        } else {
            (1u128 << width) - 1
        };
        return BigUint::from(v & mask);
    }
    let digits: Vec<u64> = (0..limbs)
        .map(|i| if i < 3 { e.bits64() } else { fill })
        .collect();
    let v = BigUint::from_slice(
        &digits
            .iter()
            .flat_map(|d| [*d as u32, (*d >> 32) as u32])
            .collect::<Vec<u32>>(),
    );
    let mask = (BigUint::one() << width) - 1u32;
    v & mask
}

/// An integer value of `width` bits for a literal.
pub fn int_value(e: &mut dyn Entropy, width: u64, edge: u64, hint: Hint) -> BigInt {
    let width = width.max(1);
    if e.chance(edge, 16) {
        return edge_int(e, width, hint);
    }
    let v = match hint {
        Hint::Offset => {
            // Mostly inside the small storages the contexts hold: 0 half
            // the time, a few bits or bytes, rarely backwards.
            if e.chance(1, 2) {
                BigInt::zero()
            } else if e.chance(1, 8) {
                -BigInt::from(e.range(1, 16))
            } else {
                BigInt::from(e.below(9))
            }
        }
        Hint::ShiftAmount => BigInt::from(e.below(width.min(1 << 20))),
        Hint::Divisor => {
            let d = BigInt::from(e.range(1, 17));
            if e.chance(1, 3) {
                -d
            } else {
                d
            }
        }
        Hint::Address => BigInt::from(e.below(64) * 16),
        Hint::None => match e.below(3) {
            0 => BigInt::from(e.below(256)),
            1 => -BigInt::from(e.range(1, 256)),
            _ => BigInt::from(random_biguint(e, width)),
        },
    };
    clamp(v, width)
}

/// The bits of an integer value (for contexts).
pub fn int_bits(e: &mut dyn Entropy, width: u64, edge: u64) -> Bits {
    if width == 0 {
        return Bits::empty();
    }
    Bits::from_bigint(width, &int_value(e, width, edge, Hint::None))
}

/// (exponent bits, stored significand bits) of the IEEE interchange kinds.
fn ieee_layout(k: FloatKind) -> Option<(u32, u32)> {
    match k {
        FloatKind::Half => Some((5, 10)),
        FloatKind::BFloat => Some((8, 7)),
        FloatKind::Float => Some((8, 23)),
        FloatKind::Double => Some((11, 52)),
        FloatKind::Fp128 => Some((15, 112)),
        FloatKind::X86Fp80 => None,
    }
}

/// The bits of a float of kind `k`: specials with probability `edge`/16,
/// simple values, or any pattern at all.
pub fn float_bits(e: &mut dyn Entropy, k: FloatKind, edge: u64) -> Bits {
    let w = k.width();
    let raw: u128 = match ieee_layout(k) {
        Some((eb, mb)) => {
            let sign = 1u128 << (w - 1);
            let exp_all = ((1u128 << eb) - 1) << mb;
            let bias = (1u128 << (eb - 1)) - 1;
            let one = bias << mb;
            let specials = [
                0,
                sign,
                exp_all,
                exp_all | sign,
                exp_all | (1 << (mb - 1)),
                exp_all | 1,
                1,
                exp_all - 1,
                one,
                one | sign,
                (bias - 1) << mb,
                ((bias + 1) << mb) | (1 << (mb - 1)),
            ];
            if e.chance(edge, 16) {
                *e.pick(&specials)
            } else if e.chance(1, 2) {
                // A value near 1 with a random significand and a random sign.
                let exp = (bias - 4 + u128::from(e.below(9))) << mb;
                let mant = u128::from(e.bits64()) & ((1 << mb.min(64)) - 1);
                exp | mant | if e.chance(1, 2) { sign } else { 0 }
            } else {
                random_biguint(e, w).to_u128().unwrap_or(0)
            }
        }
        None => {
            // x87: sign, 15-bit exponent, explicit integer bit, 63 fraction bits.
            let int_bit = 1u128 << 63;
            let exp = |x: u128| x << 64;
            let specials = [
                0,
                exp(16383) | int_bit,
                exp(0x7fff) | int_bit,
                exp(0x7fff) | int_bit | (1 << 62),
                exp(16383),
                1,
                exp(0x7fff),
                exp(0x7ffe) | u128::from(u64::MAX),
            ];
            if e.chance(edge, 16) {
                *e.pick(&specials)
            } else {
                exp(16380 + u128::from(e.below(8))) | int_bit | u128::from(e.bits64() >> 1)
            }
        }
    };
    Bits::from_u128(w, raw)
}

/// A literal of type `t` for `DIOpConstant(t literal)`: what the parser
/// reads back as the same AST. `undef` and `poison` appear with probability
/// about `undef`/16, whole or per element.
pub fn literal(e: &mut dyn Entropy, t: &Type, hint: Hint, edge: u64, undef: u64) -> Literal {
    if e.chance(undef, 16) {
        return if e.chance(1, 2) {
            Literal::Undef
        } else {
            Literal::Poison
        };
    }
    match t {
        Type::Int(w) => Literal::Int(int_value(e, *w, edge, hint)),
        Type::Float(k) => Literal::Float(float_bits(e, k.0, edge)),
        Type::Ptr { .. } => {
            if e.chance(1, 2) {
                Literal::Null
            } else {
                Literal::ZeroInitializer
            }
        }
        Type::Vector { len, elem } if *len <= 16 && !e.chance(1, 8) => Literal::Vector(
            (0..*len)
                .map(|_| ((**elem).clone(), literal(e, elem, hint, edge, undef / 2)))
                .collect(),
        ),
        Type::Array { len, elem } if *len <= 8 && !e.chance(1, 4) => Literal::Array(
            (0..*len)
                .map(|_| ((**elem).clone(), literal(e, elem, hint, edge, undef / 2)))
                .collect(),
        ),
        _ => Literal::ZeroInitializer,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bit test agrees with the bounds it replaced, at and around them.
    #[test]
    fn literal_range_is_the_bounds() {
        for w in (1u64..=140).chain([255, 256, 257, 4096]) {
            let lo = -(BigInt::one() << (w - 1));
            let hi = (BigInt::one() << w) - 1;
            for base in [&lo, &hi, &BigInt::zero()] {
                for d in -2..=2 {
                    let v = base + d;
                    assert_eq!(in_literal_range(&v, w), v >= lo && v <= hi, "{v} at {w}");
                }
            }
        }
    }
}
