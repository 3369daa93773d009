//! The value algebra on machine words: integer lanes of up to 128 bits in a
//! `u128`, floats by their encoding in a `u128`.
//!
//! `float` and `double` use the hardware (IEEE, round to nearest even, which
//! is what the reference's `rustc_apfloat` computes too) except when the
//! result is a NaN: NaN payloads and signs differ between x86 and APFloat,
//! so those results are recomputed with `rustc_apfloat`. Every other float
//! kind goes through `rustc_apfloat` directly, on the raw encoding, without
//! building a `Bits`.

use super::words::{fill_ones, get, mask128, mask64, sext128};
use diopter_semantics::ast::Op;
use diopter_semantics::value::{self, Bits, FloatKind};
use rustc_apfloat::{Float, FloatConvert, Round};

/// A binary operation of the `DIOpAdd` family.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Mod,
    And,
    Or,
    Xor,
    LShr,
    AShr,
    Shl,
}

impl BinOp {
    /// The operation a binary `op` ([`Op::is_binary`]) computes; `DIOpShr`
    /// is read as `DIOpLShr` (DESIGN.md).
    pub(crate) fn of(op: &Op) -> BinOp {
        match op {
            Op::Add => BinOp::Add,
            Op::Sub => BinOp::Sub,
            Op::Mul => BinOp::Mul,
            Op::Div => BinOp::Div,
            Op::Mod => BinOp::Mod,
            Op::And => BinOp::And,
            Op::Or => BinOp::Or,
            Op::Xor => BinOp::Xor,
            Op::Shr | Op::LShr => BinOp::LShr,
            Op::AShr => BinOp::AShr,
            // Only binary operations are asked about (as both callers did).
            _ => BinOp::Shl,
        }
    }

    /// The float operation, for the four that have one.
    fn float(self) -> Option<value::FloatOp> {
        Some(match self {
            BinOp::Add => value::FloatOp::Add,
            BinOp::Sub => value::FloatOp::Sub,
            BinOp::Mul => value::FloatOp::Mul,
            BinOp::Div => value::FloatOp::Div,
            _ => return None,
        })
    }
}

/// Division or remainder by zero (the only failing lane operation).
pub(crate) struct DivByZero;

/// `a op b` on one integer lane of width `w <= 128` (`a` is the deeper
/// operand, `V2`; `b` the top, `V1`).
///
/// The operations that are a machine instruction and a mask are done where
/// the lane is; the others (division, shifts) in a call, whose register
/// saving would otherwise cost every lane more than an addition does.
#[inline(always)]
pub(crate) fn int_lane(op: BinOp, w: u64, a: u128, b: u128) -> Result<u128, DivByZero> {
    let m = mask128(w);
    Ok(match op {
        BinOp::Add => a.wrapping_add(b) & m,
        BinOp::Sub => a.wrapping_sub(b) & m,
        BinOp::Mul => a.wrapping_mul(b) & m,
        BinOp::And => a & b,
        BinOp::Or => a | b,
        BinOp::Xor => a ^ b,
        _ => return int_lane_rest(op, w, a, b),
    })
}

#[inline(never)]
fn int_lane_rest(op: BinOp, w: u64, a: u128, b: u128) -> Result<u128, DivByZero> {
    let m = mask128(w);
    Ok(match op {
        BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::And | BinOp::Or | BinOp::Xor => {
            unreachable!("done inline by int_lane")
        }
        BinOp::Div => {
            if b == 0 {
                return Err(DivByZero);
            }
            // Truncating; INT_MIN / -1 wraps (to INT_MIN after the mask).
            if diopter_faults::planted!("fast-sdiv-unsigned") {
                (a / b) & m
            } else if w <= 64 {
                // The hardware's division (an i128 one is a library call);
                // INT_MIN / -1 wraps the same way within 64 bits.
                (sext128(a, w) as i64).wrapping_div(sext128(b, w) as i64) as u64 as u128 & m
            } else {
                (sext128(a, w).wrapping_div(sext128(b, w)) as u128) & m
            }
        }
        BinOp::Mod => {
            if b == 0 {
                return Err(DivByZero);
            }
            if diopter_faults::planted!("fast-srem-euclid") {
                (sext128(a, w).rem_euclid(sext128(b, w)) as u128) & m
            } else if w <= 64 {
                (sext128(a, w) as i64).wrapping_rem(sext128(b, w) as i64) as u64 as u128 & m
            } else {
                (sext128(a, w).wrapping_rem(sext128(b, w)) as u128) & m
            }
        }
        BinOp::Shl => {
            if b < u128::from(w) {
                if diopter_faults::planted!("fast-shl-unmasked") {
                    a << b
                } else {
                    (a << b) & m
                }
            } else {
                0
            }
        }
        BinOp::LShr => {
            if b < u128::from(w) {
                a >> b
            } else {
                0
            }
        }
        BinOp::AShr => {
            let s = sext128(a, w);
            if b < u128::from(w) {
                ((s >> b) as u128) & m
            } else if s < 0 && !diopter_faults::planted!("fast-ashr-oversize-sign") {
                m
            } else {
                0
            }
        }
    })
}

/// One integer lane wider than 128 bits, through the reference's `Bits`
/// algebra (allocates; such lanes are rare).
pub(crate) fn wide_int_lane(op: BinOp, a: &Bits, b: &Bits) -> Result<Bits, DivByZero> {
    Ok(match op {
        BinOp::Add => value::add(a, b),
        BinOp::Sub => value::sub(a, b),
        BinOp::Mul => value::mul(a, b),
        BinOp::Div => value::sdiv(a, b).ok_or(DivByZero)?,
        BinOp::Mod => value::srem(a, b).ok_or(DivByZero)?,
        BinOp::And => value::and(a, b),
        BinOp::Or => value::or(a, b),
        BinOp::Xor => value::xor(a, b),
        BinOp::Shl => value::shl(a, b),
        BinOp::LShr => value::lshr(a, b),
        BinOp::AShr => value::ashr(a, b),
    })
}

use diopter_semantics::with_float_type as with_kind;

const NEAREST_EVEN: Round = Round::NearestTiesToEven;

fn apfloat_binop<F: Float>(op: value::FloatOp, a: u128, b: u128) -> u128 {
    let (a, b) = (F::from_bits(a), F::from_bits(b));
    let r = match op {
        value::FloatOp::Add => a.add_r(b, NEAREST_EVEN),
        value::FloatOp::Sub => a.sub_r(b, NEAREST_EVEN),
        value::FloatOp::Mul => a.mul_r(b, NEAREST_EVEN),
        value::FloatOp::Div => a.div_r(b, NEAREST_EVEN),
    };
    r.value.to_bits()
}

#[inline(always)]
fn f32_op(f: value::FloatOp, x: f32, y: f32) -> f32 {
    match f {
        value::FloatOp::Add => x + y,
        value::FloatOp::Sub => x - y,
        value::FloatOp::Mul => x * y,
        value::FloatOp::Div => x / y,
    }
}

/// A binary16 encoding's value (exactly: every half is a single).
fn half_to_f32(h: u16) -> f32 {
    let sign = u32::from(h & 0x8000) << 16;
    let (e, m) = (u32::from(h >> 10) & 0x1f, u32::from(h & 0x3ff));
    let magnitude = match e {
        // Subnormal: m * 2^-24, a product of exact powers of two.
        0 => (m as f32) * f32::from_bits(0x3380_0000),
        31 => f32::from_bits(0x7f80_0000 | (m << 13)),
        _ => f32::from_bits(((e + 112) << 23) | (m << 13)),
    };
    f32::from_bits(sign | magnitude.to_bits())
}

/// A single that is not NaN, rounded to nearest even as a binary16.
fn f32_to_half(x: f32) -> u16 {
    let u = x.to_bits();
    let sign = ((u >> 16) & 0x8000) as u16;
    let a = u & 0x7fff_ffff;
    if a >= 0x477f_f000 {
        // 65520 and above (the tie above 65504 goes to the even infinity).
        return sign | 0x7c00;
    }
    if a >= 0x3880_0000 {
        // Normal: drop 13 significand bits, to nearest even; a carry moves
        // into the exponent as it should.
        let r = a + 0x0fff + ((a >> 13) & 1);
        return sign | ((r - 0x3800_0000) >> 13) as u16;
    }
    // Subnormal (or zero): the value in units of 2^-24, to nearest even; 1024
    // units is the smallest normal's encoding.
    let units = (f32::from_bits(a) * f32::from_bits(0x4b80_0000)).round_ties_even();
    sign | units as u16
}

/// A bfloat16 encoding's value (the high half of a single's).
fn bf16_to_f32(b: u16) -> f32 {
    f32::from_bits(u32::from(b) << 16)
}

/// A single that is not NaN, rounded to nearest even as a bfloat16.
fn f32_to_bf16(x: f32) -> u16 {
    let u = x.to_bits();
    ((u + 0x7fff + ((u >> 16) & 1)) >> 16) as u16
}

/// `a op b` on encodings of kind `k`; `None` for an operation floats do not
/// have (`DIOpMod` and the bitwise ones: ill-formed, rejected at compile time).
#[inline]
pub(crate) fn float_lane(k: FloatKind, op: BinOp, a: u128, b: u128) -> Option<u128> {
    let f = op.float()?;
    let native = match k {
        FloatKind::Float => {
            let r = f32_op(f, f32::from_bits(a as u32), f32::from_bits(b as u32));
            (!r.is_nan()).then(|| u128::from(r.to_bits()))
        }
        FloatKind::Double => {
            let (x, y) = (f64::from_bits(a as u64), f64::from_bits(b as u64));
            let r = match f {
                value::FloatOp::Add => x + y,
                value::FloatOp::Sub => x - y,
                value::FloatOp::Mul => x * y,
                value::FloatOp::Div => x / y,
            };
            (!r.is_nan()).then(|| u128::from(r.to_bits()))
        }
        // In `f32` and rounded once more: single precision has more than
        // twice their significand bits plus two, so rounding twice gives
        // the correctly rounded result of +, -, * and / (no double-rounding
        // error), and its exponent range holds every value they can reach.
        FloatKind::Half => {
            let r = f32_op(f, half_to_f32(a as u16), half_to_f32(b as u16));
            (!r.is_nan()).then(|| u128::from(f32_to_half(r)))
        }
        FloatKind::BFloat => {
            let r = f32_op(f, bf16_to_f32(a as u16), bf16_to_f32(b as u16));
            (!r.is_nan()).then(|| u128::from(f32_to_bf16(r)))
        }
        _ => None,
    };
    Some(match native {
        Some(r) => r,
        None => with_kind!(k, F => apfloat_binop::<F>(f, a, b)),
    })
}

/// The signed integer `v` of width `w <= 128` as a `k`, rounded to nearest even.
pub(crate) fn int_to_float(k: FloatKind, v: u128, w: u64) -> u128 {
    let s = sext128(v, w);
    if w <= 64 {
        // Rust's int-to-float casts round to nearest, ties to even.
        match k {
            FloatKind::Float => return u128::from((s as i64 as f32).to_bits()),
            FloatKind::Double => return u128::from((s as i64 as f64).to_bits()),
            _ => {}
        }
    }
    with_kind!(k, F => F::from_i128_r(s, NEAREST_EVEN).value.to_bits())
}

/// The `k` encoding `raw` truncated toward zero to a signed `w`-bit integer
/// (`w <= 128`); `None` for NaN, infinities and out-of-range values.
pub(crate) fn float_to_int(k: FloatKind, raw: u128, w: u64) -> Option<u128> {
    let x = match k {
        FloatKind::Float => f64::from(f32::from_bits(raw as u32)),
        FloatKind::Double => f64::from_bits(raw as u64),
        _ => {
            let b = value::float_to_int(k, &Bits::from_u128(k.width(), raw), w)?;
            return b.to_u128();
        }
    };
    if !x.is_finite() {
        return None;
    }
    let t = x.trunc();
    // -2^(w-1) <= t < 2^(w-1); both bounds are exact doubles.
    let bound = 2f64.powi((w - 1) as i32);
    if t < -bound || t >= bound && !diopter_faults::planted!("fast-float-to-int-bound") {
        return None;
    }
    Some((t as i128 as u128) & mask128(w))
}

fn apfloat_convert<A: Float + FloatConvert<B>, B: Float>(raw: u128) -> u128 {
    let mut loses_info = false;
    A::from_bits(raw)
        .convert_r(NEAREST_EVEN, &mut loses_info)
        .value
        .to_bits()
}

/// `raw` converted from `from` to `to`, rounded to nearest even.
pub(crate) fn float_to_float(from: FloatKind, to: FloatKind, raw: u128) -> u128 {
    match (from, to) {
        (FloatKind::Float, FloatKind::Double) => {
            let x = f32::from_bits(raw as u32);
            if !x.is_nan() {
                return u128::from(f64::from(x).to_bits());
            }
        }
        (FloatKind::Double, FloatKind::Float) => {
            let x = f64::from_bits(raw as u64);
            if !x.is_nan() {
                return u128::from((x as f32).to_bits());
            }
        }
        _ => {}
    }
    with_kind!(from, A => with_kind!(to, B => apfloat_convert::<A, B>(raw)))
}

/// `a op b` on `w`-bit integers (`w > 128`) held in word-aligned regions at
/// bits `a` and `b`, into a fresh region (its first bit is returned);
/// `None` for the operations this does not do on words (`Div`, `Mod`).
pub(crate) fn wide_int(words: &mut Vec<u64>, op: BinOp, a: u64, b: u64, w: u64) -> Option<u64> {
    if matches!(op, BinOp::Div | BinOp::Mod) {
        return None;
    }
    let nw = w.div_ceil(64) as usize;
    let (ai, bi) = ((a / 64) as usize, (b / 64) as usize);
    let out = words.len();
    words.resize(out + nw, 0);
    match op {
        BinOp::Add => {
            let mut carry = 0u128;
            for i in 0..nw {
                let s = u128::from(words[ai + i]) + u128::from(words[bi + i]) + carry;
                words[out + i] = s as u64;
                carry = s >> 64;
            }
        }
        BinOp::Sub => {
            let mut borrow = false;
            for i in 0..nw {
                let (d, b1) = words[ai + i].overflowing_sub(words[bi + i]);
                let (d, b2) = d.overflowing_sub(u64::from(borrow));
                words[out + i] = d;
                borrow = b1 || b2 && !diopter_faults::planted!("fast-wide-sub-borrow");
            }
        }
        BinOp::Mul => {
            for i in 0..nw {
                let x = u128::from(words[ai + i]);
                if x == 0 {
                    continue;
                }
                let mut carry = 0u128;
                for j in 0..nw - i {
                    let t = x * u128::from(words[bi + j]) + u128::from(words[out + i + j]) + carry;
                    words[out + i + j] = t as u64;
                    carry = t >> 64;
                }
            }
        }
        BinOp::And => (0..nw).for_each(|i| words[out + i] = words[ai + i] & words[bi + i]),
        BinOp::Or => (0..nw).for_each(|i| words[out + i] = words[ai + i] | words[bi + i]),
        BinOp::Xor => (0..nw).for_each(|i| words[out + i] = words[ai + i] ^ words[bi + i]),
        BinOp::Shl | BinOp::LShr | BinOp::AShr => {
            // The amount is unsigned; at least the width shifts everything out.
            let big = words[bi + 1..bi + nw].iter().any(|&x| x != 0) || words[bi] >= w;
            let negative = get(words, a + w - 1, 1) == 1;
            let s = if big { w } else { words[bi] };
            let (ws, bs) = ((s / 64) as usize, (s % 64) as u32);
            let at = |words: &[u64], i: isize| -> u64 {
                if i < 0 || i as usize >= nw {
                    0
                } else {
                    words[ai + i as usize]
                }
            };
            for i in 0..nw as isize {
                let v = if op == BinOp::Shl {
                    let hi = at(words, i - ws as isize);
                    let lo = at(words, i - ws as isize - 1);
                    if bs == 0 {
                        hi
                    } else {
                        (hi << bs) | (lo >> (64 - bs))
                    }
                } else {
                    let lo = at(words, i + ws as isize);
                    let hi = at(words, i + ws as isize + 1);
                    if bs == 0 {
                        lo
                    } else {
                        (lo >> bs) | (hi << (64 - bs))
                    }
                };
                words[out + i as usize] = v;
            }
            if op == BinOp::AShr && negative {
                fill_ones(words, (out * 64) as u64 + (w - s), s);
            }
        }
        BinOp::Div | BinOp::Mod => unreachable!("refused above"),
    }
    let top = w - 64 * (nw as u64 - 1);
    words[out + nw - 1] &= mask64(top);
    Some((out * 64) as u64)
}

/// The widest lane, in words, that [`wide_divrem`] divides on the stack;
/// wider ones go through the reference's `Bits` algebra. Lanes of at most
/// [`DIV_WORDS_SMALL`] words use arrays of that size (arrays are zeroed
/// whole, so a 129-bit division should not clear 64 words).
const DIV_WORDS: usize = 64;
const DIV_WORDS_SMALL: usize = 16;
/// The same in bits.
pub(crate) const DIV_BITS: u64 = 64 * DIV_WORDS as u64;

/// `DIOpDiv`/`DIOpMod` of two `w`-bit integers (word-aligned at bits `a`
/// and `b` of `words`), signed as `value::sdiv`/`value::srem` (the quotient
/// truncates toward zero, the remainder has the dividend's sign, results
/// wrap to `w` bits), into a fresh region: its first bit. `None` for other
/// operations and for lanes wider than [`DIV_WORDS`] words.
pub(crate) fn wide_divrem(
    words: &mut Vec<u64>,
    op: BinOp,
    a: u64,
    b: u64,
    w: u64,
) -> Option<Result<u64, DivByZero>> {
    let nw = w.div_ceil(64) as usize;
    if !matches!(op, BinOp::Div | BinOp::Mod) || nw > DIV_WORDS || nw == 0 {
        return None;
    }
    Some(if nw <= DIV_WORDS_SMALL {
        divrem_on::<DIV_WORDS_SMALL, { DIV_WORDS_SMALL + 1 }>(words, op, a, b, w)
    } else {
        divrem_on::<DIV_WORDS, { DIV_WORDS + 1 }>(words, op, a, b, w)
    })
}

/// [`wide_divrem`] on arrays of `N` words (`M` is `N + 1`).
fn divrem_on<const N: usize, const M: usize>(
    words: &mut Vec<u64>,
    op: BinOp,
    a: u64,
    b: u64,
    w: u64,
) -> Result<u64, DivByZero> {
    let nw = w.div_ceil(64) as usize;
    let top = w - 64 * (nw as u64 - 1);
    let load = |at: u64| {
        let mut x = [0u64; N];
        let i = (at / 64) as usize;
        x[..nw].copy_from_slice(&words[i..i + nw]);
        x[nw - 1] &= mask64(top);
        let negative = (x[nw - 1] >> (top - 1)) & 1 == 1;
        if negative {
            negate(&mut x[..nw], top);
        }
        (x, negative)
    };
    let ((x, nx), (y, ny)) = (load(a), load(b));
    if y[..nw].iter().all(|&d| d == 0) {
        return Err(DivByZero);
    }
    let (mut q, mut r) = ([0u64; N], [0u64; N]);
    divmod::<N, M>(&x[..nw], &y[..nw], &mut q[..nw], &mut r[..nw]);
    let (mut res, negative) = if op == BinOp::Div {
        (q, nx != ny)
    } else {
        (r, nx)
    };
    if negative {
        negate(&mut res[..nw], top);
    }
    let out = words.len();
    words.extend_from_slice(&res[..nw]);
    words[out + nw - 1] &= mask64(top);
    Ok((out * 64) as u64)
}

/// Two's complement negation of a run of words whose last has `top` bits.
fn negate(x: &mut [u64], top: u64) {
    let mut carry = true;
    for d in x.iter_mut() {
        let (v, c) = (!*d).overflowing_add(u64::from(carry));
        *d = v;
        carry = c;
    }
    let n = x.len();
    x[n - 1] &= mask64(top);
}

/// `u / v` into `q` and `u % v` into `r` (zeroed, as long as `u`), on
/// little-endian words, `v` not zero: schoolbook long division in base
/// 2^64, the quotient digit estimated from the top two digits of the
/// normalized divisor and corrected (Knuth, TAOCP vol. 2, 4.3.1, algorithm D).
fn divmod<const N: usize, const M: usize>(u: &[u64], v: &[u64], q: &mut [u64], r: &mut [u64]) {
    let n = v.iter().rposition(|&d| d != 0).expect("a nonzero divisor") + 1;
    let m = u.iter().rposition(|&d| d != 0).map_or(0, |i| i + 1);
    if m < n {
        r[..m].copy_from_slice(&u[..m]);
        return;
    }
    if n == 1 {
        let d = u128::from(v[0]);
        let mut rem = 0u128;
        for i in (0..m).rev() {
            let cur = (rem << 64) | u128::from(u[i]);
            q[i] = (cur / d) as u64;
            rem = cur % d;
        }
        r[0] = rem as u64;
        return;
    }
    // Normalized so that the divisor's top digit has its high bit set.
    let s = v[n - 1].leading_zeros();
    let shl = |hi: u64, lo: u64| {
        if s == 0 {
            hi
        } else {
            (hi << s) | (lo >> (64 - s))
        }
    };
    let mut vn = [0u64; N];
    vn[0] = v[0] << s;
    for i in 1..n {
        vn[i] = shl(v[i], v[i - 1]);
    }
    let mut un = [0u64; M];
    un[0] = u[0] << s;
    for i in 1..m {
        un[i] = shl(u[i], u[i - 1]);
    }
    un[m] = shl(0, u[m - 1]);
    let base = 1u128 << 64;
    let (top, next) = (u128::from(vn[n - 1]), u128::from(vn[n - 2]));
    for j in (0..=m - n).rev() {
        let num = (u128::from(un[j + n]) << 64) | u128::from(un[j + n - 1]);
        let (mut qhat, mut rhat) = (num / top, num % top);
        while qhat >= base || qhat * next > ((rhat << 64) | u128::from(un[j + n - 2])) {
            qhat -= 1;
            rhat += top;
            if rhat >= base {
                break;
            }
        }
        // un[j..=j+n] -= qhat * vn
        let (mut borrow, mut carry) = (0i128, 0u128);
        for i in 0..n {
            let p = qhat * u128::from(vn[i]) + carry;
            carry = p >> 64;
            let t = i128::from(un[i + j]) - borrow - i128::from(p as u64);
            un[i + j] = t as u64;
            borrow = i128::from(t < 0);
        }
        let t = i128::from(un[j + n]) - borrow - carry as i128;
        un[j + n] = t as u64;
        if t < 0 {
            // The estimate was one too large: add the divisor back.
            qhat -= 1;
            let mut c = 0u128;
            for i in 0..n {
                let sum = u128::from(un[i + j]) + u128::from(vn[i]) + c;
                un[i + j] = sum as u64;
                c = sum >> 64;
            }
            un[j + n] = un[j + n].wrapping_add(c as u64);
        }
        q[j] = qhat as u64;
    }
    for i in 0..n {
        r[i] = if s == 0 {
            un[i]
        } else {
            (un[i] >> s) | (un[i + 1] << (64 - s))
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::words;

    /// Marsaglia's xorshift64 from `state`: the tests' operand source.
    fn xorshift(mut state: u64) -> impl FnMut() -> u64 {
        move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        }
    }

    /// Half and bfloat lanes computed in `f32` against `rustc_apfloat` (what
    /// the reference uses) on every pair of edge encodings (zeros,
    /// subnormals, the smallest normal, the largest finite, infinities,
    /// NaNs, values near the rounding ties) and 200,000 pseudo-random pairs
    /// per kind and operation.
    #[test]
    fn half_and_bfloat_lanes_match_apfloat() {
        use rustc_apfloat::ieee::{BFloat, Half};
        let mut rng = xorshift(0x1234_5678_9abc_def1);
        let mut next = || rng() as u16;
        let edges: Vec<u16> = [
            0x0000, 0x0001, 0x0002, 0x03ff, 0x0400, 0x0401, 0x3c00, 0x3c01, 0x3bff, 0x7bff, 0x7bfe,
            0x7c00, 0x7e00, 0x7c01, 0x5bff, 0x1000, 0x0200, 0x7f7f, 0x7f80, 0x0080, 0x007f, 0x3f80,
            0x3f81, 0x4000, 0x7fc0, 0x00ff,
        ]
        .iter()
        .flat_map(|&e| [e, e | 0x8000])
        .collect();
        for kind in [FloatKind::Half, FloatKind::BFloat] {
            let apf = |f, a: u16, b: u16| match kind {
                FloatKind::Half => apfloat_binop::<Half>(f, a.into(), b.into()),
                _ => apfloat_binop::<BFloat>(f, a.into(), b.into()),
            };
            for op in [BinOp::Add, BinOp::Sub, BinOp::Mul, BinOp::Div] {
                let f = op.float().expect("a float operation");
                let check = |a: u16, b: u16| {
                    let got = float_lane(kind, op, a.into(), b.into());
                    assert_eq!(got, Some(apf(f, a, b)), "{kind:?} {op:?} {a:#06x} {b:#06x}");
                };
                for &a in &edges {
                    for &b in &edges {
                        check(a, b);
                    }
                }
                for _ in 0..200_000 {
                    check(next(), next());
                }
            }
        }
    }

    /// `int_lane`'s `Div` and `Mod` against the reference's `sdiv`/`srem`
    /// on `Bits` at every width up to 128 (the hardware's 64-bit division
    /// serves widths up to 64), on edge values (0, ±1, INT_MIN, INT_MAX,
    /// `INT_MIN / -1`) and pseudo-random ones.
    #[test]
    fn lane_division_matches_the_reference() {
        let mut rng = xorshift(0x2545_f491_4f6c_dd1d);
        let mut next = || {
            let x = rng();
            u128::from(x) << 64 | u128::from(x.rotate_left(29))
        };
        for w in 1..=128u64 {
            let m = mask128(w);
            let int_min = 1u128 << (w - 1);
            let mut vals = vec![0, 1, m, int_min, int_min - 1, int_min | 1, m - 1];
            vals.extend((0..12).map(|_| next() & m));
            for &a in &vals {
                for &b in &vals {
                    let (x, y) = (Bits::from_u128(w, a), Bits::from_u128(w, b));
                    for (op, want) in [
                        (BinOp::Div, value::sdiv(&x, &y)),
                        (BinOp::Mod, value::srem(&x, &y)),
                    ] {
                        let got = int_lane(op, w, a, b).ok();
                        let want = want.map(|r| r.to_u128().unwrap_or(0));
                        assert_eq!(got, want, "{op:?} i{w} {a:#x} {b:#x}");
                    }
                }
            }
        }
    }

    /// `wide_divrem` against the reference's `sdiv`/`srem` on `Bits`, for
    /// widths from 129 bits to the stack limit, operands of every length
    /// (short divisors, equal lengths, negative values, `INT_MIN / -1`).
    #[test]
    fn word_division_matches_the_reference() {
        let mut next = xorshift(0x9e37_79b9_7f4a_7c15);
        for case in 0..20000 {
            let w = 129 + next() % (64 * DIV_WORDS as u64 - 128);
            let nw = w.div_ceil(64) as usize;
            let (la, lb) = (1 + next() % nw as u64, 1 + next() % nw as u64);
            // Half of the cases on digits near the edges, where the quotient
            // digit's estimate needs its corrections.
            let edges = case % 2 == 0;
            let mut operand = |len: u64| -> Vec<u64> {
                let mut x: Vec<u64> = (0..nw)
                    .map(|_| match (edges, next() % 6) {
                        (false, _) | (true, 5) => next(),
                        (true, 0) => 0,
                        (true, 1) => 1,
                        (true, 2) => u64::MAX,
                        (true, 3) => u64::MAX - 1,
                        (true, _) => 1 << 63,
                    })
                    .collect();
                // Keep the low `len` words, then sign-extend or not.
                let keep = (len as usize).min(nw);
                let fill = if next().is_multiple_of(2) {
                    0
                } else {
                    u64::MAX
                };
                x[keep..].iter_mut().for_each(|d| *d = fill);
                x[nw - 1] &= mask64(w - 64 * (nw as u64 - 1));
                x
            };
            let (mut x, mut y) = (operand(la), operand(lb));
            if case % 50 == 0 {
                // INT_MIN / -1 and friends.
                x.iter_mut().for_each(|d| *d = 0);
                x[nw - 1] = 1 << (w - 64 * (nw as u64 - 1) - 1);
                y = vec![u64::MAX; nw];
                y[nw - 1] &= mask64(w - 64 * (nw as u64 - 1));
            }
            if case % 97 == 0 {
                x = y.clone();
            }
            for op in [BinOp::Div, BinOp::Mod] {
                let mut arena = x.clone();
                arena.extend_from_slice(&y);
                let got = wide_divrem(&mut arena, op, 0, nw as u64 * 64, w).expect("in range");
                let (xa, ya) = (
                    words::to_bits(&arena, 0, w),
                    words::to_bits(&arena, nw as u64 * 64, w),
                );
                match (got, wide_int_lane(op, &xa, &ya)) {
                    (Ok(at), Ok(want)) => assert_eq!(
                        words::to_bits(&arena, at, w),
                        want,
                        "{op:?} {w} {x:x?} {y:x?}"
                    ),
                    (Err(_), Err(_)) => {}
                    (g, _) => panic!("{op:?} {w} {x:x?} {y:x?}: {:?}", g.is_ok()),
                }
            }
        }
    }
}
