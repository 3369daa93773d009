//! The values a DIOp expression computes with: fixed-width bit vectors and
//! the IEEE floating-point numbers stored in them.
//!
//! This is the value algebra of the *reference* interpreter, so it is
//! written to be checked by reading, not to be fast.
//!
//! * A [`Bits`] is an unsigned big integer together with a width; every
//!   integer operation is defined on the mathematical integers (through
//!   [`BigUint`]/[`BigInt`]) and then reduced modulo `2^width`, which is
//!   exactly LLVM's wrapping semantics. Signedness lives in the operation,
//!   never in the value, as in LLVM IR.
//! * Every floating-point operation goes through `rustc_apfloat`, the Rust
//!   port of LLVM's `APFloat`, so rounding, NaN propagation and the encodings
//!   of the x87 80-bit format agree with what LLVM itself folds. That crate
//!   has a native `BFloat` semantics (8-bit exponent, 8-bit significand), so
//!   bfloat arithmetic is rounded once, directly to bfloat: there is no
//!   detour through `float` and hence no double rounding.
//! * Float literals use LLVM IR's spelling (see [`parse_float_literal`] and
//!   [`format_float_literal`]), so text printed here can be handed to LLVM
//!   tools and text printed by them can be read here.
//!
//! Widths are `u64` and nothing here refuses a large one, but a value is
//! materialised as a big integer, so a width of billions of bits costs
//! memory in proportion (a zero of any width is cheap).
//!
//! # Where literals differ from LLVM's
//!
//! [`parse_float_literal`] accepts more than LLVM's IR parser: decimals
//! that are not exact are rounded (LLVM rejects `float 0.1`), decimals are
//! taken for fp128 and x86_fp80 too, and an integer like `1` needs no dot.
//! [`format_float_literal`] prints exactly what LLVM's AsmWriter prints for
//! float and double; for half and bfloat it prints a decimal where that is
//! exact, which LLVM reads fine but never prints itself (it always uses
//! `0xH`/`0xR`). Everything it prints is valid LLVM IR with the same bits.

use num_bigint::{BigInt, BigUint, Sign};
use num_traits::{One, ToPrimitive, Zero};
use rustc_apfloat::ieee::{BFloat, Double, Half, Single};
use rustc_apfloat::{ExpInt, Float, FloatConvert, Round, Status};

/// A fixed-width bit vector; bit 0 is the least significant.
///
/// Widths are at least 1, except for [`Bits::empty`] (width 0), the unit of
/// [`Bits::concat`].
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Bits {
    width: u64,
    /// Invariant: `value < 2^width`, so derived equality is value equality.
    value: BigUint,
}

/// `2^width - 1`.
fn mask(width: u64) -> BigUint {
    (BigUint::one() << width) - 1u32
}

/// `v mod 2^width`.
fn low_bits(v: BigUint, width: u64) -> BigUint {
    // A mask is only built when it is needed, so that reducing a small value
    // to a huge width does not allocate a huge mask.
    if v.bits() <= width {
        v
    } else {
        v & mask(width)
    }
}

/// The low 128 bits of `v`, with no failure case.
fn low_u128(v: &BigUint) -> u128 {
    let mut digits = v.iter_u64_digits();
    let lo = digits.next().unwrap_or(0);
    let hi = digits.next().unwrap_or(0);
    (u128::from(hi) << 64) | u128::from(lo)
}

impl Bits {
    fn new(width: u64, value: BigUint) -> Bits {
        Bits {
            width,
            value: low_bits(value, width),
        }
    }

    /// The bit vector of width 0.
    pub fn empty() -> Bits {
        Bits::zero(0)
    }

    /// `width` zero bits.
    pub fn zero(width: u64) -> Bits {
        Bits {
            width,
            value: BigUint::zero(),
        }
    }

    /// All `width` bits set.
    pub fn ones(width: u64) -> Bits {
        Bits {
            width,
            value: mask(width),
        }
    }

    /// `v` truncated to `width` bits.
    pub fn from_u64(width: u64, v: u64) -> Bits {
        Bits::new(width, BigUint::from(v))
    }

    /// `v` truncated to `width` bits.
    pub fn from_u128(width: u64, v: u128) -> Bits {
        Bits::new(width, BigUint::from(v))
    }

    /// `v mod 2^width`.
    pub fn from_biguint(width: u64, v: &BigUint) -> Bits {
        Bits::new(width, v.clone())
    }

    /// The two's complement encoding of `v mod 2^width`.
    pub fn from_bigint(width: u64, v: &BigInt) -> Bits {
        let low = low_bits(v.magnitude().clone(), width);
        match v.sign() {
            // -m mod 2^w is 2^w - (m mod 2^w), except that 0 stays 0.
            Sign::Minus if !low.is_zero() => Bits {
                width,
                value: (BigUint::one() << width) - low,
            },
            _ => Bits { width, value: low },
        }
    }

    /// The low `width` bits of a little-endian byte string; bits the string
    /// does not have are zero.
    pub fn from_le_bytes(width: u64, bytes: &[u8]) -> Bits {
        Bits::new(width, BigUint::from_bytes_le(bytes))
    }

    /// `ceil(width / 8)` bytes, little-endian; the unused high bits of the
    /// last byte are zero.
    pub fn to_le_bytes(&self) -> Vec<u8> {
        let len = usize::try_from(self.width.div_ceil(8)).unwrap_or(usize::MAX);
        let mut bytes = self.value.to_bytes_le();
        // `to_bytes_le` is minimal (and gives `[0]` for zero), so pad it out;
        // it is never longer than `len` except for that `[0]` at width 0.
        bytes.resize(len, 0);
        bytes
    }

    /// The unsigned reading's 64-bit digits, least significant first, as
    /// many as it has (none for zero; at most `ceil(width / 64)`).
    pub fn iter_u64_digits(&self) -> impl Iterator<Item = u64> + '_ {
        self.value.iter_u64_digits()
    }

    /// The number of bits.
    pub fn width(&self) -> u64 {
        self.width
    }

    /// The unsigned reading.
    pub fn to_biguint(&self) -> BigUint {
        self.value.clone()
    }

    /// The signed (two's complement) reading; width 0 reads as 0.
    pub fn to_bigint(&self) -> BigInt {
        let unsigned = BigInt::from(self.value.clone());
        if self.is_negative() {
            unsigned - (BigInt::one() << self.width)
        } else {
            unsigned
        }
    }

    /// The unsigned reading, if it fits.
    pub fn to_u64(&self) -> Option<u64> {
        self.value.to_u64()
    }

    /// The signed reading, if it fits.
    pub fn to_i64(&self) -> Option<i64> {
        self.to_bigint().to_i64()
    }

    /// The unsigned reading, if it fits.
    pub fn to_u128(&self) -> Option<u128> {
        // The digits directly: num-bigint's general conversion costs more
        // than the rest of loading a small implicit value. (Not `#[inline]`:
        // inlined into the fast evaluator's run loop it made that loop's
        // code worse, about 20 instructions per evaluation.)
        let mut digits = self.value.iter_u64_digits();
        let lo = digits.next().unwrap_or(0);
        let hi = digits.next().unwrap_or(0);
        // Digits are normalized: a third one means 2^128 or more.
        if digits.next().is_some() {
            return None;
        }
        Some(u128::from(lo) | u128::from(hi) << 64)
    }

    /// Whether every bit is 0 (true at width 0).
    pub fn is_zero(&self) -> bool {
        self.value.is_zero()
    }

    /// Bit `i`; bits at or beyond the width are 0.
    pub fn bit(&self, i: u64) -> bool {
        self.value.bit(i)
    }

    /// The sign bit (the top bit); false at width 0.
    fn is_negative(&self) -> bool {
        self.width > 0 && self.bit(self.width - 1)
    }

    /// Bits `[lo, lo + len)` as a vector of width `len`; positions at or
    /// beyond the width read as 0.
    pub fn slice(&self, lo: u64, len: u64) -> Bits {
        Bits::new(len, &self.value >> lo)
    }

    /// `low` in bits `0..low.width`, `high` above it.
    ///
    /// The width saturates at `u64::MAX`, a width no materialised value can
    /// reach anyway.
    pub fn concat(low: &Bits, high: &Bits) -> Bits {
        let width = low.width.saturating_add(high.width);
        Bits::new(width, &low.value | (&high.value << low.width))
    }

    /// `0x` followed by `ceil(width / 4)` lowercase hex digits (so just `0x`
    /// at width 0).
    pub fn to_hex(&self) -> String {
        if self.width == 0 {
            return "0x".to_string();
        }
        // Padded by hand: `format!`'s width argument is limited to 16 bits
        // (a value of more than 262,140 bits would panic there).
        let digits = usize::try_from(self.width.div_ceil(4)).unwrap_or(usize::MAX);
        let body = self.value.to_str_radix(16);
        let mut s = String::with_capacity(2 + digits.max(body.len()));
        s.push_str("0x");
        for _ in body.len()..digits {
            s.push('0');
        }
        s.push_str(&body);
        s
    }
}

// Integer operations. Both operands have the same width (the caller
// guarantees it; debug builds check it) and so does the result.

/// The right operand at the width of the left one. Only a caller's bug
/// makes them differ; then release builds cut or zero-extend `b` rather
/// than panic.
fn rhs(a: &Bits, b: &Bits) -> Bits {
    debug_assert_eq!(a.width, b.width, "integer operands of different widths");
    trunc(b, a.width)
}

/// Wrapping `a + b`.
pub fn add(a: &Bits, b: &Bits) -> Bits {
    let b = rhs(a, b);
    Bits::new(a.width, &a.value + &b.value)
}

/// Wrapping `a - b`.
pub fn sub(a: &Bits, b: &Bits) -> Bits {
    let b = rhs(a, b);
    if a.value >= b.value {
        Bits::new(a.width, &a.value - &b.value)
    } else {
        // The difference is negative, so it wraps to 2^w - (b - a).
        Bits::new(a.width, (BigUint::one() << a.width) - (&b.value - &a.value))
    }
}

/// Wrapping `a * b`.
pub fn mul(a: &Bits, b: &Bits) -> Bits {
    let b = rhs(a, b);
    Bits::new(a.width, &a.value * &b.value)
}

/// Signed division truncating toward zero; `None` when `b` is 0. The one
/// overflowing case, `INT_MIN / -1`, wraps to `INT_MIN`.
pub fn sdiv(a: &Bits, b: &Bits) -> Option<Bits> {
    let b = rhs(a, b);
    if b.is_zero() {
        return None;
    }
    // `BigInt` division truncates toward zero, like LLVM's `sdiv`.
    Some(Bits::from_bigint(a.width, &(a.to_bigint() / b.to_bigint())))
}

/// Signed remainder with the sign of the dividend `a`; `None` when `b` is
/// 0. `INT_MIN % -1` is 0.
pub fn srem(a: &Bits, b: &Bits) -> Option<Bits> {
    let b = rhs(a, b);
    if b.is_zero() {
        return None;
    }
    // `BigInt` remainder takes the sign of the dividend, like LLVM's `srem`.
    Some(Bits::from_bigint(a.width, &(a.to_bigint() % b.to_bigint())))
}

/// Bitwise and.
pub fn and(a: &Bits, b: &Bits) -> Bits {
    let b = rhs(a, b);
    Bits::new(a.width, &a.value & &b.value)
}

/// Bitwise or.
pub fn or(a: &Bits, b: &Bits) -> Bits {
    let b = rhs(a, b);
    Bits::new(a.width, &a.value | &b.value)
}

/// Bitwise exclusive or.
pub fn xor(a: &Bits, b: &Bits) -> Bits {
    let b = rhs(a, b);
    Bits::new(a.width, &a.value ^ &b.value)
}

/// The shift amount if it is less than `width`. `amount` is read unsigned
/// and may have any width.
fn shift_amount(amount: &Bits, width: u64) -> Option<u64> {
    amount.value.to_u64().filter(|&s| s < width)
}

/// `a << amount`; an amount of at least the width gives 0.
pub fn shl(a: &Bits, amount: &Bits) -> Bits {
    match shift_amount(amount, a.width) {
        Some(s) => Bits::new(a.width, &a.value << s),
        None => Bits::zero(a.width),
    }
}

/// Logical `a >> amount`; an amount of at least the width gives 0.
pub fn lshr(a: &Bits, amount: &Bits) -> Bits {
    match shift_amount(amount, a.width) {
        Some(s) => Bits::new(a.width, &a.value >> s),
        None => Bits::zero(a.width),
    }
}

/// Arithmetic `a >> amount`; an amount of at least the width gives a copy
/// of the sign bit in every position.
pub fn ashr(a: &Bits, amount: &Bits) -> Bits {
    if !a.is_negative() {
        return lshr(a, amount);
    }
    match shift_amount(amount, a.width) {
        // The logical shift brought in `s` zeros at the top; make them ones.
        Some(s) => Bits::new(a.width, (&a.value >> s) | (mask(s) << (a.width - s))),
        None => Bits::ones(a.width),
    }
}

/// The low `width` bits of `a`. (Given a width above `a`'s, this
/// zero-extends.)
pub fn trunc(a: &Bits, width: u64) -> Bits {
    Bits::new(width, a.value.clone())
}

/// Zero-extension to `width >= a.width()`. (Given a smaller width, this
/// truncates.)
pub fn zext(a: &Bits, width: u64) -> Bits {
    debug_assert!(width >= a.width);
    Bits::new(width, a.value.clone())
}

/// Sign-extension to `width >= a.width()`. (Given a smaller width, this
/// truncates.)
pub fn sext(a: &Bits, width: u64) -> Bits {
    debug_assert!(width >= a.width);
    Bits::from_bigint(width, &a.to_bigint())
}

/// The floating-point types of LLVM IR that DIOp expressions can use.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum FloatKind {
    /// IEEE binary16.
    Half,
    /// bfloat16: the top half of a binary32 (8 exponent, 7 fraction bits).
    BFloat,
    /// IEEE binary32.
    Float,
    /// IEEE binary64.
    Double,
    /// IEEE binary128.
    Fp128,
    /// The x87 80-bit extended format, with an explicit integer bit.
    X86Fp80,
}

impl FloatKind {
    /// Every kind, in declaration order.
    pub const ALL: [FloatKind; 6] = [
        FloatKind::Half,
        FloatKind::BFloat,
        FloatKind::Float,
        FloatKind::Double,
        FloatKind::Fp128,
        FloatKind::X86Fp80,
    ];

    /// The width of the encoding in bits.
    pub fn width(self) -> u64 {
        match self {
            FloatKind::Half | FloatKind::BFloat => 16,
            FloatKind::Float => 32,
            FloatKind::Double => 64,
            FloatKind::Fp128 => 128,
            FloatKind::X86Fp80 => 80,
        }
    }

    /// The LLVM IR type name.
    pub fn name(self) -> &'static str {
        match self {
            FloatKind::Half => "half",
            FloatKind::BFloat => "bfloat",
            FloatKind::Float => "float",
            FloatKind::Double => "double",
            FloatKind::Fp128 => "fp128",
            FloatKind::X86Fp80 => "x86_fp80",
        }
    }

    /// The kind whose [`FloatKind::name`] is `name`.
    pub fn from_name(name: &str) -> Option<FloatKind> {
        FloatKind::ALL.into_iter().find(|k| k.name() == name)
    }
}

/// The arithmetic of [`float_binop`].
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum FloatOp {
    /// `a + b`
    Add,
    /// `a - b`
    Sub,
    /// `a * b`
    Mul,
    /// `a / b`
    Div,
}

/// Runs `$body` with `$F` naming the `rustc_apfloat` type of `$kind`: the
/// one place that maps kinds to types (the fast evaluator uses it too).
#[macro_export]
macro_rules! with_float_type {
    ($kind:expr, $F:ident => $body:expr) => {
        match $kind {
            $crate::value::FloatKind::Half => {
                type $F = ::rustc_apfloat::ieee::Half;
                $body
            }
            $crate::value::FloatKind::BFloat => {
                type $F = ::rustc_apfloat::ieee::BFloat;
                $body
            }
            $crate::value::FloatKind::Float => {
                type $F = ::rustc_apfloat::ieee::Single;
                $body
            }
            $crate::value::FloatKind::Double => {
                type $F = ::rustc_apfloat::ieee::Double;
                $body
            }
            $crate::value::FloatKind::Fp128 => {
                type $F = ::rustc_apfloat::ieee::Quad;
                $body
            }
            $crate::value::FloatKind::X86Fp80 => {
                type $F = ::rustc_apfloat::ieee::X87DoubleExtended;
                $body
            }
        }
    };
}

/// The encoding of a `k` value held in `a`. The caller guarantees that `a`
/// has `k`'s width (debug builds check it); otherwise its low bits are used.
fn float_raw(k: FloatKind, a: &Bits) -> u128 {
    debug_assert_eq!(a.width, k.width());
    low_u128(&low_bits(a.value.clone(), k.width()))
}

fn float_bits(k: FloatKind, raw: u128) -> Bits {
    Bits::from_u128(k.width(), raw)
}

const NEAREST_EVEN: Round = Round::NearestTiesToEven;

fn binop_in<F: Float>(op: FloatOp, a: u128, b: u128) -> u128 {
    let (a, b) = (F::from_bits(a), F::from_bits(b));
    let result = match op {
        FloatOp::Add => a.add_r(b, NEAREST_EVEN),
        FloatOp::Sub => a.sub_r(b, NEAREST_EVEN),
        FloatOp::Mul => a.mul_r(b, NEAREST_EVEN),
        FloatOp::Div => a.div_r(b, NEAREST_EVEN),
    };
    result.value.to_bits()
}

/// `a op b` in IEEE arithmetic, rounded to nearest, ties to even. NaN
/// results carry the payload `APFloat` gives them (a quieted NaN operand's,
/// or the default NaN).
pub fn float_binop(k: FloatKind, op: FloatOp, a: &Bits, b: &Bits) -> Bits {
    let (a, b) = (float_raw(k, a), float_raw(k, b));
    float_bits(k, with_float_type!(k, F => binop_in::<F>(op, a, b)))
}

fn int_to_float_in<F: Float>(v: &BigInt) -> u128 {
    if let Some(small) = v.to_i128() {
        return F::from_i128_r(small, NEAREST_EVEN).value.to_bits();
    }
    // `APFloat` only takes 128-bit integers, so a wider one is first cut to
    // its top KEPT bits plus a sticky bit recording whether anything
    // nonzero was cut off. That keeps everything rounding to nearest needs:
    // KEPT exceeds every kind's significand by at least two bits, so the
    // rounding bit lies within the kept bits and the sticky bit below it
    // stands in for all the bits beneath. The one rounding happens in
    // `from_u128_r`; scaling by a power of two afterwards is exact, or
    // overflows to infinity exactly when the rounded value is too large.
    const KEPT: u64 = 120;
    let magnitude = v.magnitude();
    let cut = magnitude.bits() - KEPT; // `v` does not fit in i128: bits >= 128
    let top = low_u128(&(magnitude >> cut));
    let sticky = magnitude.trailing_zeros().is_some_and(|tz| tz < cut);
    let approx = F::from_u128_r((top << 1) | u128::from(sticky), NEAREST_EVEN).value;
    // Any scale beyond ExpInt's range overflows every kind; `scalbn_r` clamps.
    let scale = ExpInt::try_from(cut - 1).unwrap_or(ExpInt::MAX);
    let r = approx.scalbn_r(scale, NEAREST_EVEN);
    let r = if v.sign() == Sign::Minus { -r } else { r };
    r.to_bits()
}

/// The signed integer `a` (of any width) as a `k`, rounded to nearest, ties
/// to even.
pub fn int_to_float(k: FloatKind, a: &Bits) -> Bits {
    let v = a.to_bigint();
    float_bits(k, with_float_type!(k, F => int_to_float_in::<F>(&v)))
}

/// The exact integer part (truncated toward zero) of a finite value.
fn truncate_in<F: Float>(raw: u128) -> Option<BigInt> {
    let x = F::from_bits(raw);
    if !x.is_finite() {
        return None;
    }
    if x.is_zero() {
        return Some(BigInt::zero());
    }
    let e = x.ilogb();
    if e < 127 {
        // |x| < 2^127, so its integer part fits in an i128.
        let mut exact = false;
        let r = x.to_i128_r(128, Round::TowardZero, &mut exact);
        if r.status.intersects(Status::INVALID_OP) {
            return None;
        }
        Some(BigInt::from(r.value))
    } else {
        // |x| >= 2^127 exceeds 2^PRECISION for every kind, so x is an
        // integer: scale its significand down to an integer that fits in an
        // i128 (exactly: only the exponent changes), then shift back.
        let frac_bits = F::PRECISION as ExpInt - 1;
        let significand = x.scalbn(frac_bits - e);
        let mut exact = false;
        let r = significand.to_i128_r(128, Round::TowardZero, &mut exact);
        if r.status.intersects(Status::INVALID_OP) {
            return None;
        }
        let back = u64::try_from(e - frac_bits).ok()?;
        Some(BigInt::from(r.value) << back)
    }
}

/// Whether `v` is in the range of a signed `width`-bit integer.
fn fits_signed(v: &BigInt, width: u64) -> bool {
    if width == 0 {
        return v.is_zero();
    }
    // In two's complement v >= 0 needs bits(v) + 1 bits and v < 0 needs
    // bits(-v - 1) + 1; comparing bit counts avoids building 2^(width-1).
    let magnitude = if v.sign() == Sign::Minus {
        v.magnitude() - 1u32
    } else {
        v.magnitude().clone()
    };
    magnitude.bits() < width
}

/// The `k` value `a` truncated toward zero to a signed `width`-bit integer;
/// `None` for NaNs, infinities and values whose integer part is outside the
/// signed range of `width` bits (where LLVM's `fptosi` gives poison).
pub fn float_to_int(k: FloatKind, a: &Bits, width: u64) -> Option<Bits> {
    let raw = float_raw(k, a);
    let v = with_float_type!(k, F => truncate_in::<F>(raw))?;
    fits_signed(&v, width).then(|| Bits::from_bigint(width, &v))
}

/// How the reference reads and writes x86_fp80's encodings outside
/// IEEE-754 (DESIGN.md says only "IEEE-754"; these are `rustc_apfloat`'s
/// `X87DoubleExtended`, LLVM's `APFloat`): (decision, what diopter does,
/// the test in `semantics/tests/errata.rs` that pins it). The errata report
/// lists them; the SMT encoding reproduces them (`oracles/smt/tests/float_exact.rs`).
pub const X86_FP80_DECISIONS: &[(&str, &str, &str)] = &[
    (
        "x86_fp80: invalid encodings are NaNs",
        "the pseudo-infinity and pseudo-NaNs (exponent all ones, integer bit clear) and unnormals (exponent neither 0 nor all ones, integer bit clear), which the 387 refuses as operands, read as NaNs",
        "x86_fp80_invalid_encodings_are_nans",
    ),
    (
        "x86_fp80: pseudo-denormals are normal",
        "exponent 0 with the integer bit set reads as the normal number 2^-16382 · 1.f; written back (by a conversion) with exponent 1",
        "x86_fp80_pseudo_denormal_is_written_back_normal",
    ),
    (
        "x86_fp80: NaNs made by conversion",
        "a NaN converted to x86_fp80 has the integer bit and the quiet bit set, its payload shifted into the top of the fraction",
        "x86_fp80_converted_nans_are_quiet_with_the_integer_bit",
    ),
    (
        "x86_fp80: arithmetic keeps invalid operands' encodings",
        "arithmetic on a pseudo-NaN or unnormal returns a NaN with its integer bit still clear (APFloat's choice, compatible with LLVM; the 387 would return the default NaN 0xFFFF_C000_0000_0000_0000); a conversion to x86_fp80 canonicalizes it",
        "oracles/smt/tests/float_exact.rs (the encoding against the reference)",
    ),
];

/// Whether the bits `a` of a `k` are a NaN. For x86_fp80 that includes
/// the encodings the 387 refuses and `APFloat` reads as NaNs: the
/// pseudo-infinity, pseudo-NaNs and unnormals.
pub fn float_is_nan(k: FloatKind, a: &Bits) -> bool {
    let raw = float_raw(k, a);
    with_float_type!(k, F => F::from_bits(raw).is_nan())
}

fn convert_in<A: Float + FloatConvert<B>, B: Float>(raw: u128) -> u128 {
    let mut loses_info = false;
    A::from_bits(raw)
        .convert_r(NEAREST_EVEN, &mut loses_info)
        .value
        .to_bits()
}

/// `a` converted from `from` to `to`, rounded to nearest, ties to even. As
/// in LLVM, a signalling NaN comes out quiet.
pub fn float_to_float(from: FloatKind, to: FloatKind, a: &Bits) -> Bits {
    let raw = float_raw(from, a);
    let converted = with_float_type!(from, A => with_float_type!(to, B => convert_in::<A, B>(raw)));
    float_bits(to, converted)
}

/// Whether `text` is `[-+]?[0-9]+(\.[0-9]*)?([eE][-+]?[0-9]+)?`: LLVM's
/// decimal float syntax, except that the dot is optional.
fn is_decimal_literal(text: &str) -> bool {
    fn digits(s: &str) -> usize {
        s.bytes().take_while(u8::is_ascii_digit).count()
    }
    let s = text.strip_prefix(['-', '+']).unwrap_or(text);
    let n = digits(s);
    if n == 0 {
        return false;
    }
    let mut s = &s[n..];
    if let Some(rest) = s.strip_prefix('.') {
        s = &rest[digits(rest)..];
    }
    if let Some(rest) = s.strip_prefix(['e', 'E']) {
        let rest = rest.strip_prefix(['-', '+']).unwrap_or(rest);
        let n = digits(rest);
        if n == 0 {
            return false;
        }
        s = &rest[n..];
    }
    s.is_empty()
}

/// A double read from a `0x` literal, as the narrower `F`, if it is exactly
/// representable there. Mirrors LLParser: the conversion must not lose
/// information, and a signalling NaN (which the conversion quiets) is made
/// signalling again with the converted payload.
fn narrow_double<F: Float>(d: Double) -> Option<u128>
where
    Double: FloatConvert<F>,
{
    let signalling = d.is_signaling();
    let mut loses_info = false;
    let r: F = d.convert_r(NEAREST_EVEN, &mut loses_info).value;
    if loses_info {
        return None;
    }
    let r = if signalling {
        F::snan(Some(r.to_bits())).copy_sign(r)
    } else {
        r
    };
    Some(r.to_bits())
}

/// The inverse of [`narrow_double`]: a value of a kind narrower than double
/// as the double LLVM prints for it.
fn widen_to_double<F: Float + FloatConvert<Double>>(raw: u128) -> u128 {
    let x = F::from_bits(raw);
    let mut loses_info = false;
    let d: Double = x.convert_r(NEAREST_EVEN, &mut loses_info).value;
    if x.is_signaling() {
        Double::snan(Some(d.to_bits())).copy_sign(d).to_bits()
    } else {
        d.to_bits()
    }
}

/// Why a float literal does not read (see [`parse_float_literal`]); each
/// names the literal as written.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FloatLiteralError {
    #[error("`{text}` is not a {} literal", kind.name())]
    NotALiteral { text: String, kind: FloatKind },
    /// The decimal does not convert (rustc_apfloat's reason).
    #[error("`{text}`: {why}")]
    Decimal { text: String, why: &'static str },
    #[error("`{text}`: 0xM (ppc_fp128) literals are not supported")]
    PpcFp128 { text: String },
    /// A hex form that does not spell `kind`; `forms` says which do.
    #[error("`{text}` cannot be a {} literal; those are written {forms}", kind.name())]
    WrongForm {
        text: String,
        kind: FloatKind,
        forms: &'static str,
    },
    /// `expected` is a count (`4`) or a range (`1 to 16`).
    #[error("`{text}`: expected {expected} hex digits after the prefix")]
    HexDigits { text: String, expected: String },
    #[error("`{text}`: {source}")]
    Hex {
        text: String,
        source: std::num::ParseIntError,
    },
    #[error("`{text}`: this double is not exactly representable as {}", kind.name())]
    Inexact { text: String, kind: FloatKind },
}

fn parse_hex_literal(k: FloatKind, body: &str, text: &str) -> Result<Bits, FloatLiteralError> {
    let (letter, digits) = match body.as_bytes().first() {
        Some(&c @ (b'H' | b'R' | b'K' | b'L' | b'M')) => (Some(c), &body[1..]),
        _ => (None, body),
    };
    // The kinds each form may spell, and how many digits it takes.
    let (kinds, counts): (&[FloatKind], (usize, usize)) = match letter {
        None => (
            &[
                FloatKind::Half,
                FloatKind::BFloat,
                FloatKind::Float,
                FloatKind::Double,
            ],
            (1, 16),
        ),
        Some(b'H') => (&[FloatKind::Half], (1, 4)),
        Some(b'R') => (&[FloatKind::BFloat], (1, 4)),
        Some(b'K') => (&[FloatKind::X86Fp80], (20, 20)),
        Some(b'L') => (&[FloatKind::Fp128], (32, 32)),
        Some(_) => {
            return Err(FloatLiteralError::PpcFp128 {
                text: text.to_string(),
            })
        }
    };
    if !kinds.contains(&k) {
        let forms = match k {
            FloatKind::Half => "0xH, 0x (a double) or decimal",
            FloatKind::BFloat => "0xR, 0x (a double) or decimal",
            FloatKind::Float | FloatKind::Double => "0x (a double) or decimal",
            FloatKind::Fp128 => "0xL (low 64 bits first) or decimal",
            FloatKind::X86Fp80 => "0xK or decimal",
        };
        return Err(FloatLiteralError::WrongForm {
            text: text.to_string(),
            kind: k,
            forms,
        });
    }
    let (min, max) = counts;
    if !digits.bytes().all(|c| c.is_ascii_hexdigit()) || digits.len() < min || digits.len() > max {
        let expected = if min == max {
            format!("{max}")
        } else {
            format!("{min} to {max}")
        };
        return Err(FloatLiteralError::HexDigits {
            text: text.to_string(),
            expected,
        });
    }
    let value = |s: &str| {
        u128::from_str_radix(s, 16).map_err(|source| FloatLiteralError::Hex {
            text: text.to_string(),
            source,
        })
    };
    let raw = match (letter, k) {
        // LLVM's AsmWriter prints the sign and exponent word first, then the
        // 64-bit significand (with its explicit integer bit).
        (Some(b'K'), _) => (value(&digits[..4])? << 64) | value(&digits[4..])?,
        // LLVM's AsmWriter prints the LOW 64 bits first, then the high 64
        // bits (the sign, exponent and top of the significand); LLLexer's
        // HexToIntPair reads them back in that order. So 1.0 is
        // 0xL00000000000000003FFF000000000000.
        (Some(b'L'), _) => value(&digits[..16])? | (value(&digits[16..])? << 64),
        (Some(_), _) | (None, FloatKind::Double) => value(digits)?,
        (None, _) => {
            let d = Double::from_bits(value(digits)?);
            let narrowed = match k {
                FloatKind::Half => narrow_double::<Half>(d),
                FloatKind::BFloat => narrow_double::<BFloat>(d),
                _ => narrow_double::<Single>(d),
            };
            narrowed.ok_or_else(|| FloatLiteralError::Inexact {
                text: text.to_string(),
                kind: k,
            })?
        }
    };
    Ok(float_bits(k, raw))
}

/// Reads a float literal of type `k` in LLVM IR's syntax.
///
/// * Decimal: `[-+]?[0-9]+(\.[0-9]*)?([eE][-+]?[0-9]+)?`, e.g. `1.0`,
///   `-0.0`, `2.5e-3`, `1.000000e+00`, and (unlike LLVM) `1`. Accepted for
///   every kind and rounded once, to nearest even, directly to `k`; a
///   value too large rounds to infinity. LLVM is stricter: it reads a
///   decimal as a double, rejects one that does not convert to `k`
///   exactly, and accepts decimals only for half, bfloat, float and double.
/// * `0x` and up to 16 hex digits: the bits of a double, for half, bfloat,
///   float and double; for the first three the double must be exactly
///   representable in `k` (NaN payloads included).
/// * `0xH` / `0xR` and up to 4 hex digits: the bits of a half / bfloat.
/// * `0xK` and 20 hex digits: an x86_fp80, sign and exponent first, then
///   the 64-bit significand. Any pattern, valid x87 encoding or not.
/// * `0xL` and 32 hex digits: an fp128, the low 64 bits first, then the
///   high 64 bits (LLVM's order).
///
/// Hex digits may be either case; the prefix letters are upper case, and
/// no sign may precede a hex literal (LLVM's lexer takes neither).
pub fn parse_float_literal(k: FloatKind, text: &str) -> Result<Bits, FloatLiteralError> {
    if let Some(body) = text.strip_prefix("0x") {
        return parse_hex_literal(k, body, text);
    }
    if !is_decimal_literal(text) {
        return Err(FloatLiteralError::NotALiteral {
            text: text.to_string(),
            kind: k,
        });
    }
    let raw =
        with_float_type!(k, F => F::from_str_r(text, NEAREST_EVEN).map(|r| r.value.to_bits()))
            .map_err(|e| FloatLiteralError::Decimal {
                text: text.to_string(),
                why: e.0,
            })?;
    Ok(float_bits(k, raw))
}

/// LLVM's decimal spelling of a finite half, bfloat, float or double, if it
/// reads back (both by LLVM, via double, and by [`parse_float_literal`]) as
/// exactly `raw`.
fn decimal_spelling<F: Float + FloatConvert<Double>>(k: FloatKind, raw: u128) -> Option<String> {
    let x = F::from_bits(raw);
    if !x.is_finite() {
        return None;
    }
    // LLVM's AsmWriter uses APFloat::toString(6, 0, false): six significant
    // digits, always scientific, zero-padded to six places after the point
    // (`1.500000e+00`). `APFloat`'s Display takes precision, width and
    // "alternate" for those three arguments.
    let text = format!("{x:#w$.6}", w = 0);
    let mut loses_info = false;
    let as_double: Double = x.convert_r(NEAREST_EVEN, &mut loses_info).value;
    let llvm_reads = Double::from_str_r(&text, NEAREST_EVEN).ok()?.value;
    let we_read = parse_float_literal(k, &text).ok()?;
    (llvm_reads.to_bits() == as_double.to_bits() && we_read == float_bits(k, raw)).then_some(text)
}

/// A literal for the `k` value `bits` that [`parse_float_literal`] reads
/// back as exactly `bits` (NaN payloads, signs of zeros, denormals and
/// invalid x87 encodings included), and that LLVM's IR parser accepts with
/// the same meaning.
///
/// Half, bfloat, float and double use LLVM's six-digit decimal form
/// (`1.500000e+00`) when it is exact, else hex: `0xH`/`0xR` for
/// half/bfloat, and for float and double the 16 hex digits of the value as
/// a double. For float and double this is exactly LLVM's AsmWriter output.
/// fp128 and x86_fp80 are always hex (`0xL`, `0xK`), since LLVM rejects
/// decimal literals of those types. Hex digits are upper case, as LLVM
/// prints them.
pub fn format_float_literal(k: FloatKind, bits: &Bits) -> String {
    let raw = float_raw(k, bits);
    match k {
        FloatKind::X86Fp80 => format!("0xK{:04X}{:016X}", (raw >> 64) as u16, raw as u64),
        FloatKind::Fp128 => format!("0xL{:016X}{:016X}", raw as u64, (raw >> 64) as u64),
        FloatKind::Half => {
            decimal_spelling::<Half>(k, raw).unwrap_or_else(|| format!("0xH{:04X}", raw as u16))
        }
        FloatKind::BFloat => {
            decimal_spelling::<BFloat>(k, raw).unwrap_or_else(|| format!("0xR{:04X}", raw as u16))
        }
        FloatKind::Float => decimal_spelling::<Single>(k, raw)
            .unwrap_or_else(|| format!("0x{:016X}", widen_to_double::<Single>(raw) as u64)),
        FloatKind::Double => {
            decimal_spelling::<Double>(k, raw).unwrap_or_else(|| format!("0x{:016X}", raw as u64))
        }
    }
}

/// How a floating-point value reads to a person (see [`describe_float`]).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct FloatView {
    /// `half`, `float`, ...
    pub kind: &'static str,
    /// The shortest decimal that reads back as exactly this value (for
    /// half, bfloat, float and double; fp128 and x86_fp80 use the natural
    /// precision of the format, which also reads back exactly); `inf`,
    /// `-inf`, `nan`, `-nan` otherwise.
    pub decimal: String,
    /// `zero`, `subnormal`, `normal`, `infinity`, `nan`.
    pub class: &'static str,
    /// Whether the sign bit is set.
    pub negative: bool,
    /// NaNs only: quiet (true) or signalling (false).
    pub quiet: Option<bool>,
    /// NaNs only: the significand bits below the quiet bit, in hex.
    pub payload: Option<String>,
}

fn describe_float_in<F: Float>(k: FloatKind, raw: u128) -> FloatView {
    let x = F::from_bits(raw);
    let class = if x.is_nan() {
        "nan"
    } else if x.is_infinite() {
        "infinity"
    } else if x.is_zero() {
        "zero"
    } else if x.is_denormal() {
        "subnormal"
    } else {
        "normal"
    };
    let negative = x.is_negative();
    let sign = if negative { "-" } else { "" };
    let (decimal, quiet, payload) = match class {
        "nan" => {
            let payload_mask = (1u128 << (F::PRECISION - 2)) - 1;
            (
                format!("{sign}nan"),
                Some(!x.is_signaling()),
                Some(format!("0x{:x}", raw & payload_mask)),
            )
        }
        "infinity" => (format!("{sign}inf"), None, None),
        _ => (shortest_decimal::<F>(k, x), None, None),
    };
    FloatView {
        kind: k.name(),
        decimal,
        class,
        negative,
        quiet,
        payload,
    }
}

/// The shortest decimal that reads back as `x` (finite): found by trying
/// 1, 2, ... significant digits of the exact value (widened to double, which
/// holds half, bfloat and float exactly); `{:?}` of a double is already the
/// shortest. fp128 and x86_fp80: `rustc_apfloat`'s natural precision.
fn shortest_decimal<F: Float>(k: FloatKind, x: F) -> String {
    match k {
        FloatKind::Double => format!("{:?}", f64::from_bits(x.to_bits() as u64)),
        FloatKind::Float => format!("{:?}", f32::from_bits(x.to_bits() as u32)),
        FloatKind::Half | FloatKind::BFloat => {
            let mut loses_info = false;
            let d: Double = with_float_type!(k, G => {
                let g = G::from_bits(x.to_bits());
                g.convert_r(NEAREST_EVEN, &mut loses_info).value
            });
            let d = f64::from_bits(d.to_bits() as u64);
            for p in 0..17usize {
                let text = format!("{d:.p$e}");
                if let Ok(back) = F::from_str_r(&text, NEAREST_EVEN) {
                    if back.value.to_bits() == x.to_bits() {
                        // At most 17 significant digits: double's shortest
                        // spelling of this decimal is the decimal itself.
                        return format!("{:?}", text.parse::<f64>().unwrap_or(d));
                    }
                }
            }
            format!("{d:?}")
        }
        FloatKind::Fp128 | FloatKind::X86Fp80 => format!("{x}"),
    }
}

/// The value of `bits` (which must be `k`'s width) as a person reads it:
/// decimal, class, sign, and for NaNs quiet or signalling and the payload.
pub fn describe_float(k: FloatKind, bits: &Bits) -> FloatView {
    let raw = low_u128(&low_bits(bits.value.clone(), k.width()));
    with_float_type!(k, F => describe_float_in::<F>(k, raw))
}

#[cfg(test)]
mod tests {
    use super::*;
    use quickcheck::{QuickCheck, TestResult};

    fn qc<A: quickcheck::Testable>(tests: u64, prop: A) {
        QuickCheck::new()
            .tests(tests)
            .max_tests(tests * 20)
            .quickcheck(prop);
    }

    fn b(width: u64, v: u64) -> Bits {
        Bits::from_u64(width, v)
    }

    fn bi(width: u64, v: i64) -> Bits {
        Bits::from_bigint(width, &BigInt::from(v))
    }

    // ---------------------------------------------------------------
    // Bits: construction and reading
    // ---------------------------------------------------------------

    #[test]
    fn constructors() {
        assert_eq!(Bits::empty().width(), 0);
        assert!(Bits::empty().is_zero());
        assert_eq!(Bits::zero(7).to_u64(), Some(0));
        assert_eq!(Bits::ones(7).to_u64(), Some(0x7f));
        assert_eq!(Bits::ones(1).to_u64(), Some(1));
        assert_eq!(Bits::ones(0), Bits::empty());
        assert_eq!(b(8, 0x1ff).to_u64(), Some(0xff));
        assert_eq!(
            Bits::from_u128(100, u128::MAX).to_u128(),
            Some((1 << 100) - 1)
        );
        assert_eq!(
            Bits::from_biguint(4, &BigUint::from(0x123u32)).to_u64(),
            Some(3)
        );
        assert_eq!(bi(8, -1).to_u64(), Some(0xff));
        assert_eq!(bi(8, -128).to_u64(), Some(0x80));
        assert_eq!(bi(8, -129).to_u64(), Some(0x7f));
        assert_eq!(bi(8, 256).to_u64(), Some(0));
        assert_eq!(bi(8, -256).to_u64(), Some(0));
        assert_eq!(bi(0, -1), Bits::empty());
        // A huge width is fine as long as the value is small.
        let huge = Bits::from_u64(1 << 40, 5);
        assert_eq!(huge.to_u64(), Some(5));
        assert_eq!(huge.to_bigint(), BigInt::from(5));
        // Equality includes the width.
        assert_ne!(b(8, 1), b(9, 1));
    }

    #[test]
    fn readings() {
        assert_eq!(b(8, 0xff).to_bigint(), BigInt::from(-1));
        assert_eq!(b(8, 0x7f).to_bigint(), BigInt::from(127));
        assert_eq!(b(1, 1).to_bigint(), BigInt::from(-1));
        assert_eq!(b(1, 1).to_biguint(), BigUint::from(1u32));
        assert_eq!(Bits::empty().to_bigint(), BigInt::zero());
        assert_eq!(b(8, 0x80).to_i64(), Some(-128));
        assert_eq!(b(64, u64::MAX).to_i64(), Some(-1));
        assert_eq!(b(64, u64::MAX).to_u64(), Some(u64::MAX));
        assert_eq!(Bits::ones(65).to_u64(), None);
        assert_eq!(Bits::ones(65).to_i64(), Some(-1));
        assert_eq!(Bits::from_u128(65, 1 << 64).to_i64(), None);
        assert_eq!(Bits::from_u128(66, 1 << 64).to_i64(), None);
        assert_eq!(Bits::ones(128).to_u128(), Some(u128::MAX));
        assert_eq!(Bits::ones(129).to_u128(), None);
        assert!(b(8, 4).bit(2));
        assert!(!b(8, 4).bit(1));
        assert!(!b(8, 0xff).bit(8));
        assert!(!b(8, 0xff).bit(u64::MAX));
    }

    #[test]
    fn bytes() {
        assert_eq!(b(16, 0x1234).to_le_bytes(), vec![0x34, 0x12]);
        assert_eq!(b(12, 0xabc).to_le_bytes(), vec![0xbc, 0x0a]);
        assert_eq!(b(9, 0).to_le_bytes(), vec![0, 0]);
        assert_eq!(Bits::empty().to_le_bytes(), Vec::<u8>::new());
        assert_eq!(
            Bits::from_le_bytes(12, &[0xff, 0xff, 0xff]).to_u64(),
            Some(0xfff)
        );
        assert_eq!(Bits::from_le_bytes(24, &[0x01]).to_u64(), Some(1));
        assert_eq!(Bits::from_le_bytes(0, &[0x01]), Bits::empty());
    }

    #[test]
    fn slices_concat_hex() {
        let x = b(16, 0xabcd);
        assert_eq!(x.slice(4, 8), b(8, 0xbc));
        assert_eq!(x.slice(12, 8), b(8, 0x0a));
        assert_eq!(x.slice(100, 8), b(8, 0));
        assert_eq!(x.slice(0, 0), Bits::empty());
        assert_eq!(x.slice(u64::MAX, 3), b(3, 0));
        assert_eq!(Bits::concat(&b(8, 0xcd), &b(8, 0xab)), x);
        assert_eq!(Bits::concat(&Bits::empty(), &x), x);
        assert_eq!(Bits::concat(&x, &Bits::empty()), x);
        assert_eq!(Bits::concat(&b(1, 1), &b(3, 0b101)), b(4, 0b1011));
        assert_eq!(x.to_hex(), "0xabcd");
        assert_eq!(b(12, 0xa).to_hex(), "0x00a");
        assert_eq!(b(13, 0x1000).to_hex(), "0x1000");
        assert_eq!(b(1, 1).to_hex(), "0x1");
        assert_eq!(b(5, 0).to_hex(), "0x00");
        assert_eq!(Bits::empty().to_hex(), "0x");
    }

    // ---------------------------------------------------------------
    // Integer operations: hand-computed cases
    // ---------------------------------------------------------------

    #[test]
    fn arithmetic_cases() {
        assert_eq!(add(&b(8, 200), &b(8, 100)), b(8, 44));
        assert_eq!(sub(&b(8, 1), &b(8, 2)), b(8, 0xff));
        assert_eq!(sub(&b(8, 2), &b(8, 1)), b(8, 1));
        assert_eq!(mul(&b(8, 16), &b(8, 17)), b(8, 16));
        assert_eq!(add(&Bits::ones(200), &b(200, 1)), Bits::zero(200));
        assert_eq!(sub(&Bits::zero(200), &b(200, 1)), Bits::ones(200));
        assert_eq!(add(&Bits::empty(), &Bits::empty()), Bits::empty());
        assert_eq!(sub(&Bits::empty(), &Bits::empty()), Bits::empty());
    }

    #[test]
    fn division_cases() {
        assert_eq!(sdiv(&bi(8, -128), &bi(8, -1)), Some(bi(8, -128)));
        assert_eq!(srem(&bi(8, -128), &bi(8, -1)), Some(bi(8, 0)));
        assert_eq!(sdiv(&bi(8, -7), &bi(8, 2)), Some(bi(8, -3)));
        assert_eq!(srem(&bi(8, -7), &bi(8, 2)), Some(bi(8, -1)));
        assert_eq!(sdiv(&bi(8, 7), &bi(8, -2)), Some(bi(8, -3)));
        assert_eq!(srem(&bi(8, 7), &bi(8, -2)), Some(bi(8, 1)));
        assert_eq!(sdiv(&bi(8, 5), &bi(8, 0)), None);
        assert_eq!(srem(&bi(8, 5), &bi(8, 0)), None);
        assert_eq!(sdiv(&b(1, 1), &b(1, 1)), Some(b(1, 1))); // -1 / -1 wraps
        assert_eq!(srem(&b(1, 1), &b(1, 1)), Some(b(1, 0)));
        assert_eq!(sdiv(&Bits::empty(), &Bits::empty()), None);
        let min = Bits::concat(&Bits::zero(199), &b(1, 1));
        assert_eq!(sdiv(&min, &Bits::ones(200)), Some(min.clone()));
        assert_eq!(srem(&min, &Bits::ones(200)), Some(Bits::zero(200)));
    }

    #[test]
    fn bitwise_cases() {
        assert_eq!(and(&b(8, 0b1100), &b(8, 0b1010)), b(8, 0b1000));
        assert_eq!(or(&b(8, 0b1100), &b(8, 0b1010)), b(8, 0b1110));
        assert_eq!(xor(&b(8, 0b1100), &b(8, 0b1010)), b(8, 0b0110));
    }

    #[test]
    fn shift_cases() {
        assert_eq!(shl(&b(8, 0x81), &b(8, 1)), b(8, 0x02));
        assert_eq!(shl(&b(8, 1), &b(8, 7)), b(8, 0x80));
        assert_eq!(shl(&b(8, 1), &b(8, 8)), b(8, 0));
        assert_eq!(shl(&b(8, 1), &b(8, 255)), b(8, 0));
        // The amount is read unsigned and may be wider than the value.
        assert_eq!(shl(&b(8, 1), &Bits::ones(200)), b(8, 0));
        assert_eq!(shl(&b(8, 1), &b(200, 3)), b(8, 8));
        assert_eq!(shl(&b(8, 1), &b(2, 3)), b(8, 8));
        assert_eq!(shl(&b(8, 1), &Bits::empty()), b(8, 1));
        assert_eq!(lshr(&b(8, 0x80), &b(8, 7)), b(8, 1));
        assert_eq!(lshr(&b(8, 0x80), &b(8, 8)), b(8, 0));
        assert_eq!(lshr(&b(8, 0x80), &b(64, u64::MAX)), b(8, 0));
        assert_eq!(ashr(&b(8, 0x80), &b(8, 200)), b(8, 0xff));
        assert_eq!(ashr(&b(8, 0x80), &b(8, 1)), b(8, 0xc0));
        assert_eq!(ashr(&b(8, 0x80), &b(8, 7)), b(8, 0xff));
        assert_eq!(ashr(&b(8, 0x40), &b(8, 6)), b(8, 1));
        assert_eq!(ashr(&b(8, 0x40), &b(8, 200)), b(8, 0));
        assert_eq!(ashr(&b(8, 0x80), &Bits::ones(100)), b(8, 0xff));
        assert_eq!(ashr(&b(1, 1), &b(1, 0)), b(1, 1));
        assert_eq!(ashr(&b(1, 1), &b(1, 1)), b(1, 1));
        assert_eq!(ashr(&Bits::empty(), &b(8, 3)), Bits::empty());
        assert_eq!(shl(&Bits::empty(), &b(8, 0)), Bits::empty());
    }

    #[test]
    fn cast_cases() {
        assert_eq!(trunc(&b(16, 0x1234), 8), b(8, 0x34));
        assert_eq!(trunc(&b(16, 0x1234), 0), Bits::empty());
        assert_eq!(zext(&b(8, 0x80), 16), b(16, 0x0080));
        assert_eq!(sext(&b(8, 0x80), 16), b(16, 0xff80));
        assert_eq!(sext(&b(8, 0x7f), 16), b(16, 0x007f));
        assert_eq!(sext(&b(1, 1), 200), Bits::ones(200));
        assert_eq!(sext(&Bits::empty(), 8), b(8, 0));
        assert_eq!(zext(&b(8, 0x80), 8), b(8, 0x80));
        assert_eq!(sext(&b(8, 0x80), 8), b(8, 0x80));
    }

    // ---------------------------------------------------------------
    // Integer operations against native arithmetic
    // ---------------------------------------------------------------

    /// Compares every integer operation at one native width.
    macro_rules! native_width_props {
        ($name:ident, $u:ty, $i:ty, $w:expr) => {
            mod $name {
                use super::*;

                const W: u64 = $w;

                fn bits(x: $u) -> Bits {
                    Bits::from_u128(W, x as u128)
                }

                fn nat(x: &Bits) -> $u {
                    assert_eq!(x.width(), W);
                    x.to_u128().expect("fits") as $u
                }

                #[test]
                fn binary_ops() {
                    fn prop(x: $u, y: $u) -> bool {
                        let (a, c) = (bits(x), bits(y));
                        let (sx, sy) = (x as $i, y as $i);
                        nat(&add(&a, &c)) == x.wrapping_add(y)
                            && nat(&sub(&a, &c)) == x.wrapping_sub(y)
                            && nat(&mul(&a, &c)) == x.wrapping_mul(y)
                            && nat(&and(&a, &c)) == x & y
                            && nat(&or(&a, &c)) == x | y
                            && nat(&xor(&a, &c)) == x ^ y
                            && sdiv(&a, &c).map(|q| nat(&q))
                                == (y != 0).then(|| sx.wrapping_div(sy) as $u)
                            && srem(&a, &c).map(|r| nat(&r))
                                == (y != 0).then(|| sx.wrapping_rem(sy) as $u)
                            && a.to_bigint() == BigInt::from(sx)
                            && a.to_biguint() == BigUint::from(x)
                    }
                    qc(2000, prop as fn($u, $u) -> bool);
                }

                #[test]
                fn division_edges() {
                    let min = <$i>::MIN as $u;
                    let minus_one = -1 as $i as $u;
                    for (x, y) in [
                        (min, minus_one),
                        (min, 1),
                        (minus_one, minus_one),
                        (0, minus_one),
                    ] {
                        let (sx, sy) = (x as $i, y as $i);
                        assert_eq!(
                            sdiv(&bits(x), &bits(y)).map(|q| nat(&q)),
                            Some(sx.wrapping_div(sy) as $u)
                        );
                        assert_eq!(
                            srem(&bits(x), &bits(y)).map(|q| nat(&q)),
                            Some(sx.wrapping_rem(sy) as $u)
                        );
                    }
                }

                #[test]
                fn shifts() {
                    // The amount is given at several widths, and reaches
                    // past the value's width.
                    fn prop(x: $u, amount: u16, amount_width: u8) -> bool {
                        let amount_width = u64::from(amount_width % 24) + 1;
                        let amount_bits = Bits::from_u64(amount_width, u64::from(amount));
                        let s = amount_bits.to_u64().expect("small");
                        let sx = x as $i;
                        let (want_shl, want_lshr, want_ashr) = if s >= W {
                            (0, 0, if sx < 0 { <$u>::MAX } else { 0 })
                        } else {
                            (x << s, x >> s, (sx >> s) as $u)
                        };
                        let a = bits(x);
                        nat(&shl(&a, &amount_bits)) == want_shl
                            && nat(&lshr(&a, &amount_bits)) == want_lshr
                            && nat(&ashr(&a, &amount_bits)) == want_ashr
                    }
                    qc(2000, prop as fn($u, u16, u8) -> bool);
                }

                #[test]
                fn casts() {
                    fn prop(x: $u, to: u8) -> bool {
                        let to = u64::from(to % 130);
                        let a = bits(x);
                        let signed = BigInt::from(x as $i);
                        let unsigned = BigUint::from(x);
                        let truncated = Bits::from_biguint(to, &unsigned);
                        let native_low = match to {
                            0 => Some(0),
                            1..=64 => Some((x as u64) & (u64::MAX >> (64 - to))),
                            _ => None, // covered by `truncated`
                        };
                        let ok_trunc = trunc(&a, to) == truncated
                            && native_low.is_none_or(|low| trunc(&a, to).to_u64() == Some(low));
                        let ok_ext = to < W
                            || (zext(&a, to).to_biguint() == unsigned
                                && sext(&a, to).to_bigint() == signed
                                && zext(&a, to).width() == to
                                && sext(&a, to).width() == to);
                        ok_trunc && ok_ext
                    }
                    qc(2000, prop as fn($u, u8) -> bool);
                    // And against native widening.
                    assert_eq!(
                        sext(&bits(<$i>::MIN as $u), 128).to_u128(),
                        Some(<$i>::MIN as i128 as u128)
                    );
                    assert_eq!(
                        zext(&bits(<$u>::MAX), 128).to_u128(),
                        Some(<$u>::MAX as u128)
                    );
                }
            }
        };
    }

    native_width_props!(native8, u8, i8, 8);
    native_width_props!(native16, u16, i16, 16);
    native_width_props!(native32, u32, i32, 32);
    native_width_props!(native64, u64, i64, 64);
    native_width_props!(native128, u128, i128, 128);

    /// Every width from 1 to 63, against u64 arithmetic reduced by a mask.
    #[test]
    fn generic_widths_against_masked_u64() {
        fn prop(w: u8, x: u64, y: u64, s: u8) -> bool {
            let w = u64::from(w % 63) + 1;
            let m = u64::MAX >> (64 - w);
            let (x, y) = (x & m, y & m);
            let signed = |v: u64| ((v << (64 - w)) as i64) >> (64 - w);
            let (sx, sy) = (signed(x), signed(y));
            let (a, c) = (b(w, x), b(w, y));
            let amt = b(8, u64::from(s));
            let s = u64::from(s);
            let get = |r: Bits| {
                assert_eq!(r.width(), w);
                r.to_u64().expect("fits")
            };
            let want_ashr = if s >= w {
                if sx < 0 {
                    m
                } else {
                    0
                }
            } else {
                ((sx >> s) as u64) & m
            };
            get(add(&a, &c)) == x.wrapping_add(y) & m
                && get(sub(&a, &c)) == x.wrapping_sub(y) & m
                && get(mul(&a, &c)) == x.wrapping_mul(y) & m
                && get(and(&a, &c)) == x & y
                && get(or(&a, &c)) == x | y
                && get(xor(&a, &c)) == x ^ y
                // sign-extended to i64 no division overflows, even MIN / -1
                && sdiv(&a, &c).map(get) == (y != 0).then(|| (sx / sy) as u64 & m)
                && srem(&a, &c).map(get) == (y != 0).then(|| (sx % sy) as u64 & m)
                && get(shl(&a, &amt)) == if s >= w { 0 } else { (x << s) & m }
                && get(lshr(&a, &amt)) == if s >= w { 0 } else { x >> s }
                && get(ashr(&a, &amt)) == want_ashr
                && a.to_i64() == Some(sx)
                && sext(&a, 64).to_u64() == Some(sx as u64)
                && zext(&a, 64).to_u64() == Some(x)
                && trunc(&a, w / 2 + 1).to_u64() == Some(x & (u64::MAX >> (64 - (w / 2 + 1))))
        }
        qc(5000, prop as fn(u8, u64, u64, u8) -> bool);
    }

    // ---------------------------------------------------------------
    // Round trips of the representations
    // ---------------------------------------------------------------

    #[test]
    fn le_bytes_round_trip() {
        fn prop(w: u16, bytes: Vec<u8>) -> bool {
            let w = u64::from(w % 300);
            let x = Bits::from_le_bytes(w, &bytes);
            let out = x.to_le_bytes();
            // The output is the input cut or padded to ceil(w/8) bytes with
            // the bits above w cleared.
            let mut want = bytes.clone();
            want.resize(w.div_ceil(8) as usize, 0);
            if w % 8 != 0 {
                if let Some(last) = want.last_mut() {
                    *last &= (1u8 << (w % 8)) - 1;
                }
            }
            out == want && Bits::from_le_bytes(w, &out) == x && x.width() == w
        }
        qc(2000, prop as fn(u16, Vec<u8>) -> bool);
    }

    #[test]
    fn bigint_round_trip() {
        fn prop(w: u16, bytes: Vec<u8>, negative: bool) -> bool {
            let w = u64::from(w % 300);
            let x = Bits::from_le_bytes(w, &bytes);
            let s = x.to_bigint();
            let in_range =
                w == 0 || (s >= -(BigInt::one() << (w - 1)) && s < (BigInt::one() << (w - 1)));
            // from_bigint reduces modulo 2^w, whatever the sign.
            let mut v = BigInt::from(BigUint::from_bytes_le(&bytes));
            if negative {
                v = -v;
            }
            let modulus = BigInt::one() << w;
            let reduced = ((&v % &modulus) + &modulus) % &modulus;
            Bits::from_bigint(w, &s) == x
                && in_range
                && Bits::from_bigint(w, &v).to_biguint() == reduced.magnitude().clone()
                && Bits::from_biguint(w, &x.to_biguint()) == x
        }
        qc(2000, prop as fn(u16, Vec<u8>, bool) -> bool);
    }

    #[test]
    fn slice_concat_round_trip() {
        fn prop(w: u8, bytes: Vec<u8>, cut: u8) -> bool {
            let w = u64::from(w);
            let cut = u64::from(cut).min(w);
            let x = Bits::from_le_bytes(w, &bytes);
            let (lo, hi) = (x.slice(0, cut), x.slice(cut, w - cut));
            Bits::concat(&lo, &hi) == x
                && (0..w).all(|i| x.bit(i) == if i < cut { lo.bit(i) } else { hi.bit(i - cut) })
                && u64::try_from(x.to_hex().len()).ok() == Some(2 + w.div_ceil(4))
        }
        qc(1000, prop as fn(u8, Vec<u8>, u8) -> bool);
    }

    // ---------------------------------------------------------------
    // Floats: helpers
    // ---------------------------------------------------------------

    fn f32b(x: f32) -> Bits {
        b(32, u64::from(x.to_bits()))
    }

    fn f64b(x: f64) -> Bits {
        b(64, x.to_bits())
    }

    fn as_f32(x: &Bits) -> f32 {
        f32::from_bits(x.to_u64().expect("32 bits") as u32)
    }

    fn as_f64(x: &Bits) -> f64 {
        f64::from_bits(x.to_u64().expect("64 bits"))
    }

    fn parse(k: FloatKind, text: &str) -> Bits {
        parse_float_literal(k, text).unwrap_or_else(|e| panic!("{e}"))
    }

    /// A bit pattern of kind `k` whose exponent field is pushed toward the
    /// interesting values (0, 1, max - 1, all ones) half of the time.
    fn biased_pattern(k: FloatKind, raw: u128, selector: u8) -> Bits {
        let (exp_lo, exp_bits) = match k {
            FloatKind::Half => (10, 5),
            FloatKind::BFloat => (7, 8),
            FloatKind::Float => (23, 8),
            FloatKind::Double => (52, 11),
            FloatKind::Fp128 => (112, 15),
            FloatKind::X86Fp80 => (64, 15),
        };
        let all_ones = (1u128 << exp_bits) - 1;
        let exp = match selector % 8 {
            0 => Some(0),
            1 => Some(all_ones),
            2 => Some(1),
            3 => Some(all_ones - 1),
            _ => None,
        };
        let mut raw = raw;
        if let Some(e) = exp {
            raw = (raw & !(all_ones << exp_lo)) | (e << exp_lo);
        }
        // Sometimes clear the significand, giving zeros and infinities.
        if (selector / 8).is_multiple_of(4) {
            raw &= !((1u128 << exp_lo) - 1);
            if k == FloatKind::X86Fp80 && selector.is_multiple_of(2) {
                raw |= 1 << 63; // the explicit integer bit
            }
        }
        Bits::from_u128(k.width(), raw)
    }

    // ---------------------------------------------------------------
    // Floats: kinds
    // ---------------------------------------------------------------

    #[test]
    fn kinds() {
        let widths: Vec<u64> = FloatKind::ALL.iter().map(|k| k.width()).collect();
        assert_eq!(widths, [16, 16, 32, 64, 128, 80]);
        let names: Vec<&str> = FloatKind::ALL.iter().map(|k| k.name()).collect();
        assert_eq!(
            names,
            ["half", "bfloat", "float", "double", "fp128", "x86_fp80"]
        );
        for k in FloatKind::ALL {
            assert_eq!(FloatKind::from_name(k.name()), Some(k));
        }
        assert_eq!(FloatKind::from_name("ppc_fp128"), None);
    }

    // ---------------------------------------------------------------
    // Floats: arithmetic
    // ---------------------------------------------------------------

    #[test]
    fn binop_cases() {
        let one = f32b(1.0);
        let three = f32b(3.0);
        assert_eq!(
            float_binop(FloatKind::Float, FloatOp::Add, &one, &three),
            f32b(4.0)
        );
        assert_eq!(
            float_binop(FloatKind::Float, FloatOp::Sub, &one, &three),
            f32b(-2.0)
        );
        assert_eq!(
            float_binop(FloatKind::Float, FloatOp::Mul, &three, &three),
            f32b(9.0)
        );
        assert_eq!(
            float_binop(FloatKind::Float, FloatOp::Div, &one, &three),
            f32b(1.0 / 3.0)
        );
        assert!(as_f32(&float_binop(
            FloatKind::Float,
            FloatOp::Div,
            &f32b(0.0),
            &f32b(0.0)
        ))
        .is_nan());
        assert_eq!(
            float_binop(FloatKind::Float, FloatOp::Div, &one, &f32b(-0.0)),
            f32b(f32::NEG_INFINITY)
        );
        // Ties to even: 1 + 2^-53 is halfway between 1 and its successor.
        let half_ulp = f64b(f64::EPSILON / 2.0);
        assert_eq!(
            float_binop(FloatKind::Double, FloatOp::Add, &f64b(1.0), &half_ulp),
            f64b(1.0)
        );
        // 1/3 in the formats with no native counterpart.
        let third = |k: FloatKind| {
            float_binop(
                k,
                FloatOp::Div,
                &int_to_float(k, &b(8, 1)),
                &int_to_float(k, &b(8, 3)),
            )
        };
        assert_eq!(third(FloatKind::Half), b(16, 0x3555));
        assert_eq!(third(FloatKind::BFloat), b(16, 0x3eab));
        assert_eq!(
            third(FloatKind::Fp128),
            Bits::from_u128(128, 0x3ffd_5555_5555_5555_5555_5555_5555_5555)
        );
        assert_eq!(
            third(FloatKind::X86Fp80),
            Bits::from_u128(80, 0x3ffd_aaaa_aaaa_aaaa_aaab)
        );
        // bfloat rounds once: 1 + 2^-8 + 2^-16 rounds up to 1 + 2^-7,
        // whereas rounding first to a float-sized tie and then to bfloat
        // would not matter here, but the tie 1 + 2^-8 itself goes to even.
        let bf = |x: u64| b(16, x);
        assert_eq!(
            float_binop(FloatKind::BFloat, FloatOp::Add, &bf(0x3f80), &bf(0x3b80)), // 1 + 2^-8
            bf(0x3f80)
        );
        assert_eq!(
            float_binop(FloatKind::BFloat, FloatOp::Add, &bf(0x3f81), &bf(0x3b80)), // (1+2^-7) + 2^-8
            bf(0x3f82)
        );
    }

    /// An operation and the native arithmetic that should agree with it.
    type NativeOp<T> = (FloatOp, fn(T, T) -> T);

    #[test]
    fn binop_against_native_f32() {
        fn check(x: f32, y: f32) -> bool {
            let ops: [NativeOp<f32>; 4] = [
                (FloatOp::Add, |x, y| x + y),
                (FloatOp::Sub, |x, y| x - y),
                (FloatOp::Mul, |x, y| x * y),
                (FloatOp::Div, |x, y| x / y),
            ];
            ops.iter().all(|(op, native)| {
                let want = native(x, y);
                let got = as_f32(&float_binop(FloatKind::Float, *op, &f32b(x), &f32b(y)));
                if want.is_nan() {
                    got.is_nan()
                } else {
                    got.to_bits() == want.to_bits()
                }
            })
        }
        qc(
            3000,
            (|x: u32, y: u32| check(f32::from_bits(x), f32::from_bits(y))) as fn(u32, u32) -> bool,
        );
        qc(3000, check as fn(f32, f32) -> bool);
    }

    #[test]
    fn binop_against_native_f64() {
        fn check(x: f64, y: f64) -> bool {
            let ops: [NativeOp<f64>; 4] = [
                (FloatOp::Add, |x, y| x + y),
                (FloatOp::Sub, |x, y| x - y),
                (FloatOp::Mul, |x, y| x * y),
                (FloatOp::Div, |x, y| x / y),
            ];
            ops.iter().all(|(op, native)| {
                let want = native(x, y);
                let got = as_f64(&float_binop(FloatKind::Double, *op, &f64b(x), &f64b(y)));
                if want.is_nan() {
                    got.is_nan()
                } else {
                    got.to_bits() == want.to_bits()
                }
            })
        }
        qc(
            3000,
            (|x: u64, y: u64| check(f64::from_bits(x), f64::from_bits(y))) as fn(u64, u64) -> bool,
        );
        qc(3000, check as fn(f64, f64) -> bool);
    }

    /// Half and bfloat against native f64 arithmetic rounded once more.
    /// Double rounding through a format of at least 2p + 2 bits is known to
    /// be harmless for + - * / (p = 11 and 8 here, 53 for double), so this
    /// is an independent reference.
    #[test]
    fn binop_half_and_bfloat_via_f64() {
        fn check(k: FloatKind, x: u16, y: u16) -> bool {
            let (x, y) = (b(16, u64::from(x)), b(16, u64::from(y)));
            let (dx, dy) = (
                as_f64(&float_to_float(k, FloatKind::Double, &x)),
                as_f64(&float_to_float(k, FloatKind::Double, &y)),
            );
            let ops: [NativeOp<f64>; 4] = [
                (FloatOp::Add, |x, y| x + y),
                (FloatOp::Sub, |x, y| x - y),
                (FloatOp::Mul, |x, y| x * y),
                (FloatOp::Div, |x, y| x / y),
            ];
            ops.iter().all(|(op, native)| {
                let want = native(dx, dy);
                let got = float_binop(k, *op, &x, &y);
                let got_wide = as_f64(&float_to_float(k, FloatKind::Double, &got));
                if want.is_nan() {
                    got_wide.is_nan()
                } else {
                    got == float_to_float(FloatKind::Double, k, &f64b(want))
                }
            })
        }
        qc(
            3000,
            (|x: u16, y: u16| check(FloatKind::Half, x, y)) as fn(u16, u16) -> bool,
        );
        qc(
            3000,
            (|x: u16, y: u16| check(FloatKind::BFloat, x, y)) as fn(u16, u16) -> bool,
        );
    }

    // ---------------------------------------------------------------
    // Floats: conversions
    // ---------------------------------------------------------------

    #[test]
    fn int_to_float_cases() {
        let f = FloatKind::Float;
        assert_eq!(int_to_float(f, &b(32, (1 << 24) + 1)), f32b(16777216.0));
        assert_eq!(int_to_float(f, &b(32, (1 << 24) + 3)), f32b(16777220.0));
        assert_eq!(int_to_float(f, &bi(32, -5)), f32b(-5.0));
        assert_eq!(int_to_float(f, &b(8, 0xff)), f32b(-1.0));
        assert_eq!(int_to_float(f, &b(1, 1)), f32b(-1.0));
        assert_eq!(int_to_float(f, &Bits::empty()), f32b(0.0));
        assert_eq!(int_to_float(FloatKind::Half, &b(32, 65520)), b(16, 0x7c00)); // rounds to +inf
        assert_eq!(int_to_float(FloatKind::Half, &b(32, 65519)), b(16, 0x7bff));
        // Wider than 128 bits.
        let two_200 = Bits::from_bigint(256, &(BigInt::one() << 200));
        assert_eq!(
            int_to_float(FloatKind::Double, &two_200),
            f64b(2f64.powi(200))
        );
        let neg = Bits::from_bigint(256, &-(BigInt::one() << 200u32));
        assert_eq!(
            int_to_float(FloatKind::Double, &neg),
            f64b(-(2f64.powi(200)))
        );
        // 2^200 + 2^147 is a tie between 2^200 and 2^200 + 2^148: to even.
        let tie = (BigInt::one() << 200) + (BigInt::one() << 147);
        assert_eq!(
            int_to_float(FloatKind::Double, &Bits::from_bigint(256, &tie)),
            f64b(2f64.powi(200))
        );
        // ... and a sticky bit far below breaks the tie upward.
        let above = tie + 1;
        assert_eq!(
            int_to_float(FloatKind::Double, &Bits::from_bigint(256, &above)),
            f64b(2f64.powi(200) + 2f64.powi(148))
        );
        // Too large for float: infinity; INT_MIN of i1000 is -2^999.
        let min = Bits::concat(&Bits::zero(999), &b(1, 1));
        assert_eq!(int_to_float(f, &min), f32b(f32::NEG_INFINITY));
        assert_eq!(
            int_to_float(FloatKind::Double, &min),
            f64b(-(2f64.powi(999)))
        );
        assert_eq!(
            int_to_float(FloatKind::Fp128, &min).slice(112, 16).to_u64(),
            Some(0x8000 | (16383 + 999))
        );
        assert_eq!(
            int_to_float(
                FloatKind::Double,
                &Bits::concat(&Bits::zero(2000), &b(1, 0))
            ),
            f64b(0.0)
        );
        // A huge positive value overflows every kind but not the code.
        let huge = Bits::concat(&Bits::ones(40_000), &b(1, 0));
        assert_eq!(
            int_to_float(FloatKind::Fp128, &huge).slice(0, 127),
            Bits::from_u128(127, 0x7fff << 112)
        );
    }

    #[test]
    fn int_to_float_against_native() {
        fn prop(x: i64) -> bool {
            int_to_float(FloatKind::Double, &bi(64, x)) == f64b(x as f64)
                && int_to_float(FloatKind::Float, &bi(64, x)) == f32b(x as f32)
                && int_to_float(FloatKind::Float, &bi(32, x as i32 as i64)) == f32b(x as i32 as f32)
                && int_to_float(FloatKind::Double, &Bits::from_u128(128, x as i128 as u128))
                    == f64b(x as f64)
        }
        qc(3000, prop as fn(i64) -> bool);
    }

    /// Integers wider than 128 bits against APFloat's (correctly rounded)
    /// decimal reading of the same number.
    #[test]
    fn wide_int_to_float_against_decimal() {
        fn prop(bytes: Vec<u8>, negative: bool, zeros: u8) -> bool {
            let mut v = BigInt::from(BigUint::from_bytes_le(&bytes)) << u32::from(zeros);
            if negative {
                v = -v;
            }
            let width = (v.bits() + 1).max(130);
            let x = Bits::from_bigint(width, &v);
            FloatKind::ALL.iter().all(|&k| {
                let want = with_float_type!(k, F => F::from_str_r(&v.to_string(), NEAREST_EVEN)
                    .map(|r| r.value.to_bits()))
                .expect("decimal");
                int_to_float(k, &x) == Bits::from_u128(k.width(), want)
            })
        }
        qc(1000, prop as fn(Vec<u8>, bool, u8) -> bool);
        // Values just around a rounding boundary of double, far above 128 bits.
        for shift in [150u32, 300, 1000] {
            for delta in [-2i64, -1, 0, 1, 2] {
                let base = (BigInt::from((1u64 << 53) + 1) << shift) + delta; // a tie, +-
                let x = Bits::from_bigint(u64::from(shift) + 60, &base);
                let want = Double::from_str_r(&base.to_string(), NEAREST_EVEN)
                    .expect("decimal")
                    .value
                    .to_bits();
                assert_eq!(
                    int_to_float(FloatKind::Double, &x),
                    Bits::from_u128(64, want)
                );
            }
        }
    }

    #[test]
    fn float_to_int_cases() {
        let f = FloatKind::Float;
        assert_eq!(float_to_int(f, &f32b(1e10), 32), None);
        assert_eq!(
            float_to_int(f, &f32b(1e10), 64),
            Some(b(64, 10_000_000_000))
        );
        assert_eq!(float_to_int(f, &f32b(f32::NAN), 32), None);
        assert_eq!(float_to_int(f, &f32b(f32::INFINITY), 32), None);
        assert_eq!(float_to_int(f, &f32b(f32::NEG_INFINITY), 32), None);
        assert_eq!(float_to_int(f, &f32b(-0.5), 32), Some(b(32, 0)));
        assert_eq!(float_to_int(f, &f32b(-0.0), 32), Some(b(32, 0)));
        assert_eq!(float_to_int(f, &f32b(-1.5), 8), Some(bi(8, -1)));
        assert_eq!(float_to_int(f, &f32b(127.9), 8), Some(b(8, 127)));
        assert_eq!(float_to_int(f, &f32b(128.0), 8), None);
        assert_eq!(float_to_int(f, &f32b(-128.9), 8), Some(bi(8, -128)));
        assert_eq!(float_to_int(f, &f32b(-129.0), 8), None);
        assert_eq!(float_to_int(f, &f32b(-1.0), 1), Some(b(1, 1)));
        assert_eq!(float_to_int(f, &f32b(0.9), 1), Some(b(1, 0)));
        assert_eq!(float_to_int(f, &f32b(1.0), 1), None);
        assert_eq!(float_to_int(f, &f32b(-2.0), 1), None);
        assert_eq!(float_to_int(f, &f32b(0.5), 0), Some(Bits::empty()));
        assert_eq!(float_to_int(f, &f32b(1.0), 0), None);
        assert_eq!(
            float_to_int(f, &f32b(f32::MIN_POSITIVE / 4.0), 8),
            Some(b(8, 0))
        );
        // Beyond 128 bits.
        let big = f64b(2f64.powi(200));
        // 2^200 needs 202 bits signed; -2^200 is INT_MIN of 201 bits.
        assert_eq!(float_to_int(FloatKind::Double, &big, 201), None);
        assert_eq!(
            float_to_int(FloatKind::Double, &big, 202),
            Some(Bits::from_bigint(202, &(BigInt::one() << 200)))
        );
        assert_eq!(
            float_to_int(FloatKind::Double, &f64b(-(2f64.powi(200))), 201),
            Some(Bits::from_bigint(201, &-(BigInt::one() << 200u32)))
        );
        assert_eq!(float_to_int(FloatKind::Double, &f64b(f64::MAX), 1024), None);
        assert_eq!(
            float_to_int(FloatKind::Double, &f64b(f64::MAX), 1025).map(|x| x.to_bigint()),
            Some(BigInt::from((1u64 << 53) - 1) << 971)
        );
        assert_eq!(
            float_to_int(FloatKind::Double, &f64b(-(2f64.powi(127))), 128),
            Some(Bits::from_u128(128, 1 << 127))
        );
        assert_eq!(
            float_to_int(FloatKind::Double, &f64b(2f64.powi(127)), 128),
            None
        );
        // The largest fp128 and x86_fp80 values.
        let quad_max = Bits::from_u128(128, 0x7ffe_ffff_ffff_ffff_ffff_ffff_ffff_ffff);
        let want = ((BigInt::one() << 113) - 1) << (16383 - 112);
        assert_eq!(
            float_to_int(FloatKind::Fp128, &quad_max, 16385).map(|x| x.to_bigint()),
            Some(want)
        );
        let x87_max = Bits::from_u128(80, 0x7ffe_ffff_ffff_ffff_ffff);
        let want = BigInt::from(u64::MAX) << (16383 - 63);
        assert_eq!(
            float_to_int(FloatKind::X86Fp80, &x87_max, 16385).map(|x| x.to_bigint()),
            Some(want)
        );
        // An x87 "unnormal" (integer bit clear) is not a number to LLVM.
        assert_eq!(
            float_to_int(
                FloatKind::X86Fp80,
                &Bits::from_u128(80, 0x3fff_0000_0000_0000_0000),
                32
            ),
            None
        );
        // A pseudo-denormal is a tiny positive number.
        assert_eq!(
            float_to_int(
                FloatKind::X86Fp80,
                &Bits::from_u128(80, 0x0000_8000_0000_0000_0000),
                32
            ),
            Some(b(32, 0))
        );
    }

    /// The exact integer part of a double, decoded by hand.
    fn f64_trunc_reference(x: f64) -> BigInt {
        let bits = x.to_bits();
        let exp = ((bits >> 52) & 0x7ff) as i64;
        let frac = bits & ((1 << 52) - 1);
        let (m, e) = if exp == 0 {
            (frac, -1074)
        } else {
            (frac | 1 << 52, exp - 1075)
        };
        let magnitude = if e >= 0 {
            BigInt::from(m) << e
        } else {
            BigInt::from(m >> (-e).min(63))
        };
        if x < 0.0 {
            -magnitude
        } else {
            magnitude
        }
    }

    #[test]
    fn float_to_int_against_native_and_reference() {
        fn prop(bits: u64, width: u16) -> bool {
            let x = f64::from_bits(bits);
            let width = u64::from(width % 1100);
            let got = float_to_int(FloatKind::Double, &f64b(x), width);
            if !x.is_finite() {
                return got.is_none();
            }
            let t = f64_trunc_reference(x);
            let fits = fits_signed_reference(&t, width);
            let ok_generic = got == fits.then(|| Bits::from_bigint(width, &t));
            // Native saturating `as` agrees whenever the value is in range.
            let ok32 = match float_to_int(FloatKind::Double, &f64b(x), 32) {
                Some(r) => r.to_i64() == Some(i64::from(x as i32)),
                None => x.trunc() < f64::from(i32::MIN) || x.trunc() > f64::from(i32::MAX),
            };
            let ok64 = match float_to_int(FloatKind::Float, &f32b(x as f32), 64) {
                Some(r) => r.to_i64() == Some((x as f32) as i64),
                None => {
                    !(x as f32).is_finite()
                        || (x as f32).trunc() >= 2f32.powi(63)
                        || (x as f32).trunc() < -(2f32.powi(63))
                }
            };
            ok_generic && ok32 && ok64
        }
        fn fits_signed_reference(v: &BigInt, width: u64) -> bool {
            if width == 0 {
                return v.is_zero();
            }
            let half = BigInt::one() << (width - 1);
            *v >= -half.clone() && *v < half
        }
        qc(3000, prop as fn(u64, u16) -> bool);
        // Values of moderate size, where truncation matters most.
        qc(
            3000,
            (|x: f64, width: u16| prop((x * 1e3).to_bits(), width)) as fn(f64, u16) -> bool,
        );
    }

    #[test]
    fn float_to_float_cases() {
        let (h, f, d) = (FloatKind::Half, FloatKind::Float, FloatKind::Double);
        assert_eq!(float_to_float(f, d, &f32b(0.1)), f64b(f64::from(0.1f32)));
        assert_eq!(float_to_float(d, f, &f64b(0.1)), f32b(0.1));
        assert_eq!(float_to_float(d, h, &f64b(65520.0)), b(16, 0x7c00));
        assert_eq!(float_to_float(d, h, &f64b(1.0)), b(16, 0x3c00));
        assert_eq!(
            float_to_float(d, FloatKind::BFloat, &f64b(1.0)),
            b(16, 0x3f80)
        );
        // 1 + 2^-8 is a bfloat tie: to even (down); one more bit goes up.
        assert_eq!(
            float_to_float(f, FloatKind::BFloat, &b(32, 0x3f80_8000)),
            b(16, 0x3f80)
        );
        assert_eq!(
            float_to_float(f, FloatKind::BFloat, &b(32, 0x3f80_8001)),
            b(16, 0x3f81)
        );
        assert_eq!(
            float_to_float(f, FloatKind::BFloat, &b(32, 0x3f81_8000)),
            b(16, 0x3f82)
        );
        assert_eq!(
            float_to_float(d, FloatKind::X86Fp80, &f64b(1.5)),
            Bits::from_u128(80, 0x3fff_c000_0000_0000_0000)
        );
        assert_eq!(
            float_to_float(d, FloatKind::Fp128, &f64b(1.0)),
            Bits::from_u128(128, 0x3fff_0000_0000_0000_0000_0000_0000_0000)
        );
        assert_eq!(float_to_float(d, f, &f64b(-0.0)), f32b(-0.0));
        // A signalling NaN comes out quiet, keeping its payload.
        assert_eq!(
            float_to_float(f, d, &b(32, 0x7f80_0001)),
            b(64, 0x7ff8_0000_2000_0000)
        );
        assert_eq!(float_to_float(d, d, &f64b(3.0)), f64b(3.0));
    }

    #[test]
    fn float_to_float_against_native() {
        fn prop(x: u64, y: u32) -> bool {
            let x = f64::from_bits(x);
            let y = f32::from_bits(y);
            let narrow = as_f32(&float_to_float(
                FloatKind::Double,
                FloatKind::Float,
                &f64b(x),
            ));
            let wide = as_f64(&float_to_float(
                FloatKind::Float,
                FloatKind::Double,
                &f32b(y),
            ));
            let ok_narrow = if x.is_nan() {
                narrow.is_nan()
            } else {
                narrow.to_bits() == (x as f32).to_bits()
            };
            let ok_wide = if y.is_nan() {
                wide.is_nan()
            } else {
                wide.to_bits() == f64::from(y).to_bits()
            };
            ok_narrow && ok_wide
        }
        qc(3000, prop as fn(u64, u32) -> bool);
        qc(
            3000,
            (|x: f64, y: f32| prop(x.to_bits(), y.to_bits())) as fn(f64, f32) -> bool,
        );
    }

    fn is_nan(k: FloatKind, x: &Bits) -> bool {
        let raw = float_raw(k, x);
        with_float_type!(k, F => F::from_bits(raw).is_nan())
    }

    /// Widening is exact, so narrowing back gives the value back: the very
    /// bits, except that x87 encodings come back in canonical form.
    #[test]
    fn float_to_float_widening_round_trip() {
        fn widens(from: FloatKind, to: FloatKind) -> bool {
            use FloatKind::*;
            match from {
                Half | BFloat => matches!(to, Float | Double | Fp128 | X86Fp80),
                Float => matches!(to, Double | Fp128 | X86Fp80),
                Double => matches!(to, Fp128 | X86Fp80),
                X86Fp80 => to == Fp128,
                Fp128 => false,
            }
        }
        fn prop(raw: u128, selector: u8) -> TestResult {
            for from in FloatKind::ALL {
                let x = biased_pattern(from, raw, selector);
                if is_nan(from, &x) {
                    continue; // NaNs come back quiet
                }
                let canonical = float_to_float(from, from, &x);
                if from != FloatKind::X86Fp80 && canonical != x {
                    return TestResult::error(format!(
                        "{from:?} {x:?} is changed by converting to itself"
                    ));
                }
                for to in FloatKind::ALL.into_iter().filter(|&to| widens(from, to)) {
                    let back = float_to_float(to, from, &float_to_float(from, to, &x));
                    if back != canonical {
                        return TestResult::error(format!(
                            "{from:?} -> {to:?}: {x:?} came back as {back:?}"
                        ));
                    }
                }
            }
            TestResult::passed()
        }
        qc(2000, prop as fn(u128, u8) -> TestResult);
    }

    // ---------------------------------------------------------------
    // Floats: literals
    // ---------------------------------------------------------------

    #[test]
    fn parse_cases() {
        let f = FloatKind::Float;
        assert_eq!(parse(f, "0x3FF0000000000000"), f32b(1.0));
        assert_eq!(parse(f, "0x3FB99999A0000000"), f32b(0.1));
        assert_eq!(parse(f, "0x3fb99999a0000000"), f32b(0.1));
        assert!(parse_float_literal(f, "0x3FB999999999999A").is_err()); // double 0.1
        assert_eq!(parse(f, "1.0"), f32b(1.0));
        assert_eq!(parse(f, "1"), f32b(1.0));
        assert_eq!(parse(f, "-0.0"), f32b(-0.0));
        assert_eq!(parse(f, "+2.5e-3"), f32b(2.5e-3));
        assert_eq!(parse(f, "1.000000e+00"), f32b(1.0));
        assert_eq!(parse(f, "1."), f32b(1.0));
        assert_eq!(parse(f, "1E2"), f32b(100.0));
        assert_eq!(parse(f, "0.1"), f32b(0.1)); // rounded once, to nearest
        assert_eq!(parse(f, "1e39"), f32b(f32::INFINITY));
        assert_eq!(parse(f, "1e-50"), f32b(0.0));
        assert_eq!(parse(f, "-1e-99999999999999999999"), f32b(-0.0));
        assert_eq!(parse(f, "0x7FF0000000000000"), f32b(f32::INFINITY));
        assert_eq!(parse(f, "0xFFF0000000000000"), f32b(f32::NEG_INFINITY));
        assert_eq!(parse(f, "0x7FF8000000000000"), b(32, 0x7fc0_0000));
        assert_eq!(parse(f, "0x7FF0000020000000"), b(32, 0x7f80_0001)); // signalling, payload 1
        assert!(parse_float_literal(f, "0x7FF0000000000001").is_err()); // payload lost
        assert_eq!(parse(f, "0x36A0000000000000"), b(32, 1)); // 2^-149, the least float
        assert!(parse_float_literal(f, "0x3690000000000000").is_err()); // 2^-150 is not a float
        let d = FloatKind::Double;
        assert_eq!(parse(d, "0x3FB999999999999A"), f64b(0.1));
        assert_eq!(parse(d, "0.1"), f64b(0.1));
        assert_eq!(parse(d, "0x0"), f64b(0.0));
        assert_eq!(parse(d, "0x8000000000000000"), f64b(-0.0));
        assert_eq!(parse(d, "0x7FF0000000000001"), b(64, 0x7ff0_0000_0000_0001)); // sNaN kept
        assert_eq!(parse(d, "1e400"), f64b(f64::INFINITY));
        assert_eq!(parse(d, "4.9406564584124654e-324"), f64b(f64::from_bits(1)));
        assert_eq!(parse(FloatKind::Half, "0xH3C00"), b(16, 0x3c00));
        assert_eq!(parse(FloatKind::Half, "0x3FF0000000000000"), b(16, 0x3c00));
        assert_eq!(parse(FloatKind::Half, "1.5"), b(16, 0x3e00));
        assert!(parse_float_literal(FloatKind::Half, "0x1").is_err()); // the least double
        assert_eq!(parse(FloatKind::BFloat, "0xR3F80"), b(16, 0x3f80));
        assert_eq!(parse(FloatKind::BFloat, "1.0"), b(16, 0x3f80));
        assert_eq!(
            parse(FloatKind::BFloat, "0x3FF0000000000000"),
            b(16, 0x3f80)
        );
        assert_eq!(
            parse(FloatKind::Fp128, "0xL00000000000000003FFF000000000000"),
            Bits::from_u128(128, 0x3fff << 112)
        );
        assert_eq!(
            parse(FloatKind::Fp128, "1.0"),
            Bits::from_u128(128, 0x3fff << 112)
        );
        assert_eq!(
            parse(FloatKind::X86Fp80, "0xK3FFFC000000000000000"),
            Bits::from_u128(80, 0x3fff_c000_0000_0000_0000)
        );
        assert_eq!(
            parse(FloatKind::X86Fp80, "1.5"),
            Bits::from_u128(80, 0x3fff_c000_0000_0000_0000)
        );
        // A pattern that is no valid x87 encoding still reads as itself.
        assert_eq!(
            parse(FloatKind::X86Fp80, "0xK3FFF0000000000000001"),
            Bits::from_u128(80, 0x3fff_0000_0000_0000_0001)
        );
    }

    #[test]
    fn parse_errors() {
        let bad = [
            (FloatKind::Float, ""),
            (FloatKind::Float, "-"),
            (FloatKind::Float, "."),
            (FloatKind::Float, ".5"),
            (FloatKind::Float, "1e"),
            (FloatKind::Float, "1e+"),
            (FloatKind::Float, "1.0.0"),
            (FloatKind::Float, "1.0 "),
            (FloatKind::Float, " 1.0"),
            (FloatKind::Float, "inf"),
            (FloatKind::Float, "nan"),
            (FloatKind::Float, "NaN"),
            (FloatKind::Float, "0x"),
            (FloatKind::Float, "0x+1"),
            (FloatKind::Float, "-0x3FF0000000000000"),
            (FloatKind::Float, "0x3FF00000000000000"),
            (FloatKind::Float, "0xH3C00"),
            (FloatKind::Float, "0X3FF0000000000000"),
            (FloatKind::Half, "0xR3F80"),
            (FloatKind::Half, "0xH3C000"),
            (FloatKind::Half, "0xH"),
            (FloatKind::Half, "0xh3C00"),
            (FloatKind::BFloat, "0xH3C00"),
            (FloatKind::Double, "0xL00000000000000003FFF000000000000"),
            (FloatKind::Fp128, "0x3FF0000000000000"),
            (FloatKind::Fp128, "0xL3FFF"),
            (FloatKind::Fp128, "0xM00000000000000003FF0000000000000"),
            (FloatKind::X86Fp80, "0xK3FFF8000000000000000F"),
            (FloatKind::X86Fp80, "0xK3FFF800000000000000"),
            (FloatKind::X86Fp80, "0x3FF0000000000000"),
            (FloatKind::X86Fp80, "0xKé3FFF80000000000000"),
            (FloatKind::Double, "1.0é"),
            (FloatKind::Double, "é"),
        ];
        for (k, text) in bad {
            assert!(
                parse_float_literal(k, text).is_err(),
                "{k:?} {text:?} parsed"
            );
        }
        // Very long inputs are fine too.
        let long = format!("0.{}1e5", "0".repeat(10_000));
        assert_eq!(parse(FloatKind::Double, &long), f64b(0.0));
        let long = format!("{}.0", "9".repeat(5_000));
        assert_eq!(parse(FloatKind::Double, &long), f64b(f64::INFINITY));
    }

    /// No text makes the parser panic, and whatever it accepts prints back
    /// to something it reads as the same bits.
    #[test]
    fn parse_arbitrary_text() {
        fn check(text: &str) -> bool {
            FloatKind::ALL
                .iter()
                .all(|&k| match parse_float_literal(k, text) {
                    Ok(x) => x.width() == k.width() && literal_round_trips(k, &x).is_ok(),
                    Err(_) => true,
                })
        }
        qc(2000, (|text: String| check(&text)) as fn(String) -> bool);
        // Strings over the literal alphabet reach the deeper paths.
        const ALPHABET: &[u8] = b"0123456789abcdefABCDEFxHRLKM.eE+-";
        fn from_alphabet(picks: Vec<u8>, prefix: u8) -> bool {
            let body: String = picks
                .iter()
                .map(|&p| char::from(ALPHABET[usize::from(p) % ALPHABET.len()]))
                .collect();
            let text = match prefix % 4 {
                0 => body,
                1 => format!("0x{body}"),
                2 => format!(
                    "0x{}{body}",
                    char::from(b"HRLKM"[usize::from(prefix / 4) % 5])
                ),
                _ => format!("-{body}"),
            };
            check(&text)
        }
        qc(5000, from_alphabet as fn(Vec<u8>, u8) -> bool);
    }

    #[test]
    fn format_cases() {
        let f = FloatKind::Float;
        let d = FloatKind::Double;
        assert_eq!(format_float_literal(f, &f32b(1.0)), "1.000000e+00");
        assert_eq!(format_float_literal(f, &f32b(-1.5)), "-1.500000e+00");
        assert_eq!(format_float_literal(f, &f32b(0.0)), "0.000000e+00");
        assert_eq!(format_float_literal(f, &f32b(-0.0)), "-0.000000e+00");
        assert_eq!(format_float_literal(f, &f32b(0.1)), "0x3FB99999A0000000");
        assert_eq!(format_float_literal(f, &f32b(1e10)), "1.000000e+10");
        assert_eq!(
            format_float_literal(f, &f32b(f32::INFINITY)),
            "0x7FF0000000000000"
        );
        assert_eq!(
            format_float_literal(f, &f32b(f32::NEG_INFINITY)),
            "0xFFF0000000000000"
        );
        assert_eq!(
            format_float_literal(f, &b(32, 0x7fc0_0000)),
            "0x7FF8000000000000"
        );
        assert_eq!(
            format_float_literal(f, &b(32, 0x7f80_0001)),
            "0x7FF0000020000000"
        );
        assert_eq!(
            format_float_literal(f, &b(32, 0xffc0_0001)),
            "0xFFF8000020000000"
        );
        assert_eq!(format_float_literal(f, &b(32, 1)), "0x36A0000000000000");
        assert_eq!(format_float_literal(d, &f64b(1.0)), "1.000000e+00");
        // LLVM's test is whether the six-digit form reads back as the same
        // double, which it does for the double nearest 0.1.
        assert_eq!(format_float_literal(d, &f64b(0.1)), "1.000000e-01");
        assert_eq!(
            format_float_literal(d, &f64b(0.1 + 1e-17)),
            "0x3FB999999999999B"
        );
        assert_eq!(format_float_literal(d, &f64b(1e100)), "1.000000e+100");
        assert_eq!(format_float_literal(d, &f64b(2.5e-3)), "2.500000e-03");
        assert_eq!(format_float_literal(d, &f64b(123456.0)), "1.234560e+05");
        // Six significant digits (the seventh printed digit is padding), as
        // in LLVM, so seven-digit integers come out in hex.
        assert_eq!(
            format_float_literal(d, &f64b(1234567.0)),
            "0x4132D68700000000"
        );
        assert_eq!(
            format_float_literal(d, &f64b(12345678.0)),
            "0x41678C29C0000000"
        );
        assert_eq!(
            format_float_literal(d, &f64b(f64::NAN)),
            "0x7FF8000000000000"
        );
        // The least double is the double nearest its six-digit decimal.
        assert_eq!(format_float_literal(d, &b(64, 1)), "4.940660e-324");
        assert_eq!(
            format_float_literal(d, &b(64, 0x000f_ffff_ffff_ffff)),
            "0x000FFFFFFFFFFFFF"
        );
        assert_eq!(
            format_float_literal(FloatKind::Half, &b(16, 0x3c00)),
            "1.000000e+00"
        );
        assert_eq!(
            format_float_literal(FloatKind::Half, &b(16, 0x3555)),
            "0xH3555"
        );
        assert_eq!(
            format_float_literal(FloatKind::Half, &b(16, 0x7c00)),
            "0xH7C00"
        );
        assert_eq!(
            format_float_literal(FloatKind::BFloat, &b(16, 0x3f80)),
            "1.000000e+00"
        );
        assert_eq!(
            format_float_literal(FloatKind::BFloat, &b(16, 0x3eab)),
            "0xR3EAB"
        );
        assert_eq!(
            format_float_literal(FloatKind::Fp128, &Bits::from_u128(128, 0x3fff << 112)),
            "0xL00000000000000003FFF000000000000"
        );
        assert_eq!(
            format_float_literal(
                FloatKind::X86Fp80,
                &Bits::from_u128(80, 0x3fff_c000_0000_0000_0000)
            ),
            "0xK3FFFC000000000000000"
        );
    }

    fn literal_round_trips(k: FloatKind, x: &Bits) -> Result<(), String> {
        let text = format_float_literal(k, x);
        let back = parse_float_literal(k, &text).map_err(|e| e.to_string())?;
        if back != *x {
            return Err(format!(
                "{k:?} {x:?} printed as {text} read back as {back:?}"
            ));
        }
        if format_float_literal(k, &back) != text {
            return Err(format!("{k:?}: {text} is not printed stably"));
        }
        Ok(())
    }

    /// Every half and bfloat: the literal reads back as the same bits, and a
    /// decimal one means the same to LLVM (read as a double, narrowed).
    #[test]
    fn literal_round_trip_half_and_bfloat_exhaustive() {
        for k in [FloatKind::Half, FloatKind::BFloat] {
            for raw in 0..=u16::MAX {
                let x = b(16, u64::from(raw));
                let text = format_float_literal(k, &x);
                assert_eq!(parse_float_literal(k, &text), Ok(x.clone()), "{k:?} {text}");
                if !text.starts_with("0x") {
                    let d = parse(FloatKind::Double, &text);
                    assert_eq!(float_to_float(FloatKind::Double, k, &d), x, "{k:?} {text}");
                }
            }
        }
    }

    #[test]
    fn literal_round_trip_random_patterns() {
        fn prop(raw: u128, selector: u8) -> TestResult {
            for k in FloatKind::ALL {
                for x in [
                    Bits::from_u128(k.width(), raw),
                    biased_pattern(k, raw, selector),
                ] {
                    if let Err(e) = literal_round_trips(k, &x) {
                        return TestResult::error(e);
                    }
                }
            }
            TestResult::passed()
        }
        qc(3000, prop as fn(u128, u8) -> TestResult);
    }

    #[test]
    fn literal_round_trip_native_values() {
        // Values of everyday size, where the decimal form gets used.
        fn prop(x: f64, y: f32, i: i32) -> bool {
            let cases = [
                (FloatKind::Double, f64b(x)),
                (FloatKind::Float, f32b(y)),
                (FloatKind::Double, f64b(f64::from(i))),
                (FloatKind::Float, f32b(i as f32)),
                (
                    FloatKind::Half,
                    float_to_float(FloatKind::Float, FloatKind::Half, &f32b(y)),
                ),
                (
                    FloatKind::BFloat,
                    float_to_float(FloatKind::Float, FloatKind::BFloat, &f32b(y)),
                ),
                (
                    FloatKind::Fp128,
                    float_to_float(FloatKind::Double, FloatKind::Fp128, &f64b(x)),
                ),
                (
                    FloatKind::X86Fp80,
                    float_to_float(FloatKind::Double, FloatKind::X86Fp80, &f64b(x)),
                ),
            ];
            cases
                .iter()
                .all(|(k, v)| literal_round_trips(*k, v).is_ok())
        }
        qc(3000, prop as fn(f64, f32, i32) -> bool);
    }

    /// The decimal form, when printed, is what LLVM reads: a double equal to
    /// the value, which narrows without loss.
    #[test]
    fn decimal_literals_mean_the_same_to_llvm() {
        fn prop(raw: u64) -> bool {
            FloatKind::ALL[..4].iter().all(|&k| {
                let x = Bits::from_u64(k.width(), raw);
                let text = format_float_literal(k, &x);
                if text.starts_with("0x") {
                    return true;
                }
                let via_double = parse_float_literal(FloatKind::Double, &text).expect("decimal");
                float_to_float(FloatKind::Double, k, &via_double) == x
                    && float_to_float(k, FloatKind::Double, &x) == via_double
            })
        }
        qc(3000, prop as fn(u64) -> bool);
    }
}
