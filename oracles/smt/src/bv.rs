//! Small helpers over Z3 bit-vectors and floats that the encoding needs:
//! numerals of any width from and to `BigInt`/`Bits`, and the floating-point
//! operations of Z3's FPA theory on the bits of every float kind (`float_*`:
//! the encodings the reference interpreter reads and writes, NaN payloads
//! and x86_fp80's non-IEEE encodings included). The `z3` crate's `Float` has
//! no conversion from a bit-vector (IEEE bits or integer), so those three are
//! made through `z3-sys` on the crate's (thread-local) context.

use diopter_semantics::value::{Bits, FloatKind};
use num_bigint::{BigInt, BigUint};
use num_traits::{One, Zero};
use z3::ast::{Ast, Bool, Float, RoundingMode, BV};
use z3::AstKind;
use z3::Sort;

/// The bit-vector numeral `v mod 2^w`.
pub fn num(v: &BigInt, w: u64) -> BV {
    let m = BigInt::one() << w;
    let u = ((v % &m) + &m) % &m;
    BV::from_str(w as u32, &u.to_string()).expect("a decimal numeral")
}

pub fn num_u(v: u64, w: u64) -> BV {
    num(&BigInt::from(v), w)
}

pub fn bits_num(b: &Bits) -> BV {
    num(&BigInt::from(b.to_biguint()), b.width())
}

/// The unsigned value of a bit-vector numeral (after simplification), if it
/// is one.
pub fn as_biguint(b: &BV) -> Option<BigUint> {
    // Printed only when it is a numeral: printing a large term (to find out
    // that it is not one) cost more than everything else the encoder does.
    if b.kind() == AstKind::Numeral {
        return numeral_value(b);
    }
    let t = b.simplify();
    if t.kind() != AstKind::Numeral {
        return None;
    }
    numeral_value(&t)
}

/// The value of the numeral `b`, read as Z3's decimal string (printing the
/// term, the general way, cost half of the prover's encoding time).
fn numeral_value(b: &BV) -> Option<BigUint> {
    let z = b.get_ctx();
    // SAFETY: `b` is a live numeral of `z`'s context; the string returned
    // stays valid until the next call on the context, and is copied at once.
    let p = unsafe { z3_sys::Z3_get_numeral_string(z.get_z3_context(), b.get_z3_ast()) };
    if p.is_null() {
        return None;
    }
    let digits = unsafe { std::ffi::CStr::from_ptr(p) };
    BigUint::parse_bytes(digits.to_bytes(), 10)
}

/// `as_biguint` the old way, by printing the simplified term: what the
/// test below checks `numeral_value` against.
#[cfg(test)]
fn as_biguint_printed(b: &BV) -> Option<BigUint> {
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

pub fn tt() -> Bool {
    Bool::from_bool(true)
}
pub fn ff() -> Bool {
    Bool::from_bool(false)
}

pub fn or(xs: &[Bool]) -> Bool {
    match xs.len() {
        0 => ff(),
        1 => xs[0].clone(),
        _ => Bool::or(&xs.iter().collect::<Vec<_>>()),
    }
}
pub fn and(xs: &[Bool]) -> Bool {
    match xs.len() {
        0 => tt(),
        1 => xs[0].clone(),
        _ => Bool::and(&xs.iter().collect::<Vec<_>>()),
    }
}

/// `v` resized to `w` bits: truncated, or extended (signed or not).
pub fn resize(v: &BV, w: u32, signed: bool) -> BV {
    let n = v.get_size();
    match n.cmp(&w) {
        std::cmp::Ordering::Equal => v.clone(),
        std::cmp::Ordering::Greater => v.extract(w - 1, 0),
        std::cmp::Ordering::Less if signed => v.sign_ext(w - n),
        std::cmp::Ordering::Less => v.zero_ext(w - n),
    }
}

/// `hi ++ lo` (lo in the low bits).
pub fn concat_lo_hi(lo: &BV, hi: &BV) -> BV {
    hi.concat(lo)
}

/// The function `t` applies, by its name (`bvadd`, `concat`, `and`, `=` for
/// the built-in ones), if `t` is an application.
///
/// Not `FuncDecl::kind`: z3-sys 0.14 numbers `DeclKind` as Z3 5.3 does, and
/// Debian's Z3 4.8.12 answers numbers that no variant has (45101 for every
/// uninterpreted constant, so for every variable), which a Rust enum must
/// never hold. The SMT-LIB names are the same in every Z3 version, and none
/// of the encoding's own constants (`%x`, `x.value`, `mem0[3]`, `lane`, ...)
/// is named like a built-in function.
pub fn app_name(t: &impl Ast) -> Option<String> {
    t.is_app().then(|| t.decl().name())
}

/// The summands of the `bvadd` tree `t`: each `concat(X, y)` with `y` of 3
/// bits goes to `bases` as `X` (`8 * X`) and, unless `y` is the numeral 0,
/// to `rest` as `y` zero-extended; every other summand goes to `rest`. So
/// `t = 8 * sum(bases) + sum(rest)` (mod 2^width), whatever the terms.
pub fn summands(t: &BV, bases: &mut Vec<BV>, rest: &mut Vec<BV>) {
    if let Some(name) = app_name(t) {
        let kids = t.children();
        let parts: Option<Vec<BV>> = kids.iter().map(|k| k.as_bv()).collect();
        if let ("bvadd", Some(parts)) = (name.as_str(), &parts) {
            for k in parts {
                summands(k, bases, rest);
            }
            return;
        }
        if name == "concat" && kids.len() >= 2 {
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

/// `t` as a sum: the summands of its `bvadd` tree that are not numerals
/// (as a multiset: each with its count, in no particular order) and the
/// sum of those that are, modulo 2^width. Two terms of one width whose
/// symbolic summands are the same multiset are equal exactly when their
/// numeral parts are.
pub fn linear(t: &BV) -> (Vec<(BV, usize)>, BigUint) {
    let w = t.get_size();
    let mut syms: Vec<(BV, usize)> = Vec::new();
    let mut c = BigUint::zero();
    let mut stack = vec![t.clone()];
    while let Some(t) = stack.pop() {
        if t.kind() == AstKind::Numeral {
            if let Some(v) = as_biguint(&t) {
                c += v;
                continue;
            }
        }
        if app_name(&t).as_deref() == Some("bvadd") {
            stack.extend(t.children().iter().filter_map(|k| k.as_bv()));
            continue;
        }
        match syms.iter_mut().find(|(s, _)| *s == t) {
            Some((_, n)) => *n += 1,
            None => syms.push((t, 1)),
        }
    }
    // Ordered by Z3's hash: terms that collide may compare unequal as
    // vectors, which only makes a caller fall back on a slower decision.
    syms.sort_by_key(|(s, n)| {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        s.hash(&mut h);
        (h.finish(), *n)
    });
    (syms, c % (BigUint::one() << w))
}

/// `k` bits of `v` starting at bit `off` (unsigned; the caller has checked
/// that they lie inside `v`, otherwise the result is unspecified bits).
///
/// The shift is done at the width of `v` (or `k`): an offset that lies inside
/// `v` fits in it, and for any other offset the bits do not matter. Keeping
/// the offset's full width out of the shifter keeps bit-blasted queries small.
pub fn extract_at(v: &BV, off: &BV, k: u64) -> BV {
    let w = (v.get_size() as u64).max(k).max(2) as u32;
    let wide = resize(v, w, false);
    let sh = resize(off, w, false);
    wide.bvlshr(&sh).extract(k as u32 - 1, 0)
}

/// `v` with bits `off .. off+k` replaced by `x` (`k` = width of `x`).
pub fn insert_at(v: &BV, off: &BV, x: &BV) -> BV {
    let n = v.get_size();
    let k = x.get_size();
    // As in `extract_at`: offsets outside `v` do not matter.
    let w = (n as u64).max(k as u64).max(2) as u32;
    let wide = resize(v, w, false);
    let sh = resize(off, w, false);
    let ones = resize(&num(&((BigInt::one() << k) - 1), k as u64), w, false);
    let mask = ones.bvshl(&sh).bvnot();
    let put = resize(x, w, false).bvshl(&sh);
    wide.bvand(&mask).bvor(&put).extract(n - 1, 0)
}

// ---------------------------------------------------------------- floats

/// Exponent and significand widths (the latter with the hidden bit) of the
/// Z3 FPA sort that holds a float kind's values. For `x86_fp80` that is
/// (15, 64): the values of its valid encodings are exactly those of an IEEE
/// format with 15 exponent bits and 63 stored fraction bits, whose integer
/// bit x87 stores instead of implying it; its encodings that are not valid
/// IEEE-like ones are decoded as the reference decodes them (`x87_parts`).
pub fn fp_format(k: FloatKind) -> (u32, u32) {
    match k {
        FloatKind::Half => (5, 11),
        FloatKind::BFloat => (8, 8),
        FloatKind::Float => (8, 24),
        FloatKind::Double => (11, 53),
        FloatKind::Fp128 => (15, 113),
        FloatKind::X86Fp80 => X87,
    }
}

/// The FPA format of `x86_fp80` values.
const X87: (u32, u32) = (15, 64);

fn rne() -> RoundingMode {
    RoundingMode::round_nearest_ties_to_even()
}

/// The float a raw FPA constructor `mk` makes on the context of `like`.
fn raw_float(
    like: &impl Ast,
    mk: impl FnOnce(z3_sys::Z3_context) -> Option<z3_sys::Z3_ast>,
) -> Float {
    let z = like.get_ctx();
    // The context has no error handler: a malformed term comes back null.
    let a = mk(z.get_z3_context()).expect("Z3 refused a floating-point conversion");
    // SAFETY: `a` was just made on `z`'s context; `wrap` takes a reference.
    unsafe { Float::wrap(z, a) }
}

/// The float whose IEEE encoding is `b` (not for x86_fp80: [`float_value`]).
fn fp_of_bits(b: &BV, f: (u32, u32)) -> Float {
    let sort = Sort::float(f.0, f.1);
    // SAFETY: both arguments are live terms of the context `raw_float` passes.
    raw_float(b, |c| unsafe {
        z3_sys::Z3_mk_fpa_to_fp_bv(c, b.get_z3_ast(), sort.get_z3_sort())
    })
}

/// The IEEE encoding of a float that is not NaN (Z3 leaves NaN's
/// unspecified; not for x86_fp80: [`float_bits`]).
fn bits_of_fp(x: &Float) -> BV {
    x.to_ieee_bv()
}

pub fn fp_is_nan(x: &Float) -> Bool {
    x.is_nan()
}

pub fn fp_is_inf(x: &Float) -> Bool {
    x.is_infinite()
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FpOp {
    Add,
    Sub,
    Mul,
    Div,
}

/// `a op b`, rounded to nearest even.
pub fn fp_bin(op: FpOp, a: &Float, b: &Float) -> Float {
    let r = rne();
    match op {
        FpOp::Add => a.add_with_rounding_mode(b, &r),
        FpOp::Sub => a.sub_with_rounding_mode(b, &r),
        FpOp::Mul => a.mul_with_rounding_mode(b, &r),
        FpOp::Div => a.div_with_rounding_mode(b, &r),
    }
}

/// The signed (or unsigned) integer `v` as a float of format `f`, rounded to
/// nearest even.
pub fn fp_of_int(v: &BV, f: (u32, u32), signed: bool) -> Float {
    let r = rne();
    let sort = Sort::float(f.0, f.1);
    let (r, a, s) = (r.get_z3_ast(), v.get_z3_ast(), sort.get_z3_sort());
    // SAFETY: every argument is a live term or sort of the context.
    raw_float(v, |c| unsafe {
        if signed {
            z3_sys::Z3_mk_fpa_to_fp_signed(c, r, a, s)
        } else {
            z3_sys::Z3_mk_fpa_to_fp_unsigned(c, r, a, s)
        }
    })
}

/// `x` converted to format `f`, rounded to nearest even.
pub fn fp_convert(x: &Float, f: (u32, u32)) -> Float {
    x.to_fp_with_rounding_mode(&rne(), &Sort::float(f.0, f.1))
}

/// `x` truncated toward zero to a signed `w`-bit integer, and whether that is
/// defined (`x` finite and its integer part inside the signed range).
pub fn fp_to_sint(x: &Float, w: u32) -> (BV, Bool) {
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
    let rtz = RoundingMode::round_towards_zero();
    let t = x.round_to_integral_with_rounding_mode(&rtz);
    // The bounds -2^(w-1) and 2^(w-1) are powers of two: converting them is
    // exact, or overflows to an infinity, which compares correctly.
    let lo = fp_of_int(&num(&(-(BigInt::one() << (w - 1))), w as u64 + 1), f, true);
    let hi = fp_of_int(&num(&(BigInt::one() << (w - 1)), w as u64 + 1), f, false);
    let ok = Bool::and(&[fp_is_nan(x).not(), fp_is_inf(x).not(), t.ge(&lo), t.lt(&hi)]);
    let v = x.to_sbv_with_rounding_mode(&rtz, w.max(2));
    (resize(&v, w, true), ok)
}

/// The quiet-NaN encoding of a NaN's bits: the quiet bit (the top bit of the
/// significand field) set, sign and payload kept.
fn quiet(bits: &BV, f: (u32, u32)) -> BV {
    let w = bits.get_size() as u64;
    let q = num(&(BigInt::one() << (f.1 - 2)), w);
    bits.bvor(&q)
}

/// The bits of the NaN `bits` (of format `fa`) converted to format `fb`, as
/// LLVM's APFloat (`convert`) gives them: the NaN is quieted (the quiet bit,
/// the top bit of the fraction field, set), its fraction field is shifted by
/// the difference of the precisions (right for a narrower kind, dropping the
/// low payload bits; left for a wider one, filling with zeros) and cut to
/// the target's field, the quiet bit is set again in the target, and the
/// sign is kept. So a NaN never becomes an infinity, and a signalling NaN
/// comes out quiet. `bits` and the result are IEEE-shaped (sign, exponent,
/// fraction field); only the sign and the fraction field of `bits` are read.
fn nan_convert_bits(bits: &BV, fa: (u32, u32), fb: (u32, u32)) -> BV {
    let wa = fa.0 + fa.1;
    let sign = bits.extract(wa - 1, wa - 1);
    // The fraction field, `fa.1 - 1` bits.
    let field = bits.extract(fa.1 - 2, 0);
    let field = match fb.1.cmp(&fa.1) {
        std::cmp::Ordering::Equal => field,
        std::cmp::Ordering::Less => field.extract(fa.1 - 2, fa.1 - fb.1),
        std::cmp::Ordering::Greater => field.concat(zeros((fb.1 - fa.1) as u64)),
    };
    let quiet_bit = num(&(BigInt::one() << (fb.1 - 2)), (fb.1 - 1) as u64);
    let ones = num(&((BigInt::one() << fb.0) - 1), fb.0 as u64);
    sign.concat(&ones).concat(field.bvor(&quiet_bit))
}

/// The default NaN of format `f`, IEEE-shaped: positive, quiet, payload zero.
fn default_nan(f: (u32, u32)) -> BV {
    let w = (f.0 + f.1) as u64;
    let exp = ((BigInt::one() << f.0) - 1) << (f.1 - 1);
    let q = BigInt::one() << (f.1 - 2);
    num(&(exp + q), w)
}

// ------------------------------------------------------------- x86_fp80
//
// The reference interpreter reads and writes x86_fp80 through
// `rustc_apfloat`'s `X87DoubleExtended` (LLVM's APFloat), and these helpers
// follow it, not Intel's manual, where the two differ: the 80 bits are the
// sign (bit 79), a 15-bit biased exponent (78..64), the explicit integer bit
// (63) and 63 fraction bits (62..0); the "significand" is bits 63..0.
//
// * exponent 0, significand 0: a zero;
// * exponent all ones, significand exactly the integer bit: an infinity;
// * exponent all ones, any other significand: a NaN. That includes the
//   pseudo-infinity (integer bit clear, fraction 0) and the pseudo-NaNs
//   (integer bit clear, fraction not 0), which the 387 and later refuse;
// * exponent neither 0 nor all ones, integer bit clear (an unnormal): a NaN
//   too, not the unnormal's finite value;
// * exponent 0, integer bit clear: a denormal, 2^-16382 * 0.f;
// * exponent 0, integer bit set (a pseudo-denormal): the normal number
//   2^-16382 * 1.f, the value Intel gives it too;
// * otherwise a normal number.
//
// A NaN keeps its whole significand, the integer bit included, and its
// sign; when the reference writes one back its exponent is all ones (an
// unnormal comes out with exponent all ones and its significand). Quieting
// (an arithmetic operand) sets bit 62 and leaves the integer bit as it is,
// so a quieted pseudo-NaN stays a pseudo-NaN (APFloat does so on purpose,
// to stay bug-compatible with LLVM: llvm/llvm-project#63938). Every other
// result is canonical: the integer bit is set exactly when the exponent is
// not 0.

/// An `x86_fp80` encoding taken apart as the reference reads it.
struct X87Parts {
    /// Whether the reference reads it as a NaN (see above).
    nan: Bool,
    /// Its value when it is not a NaN, as a (15, 64) IEEE encoding: the
    /// integer bit dropped, and a pseudo-denormal given exponent 1 (the
    /// exponent of its value).
    ieee: BV,
    /// Sign, exponent and fraction as they are, the integer bit dropped
    /// (IEEE-shaped): all that converting it as a NaN reads.
    fields: BV,
    /// The sign bit.
    sign: BV,
    /// Bits 63..0: the integer bit and the fraction.
    sig: BV,
}

fn x87_parts(b: &BV) -> X87Parts {
    let sign = b.extract(79, 79);
    let exp = b.extract(78, 64);
    let int = b.extract(63, 63);
    let frac = b.extract(62, 0);
    let sig = b.extract(63, 0);
    let exp_zero = exp.eq(zeros(15));
    let exp_ones = exp.eq(num_u(0x7fff, 15));
    let int_set = int.eq(num_u(1, 1));
    let nan = Bool::or(&[
        &Bool::and(&[&exp_ones, &sig.eq(num_u(1 << 63, 64)).not()]),
        &Bool::and(&[&exp_zero.not(), &exp_ones.not(), &int_set.not()]),
    ]);
    let pseudo_denormal = Bool::and(&[&exp_zero, &int_set]);
    let exp_value = pseudo_denormal.ite(&num_u(1, 15), &exp);
    X87Parts {
        nan,
        ieee: sign.concat(&exp_value).concat(&frac),
        fields: sign.concat(&exp).concat(&frac),
        sign,
        sig,
    }
}

/// The `x86_fp80` encoding of the (15, 64) IEEE encoding `ieee`: the integer
/// bit inserted, set exactly when the exponent is not 0. For a value that
/// is not NaN this is the canonical encoding the reference writes; for a
/// NaN (exponent all ones) it is a NaN with the integer bit set, which is
/// what a conversion to x86_fp80 makes.
fn x87_of_ieee(ieee: &BV) -> BV {
    let sign_exp = ieee.extract(78, 63);
    let exp = ieee.extract(77, 63);
    let int = exp.eq(zeros(15)).ite(&num_u(0, 1), &num_u(1, 1));
    sign_exp.concat(&int).concat(ieee.extract(62, 0))
}

/// An x86_fp80 NaN quieted as APFloat quiets an arithmetic operand: bit 62
/// set, the integer bit left alone, the exponent all ones, the sign kept.
fn x87_quiet(p: &X87Parts) -> BV {
    let sig = p.sig.bvor(num_u(1 << 62, 64));
    p.sign.concat(num_u(0x7fff, 15)).concat(&sig)
}

// ------------------------------------------------- float kinds, as bits

/// The value the reference reads from the bits `b` of a `k`, in the sort
/// [`fp_format`] gives `k`: NaN for every encoding it reads as a NaN.
pub fn float_value(b: &BV, k: FloatKind) -> Float {
    match k {
        FloatKind::X86Fp80 => {
            let p = x87_parts(b);
            p.nan.ite(
                &Float::nan(&Sort::float(X87.0, X87.1)),
                &fp_of_bits(&p.ieee, X87),
            )
        }
        _ => fp_of_bits(b, fp_format(k)),
    }
}

/// Whether the reference reads the bits `b` of a `k` as a NaN.
pub fn float_is_nan(b: &BV, k: FloatKind) -> Bool {
    match k {
        FloatKind::X86Fp80 => x87_parts(b).nan,
        _ => fp_is_nan(&fp_of_bits(b, fp_format(k))),
    }
}

/// The encoding of `x`, a value of `k`'s sort that is not NaN, as the
/// reference writes it (for x86_fp80 the canonical one).
fn float_bits(x: &Float, k: FloatKind) -> BV {
    match k {
        FloatKind::X86Fp80 => x87_of_ieee(&bits_of_fp(x)),
        _ => bits_of_fp(x),
    }
}

/// The bits of the signed integer `v` converted to `k`, rounded to nearest
/// even (never a NaN).
pub fn float_of_sint(v: &BV, k: FloatKind) -> BV {
    float_bits(&fp_of_int(v, fp_format(k), true), k)
}

/// The `k` value of bits `b` truncated toward zero to a signed `w`-bit
/// integer, and whether that is defined (see [`fp_to_sint`]).
pub fn float_to_sint(b: &BV, k: FloatKind, w: u32) -> (BV, Bool) {
    fp_to_sint(&float_value(b, k), w)
}

/// The bits of the `ka` value `b` converted to `kb`, rounded to nearest
/// even, NaNs as `nan_convert_bits` gives them: exactly the bits the
/// reference's `convert` gives.
pub fn float_convert(b: &BV, ka: FloatKind, kb: FloatKind) -> BV {
    let (fa, fb) = (fp_format(ka), fp_format(kb));
    // A NaN's sign and fraction field, IEEE-shaped; for x86_fp80 the bits
    // below the integer bit, which APFloat's shift drops or moves out of
    // the target's payload either way.
    let nan_in = match ka {
        FloatKind::X86Fp80 => x87_parts(b).fields,
        _ => b.clone(),
    };
    let nan_out = nan_convert_bits(&nan_in, fa, fb);
    let nan_out = match kb {
        // A NaN made by `convert` has the integer bit set (`qnan` sets it
        // with the quiet bit), even from a pseudo-NaN or an unnormal.
        FloatKind::X86Fp80 => x87_of_ieee(&nan_out),
        _ => nan_out,
    };
    let value = fp_convert(&float_value(b, ka), fb);
    float_is_nan(b, ka).ite(&nan_out, &float_bits(&value, kb))
}

/// The bits of `a op b` for two `k` values, NaN payloads included, as LLVM's
/// APFloat (and so the constant folder) gives them: a NaN left operand is
/// returned quieted, else a NaN right operand quieted, else an invalid
/// operation gives the default NaN.
pub fn float_bin(op: FpOp, a: &BV, b: &BV, k: FloatKind) -> BV {
    let f = fp_format(k);
    let r = fp_bin(op, &float_value(a, k), &float_value(b, k));
    let quieted = |x: &BV| match k {
        FloatKind::X86Fp80 => x87_quiet(&x87_parts(x)),
        _ => quiet(x, f),
    };
    let default = match k {
        FloatKind::X86Fp80 => x87_of_ieee(&default_nan(f)),
        _ => default_nan(f),
    };
    let plain = fp_is_nan(&r).ite(&default, &float_bits(&r, k));
    float_is_nan(a, k).ite(&quieted(a), &float_is_nan(b, k).ite(&quieted(b), &plain))
}

/// A big-enough zero for padding reads that fail anyway.
pub fn zeros(w: u64) -> BV {
    num(&BigInt::zero(), w)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reading a numeral's value from Z3's decimal string gives what
    /// printing the term gave, at widths from 1 to 130 bits, for numerals
    /// and for terms that simplify to numerals; a term that does not is
    /// `None` both ways.
    #[test]
    fn numeral_values_match_the_printed_ones() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for w in 1..=130u64 {
            for _ in 0..8 {
                seed = seed
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                let v = (BigUint::from(seed) << 64u32 | BigUint::from(seed.rotate_left(17)))
                    % (BigUint::one() << w);
                let n = num(&BigInt::from(v.clone()), w);
                assert_eq!(as_biguint(&n), Some(v.clone()), "numeral at {w} bits");
                assert_eq!(as_biguint(&n), as_biguint_printed(&n));
                let sum = n.bvadd(num_u(1, w));
                assert_eq!(
                    as_biguint(&sum),
                    as_biguint_printed(&sum),
                    "sum at {w} bits"
                );
                assert_eq!(as_biguint(&sum), Some((v + 1u32) % (BigUint::one() << w)));
            }
            let x = BV::new_const(format!("x{w}"), w as u32);
            assert_eq!(as_biguint(&x), None);
            assert_eq!(as_biguint_printed(&x), None);
            assert_eq!(as_biguint(&x.bvxor(&x)), Some(BigUint::zero()));
        }
    }

    /// `linear` finds two sums equal or different exactly when their
    /// symbolic summands agree, whatever the order and nesting of `bvadd`.
    #[test]
    fn linear_forms_compare_sums() {
        let (a, b) = (BV::new_const("la", 64), BV::new_const("lb", 64));
        let s1 = a.bvadd(num_u(3, 64)).bvadd(&b);
        let s2 = b.bvadd(&a).bvadd(num_u(3, 64));
        let s3 = b.bvadd(num_u(1, 64)).bvadd(&a).bvadd(num_u(2, 64));
        let s4 = a.bvadd(&b).bvadd(num_u(4, 64));
        let (l1, l2, l3, l4) = (linear(&s1), linear(&s2), linear(&s3), linear(&s4));
        assert!(l1 == l2 && l1 == l3, "the same sum");
        assert_eq!(l1.0, l4.0);
        assert_ne!(l1.1, l4.1, "the same summands, other numerals");
        let l5 = linear(&a.bvadd(&a));
        let l6 = linear(&a.bvadd(&b));
        assert_ne!(l5.0, l6.0, "a + a is not a + b");
        // Numerals wrap at the width.
        let w = linear(&a.bvadd(num_u(u64::MAX, 64)).bvadd(num_u(1, 64)));
        assert_eq!(w, (vec![(a.clone(), 1)], BigUint::zero()));
    }
}
