//! The values of AMD's DWARF extension evaluator ([`super::ext`]): gimli's
//! [`Value`] for the base types gimli knows, [`Wide`] integers for the
//! wide base types of [`super::ops`] (`BaseType::IW(n)`/`BaseType::UW(n)`,
//! signed and unsigned integers of 9 to 255 bytes), and [`SoftFloat`]s for
//! its half, bfloat, binary128 and x87 80-bit base types
//! (`BaseType::F16`/`BF16`/`F128`/`F80`; their semantics are [`super::softfloat`]'s module doc, and how they meet
//! the other values is the last section below).
//!
//! DWARF 5 puts no bound on a base type's size (§2.5.1 "Each general
//! operation represents a … value of a base type"; §5.1 base types have any
//! `DW_AT_byte_size`), and GDB evaluates wide ones, but gimli's `Value` stops
//! at 64 bits. So that a lowering can compute `i65` … `i2040` integers with
//! AMD's extensions, the evaluator's stack holds an [`ExtValue`]: either a
//! gimli `Value` (narrow), whose every operation is still gimli's own method
//! (narrow ⊕ narrow behaves exactly as before), or a [`Wide`] integer, whose
//! arithmetic is written here with `num-bigint` (independently of the
//! reference interpreter's `diopter_semantics::value` arithmetic).
//!
//! # Semantics decisions
//!
//! They mirror gimli's conventions for its typed integers, so that a wide
//! type is "an `I64`/`U64` with more bits". `n` is `8 · bytes`.
//!
//! * A wide value is a mathematical integer kept reduced into its type's
//!   range: `[-2^(n-1), 2^(n-1))` signed, `[0, 2^n)` unsigned.
//! * `plus`, `minus`, `mul`, `div`, `mod`, `and`, `or`, `xor` and the six
//!   comparisons take two values of the same wide type; anything else is
//!   gimli's `TypeMismatch` (so `DW_OP_plus_uconst`, which adds a generic
//!   value, is a mismatch on a wide value as on an `I64`). Results wrap
//!   modulo `2^n`; `div` truncates toward zero (signed for a signed type),
//!   `mod` is the remainder with the dividend's sign (Rust's
//!   `wrapping_rem`), so `MIN / -1 = MIN` and `MIN mod -1 = 0`. A zero
//!   divisor is `DivisionByZero`, checked before the types (gimli's order).
//!   Comparisons push a generic 0 or 1, signed for a signed type.
//! * `neg` wraps on a signed type and is gimli's `UnsupportedTypeOperation`
//!   on an unsigned one; `abs` wraps (`abs MIN = MIN`) and leaves unsigned
//!   values unchanged; `not` complements the `n` bits.
//! * Shifts: the count is any integral value, narrow or wide (its
//!   mathematical value; a generic count is unsigned, as gimli reads it); a
//!   negative or non-integral count is gimli's `InvalidShiftExpression`. A
//!   count of at least `n` gives 0 (`shl`, `shr`) or the sign fill (`shra`).
//!   `shr` only shifts an unsigned type and `shra` only a signed one (the
//!   other is `UnsupportedTypeOperation`, as gimli). A narrow value shifted
//!   by a wide count is gimli's shift by that count (saturated at
//!   `2^64 - 1`, which gives the same result as any count of 64 or more).
//! * `DW_OP_convert` to a wide type takes the source's mathematical value
//!   (a signed narrow type sign-extends, an unsigned one and the generic
//!   type zero-extend, as gimli's `to_u64`/`from_u64` do) and reduces it
//!   modulo `2^n`. From a wide type to a narrow integral or the generic
//!   type: the low 64 bits, then gimli's `Value::from_u64` (truncation).
//!   Floats to and from wide types are not modelled: an error, never a
//!   guess.
//! * `DW_OP_reinterpret` needs equal bit sizes (gimli's `TypeMismatch`
//!   otherwise): a wide value reinterprets only as a wide type of the same
//!   size.
//! * Any other operation on a wide value is an error ([`ValueError::Ill`]),
//!   never a panic.
//!
//! # Soft floats among the other values
//!
//! A [`SoftFloat`] behaves as gimli's `F32`/`F64` do where gimli's
//! conventions apply (decision 14 of [`super::ext`]):
//!
//! * `plus`, `minus`, `mul`, `div` and the comparisons need two values of
//!   the same soft kind (else `TypeMismatch`); `mod`, `and`, `or`, `xor`
//!   of two of them, `not` and shifting one are `IntegralTypeRequired`; a
//!   soft shift count is `InvalidShiftExpression` (gimli checks the count
//!   first). A zero integral divisor is still `DivisionByZero` before the
//!   types are looked at.
//! * `DW_OP_convert` between soft kinds and to or from `float`/`double`
//!   rounds to nearest, ties to even; a narrow integral value converts as
//!   gimli converts one to `F32`/`F64`: its `to_u64` (sign-extended for a
//!   signed type) taken as an unsigned 64-bit number. A wide integer to a
//!   soft float, and a soft float to any integer, are not modelled: errors.
//! * `DW_OP_reinterpret` needs equal sizes: half and bfloat with each
//!   other and with `I16`/`U16`, binary128 with the 16-byte wide integers,
//!   x86_fp80 with the 10-byte ones.

use super::ops::BaseType;
use super::softfloat::{Arith, SoftFloat, SoftKind};
use diopter_semantics::value::Bits;
use gimli::read::{Value, ValueType};
use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{One, Signed, ToPrimitive, Zero};
use std::cmp::Ordering;

/// gimli's address mask: the generic type is 64 bits wide.
const MASK: u64 = u64::MAX;

/// The type of an [`ExtValue`]: one of gimli's, a wide integer or a soft
/// float.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExtType {
    Narrow(ValueType),
    /// A signed or unsigned integer of `bytes` bytes (more than 8).
    Wide {
        signed: bool,
        bytes: u8,
    },
    /// Half, bfloat, binary128 or x86_fp80.
    Soft(SoftKind),
}

impl ExtType {
    /// The evaluator's type of a base type; `None` for a "wide" type of at
    /// most 8 bytes (not one of [`BaseType`]'s).
    pub fn of_base(b: BaseType) -> Option<ExtType> {
        match b {
            BaseType::IW(n) | BaseType::UW(n) if n > 8 => Some(ExtType::Wide {
                signed: b.is_signed(),
                bytes: n,
            }),
            BaseType::IW(_) | BaseType::UW(_) => None,
            BaseType::F16 | BaseType::BF16 | BaseType::F128 | BaseType::F80 => {
                SoftKind::of_base(b).map(ExtType::Soft)
            }
            b => b.value_type().map(ExtType::Narrow),
        }
    }

    /// The size in bits (the generic type: 64).
    pub fn bits(self) -> u64 {
        match self {
            ExtType::Narrow(ValueType::Generic) => 64,
            ExtType::Narrow(t) => u64::from(t.bit_size(MASK)),
            ExtType::Wide { bytes, .. } => 8 * u64::from(bytes),
            ExtType::Soft(k) => k.bits(),
        }
    }

    /// A name for messages (`generic`, `int32_t`, `uint128_t`, `float`,
    /// `half`).
    pub fn name(self) -> String {
        match self {
            ExtType::Narrow(ValueType::Generic) => "generic".into(),
            ExtType::Narrow(ValueType::F32) => "float".into(),
            ExtType::Narrow(ValueType::F64) => "double".into(),
            ExtType::Narrow(t) => {
                let signed = matches!(
                    t,
                    ValueType::I8 | ValueType::I16 | ValueType::I32 | ValueType::I64
                );
                let u = if signed { "" } else { "u" };
                format!("{u}int{}_t", self.bits())
            }
            ExtType::Wide { signed, .. } => {
                let u = if signed { "" } else { "u" };
                format!("{u}int{}_t", self.bits())
            }
            ExtType::Soft(k) => k.name().into(),
        }
    }
}

/// An integer of a wide base type. Invariant: `v` is in the type's range,
/// `[-2^(n-1), 2^(n-1))` signed or `[0, 2^n)` unsigned, `n = 8 · bytes`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Wide {
    signed: bool,
    bytes: u8,
    v: BigInt,
}

impl Wide {
    /// `v` reduced modulo `2^n` into the range of the type.
    pub fn new(signed: bool, bytes: u8, v: BigInt) -> Wide {
        let n = 8 * u64::from(bytes);
        let m = BigInt::one() << n;
        let mut r = v.mod_floor(&m);
        if signed && n > 0 && r >= (&m >> 1u32) {
            r -= &m;
        }
        Wide {
            signed,
            bytes,
            v: r,
        }
    }

    /// The value whose `n` bits (two's complement if signed) are the low
    /// `n` bits of `bits` (bits it does not have are zero).
    pub fn from_bits(signed: bool, bytes: u8, bits: &Bits) -> Wide {
        Wide::new(signed, bytes, BigInt::from(bits.to_biguint()))
    }

    pub fn is_signed(&self) -> bool {
        self.signed
    }

    pub fn bytes(&self) -> u8 {
        self.bytes
    }

    /// `n`, the size in bits.
    pub fn bit_width(&self) -> u64 {
        8 * u64::from(self.bytes)
    }

    /// The mathematical value (in the type's range).
    pub fn value(&self) -> &BigInt {
        &self.v
    }

    pub fn ty(&self) -> ExtType {
        ExtType::Wide {
            signed: self.signed,
            bytes: self.bytes,
        }
    }

    /// The `n` bits (two's complement).
    pub fn to_bits(&self) -> Bits {
        Bits::from_bigint(self.bit_width(), &self.v)
    }

    /// The same type, value `v` reduced.
    fn with(&self, v: BigInt) -> ExtValue {
        ExtValue::Wide(Wide::new(self.signed, self.bytes, v))
    }
}

/// A value on the evaluator's stack.
#[derive(Clone, Debug, PartialEq)]
pub enum ExtValue {
    /// One of gimli's values; its operations are gimli's methods.
    Narrow(Value),
    Wide(Wide),
    /// A half, bfloat, binary128 or x86_fp80 value ([`super::softfloat`]).
    Soft(SoftFloat),
}

impl From<Value> for ExtValue {
    fn from(v: Value) -> ExtValue {
        ExtValue::Narrow(v)
    }
}

/// Why an operation on values failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ValueError {
    /// `DW_OP_div`/`DW_OP_mod` by zero.
    DivisionByZero,
    /// Anything else: the operation is ill-formed for these values. gimli's
    /// errors keep gimli's `Debug` text (`TypeMismatch`); the wide ones
    /// start with the name of the gimli error they mirror.
    Ill(String),
}

impl From<gimli::read::Error> for ValueError {
    fn from(e: gimli::read::Error) -> ValueError {
        match e {
            gimli::read::Error::DivisionByZero => ValueError::DivisionByZero,
            e => ValueError::Ill(format!("{e:?}")),
        }
    }
}

/// A narrow value of type `vt` from the low bits of `raw` (gimli's value
/// types, the generic type as 64 bits).
pub fn value_of(vt: ValueType, raw: u64) -> Value {
    match vt {
        ValueType::Generic => Value::Generic(raw),
        ValueType::I8 => Value::I8(raw as u8 as i8),
        ValueType::U8 => Value::U8(raw as u8),
        ValueType::I16 => Value::I16(raw as u16 as i16),
        ValueType::U16 => Value::U16(raw as u16),
        ValueType::I32 => Value::I32(raw as u32 as i32),
        ValueType::U32 => Value::U32(raw as u32),
        ValueType::I64 => Value::I64(raw as i64),
        ValueType::U64 => Value::U64(raw),
        ValueType::F32 => Value::F32(f32::from_bits(raw as u32)),
        ValueType::F64 => Value::F64(f64::from_bits(raw)),
    }
}

/// The bits of a narrow value, as wide as its type (generic: 64).
pub fn value_bits(v: Value) -> Bits {
    match v {
        Value::Generic(x) | Value::U64(x) => Bits::from_u64(64, x),
        Value::I64(x) => Bits::from_u64(64, x as u64),
        Value::I8(x) => Bits::from_u64(8, x as u8 as u64),
        Value::U8(x) => Bits::from_u64(8, u64::from(x)),
        Value::I16(x) => Bits::from_u64(16, x as u16 as u64),
        Value::U16(x) => Bits::from_u64(16, u64::from(x)),
        Value::I32(x) => Bits::from_u64(32, x as u32 as u64),
        Value::U32(x) => Bits::from_u64(32, u64::from(x)),
        Value::F32(x) => Bits::from_u64(32, u64::from(x.to_bits())),
        Value::F64(x) => Bits::from_u64(64, x.to_bits()),
    }
}

/// An integral narrow value as a two's-complement integer of its type
/// (the generic type and `U64` as 64-bit two's complement).
pub fn integral_i64(v: Value) -> Option<i64> {
    Some(match v {
        Value::Generic(x) | Value::U64(x) => x as i64,
        Value::I64(x) => x,
        Value::I8(x) => i64::from(x),
        Value::U8(x) => i64::from(x),
        Value::I16(x) => i64::from(x),
        Value::U16(x) => i64::from(x),
        Value::I32(x) => i64::from(x),
        Value::U32(x) => i64::from(x),
        Value::F32(_) | Value::F64(_) => return None,
    })
}

/// The mathematical value of an integral narrow value: signed types
/// signed, unsigned types and the generic type unsigned (gimli's reading:
/// `to_u64` sign-extends a signed type, the generic type is unsigned).
fn narrow_integer(v: Value) -> Option<BigInt> {
    Some(match v {
        Value::Generic(x) | Value::U64(x) => BigInt::from(x),
        Value::I64(x) => BigInt::from(x),
        Value::I8(x) => BigInt::from(x),
        Value::U8(x) => BigInt::from(x),
        Value::I16(x) => BigInt::from(x),
        Value::U16(x) => BigInt::from(x),
        Value::I32(x) => BigInt::from(x),
        Value::U32(x) => BigInt::from(x),
        Value::F32(_) | Value::F64(_) => return None,
    })
}

/// `v mod 2^64`.
fn low_u64(v: &BigInt) -> u64 {
    v.mod_floor(&(BigInt::one() << 64u32))
        .to_u64()
        .unwrap_or_default()
}

impl ExtValue {
    pub fn ty(&self) -> ExtType {
        match self {
            ExtValue::Narrow(v) => ExtType::Narrow(v.value_type()),
            ExtValue::Wide(w) => w.ty(),
            ExtValue::Soft(s) => ExtType::Soft(s.kind()),
        }
    }

    /// A value of type `ty` from bits read from storage (or a constant's
    /// bytes): a narrow type takes them as gimli's value of that type, a
    /// wide one its `n` low bits, a soft float its 16, 80 or 128 low bits
    /// as its encoding (kept as it is, never canonicalized).
    pub fn from_bits(ty: ExtType, bits: &Bits) -> ExtValue {
        match ty {
            ExtType::Narrow(vt) => ExtValue::Narrow(value_of(vt, bits.to_u64().unwrap_or(0))),
            ExtType::Wide { signed, bytes } => ExtValue::Wide(Wide::from_bits(signed, bytes, bits)),
            ExtType::Soft(k) => {
                // The low 128 bits (the kind keeps its own 16, 80 or 128).
                let low = Bits::from_biguint(128, &bits.to_biguint());
                ExtValue::Soft(SoftFloat::new(k, low.to_u128().unwrap_or(0)))
            }
        }
    }

    /// The bits, as wide as the type (generic: 64).
    pub fn bits(&self) -> Bits {
        match self {
            ExtValue::Narrow(v) => value_bits(*v),
            ExtValue::Wide(w) => w.to_bits(),
            ExtValue::Soft(s) => Bits::from_u128(s.kind().bits(), s.bits()),
        }
    }

    /// Not a float.
    pub fn is_integral(&self) -> bool {
        !matches!(
            self,
            ExtValue::Narrow(Value::F32(_) | Value::F64(_)) | ExtValue::Soft(_)
        )
    }

    /// An integral value other than zero (`DW_OP_bra` branches).
    pub fn is_nonzero_integral(&self) -> bool {
        match self {
            ExtValue::Narrow(v) => narrow_integer(*v).is_some_and(|x| !x.is_zero()),
            ExtValue::Wide(w) => !w.v.is_zero(),
            ExtValue::Soft(_) => false,
        }
    }

    /// An integral zero (a divisor gimli refuses before looking at types).
    fn is_integral_zero(&self) -> bool {
        match self {
            ExtValue::Narrow(v) => narrow_integer(*v).is_some_and(|x| x.is_zero()),
            ExtValue::Wide(w) => w.v.is_zero(),
            ExtValue::Soft(_) => false,
        }
    }

    /// The mathematical value of an integral value (a generic value is
    /// unsigned); `None` for a float.
    pub fn integer(&self) -> Option<BigInt> {
        match self {
            ExtValue::Narrow(v) => narrow_integer(*v),
            ExtValue::Wide(w) => Some(w.v.clone()),
            ExtValue::Soft(_) => None,
        }
    }

    /// The displacement of `DW_OP_LLVM_offset`/`bit_offset`: a narrow value
    /// as a two's-complement integer of its type (the evaluator's decision
    /// 1), a wide value as its signed or unsigned mathematical value; `None`
    /// for a float.
    pub fn displacement(&self) -> Option<BigInt> {
        match self {
            ExtValue::Narrow(v) => integral_i64(*v).map(BigInt::from),
            ExtValue::Wide(w) => Some(w.v.clone()),
            ExtValue::Soft(_) => None,
        }
    }

    /// `DW_OP_neg`.
    pub fn negate(self) -> Result<ExtValue, ValueError> {
        match self {
            ExtValue::Narrow(v) => Ok(ExtValue::Narrow(v.neg(MASK)?)),
            ExtValue::Wide(w) if w.signed => Ok(w.with(-&w.v)),
            ExtValue::Wide(w) => Err(ValueError::Ill(format!(
                "UnsupportedTypeOperation: DW_OP_neg of the unsigned {} (gimli refuses it for unsigned types)",
                w.ty().name()
            ))),
            // gimli's `-value` for a float: the sign bit flipped.
            ExtValue::Soft(s) => Ok(ExtValue::Soft(s.negate())),
        }
    }

    /// `DW_OP_abs`.
    pub fn abs(self) -> Result<ExtValue, ValueError> {
        match self {
            ExtValue::Narrow(v) => Ok(ExtValue::Narrow(v.abs(MASK)?)),
            ExtValue::Wide(w) if w.signed => Ok(w.with(w.v.abs())),
            w @ ExtValue::Wide(_) => Ok(w),
            // gimli's `if value < 0. { -value } else { value }`.
            ExtValue::Soft(s) => Ok(ExtValue::Soft(s.abs())),
        }
    }

    /// `DW_OP_not`.
    pub fn complement(self) -> Result<ExtValue, ValueError> {
        match self {
            ExtValue::Narrow(v) => Ok(ExtValue::Narrow(v.not(MASK)?)),
            ExtValue::Wide(w) => Ok(w.with(!&w.v)),
            ExtValue::Soft(s) => Err(ValueError::Ill(format!(
                "IntegralTypeRequired: DW_OP_not of a {} (gimli refuses it for floats)",
                s.kind().name()
            ))),
        }
    }

    /// `DW_OP_convert` to `to`.
    pub fn convert(self, to: ExtType) -> Result<ExtValue, ValueError> {
        match (self, to) {
            (ExtValue::Narrow(v), ExtType::Narrow(t)) => Ok(ExtValue::Narrow(v.convert(t, MASK)?)),
            (ExtValue::Narrow(v), ExtType::Wide { signed, bytes }) => match narrow_integer(v) {
                Some(x) => Ok(ExtValue::Wide(Wide::new(signed, bytes, x))),
                None => Err(ValueError::Ill(format!(
                    "DW_OP_convert of a {} to the wide {}: float to wide integer conversion is not modelled",
                    ExtType::Narrow(v.value_type()).name(),
                    to.name()
                ))),
            },
            (ExtValue::Wide(w), ExtType::Narrow(t @ (ValueType::F32 | ValueType::F64))) => {
                Err(ValueError::Ill(format!(
                    "DW_OP_convert of the wide {} to {}: wide integer to float conversion is not modelled",
                    w.ty().name(),
                    ExtType::Narrow(t).name()
                )))
            }
            (ExtValue::Wide(w), ExtType::Narrow(t)) => {
                Ok(ExtValue::Narrow(Value::from_u64(t, low_u64(&w.v))?))
            }
            (ExtValue::Wide(w), ExtType::Wide { signed, bytes }) => {
                Ok(ExtValue::Wide(Wide::new(signed, bytes, w.v)))
            }
            // Soft floats (decision 14).
            (ExtValue::Narrow(Value::F32(x)), ExtType::Soft(k)) => {
                Ok(ExtValue::Soft(SoftFloat::from_single(k, x.to_bits())))
            }
            (ExtValue::Narrow(Value::F64(x)), ExtType::Soft(k)) => {
                Ok(ExtValue::Soft(SoftFloat::from_double(k, x.to_bits())))
            }
            // gimli's integer to float: `to_u64 as f32`, the unsigned
            // 64-bit reading (a signed type sign-extended first).
            (ExtValue::Narrow(v), ExtType::Soft(k)) => Ok(ExtValue::Soft(SoftFloat::from_u64(
                k,
                v.to_u64(MASK)?,
            ))),
            (ExtValue::Wide(w), ExtType::Soft(k)) => Err(ValueError::Ill(format!(
                "DW_OP_convert of the wide {} to {}: wide integer to float conversion is not modelled",
                w.ty().name(),
                k.name()
            ))),
            (ExtValue::Soft(s), ExtType::Soft(k)) => Ok(ExtValue::Soft(s.convert(k))),
            (ExtValue::Soft(s), ExtType::Narrow(ValueType::F32)) => Ok(ExtValue::Narrow(
                Value::F32(f32::from_bits(s.to_single())),
            )),
            (ExtValue::Soft(s), ExtType::Narrow(ValueType::F64)) => Ok(ExtValue::Narrow(
                Value::F64(f64::from_bits(s.to_double())),
            )),
            (ExtValue::Soft(s), t @ (ExtType::Narrow(_) | ExtType::Wide { .. })) => {
                Err(ValueError::Ill(format!(
                    "DW_OP_convert of a {} to {}: float to integer conversion of half, bfloat, binary128 and x86_fp80 is not modelled",
                    s.kind().name(),
                    t.name()
                )))
            }
        }
    }

    /// `DW_OP_reinterpret` as `to`.
    pub fn reinterpret(self, to: ExtType) -> Result<ExtValue, ValueError> {
        match (self, to) {
            (ExtValue::Narrow(v), ExtType::Narrow(t)) => {
                Ok(ExtValue::Narrow(v.reinterpret(t, MASK)?))
            }
            (ExtValue::Wide(w), ExtType::Wide { signed, bytes }) if bytes == w.bytes => {
                Ok(ExtValue::Wide(Wide::new(signed, bytes, w.v)))
            }
            // A soft float on either side (decision 14): the same bits, if
            // the sizes are equal (half/bfloat with each other and
            // I16/U16, binary128 with the 16-byte wide integers, x86_fp80
            // with the 10-byte ones).
            (a, t)
                if (matches!(a, ExtValue::Soft(_)) || matches!(t, ExtType::Soft(_)))
                    && a.ty().bits() == t.bits() =>
            {
                Ok(ExtValue::from_bits(t, &a.bits()))
            }
            (a, t) => Err(ValueError::Ill(format!(
                "TypeMismatch: DW_OP_reinterpret of a {}-bit {} as the {}-bit {} (the sizes must be equal)",
                a.ty().bits(),
                a.ty().name(),
                t.bits(),
                t.name()
            ))),
        }
    }
}

/// The binary operations on values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Plus,
    Minus,
    Mul,
    Div,
    Mod,
    And,
    Or,
    Xor,
    Shl,
    Shr,
    Shra,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl BinOp {
    pub fn name(self) -> &'static str {
        match self {
            BinOp::Plus => "DW_OP_plus",
            BinOp::Minus => "DW_OP_minus",
            BinOp::Mul => "DW_OP_mul",
            BinOp::Div => "DW_OP_div",
            BinOp::Mod => "DW_OP_mod",
            BinOp::And => "DW_OP_and",
            BinOp::Or => "DW_OP_or",
            BinOp::Xor => "DW_OP_xor",
            BinOp::Shl => "DW_OP_shl",
            BinOp::Shr => "DW_OP_shr",
            BinOp::Shra => "DW_OP_shra",
            BinOp::Eq => "DW_OP_eq",
            BinOp::Ne => "DW_OP_ne",
            BinOp::Lt => "DW_OP_lt",
            BinOp::Le => "DW_OP_le",
            BinOp::Gt => "DW_OP_gt",
            BinOp::Ge => "DW_OP_ge",
        }
    }

    /// gimli's method for this operation.
    fn gimli(self, a: Value, b: Value) -> gimli::read::Result<Value> {
        match self {
            BinOp::Plus => a.add(b, MASK),
            BinOp::Minus => a.sub(b, MASK),
            BinOp::Mul => a.mul(b, MASK),
            BinOp::Div => a.div(b, MASK),
            BinOp::Mod => a.rem(b, MASK),
            BinOp::And => a.and(b, MASK),
            BinOp::Or => a.or(b, MASK),
            BinOp::Xor => a.xor(b, MASK),
            BinOp::Shl => a.shl(b, MASK),
            BinOp::Shr => a.shr(b, MASK),
            BinOp::Shra => a.shra(b, MASK),
            BinOp::Eq => a.eq(b, MASK),
            BinOp::Ne => a.ne(b, MASK),
            BinOp::Lt => a.lt(b, MASK),
            BinOp::Le => a.le(b, MASK),
            BinOp::Gt => a.gt(b, MASK),
            BinOp::Ge => a.ge(b, MASK),
        }
    }

    fn is_shift(self) -> bool {
        matches!(self, BinOp::Shl | BinOp::Shr | BinOp::Shra)
    }
}

/// `a op b` (`a` the lower stack entry, `b` the top).
pub fn binary(op: BinOp, a: ExtValue, b: ExtValue) -> Result<ExtValue, ValueError> {
    let (ta, tb) = (a.ty(), b.ty());
    let r = binary_of_any_types(op, a, b)?;
    // DWARF 5 §2.5.1.4: "Operands of an operation with two operands must
    // have the same type, either the same base type or the generic type."
    // gimli checks it for every operation but the shifts; GDB checks it for
    // the shifts too, and so does this evaluator (after gimli's own checks,
    // so that a float or negative count keeps gimli's error).
    if op.is_shift() && ta != tb {
        return Err(ValueError::Ill(format!(
            "TypeMismatch: {} of {} by {} (DWARF 5 §2.5.1.4: the two operands of a binary operation have one type)",
            op.name(),
            ta.name(),
            tb.name()
        )));
    }
    Ok(r)
}

/// [`binary`] without the shifts' type check: gimli's rules.
fn binary_of_any_types(op: BinOp, a: ExtValue, b: ExtValue) -> Result<ExtValue, ValueError> {
    if let (ExtValue::Narrow(x), ExtValue::Narrow(y)) = (&a, &b) {
        return Ok(ExtValue::Narrow(op.gimli(*x, *y)?));
    }
    if op.is_shift() {
        return shift(op, a, &b);
    }
    if matches!(op, BinOp::Div | BinOp::Mod) && b.is_integral_zero() {
        return Err(ValueError::DivisionByZero);
    }
    match (&a, &b) {
        (ExtValue::Wide(x), ExtValue::Wide(y)) if x.ty() == y.ty() => Ok(wide_binary(op, x, y)),
        (ExtValue::Soft(x), ExtValue::Soft(y)) if x.kind() == y.kind() => soft_binary(op, *x, *y),
        _ => Err(ValueError::Ill(format!(
            "TypeMismatch: {} of {} and {} (a wide integer or a half, bfloat, binary128 or x86_fp80 float combines only with its own type)",
            op.name(),
            a.ty().name(),
            b.ty().name()
        ))),
    }
}

/// A non-shift binary operation on two soft floats of the same kind
/// (decision 14): gimli's `F32`/`F64` cases, with `APFloat`'s IEEE
/// arithmetic rounding to nearest, ties to even.
fn soft_binary(op: BinOp, x: SoftFloat, y: SoftFloat) -> Result<ExtValue, ValueError> {
    let flag = |c: bool| Ok(ExtValue::Narrow(Value::Generic(u64::from(c))));
    let arith = |o: Arith| match x.arith(o, y) {
        Some(r) => Ok(ExtValue::Soft(r)),
        None => Err(ValueError::Ill(format!(
            "TypeMismatch: {} of {} and {}",
            op.name(),
            x.kind().name(),
            y.kind().name()
        ))),
    };
    // IEEE's order; `None` when a NaN makes the operands unordered, which
    // makes every comparison false but `ne` (Rust's `f32` operators, as
    // gimli compares `F32`s).
    let ord = x.compare(y);
    match op {
        BinOp::Plus => arith(Arith::Add),
        BinOp::Minus => arith(Arith::Sub),
        BinOp::Mul => arith(Arith::Mul),
        BinOp::Div => arith(Arith::Div),
        BinOp::Eq => flag(ord == Some(Ordering::Equal)),
        BinOp::Ne => flag(ord != Some(Ordering::Equal)),
        BinOp::Lt => flag(ord == Some(Ordering::Less)),
        BinOp::Le => flag(matches!(ord, Some(Ordering::Less | Ordering::Equal))),
        BinOp::Gt => flag(ord == Some(Ordering::Greater)),
        BinOp::Ge => flag(matches!(ord, Some(Ordering::Greater | Ordering::Equal))),
        BinOp::Mod
        | BinOp::And
        | BinOp::Or
        | BinOp::Xor
        | BinOp::Shl
        | BinOp::Shr
        | BinOp::Shra => Err(ValueError::Ill(format!(
            "IntegralTypeRequired: {} of two {} values (gimli refuses it for floats)",
            op.name(),
            x.kind().name()
        ))),
    }
}

/// A non-shift binary operation on two values of the same wide type (`y`
/// nonzero for `div` and `mod`).
fn wide_binary(op: BinOp, x: &Wide, y: &Wide) -> ExtValue {
    let flag = |c: bool| ExtValue::Narrow(Value::Generic(u64::from(c)));
    let (a, b) = (&x.v, &y.v);
    match op {
        BinOp::Plus => x.with(a + b),
        BinOp::Minus => x.with(a - b),
        BinOp::Mul => x.with(a * b),
        // BigInt's `/` truncates toward zero and `%` takes the dividend's
        // sign, as Rust's integers; `MIN / -1` reduces back to `MIN`.
        BinOp::Div if b.is_zero() => x.with(BigInt::zero()),
        BinOp::Div => x.with(a / b),
        BinOp::Mod if b.is_zero() => x.with(BigInt::zero()),
        BinOp::Mod => x.with(a % b),
        // Bitwise operations on BigInt are two's complement of infinite
        // width, so the low n bits are the n-bit operation's.
        BinOp::And => x.with(a & b),
        BinOp::Or => x.with(a | b),
        BinOp::Xor => x.with(a ^ b),
        BinOp::Eq => flag(a == b),
        BinOp::Ne => flag(a != b),
        BinOp::Lt => flag(a < b),
        BinOp::Le => flag(a <= b),
        BinOp::Gt => flag(a > b),
        BinOp::Ge => flag(a >= b),
        // Shifts are `shift`'s; not reached from `binary`.
        BinOp::Shl | BinOp::Shr | BinOp::Shra => x.with(a.clone()),
    }
}

/// A shift where the value or the count is wide.
fn shift(op: BinOp, a: ExtValue, count: &ExtValue) -> Result<ExtValue, ValueError> {
    // gimli checks the count before the value.
    let c = count
        .integer()
        .filter(|c| !c.is_negative())
        .ok_or_else(|| {
            ValueError::Ill(format!(
                "InvalidShiftExpression: {}'s count must be a non-negative integer (a {})",
                op.name(),
                count.ty().name()
            ))
        })?;
    let w = match a {
        ExtValue::Narrow(v) => {
            // Any count of 64 or more shifts a narrow value out.
            let c = c.to_u64().unwrap_or(u64::MAX);
            return Ok(ExtValue::Narrow(op.gimli(v, Value::Generic(c))?));
        }
        ExtValue::Wide(w) => w,
        ExtValue::Soft(s) => {
            return Err(ValueError::Ill(format!(
                "IntegralTypeRequired: {} of a {} (gimli refuses shifting floats)",
                op.name(),
                s.kind().name()
            )))
        }
    };
    let n = w.bit_width();
    // `Some(k)` for a count below n.
    let k = c
        .to_u64()
        .filter(|k| *k < n)
        .and_then(|k| usize::try_from(k).ok());
    let unsupported = |what: &str| {
        Err(ValueError::Ill(format!(
            "UnsupportedTypeOperation: {} of the {} {} (gimli refuses it for {what} types)",
            op.name(),
            what,
            w.ty().name()
        )))
    };
    match op {
        BinOp::Shl => Ok(w.with(k.map_or_else(BigInt::zero, |k| &w.v << k))),
        BinOp::Shr if w.signed => unsupported("signed"),
        BinOp::Shr => Ok(w.with(k.map_or_else(BigInt::zero, |k| &w.v >> k))),
        BinOp::Shra if !w.signed => unsupported("unsigned"),
        // BigInt's `>>` rounds toward negative infinity: an arithmetic shift.
        BinOp::Shra => Ok(w.with(match k {
            Some(k) => &w.v >> k,
            None if w.v.is_negative() => -BigInt::one(),
            None => BigInt::zero(),
        })),
        _ => Err(ValueError::Ill(format!("{} is not a shift", op.name()))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn two(p: u32) -> BigInt {
        BigInt::one() << p
    }
    fn iw(bytes: u8, v: impl Into<BigInt>) -> ExtValue {
        ExtValue::Wide(Wide::new(true, bytes, v.into()))
    }
    fn uw(bytes: u8, v: impl Into<BigInt>) -> ExtValue {
        ExtValue::Wide(Wide::new(false, bytes, v.into()))
    }
    fn int(v: &ExtValue) -> BigInt {
        v.integer().expect("integral")
    }
    fn op(o: BinOp, a: ExtValue, b: ExtValue) -> ExtValue {
        binary(o, a, b).unwrap_or_else(|e| panic!("{o:?}: {e:?}"))
    }
    fn ill(r: Result<ExtValue, ValueError>, starts: &str) {
        match r {
            Err(ValueError::Ill(m)) => assert!(m.starts_with(starts), "{m}"),
            other => panic!("expected {starts}, got {other:?}"),
        }
    }
    const I128: ExtType = ExtType::Wide {
        signed: true,
        bytes: 16,
    };
    const U128: ExtType = ExtType::Wide {
        signed: false,
        bytes: 16,
    };

    #[test]
    fn construction_reduces_into_the_range() {
        // 72-bit signed: 2^71 is -2^71, -2^71 - 1 is 2^71 - 1.
        assert_eq!(int(&iw(9, two(71))), -two(71));
        assert_eq!(int(&iw(9, -two(71) - 1)), two(71) - 1);
        assert_eq!(int(&uw(9, -1)), two(72) - 1);
        assert_eq!(int(&uw(9, two(72) + 5)), BigInt::from(5));
        assert_eq!(iw(9, -1).bits(), Bits::ones(72));
        assert_eq!(uw(16, 1).bits(), Bits::from_u64(128, 1));
    }

    #[test]
    fn arithmetic_wraps_at_2_to_the_n() {
        let max = iw(16, two(127) - 1);
        assert_eq!(int(&op(BinOp::Plus, max, iw(16, 1))), -two(127));
        assert_eq!(
            int(&op(BinOp::Plus, uw(9, two(72) - 1), uw(9, 1))),
            0.into()
        );
        assert_eq!(int(&op(BinOp::Minus, uw(9, 0), uw(9, 1))), two(72) - 1);
        assert_eq!(
            int(&op(BinOp::Mul, uw(16, two(64)), uw(16, two(64)))),
            0.into()
        );
        assert_eq!(
            int(&op(BinOp::Mul, uw(17, two(64)), uw(17, two(64)))),
            two(128)
        );
        // (2^127 - 1) · 2 = 2^128 - 2 ≡ -2 in 128-bit signed.
        assert_eq!(
            int(&op(BinOp::Mul, iw(16, two(127) - 1), iw(16, 2))),
            (-2).into()
        );
    }

    #[test]
    fn division_truncates_and_mod_takes_the_dividends_sign() {
        assert_eq!(int(&op(BinOp::Div, iw(16, -7), iw(16, 2))), (-3).into());
        assert_eq!(int(&op(BinOp::Mod, iw(16, -7), iw(16, 2))), (-1).into());
        assert_eq!(int(&op(BinOp::Mod, iw(16, 7), iw(16, -2))), 1.into());
        assert_eq!(int(&op(BinOp::Div, iw(16, 7), iw(16, -2))), (-3).into());
        // Signed min / -1 wraps to min; min mod -1 is 0.
        let min = || iw(16, -two(127));
        assert_eq!(int(&op(BinOp::Div, min(), iw(16, -1))), -two(127));
        assert_eq!(int(&op(BinOp::Mod, min(), iw(16, -1))), 0.into());
        // Unsigned: 2^128 - 7 is odd; / 2 = 2^127 - 4, mod 2 = 1.
        let big = || uw(16, two(128) - 7);
        assert_eq!(int(&op(BinOp::Div, big(), uw(16, 2))), two(127) - 4);
        assert_eq!(int(&op(BinOp::Mod, big(), uw(16, 2))), 1.into());
        // By zero, whatever the types (gimli checks the divisor first).
        for o in [BinOp::Div, BinOp::Mod] {
            assert_eq!(
                binary(o, iw(16, 5), iw(16, 0)),
                Err(ValueError::DivisionByZero)
            );
            assert_eq!(
                binary(o, uw(9, 5), uw(9, 0)),
                Err(ValueError::DivisionByZero)
            );
            assert_eq!(
                binary(o, Value::I64(5).into(), uw(9, 0)),
                Err(ValueError::DivisionByZero)
            );
            assert_eq!(
                binary(o, iw(9, 5), Value::Generic(0).into()),
                Err(ValueError::DivisionByZero)
            );
            // A nonzero divisor of another type is a mismatch.
            ill(binary(o, Value::I64(5).into(), uw(9, 1)), "TypeMismatch");
        }
    }

    #[test]
    fn bitwise_and_comparisons() {
        assert_eq!(int(&op(BinOp::And, iw(16, -1), iw(16, 5))), 5.into());
        assert_eq!(int(&op(BinOp::Xor, iw(16, -2), iw(16, 1))), (-1).into());
        assert_eq!(int(&op(BinOp::Or, uw(9, two(71)), uw(9, 1))), two(71) + 1);
        assert_eq!(int(&iw(16, 0).complement().unwrap()), (-1).into());
        assert_eq!(int(&uw(9, 0).complement().unwrap()), two(72) - 1);
        assert_eq!(int(&uw(9, 5).complement().unwrap()), two(72) - 6);
        let g = |v: u64| ExtValue::Narrow(Value::Generic(v));
        // Signed for a signed type, unsigned for an unsigned one.
        assert_eq!(op(BinOp::Lt, iw(16, -1), iw(16, 0)), g(1));
        assert_eq!(op(BinOp::Lt, uw(16, -1), uw(16, 0)), g(0));
        assert_eq!(op(BinOp::Ge, uw(16, two(127)), uw(16, 1)), g(1));
        assert_eq!(op(BinOp::Ge, iw(16, two(127)), iw(16, 1)), g(0));
        assert_eq!(op(BinOp::Eq, iw(9, 3), iw(9, 3)), g(1));
        assert_eq!(op(BinOp::Ne, iw(9, 3), iw(9, 3)), g(0));
        assert_eq!(op(BinOp::Le, iw(9, 3), iw(9, 3)), g(1));
        assert_eq!(op(BinOp::Gt, iw(9, 3), iw(9, -3)), g(1));
    }

    #[test]
    fn types_must_match() {
        ill(binary(BinOp::Plus, iw(16, 1), uw(16, 1)), "TypeMismatch");
        ill(binary(BinOp::Plus, iw(16, 1), iw(17, 1)), "TypeMismatch");
        // DW_OP_plus_uconst adds a generic value: a mismatch, as for I64.
        ill(
            binary(BinOp::Plus, iw(16, 1), Value::Generic(1).into()),
            "TypeMismatch",
        );
        ill(
            binary(BinOp::Eq, Value::I64(1).into(), iw(16, 1)),
            "TypeMismatch",
        );
        assert_eq!(
            binary(BinOp::Plus, Value::I64(1).into(), Value::Generic(1).into()),
            Err(ValueError::Ill("TypeMismatch".into()))
        );
        ill(
            binary(BinOp::And, uw(9, 1), Value::F64(1.0).into()),
            "TypeMismatch",
        );
    }

    #[test]
    fn shifts() {
        // gimli's rules, which take a count of any integral type.
        let lax = |o: BinOp, a: ExtValue, b: ExtValue| {
            binary_of_any_types(o, a, b).unwrap_or_else(|e| panic!("{o:?}: {e:?}"))
        };
        // 1 << 127 is the signed minimum; counts of n or more give 0.
        assert_eq!(int(&lax(BinOp::Shl, iw(16, 1), iw(16, 127))), -two(127));
        assert_eq!(int(&lax(BinOp::Shl, iw(16, 1), iw(16, 128))), 0.into());
        assert_eq!(
            int(&lax(BinOp::Shl, uw(16, 3), Value::Generic(200).into())),
            0.into()
        );
        assert_eq!(int(&lax(BinOp::Shl, uw(16, 3), uw(16, two(100)))), 0.into());
        assert_eq!(
            int(&lax(BinOp::Shl, uw(9, 3), Value::U8(71).into())),
            two(71)
        );
        // shr: logical, unsigned types only.
        assert_eq!(
            int(&lax(BinOp::Shr, uw(16, two(127)), uw(16, 127))),
            1.into()
        );
        assert_eq!(
            int(&lax(BinOp::Shr, uw(16, -1), Value::I32(128).into())),
            0.into()
        );
        ill(
            binary_of_any_types(BinOp::Shr, iw(16, 4), iw(16, 1)),
            "UnsupportedTypeOperation",
        );
        // shra: arithmetic, signed types only, sign fill beyond n.
        assert_eq!(int(&lax(BinOp::Shra, iw(16, -3), iw(16, 1))), (-2).into());
        assert_eq!(
            int(&lax(BinOp::Shra, iw(16, -two(127)), iw(16, 200))),
            (-1).into()
        );
        assert_eq!(
            int(&lax(BinOp::Shra, iw(16, 5), uw(16, two(120)))),
            0.into()
        );
        assert_eq!(
            int(&lax(BinOp::Shra, iw(16, -two(127)), iw(16, 126))),
            (-2).into()
        );
        ill(
            binary_of_any_types(BinOp::Shra, uw(16, 4), uw(16, 1)),
            "UnsupportedTypeOperation",
        );
        // A negative or float count.
        ill(
            binary_of_any_types(BinOp::Shl, uw(16, 1), iw(16, -1)),
            "InvalidShiftExpression",
        );
        ill(
            binary_of_any_types(BinOp::Shl, uw(16, 1), Value::I8(-1).into()),
            "InvalidShiftExpression",
        );
        ill(
            binary_of_any_types(BinOp::Shl, uw(16, 1), Value::F32(1.0).into()),
            "InvalidShiftExpression",
        );
        // The count is checked before the value's type (gimli's order).
        ill(
            binary_of_any_types(BinOp::Shr, iw(16, 4), iw(16, -1)),
            "InvalidShiftExpression",
        );
        // A narrow value shifted by a wide count: gimli's result.
        let n = |v: Value| ExtValue::Narrow(v);
        assert_eq!(
            lax(BinOp::Shl, n(Value::U32(1)), uw(9, 31)),
            n(Value::U32(0x8000_0000))
        );
        assert_eq!(
            lax(BinOp::Shl, n(Value::U32(1)), uw(9, two(70))),
            n(Value::U32(0))
        );
        assert_eq!(
            lax(BinOp::Shra, n(Value::I8(-128)), iw(9, two(70))),
            n(Value::I8(-1))
        );
        assert_eq!(
            lax(BinOp::Shr, n(Value::Generic(8)), iw(9, 3)),
            n(Value::Generic(1))
        );
        ill(
            binary_of_any_types(BinOp::Shr, n(Value::I32(8)), uw(9, 1)),
            "UnsupportedTypeOperation",
        );
        ill(
            binary_of_any_types(BinOp::Shl, n(Value::U32(8)), iw(9, -1)),
            "InvalidShiftExpression",
        );
        // DWARF 5 §2.5.1.4 on top of them: a count of another type than the
        // value's is refused, after gimli's own checks.
        assert_eq!(int(&op(BinOp::Shl, iw(16, 1), iw(16, 127))), -two(127));
        ill(
            binary(BinOp::Shl, uw(16, 3), Value::Generic(2).into()),
            "TypeMismatch",
        );
        ill(binary(BinOp::Shra, iw(16, 5), uw(16, 1)), "TypeMismatch");
        ill(
            binary(BinOp::Shl, n(Value::U32(1)), uw(9, 31)),
            "TypeMismatch",
        );
        ill(
            binary(BinOp::Shl, n(Value::I32(1)), n(Value::U32(3))),
            "TypeMismatch",
        );
        ill(
            binary(BinOp::Shl, uw(16, 1), Value::I8(-1).into()),
            "InvalidShiftExpression",
        );
    }

    #[test]
    fn neg_abs() {
        assert_eq!(int(&iw(16, 5).negate().unwrap()), (-5).into());
        assert_eq!(int(&iw(16, -two(127)).negate().unwrap()), -two(127));
        ill(uw(16, 5).negate(), "UnsupportedTypeOperation");
        assert_eq!(int(&iw(16, -5).abs().unwrap()), 5.into());
        assert_eq!(int(&iw(16, -two(127)).abs().unwrap()), -two(127));
        assert_eq!(int(&uw(16, two(127) + 1).abs().unwrap()), two(127) + 1);
    }

    #[test]
    fn convert_extends_and_truncates() {
        let n = |v: Value| ExtValue::Narrow(v);
        // Signed sources sign-extend, unsigned and generic zero-extend.
        assert_eq!(int(&n(Value::I8(-1)).convert(U128).unwrap()), two(128) - 1);
        assert_eq!(int(&n(Value::I8(-1)).convert(I128).unwrap()), (-1).into());
        assert_eq!(int(&n(Value::U8(255)).convert(I128).unwrap()), 255.into());
        assert_eq!(
            int(&n(Value::Generic(u64::MAX)).convert(I128).unwrap()),
            two(64) - 1
        );
        let u72 = ExtType::Wide {
            signed: false,
            bytes: 9,
        };
        let i72 = ExtType::Wide {
            signed: true,
            bytes: 9,
        };
        assert_eq!(
            int(&n(Value::I64(i64::MIN)).convert(u72).unwrap()),
            two(72) - two(63)
        );
        // Wide to narrow: the low 64 bits, then gimli's from_u64.
        assert_eq!(
            iw(16, -1).convert(ExtType::Narrow(ValueType::I8)).unwrap(),
            n(Value::I8(-1))
        );
        assert_eq!(
            uw(16, two(64) + 5)
                .convert(ExtType::Narrow(ValueType::U64))
                .unwrap(),
            n(Value::U64(5))
        );
        assert_eq!(
            iw(16, -two(100) - 1)
                .convert(ExtType::Narrow(ValueType::Generic))
                .unwrap(),
            n(Value::Generic(u64::MAX))
        );
        assert_eq!(
            uw(16, two(64) + 0x80)
                .convert(ExtType::Narrow(ValueType::I8))
                .unwrap(),
            n(Value::I8(-128))
        );
        // Wide to wide: reduced.
        assert_eq!(int(&iw(16, -1).convert(u72).unwrap()), two(72) - 1);
        assert_eq!(
            int(&uw(16, two(100) + two(71)).convert(i72).unwrap()),
            -two(71)
        );
        assert_eq!(int(&iw(9, -2).convert(I128).unwrap()), (-2).into());
        // Floats are not modelled.
        assert!(matches!(
            iw(16, 1).convert(ExtType::Narrow(ValueType::F32)),
            Err(ValueError::Ill(_))
        ));
        assert!(matches!(
            n(Value::F64(1.0)).convert(I128),
            Err(ValueError::Ill(_))
        ));
        // Narrow to narrow is gimli's.
        assert_eq!(
            n(Value::I8(-1))
                .convert(ExtType::Narrow(ValueType::U16))
                .unwrap(),
            n(Value::U16(0xffff))
        );
    }

    #[test]
    fn reinterpret_needs_equal_sizes() {
        assert_eq!(int(&iw(16, -1).reinterpret(U128).unwrap()), two(128) - 1);
        assert_eq!(int(&uw(16, two(127)).reinterpret(I128).unwrap()), -two(127));
        ill(
            iw(16, -1).reinterpret(ExtType::Wide {
                signed: false,
                bytes: 9,
            }),
            "TypeMismatch",
        );
        ill(
            iw(16, -1).reinterpret(ExtType::Narrow(ValueType::I64)),
            "TypeMismatch",
        );
        ill(
            ExtValue::Narrow(Value::U64(1)).reinterpret(I128),
            "TypeMismatch",
        );
    }

    /// Half values and the same values as floats: gimli's `F32` methods
    /// and the soft float's operations agree on comparisons, `neg`, `abs`
    /// and the refused operations (decision 14 mirrors gimli).
    #[test]
    fn soft_floats_mirror_gimlis_float_conventions() {
        // (half, float) encodings of 1, 2, +0, -0, -1, +inf, -inf, a
        // quiet NaN and its negation: the sign moves from bit 15 to bit
        // 31, the exponent is rebiased (15 → 127), the fraction moves up
        // 13 bits (0x200 → 0x400000 for the NaN).
        let vals: [(u128, u32); 9] = [
            (0x3c00, 0x3f80_0000),
            (0x4000, 0x4000_0000),
            (0x0000, 0x0000_0000),
            (0x8000, 0x8000_0000),
            (0xbc00, 0xbf80_0000),
            (0x7c00, 0x7f80_0000),
            (0xfc00, 0xff80_0000),
            (0x7e00, 0x7fc0_0000),
            (0xfe00, 0xffc0_0000),
        ];
        let soft = |h: u128| ExtValue::Soft(SoftFloat::new(SoftKind::Half, h));
        let f32v = |f: u32| ExtValue::Narrow(Value::F32(f32::from_bits(f)));
        // A soft result as float bits, to compare with gimli's.
        let as_f32 = |v: ExtValue| match v {
            ExtValue::Soft(s) => s.to_single(),
            ExtValue::Narrow(Value::F32(x)) => x.to_bits(),
            other => panic!("{other:?}"),
        };
        let cmps = [
            BinOp::Eq,
            BinOp::Ne,
            BinOp::Lt,
            BinOp::Le,
            BinOp::Gt,
            BinOp::Ge,
        ];
        for (ha, fa) in vals {
            for (hb, fb) in vals {
                for o in cmps {
                    assert_eq!(
                        binary(o, soft(ha), soft(hb)),
                        binary(o, f32v(fa), f32v(fb)),
                        "{o:?} {ha:#x} {hb:#x}"
                    );
                }
            }
            assert_eq!(
                as_f32(soft(ha).negate().unwrap()),
                as_f32(f32v(fa).negate().unwrap()),
                "neg {ha:#x}"
            );
            assert_eq!(
                as_f32(soft(ha).abs().unwrap()),
                as_f32(f32v(fa).abs().unwrap()),
                "abs {ha:#x}"
            );
            assert_eq!(
                f32v(fa).convert(ExtType::Soft(SoftKind::Half)),
                Ok(soft(ha)),
                "float {fa:#x} to half"
            );
        }
        // Refused as gimli refuses them for F32.
        for o in [BinOp::Mod, BinOp::And, BinOp::Xor] {
            ill(
                binary(o, soft(0x3c00), soft(0x3c00)),
                "IntegralTypeRequired",
            );
            assert_eq!(
                binary(o, f32v(0x3f80_0000), f32v(0x3f80_0000)),
                Err(ValueError::Ill("IntegralTypeRequired".into()))
            );
        }
        ill(soft(0x3c00).complement(), "IntegralTypeRequired");
        ill(
            binary(BinOp::Plus, soft(0x3c00), f32v(0x3f80_0000)),
            "TypeMismatch",
        );
        ill(
            binary(BinOp::Shl, soft(0x3c00), Value::Generic(1).into()),
            "IntegralTypeRequired",
        );
        ill(
            binary(BinOp::Shl, Value::Generic(1).into(), soft(0x3c00)),
            "InvalidShiftExpression",
        );
        // Generic 0 as the divisor: DivisionByZero first, as gimli's F32.
        assert_eq!(
            binary(BinOp::Div, soft(0x3c00), Value::Generic(0).into()),
            Err(ValueError::DivisionByZero)
        );
        assert_eq!(
            binary(BinOp::Div, f32v(0x3f80_0000), Value::Generic(0).into()),
            Err(ValueError::DivisionByZero)
        );
        assert_eq!(
            ExtType::of_base(BaseType::F128),
            Some(ExtType::Soft(SoftKind::Quad))
        );
        assert_eq!(ExtType::Soft(SoftKind::BFloat).name(), "__bf16");
        assert_eq!(ExtType::Soft(SoftKind::Quad).bits(), 128);
        assert_eq!(
            ExtType::of_base(BaseType::F80),
            Some(ExtType::Soft(SoftKind::X87))
        );
        assert_eq!(ExtType::Soft(SoftKind::X87).name(), "__float80");
        assert_eq!(ExtType::Soft(SoftKind::X87).bits(), 80);
        // x86_fp80 1.0 (0x3fff_8000_0000_0000_0000) reinterpreted as the
        // 10-byte unsigned integer and back keeps its 80 bits; it combines
        // with no other soft kind.
        let x1 = ExtValue::Soft(SoftFloat::new(SoftKind::X87, 0x3fff_8000_0000_0000_0000));
        let u80 = ExtType::Wide {
            signed: false,
            bytes: 10,
        };
        let as_int = x1.clone().reinterpret(u80).unwrap();
        assert_eq!(
            as_int.bits(),
            Bits::from_u128(80, 0x3fff_8000_0000_0000_0000)
        );
        assert_eq!(
            as_int.reinterpret(ExtType::Soft(SoftKind::X87)),
            Ok(x1.clone())
        );
        ill(
            binary(
                BinOp::Plus,
                x1,
                ExtValue::Soft(SoftFloat::new(SoftKind::Quad, 0)),
            ),
            "TypeMismatch",
        );
    }

    #[test]
    fn bits_round_trip() {
        let b = Bits::from_bigint(128, &(two(127) + 3));
        assert_eq!(int(&ExtValue::from_bits(I128, &b)), -two(127) + 3);
        assert_eq!(int(&ExtValue::from_bits(U128, &b)), two(127) + 3);
        assert_eq!(ExtValue::from_bits(I128, &b).bits(), b);
        assert!(!iw(9, 0).is_nonzero_integral());
        assert!(iw(9, two(70)).is_nonzero_integral());
        assert_eq!(uw(9, -1).displacement(), Some(two(72) - 1));
        assert_eq!(iw(9, -1).displacement(), Some((-1).into()));
        assert_eq!(ExtType::of_base(BaseType::IW(16)), Some(I128));
        assert_eq!(ExtType::of_base(BaseType::UW(3)), None);
        assert_eq!(U128.name(), "uint128_t");
    }
}
