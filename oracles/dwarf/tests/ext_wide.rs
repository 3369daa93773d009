//! Wide integer base types (`BaseType::IW(n)`/`UW(n)`, more than 64 bits) in
//! AMD's DWARF extension evaluator (`dwarf::ext`, decision 13 of its module
//! doc; the arithmetic is `dwarf::wide`). Each expected result is worked out
//! by hand from the semantics in `wide.rs`'s module doc.

use diopter_dwarf::ext::{ExtMachine, ExtStop};
use diopter_dwarf::ops::{encode, BaseType, DwOp, LlvmDwOp};
use diopter_semantics::access;
use diopter_semantics::context::Context;
use diopter_semantics::interp::ErrorKind;
use diopter_semantics::location::LocDesc;
use proptest::prelude::*;

const I128: BaseType = BaseType::IW(16);
const U128: BaseType = BaseType::UW(16);

/// Registers: 0 `$w` (128 bits, a negative i128 pattern), 1 `$z` (128 zero
/// bits), 2 `$o` (128 one bits), 3 `$s` (32 bits). Memory of address space
/// 0 holds bytes 0x01, 0x02, … 0x10 at 0x100.
fn ctx() -> Context {
    let mut c = Context::parse(
        "datalayout amdgpu\nseed 3\n\
         $w = i128 0x8000000000000000000000000000fffe\n\
         $z = i128 0\n\
         $o = i128 0xffffffffffffffffffffffffffffffff\n\
         $s = i32 0x12345678\n",
    )
    .expect("the test context parses");
    let bytes: Vec<u8> = (1..=16).collect();
    c.set_memory(0, 0x100u32, &bytes);
    c
}

fn regs() -> Vec<String> {
    ["$w", "$z", "$o", "$s"].map(String::from).to_vec()
}

fn eval_bytes(bytes: &[u8]) -> Result<LocDesc, ExtStop> {
    let ctx = ctx();
    let regs = regs();
    let m = ExtMachine::new(&ctx, &regs);
    m.evaluate(bytes, &|_| 64)
}

fn eval(ops: &[DwOp]) -> Result<LocDesc, ExtStop> {
    eval_bytes(&encode(ops))
}

/// The first `bits` bits the expression's location holds, in hex.
fn result(ops: &[DwOp], bits: u64) -> String {
    let loc = eval(ops).unwrap_or_else(|e| panic!("{ops:?}: {e:?}"));
    access::read(&ctx(), &loc, bits)
        .unwrap_or_else(|e| panic!("{ops:?}: reading {loc:?}: {e:?}"))
        .to_hex()
}

fn error(ops: &[DwOp]) -> ExtStop {
    match eval(ops) {
        Err(e) => e,
        Ok(l) => panic!("{ops:?} evaluates to {l:?}"),
    }
}

fn i128c(v: i128) -> DwOp {
    DwOp::ConstType(I128, v.to_le_bytes().to_vec())
}

fn u128c(v: u128) -> DwOp {
    DwOp::ConstType(U128, v.to_le_bytes().to_vec())
}

/// `n` bytes of 0xff then zero bytes to `len`.
fn ff(n: usize, len: usize) -> Vec<u8> {
    let mut b = vec![0xff; n];
    b.resize(len, 0);
    b
}

const ZERO128: &str = "0x00000000000000000000000000000000";
const ONES128: &str = "0xffffffffffffffffffffffffffffffff";

#[test]
fn wide_values_compute_modulo_2_to_the_n() {
    use DwOp::*;
    // i128::MAX + 1 wraps to the minimum.
    assert_eq!(
        result(&[i128c(i128::MAX), i128c(1), Plus, StackValue], 128),
        "0x80000000000000000000000000000000"
    );
    // 0 - 1 in u128: all ones.
    assert_eq!(
        result(&[u128c(0), u128c(1), Minus, StackValue], 128),
        ONES128
    );
    // 2^64 · 2^64 = 2^128 ≡ 0.
    assert_eq!(
        result(&[u128c(1 << 64), u128c(1 << 64), Mul, StackValue], 128),
        ZERO128
    );
    // A 72-bit unsigned: (2^72 - 1) + 1 ≡ 0, and the stack value is 72 bits.
    let u72 = BaseType::UW(9);
    let ops = [
        ConstType(u72, ff(9, 9)),
        ConstType(u72, vec![1, 0, 0, 0, 0, 0, 0, 0, 0]),
        Plus,
        StackValue,
    ];
    let loc = eval(&ops).unwrap();
    assert_eq!(
        loc,
        LocDesc::implicit(diopter_semantics::value::Bits::zero(72))
    );
    // -7 / 2 = -3 (toward zero), -7 mod 2 = -1 (the dividend's sign).
    assert_eq!(
        result(&[i128c(-7), i128c(2), Div, StackValue], 128),
        "0xfffffffffffffffffffffffffffffffd"
    );
    assert_eq!(
        result(&[i128c(-7), i128c(2), Mod, StackValue], 128),
        ONES128
    );
    // min / -1 wraps to min; min mod -1 = 0.
    assert_eq!(
        result(&[i128c(i128::MIN), i128c(-1), Div, StackValue], 128),
        "0x80000000000000000000000000000000"
    );
    assert_eq!(
        result(&[i128c(i128::MIN), i128c(-1), Mod, StackValue], 128),
        ZERO128
    );
    // Unsigned division: (2^128 - 2) / 2 = 2^127 - 1.
    assert_eq!(
        result(&[u128c(u128::MAX - 1), u128c(2), Div, StackValue], 128),
        "0x7fffffffffffffffffffffffffffffff"
    );
    // Comparisons push a generic 0 or 1: signed for i128, unsigned for u128.
    assert_eq!(
        result(&[i128c(-1), i128c(0), Lt, StackValue], 64),
        "0x0000000000000001"
    );
    assert_eq!(
        result(&[u128c(u128::MAX), u128c(0), Lt, StackValue], 64),
        "0x0000000000000000"
    );
    assert_eq!(
        result(&[u128c(u128::MAX), u128c(0), Ge, StackValue], 64),
        "0x0000000000000001"
    );
    // Shifts: 1 << 127; a count of 128 or more gives 0 (shl) or the sign
    // fill (shra); the count has the value's type (DWARF 5 §2.5.1.4).
    assert_eq!(
        result(&[u128c(1), u128c(127), Shl, StackValue], 128),
        "0x80000000000000000000000000000000"
    );
    assert_eq!(
        result(&[u128c(1), u128c(128), Shl, StackValue], 128),
        ZERO128
    );
    assert_eq!(
        result(&[i128c(i128::MIN), i128c(1 << 100), Shra, StackValue], 128),
        ONES128
    );
    assert_eq!(
        result(&[i128c(-3), i128c(1), Shra, StackValue], 128),
        "0xfffffffffffffffffffffffffffffffe"
    );
    assert_eq!(
        result(&[u128c(1 << 127), u128c(31), Shr, StackValue], 128),
        "0x00000001000000000000000000000000"
    );
    // A generic count beside a wide value is two types: refused.
    let e = error(&[u128c(1), Constu(127), Shl, StackValue]);
    assert!(e.message.contains("TypeMismatch"), "{e:?}");
    // DW_OP_bra on a wide value: 2^100 is nonzero (its low 64 bits are 0).
    let branch = |v: i128| [i128c(v), Bra(4), Lit(0), Skip(1), Lit(1), StackValue];
    assert_eq!(result(&branch(1 << 100), 64), "0x0000000000000001");
    assert_eq!(result(&branch(0), 64), "0x0000000000000000");
}

#[test]
fn wide_convert_and_reinterpret() {
    use DwOp::*;
    // A generic source is unsigned 64-bit: consts -2 is 2^64 - 2.
    assert_eq!(
        result(&[Consts(-2), Convert(Some(I128)), StackValue], 128),
        "0x0000000000000000fffffffffffffffe"
    );
    // A signed narrow source sign-extends, an unsigned one zero-extends.
    assert_eq!(
        result(
            &[
                ConstType(BaseType::I8, vec![0xfe]),
                Convert(Some(U128)),
                StackValue
            ],
            128
        ),
        "0xfffffffffffffffffffffffffffffffe"
    );
    assert_eq!(
        result(
            &[
                ConstType(BaseType::U8, vec![0xfe]),
                Convert(Some(I128)),
                StackValue
            ],
            128
        ),
        "0x000000000000000000000000000000fe"
    );
    // Wide to narrow: the low 64 bits, then truncated to the type.
    let v = u128c(0x1122_3344_5566_7788_99aa_bbcc_ddee_ff00);
    assert_eq!(
        result(&[v.clone(), Convert(Some(BaseType::U32)), StackValue], 32),
        "0xddeeff00"
    );
    assert_eq!(
        result(&[v.clone(), Convert(None), StackValue], 64),
        "0x99aabbccddeeff00"
    );
    // 0x180 through I8 is -128 (0x80), which gimli sign-extends to generic.
    assert_eq!(
        result(
            &[
                u128c(0x1_80),
                Convert(Some(BaseType::I8)),
                Convert(None),
                StackValue
            ],
            64
        ),
        "0xffffffffffffff80"
    );
    // Wide to wide: -1 into 72 unsigned bits; 2^71 into 72 signed bits is
    // -2^71, back in i128 sign-extended.
    assert_eq!(
        result(&[i128c(-1), Convert(Some(BaseType::UW(9))), StackValue], 72),
        "0xffffffffffffffffff"
    );
    assert_eq!(
        result(
            &[
                u128c(1 << 71),
                Convert(Some(BaseType::IW(9))),
                Convert(Some(I128)),
                StackValue
            ],
            128
        ),
        "0xffffffffffffff800000000000000000"
    );
    // reinterpret -1 as u128: a logical shift by 127 leaves 1.
    assert_eq!(
        result(
            &[i128c(-1), Reinterpret(U128), u128c(127), Shr, StackValue],
            128
        ),
        "0x00000000000000000000000000000001"
    );
}

#[test]
fn wide_values_from_registers_and_memory() {
    use DwOp::*;
    // DW_OP_regval_type reads all 128 bits of $w.
    assert_eq!(
        result(&[RegvalType(0, U128), u128c(1), Plus, StackValue], 128),
        "0x8000000000000000000000000000ffff"
    );
    // As a signed value, shra 4 fills with the sign.
    assert_eq!(
        result(&[RegvalType(0, I128), i128c(4), Shra, StackValue], 128),
        "0xf8000000000000000000000000000fff"
    );
    // A 128-bit read of the 32-bit $s leaves the register.
    let e = error(&[RegvalType(3, U128), StackValue]);
    assert_eq!(e.kind, ErrorKind::OutOfBounds, "{e:?}");
    // DW_OP_deref_type from memory: bytes 01..10 little-endian.
    assert_eq!(
        result(&[Constu(0x100), DerefType(16, I128), StackValue], 128),
        "0x100f0e0d0c0b0a090807060504030201"
    );
    assert_eq!(
        result(
            &[Constu(0x100), DerefType(9, BaseType::UW(9)), StackValue],
            72
        ),
        "0x090807060504030201"
    );
    // DW_OP_xderef_type: address space 0, address 0x107 (bytes 08..10).
    assert_eq!(
        result(
            &[
                Lit(0),
                Constu(0x107),
                XderefType(9, BaseType::UW(9)),
                StackValue
            ],
            72
        ),
        "0x100f0e0d0c0b0a0908"
    );
}

#[test]
fn wide_displacements_and_masks() {
    use DwOp::*;
    // regx $w, offset_uconst 8 (bit 64), then a wide displacement of -4
    // bytes: bit 32.
    let l = eval(&[
        Regx(0),
        Llvm(LlvmDwOp::OffsetUconst(8)),
        i128c(-4),
        Llvm(LlvmDwOp::Offset),
    ])
    .unwrap();
    assert_eq!(l, LocDesc::entity("$w", 32));
    // The same bits as a u128 are 2^128 - 4 bytes: far past the register.
    let e = error(&[
        Regx(0),
        Llvm(LlvmDwOp::OffsetUconst(8)),
        u128c(u128::MAX - 3),
        Llvm(LlvmDwOp::Offset),
    ]);
    assert_eq!(e.kind, ErrorKind::OutOfBounds);
    // bit_offset by an i128 of 3.
    let l = eval(&[Regx(0), i128c(3), Llvm(LlvmDwOp::BitOffset)]).unwrap();
    assert_eq!(l, LocDesc::entity("$w", 3));
    // select_bit_piece with a 72-bit mask (bits 0 and 71): 72 one-bit parts
    // of $z, those two from $o.
    let mut mask = vec![0u8; 9];
    mask[0] = 1;
    mask[8] = 0x80;
    let ops = [
        Regx(1),
        Regx(2),
        ConstType(BaseType::UW(9), mask),
        Llvm(LlvmDwOp::SelectBitPiece(1, 72)),
    ];
    assert_eq!(result(&ops, 72), "0x800000000000000001");
}

#[test]
fn malformed_wide_operations_are_errors_not_panics() {
    use DwOp::*;
    let ill = |ops: &[DwOp]| {
        let e = error(ops);
        assert_eq!(e.kind, ErrorKind::IllFormed, "{ops:?}: {e:?}");
        e.message
    };
    let with = |ops: &[DwOp], raw: u8| {
        let mut b = encode(ops);
        b.push(raw);
        b
    };
    // DW_OP_const_type of an i128 with 8 bytes.
    let m = ill(&[ConstType(I128, vec![1; 8]), StackValue]);
    assert!(m.contains("byte count"), "{m}");
    // DW_OP_neg of a u128 (gimli refuses neg on unsigned types).
    let e = eval_bytes(&with(&[u128c(5)], gimli::constants::DW_OP_neg.0)).unwrap_err();
    assert_eq!(e.kind, ErrorKind::IllFormed);
    assert!(
        e.message.contains("UnsupportedTypeOperation"),
        "{}",
        e.message
    );
    // ... while an i128 negates: -5.
    let mut b = with(&[i128c(5)], gimli::constants::DW_OP_neg.0);
    b.extend(encode(&[StackValue]));
    let l = eval_bytes(&b).unwrap();
    assert_eq!(
        access::read(&ctx(), &l, 128).unwrap().to_hex(),
        "0xfffffffffffffffffffffffffffffffb"
    );
    // DW_OP_shr of an i128, DW_OP_shra of a u128.
    let m = ill(&[i128c(4), Lit(1), Shr]);
    assert!(m.contains("UnsupportedTypeOperation"), "{m}");
    let m = ill(&[u128c(4), Lit(1), Shra]);
    assert!(m.contains("UnsupportedTypeOperation"), "{m}");
    // A negative wide shift count.
    let m = ill(&[u128c(4), i128c(-1), Shl]);
    assert!(m.contains("InvalidShiftExpression"), "{m}");
    // Wide to float and float to wide are not modelled.
    ill(&[i128c(1), Convert(Some(BaseType::F32)), StackValue]);
    ill(&[
        ConstType(BaseType::F64, 1.0f64.to_le_bytes().to_vec()),
        Convert(Some(I128)),
        StackValue,
    ]);
    // Mixed types, DW_OP_plus_uconst (a generic addend), reinterpret to
    // another size.
    let m = ill(&[i128c(1), u128c(1), Plus]);
    assert!(m.contains("TypeMismatch"), "{m}");
    let m = ill(&[i128c(1), PlusUconst(1), StackValue]);
    assert!(m.contains("TypeMismatch"), "{m}");
    let m = ill(&[i128c(1), Reinterpret(BaseType::I64)]);
    assert!(m.contains("TypeMismatch"), "{m}");
    // Division by zero.
    let e = error(&[i128c(1), i128c(0), Div]);
    assert_eq!(e.kind, ErrorKind::DivisionByZero);
    let e = error(&[u128c(1), u128c(0), Mod]);
    assert_eq!(e.kind, ErrorKind::DivisionByZero);
    // A wide value is no address: as the result, for form_aspace_address
    // and for xderef.
    ill(&[u128c(0x100)]);
    ill(&[u128c(8), Lit(0), Llvm(LlvmDwOp::FormAspaceAddress)]);
    ill(&[Lit(0), u128c(0x100), XderefType(16, U128)]);
    // A piece of a typed value needs DW_OP_stack_value first.
    ill(&[i128c(1), Piece(16)]);
    // A "wide" base type of 3 bytes is no base type.
    let m = ill(&[ConstType(BaseType::IW(3), vec![0; 3]), StackValue]);
    assert!(m.contains("unknown base type"), "{m}");
}

/// A wide, narrow or float base type (half, bfloat, binary128 and
/// x86_fp80 too: decisions 14 and 15's values meet the wide ones here; the
/// 10-byte integers are x86_fp80's reinterpret partners).
fn any_type(x: u8) -> BaseType {
    match x % 17 {
        0 => BaseType::IW(9),
        1 => BaseType::UW(9),
        2 | 3 => I128,
        4 => U128,
        5 => BaseType::IW(255),
        6 => BaseType::I64,
        7 => BaseType::U32,
        8 => BaseType::F32,
        9 => BaseType::F16,
        10 => BaseType::BF16,
        11 => BaseType::F128,
        12 => BaseType::U16,
        13 => BaseType::F80,
        14 => BaseType::UW(10),
        15 => BaseType::IW(10),
        _ => BaseType::UW(33),
    }
}

/// A constant of type `t` whose bytes come from `a` and `b`.
fn constant(t: BaseType, a: u8, b: u8) -> DwOp {
    let bytes = (0..t.bytes())
        .map(|i| a.wrapping_mul(i).wrapping_add(b))
        .collect();
    DwOp::ConstType(t, bytes)
}

/// A small group of operations around wide values: a constant, two
/// constants of one type and an operation, an operation on what is there, a
/// conversion, a read, or a location operation.
fn group(k: u8, a: u8, b: u8, out: &mut Vec<u8>) {
    use gimli::constants as c;
    let binops = [
        DwOp::Plus,
        DwOp::Minus,
        DwOp::Mul,
        DwOp::Div,
        DwOp::Mod,
        DwOp::And,
        DwOp::Or,
        DwOp::Xor,
        DwOp::Shl,
        DwOp::Shr,
        DwOp::Shra,
        DwOp::Lt,
        DwOp::Ge,
    ];
    let binop = |x: u8| binops[usize::from(x) % binops.len()].clone();
    let t = any_type(a);
    let ops = match k % 10 {
        0 => vec![constant(t, a, b)],
        1 | 2 => vec![constant(t, a, b), constant(t, b, a), binop(b)],
        3 => vec![binop(b)],
        4 => vec![DwOp::Convert(Some(any_type(b)))],
        5 => vec![DwOp::Reinterpret(any_type(b))],
        6 => {
            let unary = [c::DW_OP_neg.0, c::DW_OP_not.0, c::DW_OP_abs.0];
            out.push(unary[usize::from(b) % 3]);
            return;
        }
        7 if b.is_multiple_of(2) => vec![DwOp::RegvalType(u16::from(a % 4), any_type(b))],
        7 => vec![DwOp::Constu(0x100), DwOp::DerefType(b, any_type(b))],
        8 => match b % 6 {
            0 => vec![DwOp::StackValue],
            1 => vec![DwOp::Bra(i16::from(a % 8))],
            2 => vec![
                DwOp::Regx(u16::from(a % 4)),
                constant(t, 0, b % 4),
                DwOp::Llvm(LlvmDwOp::Offset),
            ],
            3 => vec![DwOp::Dup],
            4 => vec![DwOp::Swap],
            _ => vec![DwOp::Constu(u64::from(b))],
        },
        _ => vec![
            DwOp::Regx(1),
            DwOp::Regx(2),
            constant(t, a, b),
            DwOp::Llvm(LlvmDwOp::SelectBitPiece(
                u64::from(a % 4) + 1,
                u64::from(b % 80) + 1,
            )),
        ],
    };
    out.extend(encode(&ops));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// Random sequences of wide, narrow and soft-float operations evaluate
    /// to a location or an error with a message, never a panic; a location
    /// can be read.
    #[test]
    fn random_wide_sequences_never_panic(
        groups in proptest::collection::vec((any::<u8>(), any::<u8>(), any::<u8>()), 0..10),
        first in any::<(u8, u8)>(),
        stack_value in any::<bool>(),
    ) {
        // Start with a value, so that most groups find operands.
        let mut bytes = encode(&[constant(any_type(first.0), first.0, first.1)]);
        for (k, a, b) in groups {
            group(k, a, b, &mut bytes);
        }
        if stack_value {
            bytes.extend(encode(&[DwOp::StackValue]));
        }
        match eval_bytes(&bytes) {
            Ok(loc) => {
                let _ = access::read(&ctx(), &loc, 64);
            }
            Err(e) => prop_assert!(!e.message.is_empty()),
        }
    }
}
