//! quickcheck properties of the value helpers (`diopter_semantics::value`)
//! where semantics' own tests do not reach: every width from 65 to 127
//! against native `u128`/`i128` arithmetic reduced by a mask, shift amounts
//! wider than 64 bits, algebraic identities at widths far past 128 (where no
//! native type exists), and the generators' own value helpers.

use diopter_gen::entropy::SplitMix;
use diopter_gen::values::{self, Hint};
use diopter_semantics::ast::Op;
use diopter_semantics::syntax::parse_bare;
use diopter_semantics::syntax::printer::print_literal;
use diopter_semantics::types::Type;
use diopter_semantics::value::{self as v, Bits, FloatKind};
use num_bigint::BigInt;
use num_traits::{One, Zero};
use quickcheck::{QuickCheck, TestResult};

fn qc<A: quickcheck::Testable>(tests: u64, prop: A) {
    QuickCheck::new()
        .tests(tests)
        .max_tests(tests * 20)
        .quickcheck(prop);
}

/// `x` reduced to `w` bits.
fn mask(w: u64, x: u128) -> u128 {
    if w >= 128 {
        x
    } else {
        x & ((1u128 << w) - 1)
    }
}

/// `x` (already `w` bits) sign-extended to i128.
fn signed(w: u64, x: u128) -> i128 {
    ((x << (128 - w)) as i128) >> (128 - w)
}

fn bits(w: u64, x: u128) -> Bits {
    Bits::from_u128(w, x)
}

fn get(w: u64, b: &Bits) -> u128 {
    assert_eq!(b.width(), w);
    b.to_u128().expect("fits in 128 bits")
}

#[test]
fn widths_65_to_127_against_masked_u128() {
    fn prop(w: u8, x: u128, y: u128, s: u8) -> bool {
        let w = 65 + u64::from(w % 63);
        let (x, y) = (mask(w, x), mask(w, y));
        let (a, b) = (bits(w, x), bits(w, y));
        let (sx, sy) = (signed(w, x), signed(w, y));
        let amount = bits(8, u128::from(s));
        let s = u64::from(s);
        let m = |r: u128| mask(w, r);
        let want_ashr = if s >= w {
            if sx < 0 {
                mask(w, u128::MAX)
            } else {
                0
            }
        } else {
            m((sx >> s) as u128)
        };
        // Signed division of w-bit values never overflows i128 (w < 128),
        // so native division is exact; the result is then reduced to w bits
        // (INT_MIN / -1 wraps to INT_MIN).
        get(w, &v::add(&a, &b)) == m(x.wrapping_add(y))
            && get(w, &v::sub(&a, &b)) == m(x.wrapping_sub(y))
            && get(w, &v::mul(&a, &b)) == m(x.wrapping_mul(y))
            && get(w, &v::and(&a, &b)) == x & y
            && get(w, &v::or(&a, &b)) == x | y
            && get(w, &v::xor(&a, &b)) == x ^ y
            && v::sdiv(&a, &b).map(|q| get(w, &q)) == (y != 0).then(|| m((sx / sy) as u128))
            && v::srem(&a, &b).map(|r| get(w, &r)) == (y != 0).then(|| m((sx % sy) as u128))
            && get(w, &v::shl(&a, &amount)) == if s >= w { 0 } else { m(x << s) }
            && get(w, &v::lshr(&a, &amount)) == if s >= w { 0 } else { x >> s }
            && get(w, &v::ashr(&a, &amount)) == want_ashr
            && a.to_bigint() == BigInt::from(sx)
            && get(128, &v::sext(&a, 128)) == sx as u128
            && get(128, &v::zext(&a, 128)) == x
            && get(64, &v::trunc(&a, 64)) == x & u128::from(u64::MAX)
    }
    qc(3000, prop as fn(u8, u128, u128, u8) -> bool);
}

#[test]
fn division_edges_at_odd_wide_widths() {
    for w in [65u64, 100, 127, 129, 200, 4096] {
        let int_min = Bits::from_bigint(w, &-(BigInt::one() << (w - 1)));
        let minus_one = Bits::ones(w);
        // INT_MIN / -1 wraps to INT_MIN; INT_MIN % -1 is 0.
        assert_eq!(v::sdiv(&int_min, &minus_one), Some(int_min.clone()), "i{w}");
        assert_eq!(v::srem(&int_min, &minus_one), Some(Bits::zero(w)), "i{w}");
        assert_eq!(v::sdiv(&int_min, &Bits::zero(w)), None);
        assert_eq!(v::srem(&minus_one, &Bits::zero(w)), None);
        // -7 / 2 = -3 and -7 % 2 = -1 (truncating; the remainder has the
        // dividend's sign).
        let m7 = Bits::from_bigint(w, &BigInt::from(-7));
        let two = Bits::from_u64(w, 2);
        assert_eq!(
            v::sdiv(&m7, &two).map(|q| q.to_bigint()),
            Some(BigInt::from(-3))
        );
        assert_eq!(
            v::srem(&m7, &two).map(|r| r.to_bigint()),
            Some(BigInt::from(-1))
        );
    }
}

#[test]
fn shift_amounts_wider_than_64_bits() {
    // An amount whose value does not fit in 64 bits is at least the width.
    fn prop(x: u64, hi: u64, lo: u8) -> TestResult {
        if hi == 0 {
            return TestResult::discard();
        }
        let amount = Bits::from_u128(128, (u128::from(hi) << 64) | u128::from(lo));
        let a = Bits::from_u64(64, x);
        let neg = x >> 63 == 1;
        TestResult::from_bool(
            v::shl(&a, &amount).is_zero()
                && v::lshr(&a, &amount).is_zero()
                && v::ashr(&a, &amount) == if neg { Bits::ones(64) } else { Bits::zero(64) },
        )
    }
    qc(1000, prop as fn(u64, u64, u8) -> TestResult);
    // A 1-bit amount of value 1 shifts a 1-bit value out entirely.
    let one = Bits::from_u64(1, 1);
    assert!(v::shl(&one, &one).is_zero());
    assert_eq!(v::ashr(&one, &one), Bits::ones(1));
}

/// A value of `w` bits from quickcheck's bytes.
fn wide(w: u64, bytes: &[u8]) -> Bits {
    Bits::from_le_bytes(w, bytes)
}

#[test]
fn identities_at_wide_widths() {
    fn prop(w: u16, xs: Vec<u8>, ys: Vec<u8>, s: u16) -> bool {
        let w = 129 + u64::from(w % 3968);
        let (a, b) = (wide(w, &xs), wide(w, &ys));
        let s_bits = Bits::from_u64(16, u64::from(s));
        let s = u64::from(s);
        let div_identity = match (v::sdiv(&a, &b), v::srem(&a, &b)) {
            (Some(q), Some(r)) => v::add(&v::mul(&q, &b), &r) == a,
            (None, None) => b.is_zero(),
            _ => false,
        };
        // (a << s) >> s keeps the low w - s bits of a.
        let round_trip = v::lshr(&v::shl(&a, &s_bits), &s_bits);
        let low = if s >= w {
            Bits::zero(w)
        } else {
            v::zext(&v::trunc(&a, w - s), w)
        };
        v::sub(&v::add(&a, &b), &b) == a
            && v::add(&a, &v::sub(&Bits::zero(w), &a)).is_zero()
            && v::mul(&a, &Bits::from_u64(w, 1)) == a
            && v::xor(&a, &a).is_zero()
            && v::and(&a, &v::or(&a, &b)) == a
            && div_identity
            && round_trip == low
            && v::trunc(&v::sext(&a, w + 77), w) == a
            && v::sext(&a, w + 77).to_bigint() == a.to_bigint()
            && v::zext(&a, w + 77).to_biguint() == a.to_biguint()
            && Bits::from_bigint(w, &a.to_bigint()) == a
    }
    qc(500, prop as fn(u16, Vec<u8>, Vec<u8>, u16) -> bool);
}

#[test]
fn arithmetic_shift_at_wide_widths_against_bigint() {
    fn prop(w: u16, xs: Vec<u8>, s: u16) -> bool {
        let w = 129 + u64::from(w % 900);
        let a = wide(w, &xs);
        let s = u64::from(s % 1100);
        let r = v::ashr(&a, &Bits::from_u64(11, s));
        // Arithmetic shift is floor division by 2^s of the signed value.
        let want = if s >= w {
            if a.to_bigint() < BigInt::zero() {
                BigInt::from(-1)
            } else {
                BigInt::zero()
            }
        } else {
            let (x, d) = (a.to_bigint(), BigInt::one() << s);
            let q = &x / &d;
            // `/` truncates; floor differs for a negative inexact quotient.
            if x < BigInt::zero() && &q * &d != x {
                q - 1
            } else {
                q
            }
        };
        r.to_bigint() == want
    }
    qc(500, prop as fn(u16, Vec<u8>, u16) -> bool);
}

// ------------------------------------------------------ the generators' values

#[test]
fn generated_integers_are_literals_of_their_width() {
    fn prop(seed: u64, w: u16, edge: u8, hint: u8) -> bool {
        let w = 1 + u64::from(w % 4096);
        let hint = [
            Hint::None,
            Hint::Offset,
            Hint::ShiftAmount,
            Hint::Divisor,
            Hint::Address,
        ][usize::from(hint % 5)];
        let x = values::int_value(&mut SplitMix(seed), w, u64::from(edge % 17), hint);
        // What `DIOpConstant(iW x)` accepts: -2^(w-1) <= x < 2^w.
        let lo = -(BigInt::one() << (w - 1));
        let hi = BigInt::one() << w;
        lo <= x && x < hi
    }
    qc(3000, prop as fn(u64, u16, u8, u8) -> bool);
}

#[test]
fn generated_literals_print_and_parse_back() {
    let types = [
        Type::Int(1),
        Type::Int(7),
        Type::Int(64),
        Type::Int(200),
        Type::float(FloatKind::Half),
        Type::float(FloatKind::BFloat),
        Type::float(FloatKind::Float),
        Type::float(FloatKind::Double),
        Type::float(FloatKind::Fp128),
        Type::float(FloatKind::X86Fp80),
        Type::opaque_ptr(5),
        Type::Vector {
            len: 4,
            elem: Box::new(Type::Int(3)),
        },
        Type::Vector {
            len: 2,
            elem: Box::new(Type::float(FloatKind::X86Fp80)),
        },
        Type::Array {
            len: 2,
            elem: Box::new(Type::Array {
                len: 2,
                elem: Box::new(Type::Int(8)),
            }),
        },
    ];
    for seed in 0..3000u64 {
        let t = &types[(seed % types.len() as u64) as usize];
        let edge = seed % 17;
        let lit = values::literal(&mut SplitMix(seed), t, Hint::None, edge, 2);
        let line = format!("[] DIOpConstant({t} {})", print_literal(t, &lit));
        let b = parse_bare(&line).unwrap_or_else(|d| panic!("`{line}`: {d}"));
        let first = b.expr.ops().next().cloned();
        match first {
            Some(Op::Constant(t2, l2)) => {
                assert_eq!((&t2, &l2), (t, &lit), "{line}");
            }
            other => panic!("`{line}` read as {other:?}"),
        }
    }
}

#[test]
fn generated_floats_have_their_width_and_hit_the_specials() {
    let mut seen_nan = [false; 6];
    let mut seen_inf = [false; 6];
    for (i, k) in FloatKind::ALL.into_iter().enumerate() {
        for seed in 0..4000u64 {
            let b = values::float_bits(&mut SplitMix(seed), k, 8);
            assert_eq!(b.width(), k.width());
            let raw = b.to_u128().expect("at most 128 bits");
            let (exp_all, mant_mask, exp_shift) = match k {
                FloatKind::Half => (0x1f, (1u128 << 10) - 1, 10),
                FloatKind::BFloat => (0xff, (1u128 << 7) - 1, 7),
                FloatKind::Float => (0xff, (1u128 << 23) - 1, 23),
                FloatKind::Double => (0x7ff, (1u128 << 52) - 1, 52),
                FloatKind::Fp128 => (0x7fff, (1u128 << 112) - 1, 112),
                FloatKind::X86Fp80 => (0x7fff, (1u128 << 63) - 1, 64),
            };
            let exp = (raw >> exp_shift) & exp_all;
            if exp == exp_all {
                if raw & mant_mask == 0 {
                    seen_inf[i] = true;
                } else {
                    seen_nan[i] = true;
                }
            }
        }
    }
    assert!(
        seen_nan.iter().all(|x| *x),
        "NaN not generated for every kind: {seen_nan:?}"
    );
    assert!(
        seen_inf.iter().all(|x| *x),
        "infinity not generated for every kind: {seen_inf:?}"
    );
}
