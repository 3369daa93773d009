//! Half, bfloat, binary128 and x86_fp80 base types (`BaseType::F16`,
//! `BF16`, `F128`, `F80`) in AMD's DWARF extension evaluator (`dwarf::ext`,
//! decisions 14 and 15 of its module doc; the values are
//! `dwarf::softfloat`'s). Each expected result is worked out by hand below
//! from the encodings:
//!
//! * half: sign, 5 exponent bits (bias 15), 10 fraction bits;
//! * bfloat: sign, 8 exponent bits (bias 127), 7 fraction bits (float's
//!   top half);
//! * binary128: sign, 15 exponent bits (bias 16383), 112 fraction bits;
//! * x86_fp80: sign (bit 79), 15 exponent bits (bias 16383), an explicit
//!   integer bit (63), 63 fraction bits.

use diopter_dwarf::ext::{ExtMachine, ExtStop};
use diopter_dwarf::ops::{encode, BaseType, DwOp, LlvmDwOp};
use diopter_semantics::access;
use diopter_semantics::context::Context;
use diopter_semantics::interp::ErrorKind;
use diopter_semantics::location::LocDesc;
use gimli::constants as c;

const F16: BaseType = BaseType::F16;
const BF16: BaseType = BaseType::BF16;
const F128: BaseType = BaseType::F128;
const F80: BaseType = BaseType::F80;

// half 1.0 = 0 01111 0… = 0x3c00; 2.0 = 0 10000 0… = 0x4000; 3.0 = 1.5 · 2^1
// = 0 10000 1000000000 = 0x4200; a quiet NaN = 0 11111 1000000000 = 0x7e00.
const H1: u16 = 0x3c00;
const H2: u16 = 0x4000;
const H3: u16 = 0x4200;
const HNAN: u16 = 0x7e00;
// binary128 1.0 = 0x3fff << 112, 2.0 = 0x4000 << 112.
const Q1: u128 = 0x3fff << 112;
const Q2: u128 = 0x4000 << 112;
// x86_fp80 1.0: exponent 0x3fff, the integer bit (63) set, fraction 0;
// 2.0: exponent 0x4000; 3.0 = 1.5 · 2^1: exponent 0x4000, the integer bit
// and the top fraction bit (62).
const X1: u128 = 0x3fff_8000_0000_0000_0000;
const X2: u128 = 0x4000_8000_0000_0000_0000;
const X3: u128 = 0x4000_c000_0000_0000_0000;
// Encodings that are no IEEE value (semantics/src/value.rs's
// X86_FP80_DECISIONS): a pseudo-NaN (exponent all ones, integer bit clear,
// fraction set), an unnormal (exponent 0x3fff, integer bit clear) and a
// pseudo-denormal (exponent 0, integer bit set: 2^-16382 · 1.0, whose
// normal encoding has exponent 1).
const PSEUDO_NAN: u128 = 0x7fff_4000_0000_0000_0001;
const UNNORMAL: u128 = 0x3fff_4000_0000_0000_0000;
const PSEUDO_DENORMAL: u128 = 0x0000_8000_0000_0000_0000;
const XMIN_NORMAL: u128 = 0x0001_8000_0000_0000_0000;

/// Registers: 0 `$h` (16 bits, half 2.0), 1 `$q` (128 bits, binary128
/// 1.0), 2 `$b` (16 bits, bfloat 3.0 = 0x4040), 3 `$s` (32 bits), 4 `$t`
/// (80 bits, x86_fp80 1.0), 5 `$u` (80 bits, the unnormal). Memory of
/// address space 0: half 1.0 at 0x100, binary128 2.0 at 0x110, x86_fp80
/// 3.0 at 0x120 (10 bytes) and the pseudo-denormal at 0x130.
fn ctx() -> Context {
    let mut c = Context::parse(
        "datalayout amdgpu\nseed 5\n\
         $h = i16 0x4000\n\
         $q = i128 0x3fff0000000000000000000000000000\n\
         $b = i16 0x4040\n\
         $s = i32 0x12345678\n\
         $t = i80 0x3fff8000000000000000\n\
         $u = i80 0x3fff4000000000000000\n",
    )
    .expect("the test context parses");
    c.set_memory(0, 0x100u32, &H1.to_le_bytes());
    c.set_memory(0, 0x110u32, &Q2.to_le_bytes());
    c.set_memory(0, 0x120u32, &X3.to_le_bytes()[..10]);
    c.set_memory(0, 0x130u32, &PSEUDO_DENORMAL.to_le_bytes()[..10]);
    c
}

fn eval_bytes(bytes: &[u8]) -> Result<LocDesc, ExtStop> {
    let ctx = ctx();
    let regs = ["$h", "$q", "$b", "$s", "$t", "$u"]
        .map(String::from)
        .to_vec();
    let m = ExtMachine::new(&ctx, &regs);
    m.evaluate(bytes, &|_| 64)
}

/// One piece of an expression: encoded operations, or one raw opcode
/// (`DwOp` has no `DW_OP_eq`, `DW_OP_abs`, …).
enum P {
    D(Vec<DwOp>),
    R(gimli::DwOp),
}

fn bytes(parts: &[P]) -> Vec<u8> {
    let mut b = Vec::new();
    for p in parts {
        match p {
            P::D(ops) => b.extend(encode(ops)),
            P::R(op) => b.push(op.0),
        }
    }
    b
}

/// A shift count of a wide type of `bytes` bytes (DWARF 5 §2.5.1.4: a
/// shift's count has the shifted value's type).
fn count(v: u64, bytes: usize) -> Vec<u8> {
    let mut b = v.to_le_bytes().to_vec();
    b.resize(bytes, 0);
    b
}

fn d(ops: &[DwOp]) -> P {
    P::D(ops.to_vec())
}

/// The first `bits` bits the expression's location holds, in hex.
fn result_of(b: &[u8], bits: u64) -> String {
    let loc = eval_bytes(b).unwrap_or_else(|e| panic!("{b:x?}: {e:?}"));
    access::read(&ctx(), &loc, bits)
        .unwrap_or_else(|e| panic!("{b:x?}: reading {loc:?}: {e:?}"))
        .to_hex()
}

fn result(ops: &[DwOp], bits: u64) -> String {
    result_of(&encode(ops), bits)
}

fn error_of(b: &[u8]) -> ExtStop {
    match eval_bytes(b) {
        Err(e) => e,
        Ok(l) => panic!("{b:x?} evaluates to {l:?}"),
    }
}

fn error(ops: &[DwOp]) -> ExtStop {
    error_of(&encode(ops))
}

/// An ill-formed expression's message.
fn ill(ops: &[DwOp]) -> String {
    let e = error(ops);
    assert_eq!(e.kind, ErrorKind::IllFormed, "{ops:?}: {e:?}");
    e.message
}

fn half(bits: u16) -> DwOp {
    DwOp::ConstType(F16, bits.to_le_bytes().to_vec())
}

fn bf16(bits: u16) -> DwOp {
    DwOp::ConstType(BF16, bits.to_le_bytes().to_vec())
}

fn quad(bits: u128) -> DwOp {
    DwOp::ConstType(F128, bits.to_le_bytes().to_vec())
}

/// An x86_fp80 constant: its 10 bytes, little-endian.
fn x87(bits: u128) -> DwOp {
    DwOp::ConstType(F80, bits.to_le_bytes()[..10].to_vec())
}

fn float(bits: u32) -> DwOp {
    DwOp::ConstType(BaseType::F32, bits.to_le_bytes().to_vec())
}

fn double(bits: u64) -> DwOp {
    DwOp::ConstType(BaseType::F64, bits.to_le_bytes().to_vec())
}

fn hex16(v: u16) -> String {
    format!("{v:#06x}")
}

fn hex128(v: u128) -> String {
    format!("{v:#034x}")
}

/// 80 bits in hex (`0x` and 20 digits), as `Bits::to_hex` prints them.
fn hex80(v: u128) -> String {
    format!("{v:#022x}")
}

const ONE64: &str = "0x0000000000000001";
const ZERO64: &str = "0x0000000000000000";

#[test]
fn soft_floats_compute_with_ieee_rounding() {
    use DwOp::*;
    // half 1.0 + 2.0 = 3.0.
    assert_eq!(
        result(&[half(H1), half(H2), Plus, StackValue], 16),
        hex16(H3)
    );
    // 2048 = 2^11: exponent 26 = 0b11010, 0 11010 0… = 0x6800. With 10
    // fraction bits the spacing at 2^11 is 2: 2049 is halfway between 2048
    // (fraction 0, even) and 2050 (fraction 1, odd): ties to even → 2048.
    assert_eq!(
        result(&[half(0x6800), half(H1), Plus, StackValue], 16),
        "0x6800"
    );
    // 2051 is halfway between 2050 (fraction 1, odd) and 2052 (fraction 2,
    // even) → 2052 = 0x6802.
    assert_eq!(
        result(&[half(0x6800), half(H3), Plus, StackValue], 16),
        "0x6802"
    );
    // 65504 = (2 - 2^-10) · 2^15 = 0 11110 1111111111 = 0x7bff, the largest
    // half; 65504 + 65504 overflows to +inf = 0 11111 0… = 0x7c00.
    assert_eq!(
        result(&[half(0x7bff), half(0x7bff), Plus, StackValue], 16),
        "0x7c00"
    );
    // 3 - 2 = 1; 1 / 2 = 0.5 = 0 01110 0… = 0x3800; 1 / 0 = +inf (a float
    // zero divisor is no DivisionByZero, as for gimli's F32).
    assert_eq!(
        result(&[half(H3), half(H2), Minus, StackValue], 16),
        hex16(H1)
    );
    assert_eq!(result(&[half(H1), half(H2), Div, StackValue], 16), "0x3800");
    assert_eq!(result(&[half(H1), half(0), Div, StackValue], 16), "0x7c00");
    // bfloat 1.0 (0x3f80) × 3.0 (0x4040) = 3.0.
    assert_eq!(
        result(&[bf16(0x3f80), bf16(0x4040), Mul, StackValue], 16),
        "0x4040"
    );
    // binary128 1.0 + 1.0 = 2.0.
    assert_eq!(
        result(&[quad(Q1), quad(Q1), Plus, StackValue], 128),
        hex128(Q2)
    );
    // binary128 1 / 3 = 1.0101…₂ · 2^-2: exponent 16381 = 0x3ffd, 112
    // fraction bits 0101… (28 hex 5s), the rest 0101… below half: rounded
    // down. 3.0 = 1.5 · 2^1: exponent 0x4000, fraction bit 111 set.
    let three = (0x4000u128 << 112) | (1 << 111);
    assert_eq!(
        result(&[quad(Q1), quad(three), Div, StackValue], 128),
        "0x3ffd5555555555555555555555555555"
    );
    // The stack value of a half is a 16-bit implicit location.
    let loc = eval(&[half(H1), StackValue]);
    assert_eq!(
        loc,
        LocDesc::implicit(diopter_semantics::value::Bits::from_u64(16, 0x3c00))
    );
    // float and double are still gimli's: 1.0f + 2.0f = 3.0f (0x40400000).
    assert_eq!(
        result(
            &[float(0x3f80_0000), float(0x4000_0000), Plus, StackValue],
            32
        ),
        "0x40400000"
    );
}

fn eval(ops: &[DwOp]) -> LocDesc {
    eval_bytes(&encode(ops)).unwrap_or_else(|e| panic!("{ops:?}: {e:?}"))
}

/// `a op b` of two halves, as the generic 0/1 it pushes.
fn cmp_half(a: u16, b: u16, op: gimli::DwOp) -> String {
    result_of(
        &bytes(&[d(&[half(a), half(b)]), P::R(op), d(&[DwOp::StackValue])]),
        64,
    )
}

#[test]
fn soft_comparisons_are_ieee() {
    let all = [
        c::DW_OP_eq,
        c::DW_OP_ne,
        c::DW_OP_lt,
        c::DW_OP_le,
        c::DW_OP_gt,
        c::DW_OP_ge,
    ];
    let row = |a: u16, b: u16| -> Vec<bool> {
        all.iter()
            .map(|op| cmp_half(a, b, *op) == ONE64)
            .collect::<Vec<_>>()
    };
    //                                   eq     ne     lt     le     gt     ge
    assert_eq!(row(H1, H2), [false, true, true, true, false, false]);
    assert_eq!(row(H2, H2), [true, false, false, true, false, true]);
    assert_eq!(row(H3, H2), [false, true, false, false, true, true]);
    // -0.0 (0x8000) == +0.0.
    assert_eq!(row(0x8000, 0), [true, false, false, true, false, true]);
    // -1.0 (0xbc00) < +0.0.
    assert_eq!(row(0xbc00, 0), [false, true, true, true, false, false]);
    // A NaN: everything false but ne (Rust's f32 operators, as gimli).
    assert_eq!(row(HNAN, H1), [false, true, false, false, false, false]);
    assert_eq!(row(H1, HNAN), [false, true, false, false, false, false]);
    assert_eq!(row(HNAN, HNAN), [false, true, false, false, false, false]);
    // DwOp's Lt/Ge on bfloat 3.0 (0x4040) and 1.0 (0x3f80), and a
    // binary128 NaN (exponent all ones, top fraction bit: 0x7fff8 << 108).
    use DwOp::*;
    assert_eq!(
        result(&[bf16(0x4040), bf16(0x3f80), Ge, StackValue], 64),
        ONE64
    );
    let qnan = 0x7fff8u128 << 108;
    assert_eq!(
        result(&[quad(qnan), quad(qnan), Ge, StackValue], 64),
        ZERO64
    );
    assert_eq!(result(&[quad(Q1), quad(Q2), Lt, StackValue], 64), ONE64);
}

/// `op` applied to a half, the 16 result bits.
fn unary_half(v: u16, op: gimli::DwOp) -> String {
    result_of(
        &bytes(&[d(&[half(v)]), P::R(op), d(&[DwOp::StackValue])]),
        16,
    )
}

#[test]
fn soft_neg_and_abs_follow_gimli() {
    // neg flips the sign bit: 1.0 → -1.0 (0xbc00), +0 → -0 (0x8000).
    assert_eq!(unary_half(H1, c::DW_OP_neg), "0xbc00");
    assert_eq!(unary_half(0, c::DW_OP_neg), "0x8000");
    assert_eq!(unary_half(HNAN, c::DW_OP_neg), "0xfe00");
    // abs: -1.0 → 1.0, -inf (0xfc00) → +inf.
    assert_eq!(unary_half(0xbc00, c::DW_OP_abs), hex16(H1));
    assert_eq!(unary_half(0xfc00, c::DW_OP_abs), "0x7c00");
    // gimli's abs is `if value < 0. { -value } else { value }`: -0.0 < 0
    // and NaN < 0 are false, so -0.0 and a negative NaN keep their sign.
    assert_eq!(unary_half(0x8000, c::DW_OP_abs), "0x8000");
    assert_eq!(unary_half(0xfe00, c::DW_OP_abs), "0xfe00");
    // gimli does the same to a float -0.0 (0x80000000).
    let b = bytes(&[
        d(&[float(0x8000_0000)]),
        P::R(c::DW_OP_abs),
        d(&[DwOp::StackValue]),
    ]);
    assert_eq!(result_of(&b, 32), "0x80000000");
    // binary128 -1.0 = 0xbfff << 112.
    let b = bytes(&[d(&[quad(Q1)]), P::R(c::DW_OP_neg), d(&[DwOp::StackValue])]);
    assert_eq!(result_of(&b, 128), hex128(0xbfff << 112));
}

#[test]
fn soft_conversions() {
    use DwOp::*;
    // half 1.0 → float 1.0 = 0x3f800000.
    assert_eq!(
        result(&[half(H1), Convert(Some(BaseType::F32)), StackValue], 32),
        "0x3f800000"
    );
    // float 65520.0 = 1.11111111111₂ · 2^15 = 0 10001110 11111111111 0… =
    // 0x477ff000, halfway between 65504 (0x7bff, fraction odd) and 2^16
    // (fraction 0, even, one past the largest exponent): ties to even goes
    // up, to +inf.
    assert_eq!(
        result(&[float(0x477f_f000), Convert(Some(F16)), StackValue], 16),
        "0x7c00"
    );
    // double 0.1 = 0x3fb999999999999a: exponent -4 → 16383 - 4 = 0x3ffb in
    // binary128, the 52 fraction bits shifted up by 60; exact, and back.
    let tenth = double(0x3fb9_9999_9999_999a);
    assert_eq!(
        result(&[tenth.clone(), Convert(Some(F128)), StackValue], 128),
        "0x3ffb999999999999a000000000000000"
    );
    assert_eq!(
        result(
            &[
                tenth,
                Convert(Some(F128)),
                Convert(Some(BaseType::F64)),
                StackValue
            ],
            64
        ),
        "0x3fb999999999999a"
    );
    // An I64 -1 is read as gimli's to_u64, 2^64 - 1, unsigned: past
    // half's 65504, +inf; in bfloat 2^64 (exponent 64 + 127 = 0xbf:
    // 0 10111111 0… = 0x5f80), positive.
    let minus1 = ConstType(BaseType::I64, (-1i64).to_le_bytes().to_vec());
    assert_eq!(
        result(&[minus1.clone(), Convert(Some(F16)), StackValue], 16),
        "0x7c00"
    );
    assert_eq!(
        result(&[minus1, Convert(Some(BF16)), StackValue], 16),
        "0x5f80"
    );
    // I8 -2 sign-extends to 2^64 - 2: +inf too; U8 0xfe is 254 =
    // 1.1111110₂ · 2^7: 0 10110 1111110000 = 0x5bf0.
    assert_eq!(
        result(
            &[
                ConstType(BaseType::I8, vec![0xfe]),
                Convert(Some(F16)),
                StackValue
            ],
            16
        ),
        "0x7c00"
    );
    assert_eq!(
        result(
            &[
                ConstType(BaseType::U8, vec![0xfe]),
                Convert(Some(F16)),
                StackValue
            ],
            16
        ),
        "0x5bf0"
    );
    // A generic 3 → half 3.0.
    assert_eq!(
        result(&[Lit(3), Convert(Some(F16)), StackValue], 16),
        hex16(H3)
    );
    // half 1.0 → bfloat 1.0 (0x3f80) → double 1.0.
    assert_eq!(
        result(
            &[
                half(H1),
                Convert(Some(BF16)),
                Convert(Some(BaseType::F64)),
                StackValue
            ],
            64
        ),
        "0x3ff0000000000000"
    );
}

#[test]
fn soft_reinterpret_keeps_the_bits() {
    use DwOp::*;
    // half 1.0 as u16 is 0x3c00; + 1 = 0x3c01; back as half 1 + 2^-10.
    assert_eq!(
        result(
            &[
                half(H1),
                Reinterpret(BaseType::U16),
                ConstType(BaseType::U16, vec![1, 0]),
                Plus,
                Reinterpret(F16),
                StackValue
            ],
            16
        ),
        "0x3c01"
    );
    // u16 0x4200 as half is 3.0; + 1.0 = 4.0 = 2^2: 0 10001 0… = 0x4400.
    assert_eq!(
        result(
            &[
                ConstType(BaseType::U16, H3.to_le_bytes().to_vec()),
                Reinterpret(F16),
                half(H1),
                Plus,
                StackValue
            ],
            16
        ),
        "0x4400"
    );
    // half 0x3c00 as bfloat: exponent 0x78 = 120, 2^-7; as a float
    // 0 01111000 0… = 0x3c000000.
    assert_eq!(
        result(
            &[
                half(H1),
                Reinterpret(BF16),
                Convert(Some(BaseType::F32)),
                StackValue
            ],
            32
        ),
        "0x3c000000"
    );
    // binary128 1.0 as a u128 shifted right by 112: its exponent 0x3fff.
    assert_eq!(
        result(
            &[
                quad(Q1),
                Reinterpret(BaseType::UW(16)),
                ConstType(BaseType::UW(16), count(112, 16)),
                Shr,
                StackValue
            ],
            128
        ),
        hex128(0x3fff)
    );
    // A u128 holding 2.0's bits, as binary128, + 1.0 = 3.0.
    assert_eq!(
        result(
            &[
                ConstType(BaseType::UW(16), Q2.to_le_bytes().to_vec()),
                Reinterpret(F128),
                quad(Q1),
                Plus,
                StackValue
            ],
            128
        ),
        hex128((0x4000 << 112) | (1 << 111))
    );
    // Other sizes are TypeMismatch.
    for (v, t) in [
        (half(H1), BaseType::U32),
        (half(H1), F128),
        (quad(Q1), BaseType::IW(9)),
        (quad(Q1), BaseType::U64),
        (ConstType(BaseType::U32, vec![0; 4]), F16),
        (float(0), BF16),
    ] {
        let m = ill(&[v, Reinterpret(t), StackValue]);
        assert!(m.contains("TypeMismatch"), "{m}");
    }
}

#[test]
fn soft_values_from_registers_and_memory() {
    use DwOp::*;
    // DW_OP_regval_type $h as half (2.0) + 1.0 = 3.0.
    assert_eq!(
        result(&[RegvalType(0, F16), half(H1), Plus, StackValue], 16),
        hex16(H3)
    );
    // $q as binary128 (1.0) + 1.0 = 2.0.
    assert_eq!(
        result(&[RegvalType(1, F128), quad(Q1), Plus, StackValue], 128),
        hex128(Q2)
    );
    // $b as bfloat (3.0) × 2.0 = 6.0 = 1.5 · 2^2: exponent 129 = 0x81,
    // 0 10000001 1000000 = 0x40c0.
    assert_eq!(
        result(&[RegvalType(2, BF16), bf16(0x4000), Mul, StackValue], 16),
        "0x40c0"
    );
    // A 128-bit read of the 32-bit $s leaves the register.
    let e = error(&[RegvalType(3, F128), StackValue]);
    assert_eq!(e.kind, ErrorKind::OutOfBounds, "{e:?}");
    // DW_OP_deref_type: half 1.0 at 0x100, + 1.0 = 2.0.
    assert_eq!(
        result(
            &[Constu(0x100), DerefType(2, F16), half(H1), Plus, StackValue],
            16
        ),
        hex16(H2)
    );
    // DW_OP_xderef_type: address space 0, binary128 2.0 at 0x110; 2 + 2 =
    // 4 = 2^2: exponent 0x4001.
    assert_eq!(
        result(
            &[
                Lit(0),
                Constu(0x110),
                XderefType(16, F128),
                quad(Q2),
                Plus,
                StackValue
            ],
            128
        ),
        hex128(0x4001 << 112)
    );
}

#[test]
fn malformed_soft_operations_are_errors_not_panics() {
    use DwOp::*;
    // DW_OP_const_type with the wrong byte count.
    for (t, n) in [(F16, 4), (BF16, 1), (F128, 8), (F128, 2)] {
        let m = ill(&[ConstType(t, vec![0; n]), StackValue]);
        assert!(m.contains("byte count"), "{t:?} {n}: {m}");
    }
    // mod, and, xor of two halves; shifting a half; a half as a count.
    let m = ill(&[half(H1), half(H2), Mod]);
    assert!(m.contains("IntegralTypeRequired"), "{m}");
    let m = ill(&[half(H1), half(H2), And]);
    assert!(m.contains("IntegralTypeRequired"), "{m}");
    let m = ill(&[quad(Q1), quad(Q1), Xor]);
    assert!(m.contains("IntegralTypeRequired"), "{m}");
    let m = ill(&[half(H1), Lit(1), Shl]);
    assert!(m.contains("IntegralTypeRequired"), "{m}");
    let m = ill(&[bf16(0x3f80), Lit(1), Shra]);
    assert!(m.contains("IntegralTypeRequired"), "{m}");
    let m = ill(&[Lit(1), half(H1), Shl]);
    assert!(m.contains("InvalidShiftExpression"), "{m}");
    let e = error_of(&bytes(&[d(&[half(H1)]), P::R(c::DW_OP_not)]));
    assert_eq!(e.kind, ErrorKind::IllFormed);
    assert!(e.message.contains("IntegralTypeRequired"), "{}", e.message);
    // DW_OP_bra on a half.
    let m = ill(&[half(H1), Bra(1), Lit(0), Lit(1), StackValue]);
    assert!(m.contains("integral"), "{m}");
    // A zero integral divisor is DivisionByZero before the types (gimli's
    // order), a half divisor of another type a mismatch.
    let e = error(&[half(H1), Lit(0), Div]);
    assert_eq!(e.kind, ErrorKind::DivisionByZero);
    let m = ill(&[half(H1), Lit(1), Div]);
    assert!(m.contains("TypeMismatch"), "{m}");
    // Mixed kinds and DW_OP_plus_uconst (a generic addend).
    let m = ill(&[half(H1), bf16(0x3f80), Plus]);
    assert!(m.contains("TypeMismatch"), "{m}");
    let m = ill(&[half(H1), float(0x3f80_0000), Lt]);
    assert!(m.contains("TypeMismatch"), "{m}");
    let m = ill(&[quad(Q1), ConstType(BaseType::IW(16), vec![0; 16]), Plus]);
    assert!(m.contains("TypeMismatch"), "{m}");
    let m = ill(&[half(H1), PlusUconst(1), StackValue]);
    assert!(m.contains("TypeMismatch"), "{m}");
    // Wide integers to soft floats and soft floats to integers.
    let m = ill(&[
        ConstType(BaseType::IW(16), vec![1; 16]),
        Convert(Some(F128)),
    ]);
    assert!(m.contains("not modelled"), "{m}");
    let m = ill(&[quad(Q1), Convert(Some(BaseType::IW(16)))]);
    assert!(m.contains("not modelled"), "{m}");
    let m = ill(&[half(H1), Convert(Some(BaseType::I32))]);
    assert!(m.contains("not modelled"), "{m}");
    let m = ill(&[bf16(0x3f80), Convert(None)]);
    assert!(m.contains("not modelled"), "{m}");
    // A half is no result location, displacement, address, address space,
    // mask or piece.
    let m = ill(&[half(H1)]);
    assert!(m.contains("only generic values convert"), "{m}");
    let m = ill(&[Regx(0), half(H1), Llvm(LlvmDwOp::Offset)]);
    assert!(m.contains("displacement must be an integral"), "{m}");
    let m = ill(&[half(H1), Lit(0), Llvm(LlvmDwOp::FormAspaceAddress)]);
    assert!(m.contains("address must be an integral"), "{m}");
    let m = ill(&[Lit(0), half(H1), Llvm(LlvmDwOp::FormAspaceAddress)]);
    assert!(m.contains("address space must be an integral"), "{m}");
    let m = ill(&[Lit(0), quad(Q1), XderefType(2, F16)]);
    assert!(m.contains("address must be an integral"), "{m}");
    let m = ill(&[
        Regx(0),
        Regx(1),
        half(1),
        Llvm(LlvmDwOp::SelectBitPiece(1, 16)),
    ]);
    assert!(m.contains("mask must be an integral"), "{m}");
    let m = ill(&[half(H1), Piece(2)]);
    assert!(m.contains("typed value"), "{m}");
}

#[test]
fn x87_floats_compute_in_80_bits() {
    use DwOp::*;
    // The base type: unit offset 14 (after F128 at 13), 10 bytes (the
    // value's own 80 bits), a float with no gimli value type.
    assert_eq!(F80.die_offset(), 14);
    assert_eq!(BaseType::from_die_offset(14), Some(F80));
    assert_eq!(F80.bytes(), 10);
    assert_eq!(F80.bits(), 80);
    assert!(F80.is_float());
    assert_eq!(F80.value_type(), None);
    assert_eq!(F80.name(), "__float80");
    // DW_OP_const_type's length byte is 10: opcode 0xa4, the type's unit
    // offset (ULEB 14), 10, then the 10 bytes.
    let b = encode(&[x87(X1)]);
    assert_eq!(b[..3], [c::DW_OP_const_type.0, 14, 10]);
    assert_eq!(b.len(), 13);
    // 1.0 + 1.0 = 2.0: 0x3fff_8000… + itself = 0x4000_8000….
    assert_eq!(
        result(&[x87(X1), x87(X1), Plus, StackValue], 80),
        "0x40008000000000000000"
    );
    // 3 - 1 = 2; 3 · 2 = 6 = 1.5 · 2^2 (exponent 0x4001).
    assert_eq!(
        result(&[x87(X3), x87(X1), Minus, StackValue], 80),
        hex80(X2)
    );
    assert_eq!(
        result(&[x87(X3), x87(X2), Mul, StackValue], 80),
        "0x4001c000000000000000"
    );
    // 1 / 3 = 1.0101…₂ · 2^-2: exponent 0x3ffd; the 64 significand bits
    // (integer bit first) 1010… = 0xaaaa_aaaa_aaaa_aaaa, the next bits
    // 1010… are 2/3 of the last place (above half): rounded up to …aaab.
    assert_eq!(
        result(&[x87(X1), x87(X3), Div, StackValue], 80),
        "0x3ffdaaaaaaaaaaaaaaab"
    );
    // 2^64 (exponent 0x3fff + 64 = 0x403f) + 1: halfway between 2^64
    // (last bit 0, even) and 2^64 + 2, with 64 bits of precision: 2^64.
    let two64 = 0x403f_8000_0000_0000_0000;
    assert_eq!(
        result(&[x87(two64), x87(X1), Plus, StackValue], 80),
        hex80(two64)
    );
    // The stack value is an 80-bit implicit location.
    assert_eq!(
        eval(&[x87(X1), StackValue]),
        LocDesc::implicit(diopter_semantics::value::Bits::from_u128(80, X1))
    );
    // Comparisons: 1 < 2, and 3 >= 2; -0 (bit 79) == +0.
    assert_eq!(result(&[x87(X1), x87(X2), Lt, StackValue], 64), ONE64);
    assert_eq!(result(&[x87(X3), x87(X2), Ge, StackValue], 64), ONE64);
    let eq = |a: u128, b: u128| {
        result_of(
            &bytes(&[d(&[x87(a), x87(b)]), P::R(c::DW_OP_eq), d(&[StackValue])]),
            64,
        )
    };
    assert_eq!(eq(1 << 79, 0), ONE64);
    // neg flips bit 79: -1.0 = 0xbfff_8000…; abs brings it back.
    let un = |v: u128, op: gimli::DwOp| {
        result_of(&bytes(&[d(&[x87(v)]), P::R(op), d(&[StackValue])]), 80)
    };
    assert_eq!(un(X1, c::DW_OP_neg), "0xbfff8000000000000000");
    assert_eq!(un(0xbfff_8000_0000_0000_0000, c::DW_OP_abs), hex80(X1));
}

#[test]
fn x87_conversions() {
    use DwOp::*;
    // double 1.0 = 0x3ff0000000000000: exponent 0 → 0x3fff, the integer
    // bit explicit: 0x3fff_8000…; and back to double.
    let one = double(0x3ff0_0000_0000_0000);
    assert_eq!(
        result(&[one.clone(), Convert(Some(F80)), StackValue], 80),
        hex80(X1)
    );
    assert_eq!(
        result(
            &[
                one,
                Convert(Some(F80)),
                Convert(Some(BaseType::F64)),
                StackValue
            ],
            64
        ),
        "0x3ff0000000000000"
    );
    // double 0.1 = 0x3fb999999999999a: exponent -4 → 0x3ffb; the
    // significand is the integer bit and the 52 fraction bits moved up
    // 11: 0x8000… | 0x999999999999a << 11 = 0xcccc_cccc_cccc_d000.
    assert_eq!(
        result(
            &[
                double(0x3fb9_9999_9999_999a),
                Convert(Some(F80)),
                StackValue
            ],
            80
        ),
        "0x3ffbccccccccccccd000"
    );
    // x87 1/3 (…aaab) to double: of the 64 significand bits 53 stay, the 11
    // dropped are 0x2ab, below half (0x400): fraction 0x5555555555555.
    assert_eq!(
        result(
            &[
                x87(0x3ffd_aaaa_aaaa_aaaa_aaab),
                Convert(Some(BaseType::F64)),
                StackValue
            ],
            64
        ),
        "0x3fd5555555555555"
    );
    // x86_fp80 1.0 ↔ binary128 1.0 (0x3fff << 112), half 1.0 → 1.0.
    assert_eq!(
        result(&[x87(X1), Convert(Some(F128)), StackValue], 128),
        hex128(Q1)
    );
    assert_eq!(
        result(&[quad(Q1), Convert(Some(F80)), StackValue], 80),
        hex80(X1)
    );
    assert_eq!(
        result(&[half(H1), Convert(Some(F80)), StackValue], 80),
        hex80(X1)
    );
    // An I64 -1 is gimli's to_u64, 2^64 - 1, exact in 64 bits of
    // precision: exponent 0x3fff + 63 = 0x403e, all significand bits set.
    assert_eq!(
        result(
            &[
                ConstType(BaseType::I64, (-1i64).to_le_bytes().to_vec()),
                Convert(Some(F80)),
                StackValue
            ],
            80
        ),
        "0x403effffffffffffffff"
    );
    // U8 0xfe = 254 = 1.1111110₂ · 2^7: exponent 0x4006, significand
    // 0xfe00_0000_0000_0000.
    assert_eq!(
        result(
            &[
                ConstType(BaseType::U8, vec![0xfe]),
                Convert(Some(F80)),
                StackValue
            ],
            80
        ),
        "0x4006fe00000000000000"
    );
    // double's quiet NaN 0x7ff8… converted: exponent all ones, the
    // integer and quiet bits (value.rs's "NaNs made by conversion").
    assert_eq!(
        result(
            &[
                double(0x7ff8_0000_0000_0000),
                Convert(Some(F80)),
                StackValue
            ],
            80
        ),
        "0x7fffc000000000000000"
    );
}

#[test]
fn x87_reinterpret_keeps_the_80_bits() {
    use DwOp::*;
    // 1.0 as the 10-byte unsigned integer, shifted right by 64: its sign
    // and exponent 0x3fff.
    assert_eq!(
        result(
            &[
                x87(X1),
                Reinterpret(BaseType::UW(10)),
                ConstType(BaseType::UW(10), count(64, 10)),
                Shr,
                StackValue
            ],
            80
        ),
        hex80(0x3fff)
    );
    // UW(10) holding 2.0's bits, as x86_fp80, + 1.0 = 3.0; and IW(10).
    assert_eq!(
        result(
            &[
                ConstType(BaseType::UW(10), X2.to_le_bytes()[..10].to_vec()),
                Reinterpret(F80),
                x87(X1),
                Plus,
                StackValue
            ],
            80
        ),
        hex80(X3)
    );
    // -1.0 (0xbfff_8000…) as IW(10) and back keeps every bit.
    assert_eq!(
        result(
            &[
                x87(0xbfff_8000_0000_0000_0000),
                Reinterpret(BaseType::IW(10)),
                Reinterpret(F80),
                StackValue
            ],
            80
        ),
        "0xbfff8000000000000000"
    );
    // An unnormal's bits go through a reinterpret unchanged (no
    // canonicalization).
    assert_eq!(
        result(
            &[
                ConstType(BaseType::UW(10), UNNORMAL.to_le_bytes()[..10].to_vec()),
                Reinterpret(F80),
                StackValue
            ],
            80
        ),
        hex80(UNNORMAL)
    );
    // Other sizes are TypeMismatch.
    for (v, t) in [
        (x87(X1), BaseType::UW(16)),
        (x87(X1), BaseType::UW(9)),
        (x87(X1), F128),
        (x87(X1), BaseType::U64),
        (quad(Q1), F80),
        (ConstType(BaseType::U64, vec![0; 8]), F80),
        (ConstType(BaseType::IW(11), vec![0; 11]), F80),
    ] {
        let m = ill(&[v, Reinterpret(t), StackValue]);
        assert!(m.contains("TypeMismatch"), "{m}");
    }
}

/// value.rs's x86_fp80 decisions, through the evaluator: a value holds
/// the encoding it was read with; arithmetic and conversions give
/// `APFloat`'s.
#[test]
fn x87_encodings_outside_ieee() {
    use DwOp::*;
    // Held as read: a pseudo-NaN, an unnormal and a pseudo-denormal
    // constant come back unchanged from DW_OP_stack_value.
    for v in [PSEUDO_NAN, UNNORMAL, PSEUDO_DENORMAL] {
        assert_eq!(result(&[x87(v), StackValue], 80), hex80(v));
    }
    // Invalid encodings are NaNs: the unnormal is unordered with itself
    // (eq 0, ne 1) and with 1.0.
    let cmp = |a: u128, b: u128, op: gimli::DwOp| {
        result_of(
            &bytes(&[d(&[x87(a), x87(b)]), P::R(op), d(&[StackValue])]),
            64,
        )
    };
    assert_eq!(cmp(UNNORMAL, UNNORMAL, c::DW_OP_eq), ZERO64);
    assert_eq!(cmp(UNNORMAL, UNNORMAL, c::DW_OP_ne), ONE64);
    assert_eq!(cmp(UNNORMAL, X1, c::DW_OP_lt), ZERO64);
    assert_eq!(cmp(PSEUDO_NAN, X1, c::DW_OP_ge), ZERO64);
    // abs of the negated unnormal (a NaN, not below zero) keeps it.
    let neg_unnormal = UNNORMAL | (1 << 79);
    let b = bytes(&[
        d(&[x87(neg_unnormal)]),
        P::R(c::DW_OP_abs),
        d(&[StackValue]),
    ]);
    assert_eq!(result_of(&b, 80), hex80(neg_unnormal));
    // Arithmetic keeps the clear integer bit: pseudo-NaN + 1.0 is the
    // pseudo-NaN (APFloat sets the quiet bit alone, already set); the
    // unnormal - 1.0 a NaN with exponent all ones, integer bit clear.
    assert_eq!(
        result(&[x87(PSEUDO_NAN), x87(X1), Plus, StackValue], 80),
        hex80(PSEUDO_NAN)
    );
    assert_eq!(
        result(&[x87(UNNORMAL), x87(X1), Minus, StackValue], 80),
        "0x7fff4000000000000000"
    );
    // A conversion to x86_fp80 canonicalizes them: integer and quiet bits.
    assert_eq!(
        result(&[x87(PSEUDO_NAN), Convert(Some(F80)), StackValue], 80),
        "0x7fffc000000000000001"
    );
    assert_eq!(
        result(&[x87(UNNORMAL), Convert(Some(F80)), StackValue], 80),
        "0x7fffc000000000000000"
    );
    // The pseudo-denormal equals the smallest normal, and is written back
    // with exponent 1 by a conversion or by arithmetic (x + 0).
    assert_eq!(cmp(PSEUDO_DENORMAL, XMIN_NORMAL, c::DW_OP_eq), ONE64);
    assert_eq!(
        result(&[x87(PSEUDO_DENORMAL), Convert(Some(F80)), StackValue], 80),
        hex80(XMIN_NORMAL)
    );
    assert_eq!(
        result(&[x87(PSEUDO_DENORMAL), x87(0), Plus, StackValue], 80),
        hex80(XMIN_NORMAL)
    );
}

#[test]
fn x87_values_from_registers_and_memory() {
    use DwOp::*;
    // DW_OP_regval_type $t (80 bits, 1.0) + 1.0 = 2.0.
    assert_eq!(
        result(&[RegvalType(4, F80), x87(X1), Plus, StackValue], 80),
        hex80(X2)
    );
    // $u holds the unnormal: read and given back as it is.
    assert_eq!(
        result(&[RegvalType(5, F80), StackValue], 80),
        hex80(UNNORMAL)
    );
    // The low 80 bits of the 128-bit $q (binary128 1.0 = 0x3fff << 112:
    // its low 80 bits are zero): +0.0; + 1.0 = 1.0.
    assert_eq!(
        result(&[RegvalType(1, F80), x87(X1), Plus, StackValue], 80),
        hex80(X1)
    );
    // An 80-bit read of the 32-bit $s leaves the register.
    let e = error(&[RegvalType(3, F80), StackValue]);
    assert_eq!(e.kind, ErrorKind::OutOfBounds, "{e:?}");
    // DW_OP_deref_type 10: x86_fp80 3.0 at 0x120, - 1.0 = 2.0.
    assert_eq!(
        result(
            &[
                Constu(0x120),
                DerefType(10, F80),
                x87(X1),
                Minus,
                StackValue
            ],
            80
        ),
        hex80(X2)
    );
    // The pseudo-denormal at 0x130 read from memory keeps its bits; it is
    // written back normal once converted.
    assert_eq!(
        result(&[Constu(0x130), DerefType(10, F80), StackValue], 80),
        hex80(PSEUDO_DENORMAL)
    );
    assert_eq!(
        result(
            &[
                Constu(0x130),
                DerefType(10, F80),
                Convert(Some(F80)),
                StackValue
            ],
            80
        ),
        hex80(XMIN_NORMAL)
    );
    // DW_OP_xderef_type: address space 0, 3.0 at 0x120; 3 · 1 = 3.
    assert_eq!(
        result(
            &[
                Lit(0),
                Constu(0x120),
                XderefType(10, F80),
                x87(X1),
                Mul,
                StackValue
            ],
            80
        ),
        hex80(X3)
    );
    // DW_OP_regx $t; DW_OP_deref_type reads the register entity too.
    assert_eq!(
        result(&[Regx(4), DerefType(10, F80), StackValue], 80),
        hex80(X1)
    );
}

#[test]
fn malformed_x87_operations_are_errors_not_panics() {
    use DwOp::*;
    // DW_OP_const_type with other byte counts than 10.
    for n in [8, 16, 9, 11] {
        let m = ill(&[ConstType(F80, vec![0; n]), StackValue]);
        assert!(m.contains("byte count"), "{n}: {m}");
    }
    // mod, and, shifts, a shift count, not.
    let m = ill(&[x87(X1), x87(X2), Mod]);
    assert!(m.contains("IntegralTypeRequired"), "{m}");
    let m = ill(&[x87(X1), x87(X2), Or]);
    assert!(m.contains("IntegralTypeRequired"), "{m}");
    let m = ill(&[x87(X1), Lit(1), Shl]);
    assert!(m.contains("IntegralTypeRequired"), "{m}");
    let m = ill(&[x87(X1), Lit(1), Shr]);
    assert!(m.contains("IntegralTypeRequired"), "{m}");
    let m = ill(&[Lit(1), x87(X1), Shl]);
    assert!(m.contains("InvalidShiftExpression"), "{m}");
    let e = error_of(&bytes(&[d(&[x87(X1)]), P::R(c::DW_OP_not)]));
    assert_eq!(e.kind, ErrorKind::IllFormed);
    assert!(e.message.contains("IntegralTypeRequired"), "{}", e.message);
    // DW_OP_bra on an x86_fp80.
    let m = ill(&[x87(X1), Bra(1), Lit(0), Lit(1), StackValue]);
    assert!(m.contains("integral"), "{m}");
    // Mixed kinds.
    let m = ill(&[x87(X1), quad(Q1), Plus]);
    assert!(m.contains("TypeMismatch"), "{m}");
    let m = ill(&[x87(X1), double(0x3ff0_0000_0000_0000), Lt]);
    assert!(m.contains("TypeMismatch"), "{m}");
    let m = ill(&[x87(X1), ConstType(BaseType::UW(10), vec![0; 10]), Plus]);
    assert!(m.contains("TypeMismatch"), "{m}");
    // Soft float to integer, and a wide integer to x86_fp80.
    for t in [
        Some(BaseType::I64),
        Some(BaseType::U8),
        Some(BaseType::UW(10)),
        None,
    ] {
        let m = ill(&[x87(X1), Convert(t)]);
        assert!(m.contains("not modelled"), "{t:?}: {m}");
    }
    let m = ill(&[ConstType(BaseType::UW(10), vec![1; 10]), Convert(Some(F80))]);
    assert!(m.contains("not modelled"), "{m}");
    // No location (as an address), address or displacement.
    let m = ill(&[x87(X1), DerefType(10, F80)]);
    assert!(m.contains("only generic values convert"), "{m}");
    let m = ill(&[Regx(0), x87(X1), Llvm(LlvmDwOp::Offset)]);
    assert!(m.contains("displacement must be an integral"), "{m}");
    let m = ill(&[x87(X1), Lit(0), Llvm(LlvmDwOp::FormAspaceAddress)]);
    assert!(m.contains("address must be an integral"), "{m}");
}
