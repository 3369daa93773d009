//! Small helpers over Z3 bit-vectors and floats that the encoding needs and
//! the `z3` crate (0.12) does not offer: numerals of any width from and to
//! `BigInt`/`Bits`, and the floating-point operations of Z3's FPA theory
//! (through `z3-sys`, since the crate's `Float` has no conversions).

use diopter_semantics::value::{Bits, FloatKind};
use num_bigint::{BigInt, BigUint};
use num_traits::{One, Zero};
use z3::ast::{Ast, Bool, Dynamic, Float, BV};
use z3::Context;
use z3_sys::Z3_context;

/// The raw `Z3_context` of a `z3::Context`.
///
/// The crate keeps it private; `Context` is a struct whose only field is the
/// `Z3_context` pointer, so the pointer is its first (and only) word. The size
/// assertion guards against a crate version that adds a field.
fn raw(z: &Context) -> Z3_context {
    assert_eq!(
        std::mem::size_of::<Context>(),
        std::mem::size_of::<Z3_context>(),
        "z3::Context is no longer a bare Z3_context: update smt/bv.rs"
    );
    // SAFETY: `Context` consists of exactly one `Z3_context` (checked above),
    // so reading its bytes as a `Z3_context` reads that field.
    unsafe { std::mem::transmute_copy::<Context, Z3_context>(z) }
}

/// The bit-vector numeral `v mod 2^w`.
pub fn num<'c>(z: &'c Context, v: &BigInt, w: u64) -> BV<'c> {
    let m = BigInt::one() << w;
    let u = ((v % &m) + &m) % &m;
    BV::from_str(z, w as u32, &u.to_string()).expect("a decimal numeral")
}

pub fn num_u<'c>(z: &'c Context, v: u64, w: u64) -> BV<'c> {
    num(z, &BigInt::from(v), w)
}

pub fn bits_num<'c>(z: &'c Context, b: &Bits) -> BV<'c> {
    num(z, &BigInt::from(b.to_biguint()), b.width())
}

/// The unsigned value of a bit-vector numeral (after simplification), if it
/// is one.
pub fn as_biguint(b: &BV) -> Option<BigUint> {
    let s = b.simplify().to_string();
    if let Some(h) = s.strip_prefix("#x") {
        BigUint::parse_bytes(h.as_bytes(), 16)
    } else if let Some(d) = s.strip_prefix("#b") {
        BigUint::parse_bytes(d.as_bytes(), 2)
    } else {
        None
    }
}

/// The value of a bit-vector numeral read as a signed integer.
pub fn as_signed(b: &BV) -> Option<BigInt> {
    let u = BigInt::from(as_biguint(b)?);
    let w = b.get_size() as u64;
    if w > 0 && ((&u >> (w - 1)) & BigInt::one()) == BigInt::one() {
        Some(u - (BigInt::one() << w))
    } else {
        Some(u)
    }
}

pub fn as_bits(b: &BV) -> Option<Bits> {
    Some(Bits::from_biguint(b.get_size() as u64, &as_biguint(b)?))
}

pub fn as_bool(b: &Bool) -> Option<bool> {
    b.simplify().as_bool()
}

pub fn tt(z: &Context) -> Bool<'_> {
    Bool::from_bool(z, true)
}
pub fn ff(z: &Context) -> Bool<'_> {
    Bool::from_bool(z, false)
}

pub fn or<'c>(z: &'c Context, xs: &[Bool<'c>]) -> Bool<'c> {
    match xs.len() {
        0 => ff(z),
        1 => xs[0].clone(),
        _ => Bool::or(z, &xs.iter().collect::<Vec<_>>()),
    }
}
pub fn and<'c>(z: &'c Context, xs: &[Bool<'c>]) -> Bool<'c> {
    match xs.len() {
        0 => tt(z),
        1 => xs[0].clone(),
        _ => Bool::and(z, &xs.iter().collect::<Vec<_>>()),
    }
}

/// `v` resized to `w` bits: truncated, or extended (signed or not).
pub fn resize<'c>(v: &BV<'c>, w: u32, signed: bool) -> BV<'c> {
    let n = v.get_size();
    match n.cmp(&w) {
        std::cmp::Ordering::Equal => v.clone(),
        std::cmp::Ordering::Greater => v.extract(w - 1, 0),
        std::cmp::Ordering::Less if signed => v.sign_ext(w - n),
        std::cmp::Ordering::Less => v.zero_ext(w - n),
    }
}

/// `hi ++ lo` (lo in the low bits).
pub fn concat_lo_hi<'c>(lo: &BV<'c>, hi: &BV<'c>) -> BV<'c> {
    hi.concat(lo)
}

/// The summands of the `bvadd` tree `t`: each `concat(X, y)` with `y` of 3
/// bits goes to `bases` as `X` (`8 * X`) and, unless `y` is the numeral 0,
/// to `rest` as `y` zero-extended; every other summand goes to `rest`. So
/// `t = 8 * sum(bases) + sum(rest)` (mod 2^width), whatever the terms.
pub fn summands<'c>(t: &BV<'c>, bases: &mut Vec<BV<'c>>, rest: &mut Vec<BV<'c>>) {
    use z3::DeclKind;
    if t.is_app() {
        let kind = t.decl().kind();
        let kids = t.children();
        let parts: Option<Vec<BV<'c>>> = kids.iter().map(|k| k.as_bv()).collect();
        if let (DeclKind::BADD, Some(parts)) = (kind, &parts) {
            for k in parts {
                summands(k, bases, rest);
            }
            return;
        }
        if kind == DeclKind::CONCAT && kids.len() >= 2 {
            if let Some(parts) = parts {
                let low = &parts[parts.len() - 1];
                if low.get_size() == 3 {
                    let high = parts[1..parts.len() - 1]
                        .iter()
                        .fold(parts[0].clone(), |acc, x| acc.concat(x));
                    bases.push(high);
                    if as_biguint(low).is_none_or(|v| !v.is_zero()) {
                        rest.push(low.zero_ext(t.get_size() - 3));
                    }
                    return;
                }
            }
        }
    }
    rest.push(t.clone());
}

/// `k` bits of `v` starting at bit `off` (unsigned; the caller has checked
/// that they lie inside `v`, otherwise the result is unspecified bits).
///
/// The shift is done at the width of `v` (or `k`): an offset that lies inside
/// `v` fits in it, and for any other offset the bits do not matter. Keeping
/// the offset's full width out of the shifter keeps bit-blasted queries small.
pub fn extract_at<'c>(v: &BV<'c>, off: &BV<'c>, k: u64) -> BV<'c> {
    let w = (v.get_size() as u64).max(k).max(2) as u32;
    let wide = resize(v, w, false);
    let sh = resize(off, w, false);
    wide.bvlshr(&sh).extract(k as u32 - 1, 0)
}

/// `v` with bits `off .. off+k` replaced by `x` (`k` = width of `x`).
pub fn insert_at<'c>(v: &BV<'c>, off: &BV<'c>, x: &BV<'c>) -> BV<'c> {
    let z = v.get_ctx();
    let n = v.get_size();
    let k = x.get_size();
    // As in `extract_at`: offsets outside `v` do not matter.
    let w = (n as u64).max(k as u64).max(2) as u32;
    let wide = resize(v, w, false);
    let sh = resize(off, w, false);
    let ones = resize(&num(z, &((BigInt::one() << k) - 1), k as u64), w, false);
    let mask = ones.bvshl(&sh).bvnot();
    let put = resize(x, w, false).bvshl(&sh);
    wide.bvand(&mask).bvor(&put).extract(n - 1, 0)
}

// ---------------------------------------------------------------- floats

/// Exponent and significand widths (the latter with the hidden bit) of a
/// float kind in Z3's FPA theory; `None` for `x86_fp80`, whose explicit
/// integer bit (and its pseudo-denormals) Z3 does not model.
pub fn fp_format(k: FloatKind) -> Option<(u32, u32)> {
    match k {
        FloatKind::Half => Some((5, 11)),
        FloatKind::BFloat => Some((8, 8)),
        FloatKind::Float => Some((8, 24)),
        FloatKind::Double => Some((11, 53)),
        FloatKind::Fp128 => Some((15, 113)),
        FloatKind::X86Fp80 => None,
    }
}

fn wrap_float<'c>(z: &'c Context, a: z3_sys::Z3_ast) -> Float<'c> {
    // SAFETY: `a` was just returned by a Z3 call on `z`'s context.
    unsafe { Float::wrap(z, a) }
}
fn wrap_bv<'c>(z: &'c Context, a: z3_sys::Z3_ast) -> BV<'c> {
    // SAFETY: as above.
    unsafe { BV::wrap(z, a) }
}
fn wrap_bool<'c>(z: &'c Context, a: z3_sys::Z3_ast) -> Bool<'c> {
    // SAFETY: as above.
    unsafe { Bool::wrap(z, a) }
}

fn rm<'c>(z: &'c Context, toward_zero: bool) -> Dynamic<'c> {
    let c = raw(z);
    // SAFETY: plain constructor calls on a live context.
    unsafe {
        let a = if toward_zero {
            z3_sys::Z3_mk_fpa_rtz(c)
        } else {
            z3_sys::Z3_mk_fpa_rne(c)
        };
        Dynamic::wrap(z, a)
    }
}

fn sort(z: &Context, (e, s): (u32, u32)) -> z3_sys::Z3_sort {
    // SAFETY: constructor call; the sort is used at once, before any
    // reference count can drop (Z3 collects only on dec_ref).
    unsafe { z3_sys::Z3_mk_fpa_sort(raw(z), e, s) }
}

/// The float whose IEEE encoding is `b`.
pub fn fp_of_bits<'c>(b: &BV<'c>, f: (u32, u32)) -> Float<'c> {
    let z = b.get_ctx();
    wrap_float(z, unsafe {
        z3_sys::Z3_mk_fpa_to_fp_bv(raw(z), b.get_z3_ast(), sort(z, f))
    })
}

/// The IEEE encoding of a float that is not NaN (Z3 leaves NaN's unspecified).
pub fn bits_of_fp<'c>(x: &Float<'c>) -> BV<'c> {
    let z = x.get_ctx();
    wrap_bv(z, unsafe {
        z3_sys::Z3_mk_fpa_to_ieee_bv(raw(z), x.get_z3_ast())
    })
}

pub fn fp_is_nan<'c>(x: &Float<'c>) -> Bool<'c> {
    let z = x.get_ctx();
    wrap_bool(z, unsafe {
        z3_sys::Z3_mk_fpa_is_nan(raw(z), x.get_z3_ast())
    })
}

pub fn fp_is_inf<'c>(x: &Float<'c>) -> Bool<'c> {
    let z = x.get_ctx();
    wrap_bool(z, unsafe {
        z3_sys::Z3_mk_fpa_is_infinite(raw(z), x.get_z3_ast())
    })
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FpOp {
    Add,
    Sub,
    Mul,
    Div,
}

/// `a op b`, rounded to nearest even.
pub fn fp_bin<'c>(op: FpOp, a: &Float<'c>, b: &Float<'c>) -> Float<'c> {
    let z = a.get_ctx();
    let c = raw(z);
    let r = rm(z, false);
    let (r, a, b) = (r.get_z3_ast(), a.get_z3_ast(), b.get_z3_ast());
    wrap_float(z, unsafe {
        match op {
            FpOp::Add => z3_sys::Z3_mk_fpa_add(c, r, a, b),
            FpOp::Sub => z3_sys::Z3_mk_fpa_sub(c, r, a, b),
            FpOp::Mul => z3_sys::Z3_mk_fpa_mul(c, r, a, b),
            FpOp::Div => z3_sys::Z3_mk_fpa_div(c, r, a, b),
        }
    })
}

/// The signed (or unsigned) integer `v` as a float of format `f`, rounded to
/// nearest even.
pub fn fp_of_int<'c>(v: &BV<'c>, f: (u32, u32), signed: bool) -> Float<'c> {
    let z = v.get_ctx();
    let r = rm(z, false);
    wrap_float(z, unsafe {
        if signed {
            z3_sys::Z3_mk_fpa_to_fp_signed(raw(z), r.get_z3_ast(), v.get_z3_ast(), sort(z, f))
        } else {
            z3_sys::Z3_mk_fpa_to_fp_unsigned(raw(z), r.get_z3_ast(), v.get_z3_ast(), sort(z, f))
        }
    })
}

/// `x` converted to format `f`, rounded to nearest even.
pub fn fp_convert<'c>(x: &Float<'c>, f: (u32, u32)) -> Float<'c> {
    let z = x.get_ctx();
    let r = rm(z, false);
    wrap_float(z, unsafe {
        z3_sys::Z3_mk_fpa_to_fp_float(raw(z), r.get_z3_ast(), x.get_z3_ast(), sort(z, f))
    })
}

/// `x` truncated toward zero to a signed `w`-bit integer, and whether that is
/// defined (`x` finite and its integer part inside the signed range).
pub fn fp_to_sint<'c>(x: &Float<'c>, w: u32) -> (BV<'c>, Bool<'c>) {
    let z = x.get_ctx();
    let c = raw(z);
    let f = (
        x.get_sort().float_exponent_size().unwrap_or(8),
        x.get_sort().float_significand_size().unwrap_or(24),
    );
    // Z3 4.8.12 fails inside `fp.to_sbv` ("invalid zero_extend
    // application") for bfloat operands and ("bit-vector size must be
    // greater than zero") for a 1-bit result. Both are avoided without
    // changing the value where it is defined (`ok`): bfloat widens exactly
    // to float, and a value that fits in `w` signed bits is the truncation
    // of its conversion to 2 bits.
    let (x, f) = if f == (8, 8) {
        (fp_convert(x, (8, 24)), (8, 24))
    } else {
        (x.clone(), f)
    };
    let x = &x;
    let rtz = rm(z, true);
    let t = wrap_float(z, unsafe {
        z3_sys::Z3_mk_fpa_round_to_integral(c, rtz.get_z3_ast(), x.get_z3_ast())
    });
    // The bounds -2^(w-1) and 2^(w-1) are powers of two: converting them is
    // exact, or overflows to an infinity, which compares correctly.
    let lo = fp_of_int(
        &num(z, &(-(BigInt::one() << (w - 1))), w as u64 + 1),
        f,
        true,
    );
    let hi = fp_of_int(&num(z, &(BigInt::one() << (w - 1)), w as u64 + 1), f, false);
    let ge = wrap_bool(z, unsafe {
        z3_sys::Z3_mk_fpa_geq(c, t.get_z3_ast(), lo.get_z3_ast())
    });
    let lt = wrap_bool(z, unsafe {
        z3_sys::Z3_mk_fpa_lt(c, t.get_z3_ast(), hi.get_z3_ast())
    });
    let ok = Bool::and(z, &[&fp_is_nan(x).not(), &fp_is_inf(x).not(), &ge, &lt]);
    let v = wrap_bv(z, unsafe {
        z3_sys::Z3_mk_fpa_to_sbv(c, rtz.get_z3_ast(), x.get_z3_ast(), w.max(2))
    });
    (resize(&v, w, true), ok)
}

/// The quiet-NaN encoding of a NaN's bits: the quiet bit (the top bit of the
/// significand field) set, sign and payload kept.
pub fn quiet<'c>(bits: &BV<'c>, f: (u32, u32)) -> BV<'c> {
    let z = bits.get_ctx();
    let w = bits.get_size() as u64;
    let q = num(z, &(BigInt::one() << (f.1 - 2)), w);
    bits.bvor(&q)
}

/// The default NaN of format `f`: positive, quiet, payload zero.
pub fn default_nan<'c>(z: &'c Context, f: (u32, u32)) -> BV<'c> {
    let w = (f.0 + f.1) as u64;
    let exp = ((BigInt::one() << f.0) - 1) << (f.1 - 1);
    let q = BigInt::one() << (f.1 - 2);
    num(z, &(exp + q), w)
}

/// The bits of a binary operation's result, NaN payloads included, as LLVM's
/// APFloat (and so the constant folder) gives them: a NaN left operand is
/// returned quieted, else a NaN right operand quieted, else an invalid
/// operation gives the default NaN.
pub fn fp_bin_bits<'c>(op: FpOp, a: &BV<'c>, b: &BV<'c>, f: (u32, u32)) -> BV<'c> {
    let z = a.get_ctx();
    let (fa, fb) = (fp_of_bits(a, f), fp_of_bits(b, f));
    let r = fp_bin(op, &fa, &fb);
    let plain = fp_is_nan(&r).ite(&default_nan(z, f), &bits_of_fp(&r));
    fp_is_nan(&fa).ite(&quiet(a, f), &fp_is_nan(&fb).ite(&quiet(b, f), &plain))
}

/// A big-enough zero for padding reads that fail anyway.
pub fn zeros(z: &Context, w: u64) -> BV<'_> {
    num(z, &BigInt::zero(), w)
}
