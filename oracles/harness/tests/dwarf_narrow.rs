//! Integers of widths DWARF has no base type for (i1 .. i63 other than i8,
//! i16, i32), kept sign-extended in a 64-bit container: each operation that
//! makes or consumes one, on hand-written cases whose expected values were
//! computed with the reference interpreter (`diopter eval`). Every case must
//! lower, read the expected bits through both gimli ([`lower`],
//! [`evaluate`]) and the extension evaluator ([`lower_ext`],
//! [`ext::evaluate_lowered`]), and agree with the reference.
//!
//! Also what the same containers made possible: integers wider than 64
//! bits (the extension evaluator's wide base types; expected values worked
//! out by hand in two's complement), integer vectors computed lane by lane,
//! signed integers converted to floats (around gimli's unsigned
//! DW_OP_convert), a narrow value's implicit location, and half, bfloat,
//! fp128 and x86_fp80 arithmetic in the extension evaluator's float base
//! types (IEEE results worked out by hand).

use diopter_dwarf::ext;
use diopter_dwarf::ops::DwOp;
use diopter_dwarf::{evaluate, lower, lower_ext, LowerFn, Lowered};
use diopter_gen::Case;
use diopter_harness::adapters::dwarf::{compare_with, DwarfVerdict};
use diopter_semantics::context::Context;
use diopter_semantics::interp::{self, ErrorKind, Outcome};
use diopter_semantics::syntax::parse_bare;
use diopter_semantics::types::TypeTable;

fn case(line: &str, ctx: &str) -> Case {
    Case {
        bare: parse_bare(line).unwrap_or_else(|e| panic!("{line}: {e:?}")),
        types: TypeTable::default(),
        ctx: Context::parse(ctx).expect("the test's context parses"),
    }
}

type EvalFn = fn(&Lowered, &Context) -> Outcome;

/// Both lowerings with their evaluators; `dwarf5` false: only the
/// extension one (the case needs AMD's operations).
fn oracles(dwarf5: bool) -> Vec<(&'static str, LowerFn, EvalFn)> {
    let mut v: Vec<(&'static str, LowerFn, EvalFn)> =
        vec![("dwarf-ext", lower_ext, ext::evaluate_lowered)];
    if dwarf5 {
        v.push(("dwarf", lower, evaluate));
    }
    v
}

/// Lowers `line`, reads `want` (hex, the reference's value) from the
/// result, and agrees with the reference.
fn reads(line: &str, ctx: &str, want: &str) {
    reads_in(line, ctx, want, true);
}

fn reads_in(line: &str, ctx: &str, want: &str, dwarf5: bool) {
    let c = case(line, ctx);
    for (name, low, eval) in oracles(dwarf5) {
        let l = low(&c.bare, &c.types, &c.ctx)
            .unwrap_or_else(|e| panic!("{name}: {line}: not lowerable: {e}"));
        let r = eval(&l, &c.ctx).unwrap_or_else(|e| panic!("{name}: {line}: {e:?}"));
        let got = interp::read_value(&c.ctx, &r).unwrap_or_else(|e| panic!("{line}: {e:?}"));
        assert_eq!(got.to_hex(), want, "{name}: {line}");
        let v = compare_with(&c, low, eval);
        assert_eq!(v, DwarfVerdict::Agree, "{name}: {line}");
    }
}

/// Lowers `line` and fails as the reference does: `kind` at `op_index`.
fn fails(line: &str, ctx: &str, kind: ErrorKind, op_index: usize) {
    fails_in(line, ctx, kind, op_index, true);
}

fn fails_in(line: &str, ctx: &str, kind: ErrorKind, op_index: usize, dwarf5: bool) {
    let c = case(line, ctx);
    for (name, low, eval) in oracles(dwarf5) {
        let v = compare_with(&c, low, eval);
        assert_eq!(
            v,
            DwarfVerdict::BothError { kind, op_index },
            "{name}: {line}"
        );
    }
}

const I1: &str = "%a = i1 1\n%b = i1 0\narg 0 = %a\narg 1 = %b\n";

#[test]
fn i1_bitwise_operations_and_addition() {
    // 1 op 0, then 1 op 1.
    for (op, one_zero, one_one) in [
        ("DIOpAnd", "0x0", "0x1"),
        ("DIOpOr", "0x1", "0x1"),
        ("DIOpXor", "0x1", "0x0"),
        ("DIOpAdd", "0x1", "0x0"),
    ] {
        reads(
            &format!("[i1, i1] DIOpArg(0, i1), DIOpArg(1, i1), {op}()"),
            I1,
            one_zero,
        );
        reads(
            &format!("[i1, i1] DIOpArg(0, i1), DIOpArg(0, i1), {op}()"),
            I1,
            one_one,
        );
    }
}

#[test]
fn an_i1_result_presents_exactly_one_bit() {
    let c = case("[i1, i1] DIOpArg(0, i1), DIOpArg(1, i1), DIOpXor()", I1);
    let l = lower(&c.bare, &c.types, &c.ctx).expect("lowers");
    // The 64-bit container is the stack value; its low bit is the result.
    assert_eq!(
        l.ops[l.ops.len() - 2..],
        [DwOp::StackValue, DwOp::BitPiece(1, 0)]
    );
    assert_eq!(l.bits, 1);
    let r = evaluate(&l, &c.ctx).expect("evaluates");
    assert_eq!(interp::read_value(&c.ctx, &r).unwrap().to_hex(), "0x1");
}

const I7: &str = "%a = i7 100\n%b = i7 50\narg 0 = %a\narg 1 = %b\n";

#[test]
fn i7_arithmetic_wraps_at_7_bits() {
    // 100 + 50 = 150 = 22 mod 128; 100 * 50 = 5000 = 8 mod 128; 50 - 100 = -50.
    reads(
        "[i7, i7] DIOpArg(0, i7), DIOpArg(1, i7), DIOpAdd()",
        I7,
        "0x16",
    );
    reads(
        "[i7, i7] DIOpArg(0, i7), DIOpArg(1, i7), DIOpMul()",
        I7,
        "0x08",
    );
    reads(
        "[i7, i7] DIOpArg(1, i7), DIOpArg(0, i7), DIOpSub()",
        I7,
        "0x4e",
    );
}

const I33: &str = "%a = i33 0x1ffffffff\n%s = i33 40\n%t = i33 33\n%u = i33 1\n\
                   arg 0 = %a\narg 1 = %s\narg 2 = %t\narg 3 = %u\n";

#[test]
fn i33_shifts_by_amounts_at_and_beyond_the_width() {
    // -1 shifted by 40, 33 and 1 (the amount is unsigned, DESIGN.md).
    for (amount, lshr, ashr, shl) in [
        (1, "0x000000000", "0x1ffffffff", "0x000000000"),
        (2, "0x000000000", "0x1ffffffff", "0x000000000"),
        (3, "0x0ffffffff", "0x1ffffffff", "0x1fffffffe"),
    ] {
        for (op, want) in [("DIOpLShr", lshr), ("DIOpAShr", ashr), ("DIOpShl", shl)] {
            reads(
                &format!("[i33, i33, i33, i33] DIOpArg(0, i33), DIOpArg({amount}, i33), {op}()"),
                I33,
                want,
            );
        }
    }
}

const I12: &str = "%m = i12 0x800\n%n = i12 -1\n%z = i12 0\n%p = i12 7\n\
                   arg 0 = %m\narg 1 = %n\narg 2 = %z\narg 3 = %p\n";

#[test]
fn i12_signed_division_and_modulo() {
    let e = |a: u32, b: u32, op: &str| {
        format!("[i12, i12, i12, i12] DIOpArg({a}, i12), DIOpArg({b}, i12), {op}()")
    };
    // INT_MIN / -1 wraps to INT_MIN; INT_MIN mod -1 is 0.
    reads(&e(0, 1, "DIOpDiv"), I12, "0x800");
    reads(&e(0, 1, "DIOpMod"), I12, "0x000");
    // -2048 = -292 * 7 - 4: truncating, the remainder has the dividend's sign.
    reads(&e(0, 3, "DIOpDiv"), I12, "0xedc");
    reads(&e(0, 3, "DIOpMod"), I12, "0xffc");
    fails(&e(0, 2, "DIOpDiv"), I12, ErrorKind::DivisionByZero, 2);
    fails(&e(0, 2, "DIOpMod"), I12, ErrorKind::DivisionByZero, 2);
}

#[test]
fn i3_extensions_and_conversions() {
    // i3 5 is -3.
    let c = "%a = i3 5\narg 0 = %a\n";
    reads(
        "[i3] DIOpArg(0, i3), DIOpZExt(i64)",
        c,
        "0x0000000000000005",
    );
    reads(
        "[i3] DIOpArg(0, i3), DIOpSExt(i64)",
        c,
        "0xfffffffffffffffd",
    );
    reads("[i3] DIOpArg(0, i3), DIOpSExt(i16)", c, "0xfffd");
    reads("[i3] DIOpArg(0, i3), DIOpSExt(i9)", c, "0x1fd");
    reads("[i3] DIOpArg(0, i3), DIOpZExt(i9)", c, "0x005");
    // Truncations into and out of narrow widths.
    reads(
        "[i33, i33, i33, i33] DIOpArg(0, i33), DIOpConvert(i7)",
        I33,
        "0x7f",
    );
    reads(
        "[i33, i33, i33, i33] DIOpArg(0, i33), DIOpConvert(i8)",
        I33,
        "0xff",
    );
    reads("[i7, i7] DIOpArg(0, i7), DIOpConvert(i5)", I7, "0x04");
}

const MEM: &str = "mem 0 0x100 = 12 34 56 78 9a bc\narg 0 = mem(0, 0x100)\n";

#[test]
fn reads_from_memory_at_bit_offsets() {
    // 0x78563412 >> 4 = 0x07856341: the i24 there is 0x856341.
    reads(
        "[i64] DIOpArg(0, i64), DIOpConstant(i8 4), DIOpBitOffset(i24), DIOpSExt(i32)",
        MEM,
        "0xff856341",
    );
    reads(
        "[i64] DIOpArg(0, i64), DIOpConstant(i8 4), DIOpBitOffset(i24), DIOpZExt(i32)",
        MEM,
        "0x00856341",
    );
    // A base-type width off a byte boundary: 5 bytes read, shifted by 12.
    reads(
        "[i64] DIOpArg(0, i64), DIOpConstant(i8 12), DIOpBitOffset(i32), \
         DIOpConstant(i32 0), DIOpAdd()",
        MEM,
        "0xc9a78563",
    );
}

const LOCAL: &str =
    "datalayout amdgpu\nmem 3 0xfffffffc = 11 22 33 44\narg 0 = mem(3, 0xfffffffc)\n";

#[test]
fn a_memory_read_fails_exactly_where_its_bits_leave_the_memory() {
    // The last 20 bits of the 2^32-byte address space 3 are in bounds...
    reads(
        "[i32] DIOpArg(0, i32), DIOpConstant(i8 12), DIOpBitOffset(i20), DIOpZExt(i32)",
        LOCAL,
        "0x00044332",
    );
    // ... 24 bits from the same place are not.
    fails(
        "[i32] DIOpArg(0, i32), DIOpConstant(i8 12), DIOpBitOffset(i24), DIOpZExt(i32)",
        LOCAL,
        ErrorKind::OutOfBounds,
        3,
    );
}

const REG: &str = "%r = i40 0x123456789a\n%s = i16 0xabcd\narg 0 = %r\narg 1 = %s\n";

#[test]
fn reads_from_registers_at_bit_offsets() {
    reads(
        "[i40, i16] DIOpArg(0, i40), DIOpConstant(i8 12), DIOpBitOffset(i24), DIOpSExt(i32)",
        REG,
        "0x00234567",
    );
    reads(
        "[i40, i16] DIOpArg(1, i16), DIOpConstant(i8 4), DIOpBitOffset(i8), DIOpSExt(i32)",
        REG,
        "0xffffffbc",
    );
    // Bits 12..20 of a 16-bit entity: out of bounds, as the read site's
    // width (20 bits) tells the evaluator.
    fails(
        "[i40, i16] DIOpArg(1, i16), DIOpConstant(i8 12), DIOpBitOffset(i8), DIOpSExt(i32)",
        REG,
        ErrorKind::OutOfBounds,
        3,
    );
}

#[test]
fn a_narrow_offset_is_read_as_signed() {
    // i7 -8: the location moves 8 bytes down, from 0x100 to 0xf8.
    reads(
        "[i64, i7] DIOpArg(0, i64), DIOpArg(1, i7), DIOpByteOffset(i64)",
        "mem 0 0xf8 = 01 02 03 04 05 06 07 08\n%o = i7 -8\narg 0 = mem(0, 0x100)\narg 1 = %o\n",
        "0x0807060504030201",
    );
}

#[test]
fn push_lane_into_a_narrow_type() {
    // Lane 5 as an i3 (-3), then + 1.
    reads_in("[] DIOpPushLane(i3)", "lane 5\n", "0x5", false);
    reads_in(
        "[] DIOpPushLane(i3), DIOpConstant(i3 1), DIOpAdd()",
        "lane 5\n",
        "0x6",
        false,
    );
}

#[test]
fn integers_wider_than_64_bits_lower_with_the_extensions_only() {
    // gimli's values stop at 64 bits: DWARF 5 as gimli evaluates it has no
    // i65; the extension evaluator computes in a 9-byte base type (1 + 1).
    let c = case(
        "[i65, i65] DIOpArg(0, i65), DIOpArg(1, i65), DIOpAdd()",
        "%a = i65 1\narg 0 = %a\narg 1 = %a\n",
    );
    let e = lower(&c.bare, &c.types, &c.ctx).unwrap_err();
    assert_eq!(e.class(), "an i65 value");
    assert!(e.reason.contains("64 bits"), "{e}");
    reads_in(
        "[i65, i65] DIOpArg(0, i65), DIOpArg(1, i65), DIOpAdd()",
        "%a = i65 1\narg 0 = %a\narg 1 = %a\n",
        "0x00000000000000002",
        false,
    );
    // Past 255 bytes no DW_OP_const_type or DW_OP_deref_type holds it.
    let c = case(
        "[] DIOpConstant(i4096 1), DIOpConstant(i4096 1), DIOpAdd()",
        "",
    );
    let e = lower_ext(&c.bare, &c.types, &c.ctx).unwrap_err();
    assert_eq!(e.class(), "an i4096 value");
    assert!(e.reason.contains("255 bytes"), "{e}");
}

#[test]
fn floats_at_bit_offsets_keep_their_bits() {
    // 0x9a78563412 >> 4: the float there is 0xa7856341.
    reads(
        "[i64] DIOpArg(0, i64), DIOpConstant(i8 4), DIOpBitOffset(float), DIOpRead()",
        MEM,
        "0xa7856341",
    );
    // Bits 4..36 of %r = 0x123456789a.
    reads(
        "[i40, i16] DIOpArg(0, i40), DIOpConstant(i8 4), DIOpBitOffset(i32), \
         DIOpReinterpret(float), DIOpRead()",
        REG,
        "0x23456789",
    );
}

const I7B: &str = "%a = i7 100\n%b = i7 50\n%c = i7 -1\narg 0 = %a\narg 1 = %b\narg 2 = %c\n";

#[test]
fn every_result_is_sign_extended_for_what_reads_all_its_container() {
    // A result's own low bits are right even without the sign extension;
    // DIOpSExt(i64) reads the whole container, so each operation that may
    // leave the range must re-extend. 100 + 100 = 200 = i7 72 = -56.
    let e = |body: &str| format!("[i7, i7, i7] {body}, DIOpSExt(i64)");
    for (body, want) in [
        (
            "DIOpArg(0, i7), DIOpArg(0, i7), DIOpAdd()",
            "0xffffffffffffffc8",
        ),
        (
            "DIOpArg(1, i7), DIOpArg(0, i7), DIOpSub()",
            "0xffffffffffffffce",
        ),
        (
            "DIOpArg(0, i7), DIOpArg(1, i7), DIOpMul()",
            "0x0000000000000008",
        ),
        // 50 << 1 = 100 = -28.
        (
            "DIOpArg(1, i7), DIOpConstant(i7 1), DIOpShl()",
            "0xffffffffffffffe4",
        ),
        // -1 >> 0 stays -1; -1 >> 1 is 63.
        (
            "DIOpArg(2, i7), DIOpConstant(i7 0), DIOpLShr()",
            "0xffffffffffffffff",
        ),
        (
            "DIOpArg(2, i7), DIOpConstant(i7 1), DIOpLShr()",
            "0x000000000000003f",
        ),
    ] {
        reads(&e(body), I7B, want);
    }
    // INT_MIN / -1 in i12.
    reads(
        "[i12, i12] DIOpArg(0, i12), DIOpArg(1, i12), DIOpDiv(), DIOpSExt(i64)",
        "%m = i12 0x800\n%n = i12 -1\narg 0 = %m\narg 1 = %n\n",
        "0xfffffffffffff800",
    );
    // Truncations into a narrow width, and an i8 into i5 (0x1f is -1).
    reads(
        "[i33, i33, i33, i33] DIOpArg(0, i33), DIOpConvert(i7), DIOpSExt(i64)",
        I33,
        "0xffffffffffffffff",
    );
    reads(
        "[i8] DIOpArg(0, i8), DIOpConvert(i5), DIOpSExt(i64)",
        "%a = i8 0x1f\narg 0 = %a\n",
        "0xffffffffffffffff",
    );
    // Zero-extended i3 5 into i9 is positive.
    reads(
        "[i3] DIOpArg(0, i3), DIOpZExt(i9), DIOpSExt(i64)",
        "%a = i3 5\narg 0 = %a\n",
        "0x0000000000000005",
    );
    // Memory bits and a lane.
    reads(
        "[i64] DIOpArg(0, i64), DIOpConstant(i8 4), DIOpBitOffset(i24), DIOpSExt(i64)",
        MEM,
        "0xffffffffff856341",
    );
    reads_in(
        "[] DIOpPushLane(i3), DIOpSExt(i64)",
        "lane 5\n",
        "0xfffffffffffffffd",
        false,
    );
}

#[test]
fn a_shift_amount_with_its_top_bit_set_is_unsigned() {
    // i33 -1 is the amount 2^33 - 1 (gimli refuses negative signed amounts).
    reads(
        "[i33, i33, i33, i33] DIOpArg(0, i33), DIOpArg(0, i33), DIOpAShr()",
        I33,
        "0x1ffffffff",
    );
    for op in ["DIOpLShr", "DIOpShl"] {
        reads(
            &format!("[i33, i33, i33, i33] DIOpArg(3, i33), DIOpArg(0, i33), {op}()"),
            I33,
            "0x000000000",
        );
    }
}

#[test]
fn push_lane_says_why_it_does_not_lower() {
    // Lane 5 does not fit in an i2 (the reference's ConvertOutOfRange, which
    // DWARF cannot say); an i128 lane is a wide value (extensions only).
    let c = case("[] DIOpPushLane(i2)", "lane 5\n");
    let e = lower_ext(&c.bare, &c.types, &c.ctx).unwrap_err();
    assert!(e.reason.contains("lane 5 does not fit in `i2`"), "{e}");
    reads_in(
        "[] DIOpPushLane(i128)",
        "lane 5\n",
        "0x00000000000000000000000000000005",
        false,
    );
}

const PTRS: &str = "datalayout amdgpu\n%r = i40 0x0000010000\n%s = i16 0x1234\n\
                    mem 5 0x100 = 11 22 33 44\nmem 0 0x200 = 00 10 00 00 00\n\
                    arg 0 = %r\narg 1 = mem(0, 0x200)\narg 2 = %s\n";

#[test]
fn pointers_at_bit_offsets_are_read_unsigned() {
    // A 32-bit pointer to 0x100 of address space 5, at bit 8 of a register
    // and at bit 4 of memory; dereferenced, the i32 there.
    let e = |input: &str, bit: u8| {
        format!(
            "[i40, i64, i16] {input}, DIOpConstant(i8 {bit}), DIOpBitOffset(ptr addrspace(5)), \
             DIOpDeref(i32), DIOpConstant(i32 0), DIOpAdd()"
        )
    };
    reads(&e("DIOpArg(0, i40)", 8), PTRS, "0x44332211");
    reads(&e("DIOpArg(1, i64)", 4), PTRS, "0x44332211");
    // Bits 8..40 of a 16-bit entity.
    fails(&e("DIOpArg(2, i16)", 8), PTRS, ErrorKind::OutOfBounds, 3);
}

/// %a = -1 and %b = 2, as i128.
const W128: &str =
    "%a = i128 0xffffffffffffffffffffffffffffffff\n%b = i128 0x2\narg 0 = %a\narg 1 = %b\n";

#[test]
fn i128_operations_wrap_modulo_2_to_the_128() {
    // V2 op V1 with V2 = -1 (arg 0), V1 = 2 (arg 1).
    for (op, want) in [
        ("DIOpAdd", "0x00000000000000000000000000000001"),
        ("DIOpSub", "0xfffffffffffffffffffffffffffffffd"),
        ("DIOpMul", "0xfffffffffffffffffffffffffffffffe"),
        // Signed, truncating toward zero: -1 / 2 = 0.
        ("DIOpDiv", "0x00000000000000000000000000000000"),
        // The sign of the dividend: -1 mod 2 = -1.
        ("DIOpMod", "0xffffffffffffffffffffffffffffffff"),
        ("DIOpShl", "0xfffffffffffffffffffffffffffffffc"),
        ("DIOpLShr", "0x3fffffffffffffffffffffffffffffff"),
        ("DIOpAShr", "0xffffffffffffffffffffffffffffffff"),
        ("DIOpAnd", "0x00000000000000000000000000000002"),
        ("DIOpOr", "0xffffffffffffffffffffffffffffffff"),
        ("DIOpXor", "0xfffffffffffffffffffffffffffffffd"),
    ] {
        reads_in(
            &format!("[i128, i128] DIOpArg(0, i128), DIOpArg(1, i128), {op}()"),
            W128,
            want,
            false,
        );
    }
    fails_in(
        "[i128, i128] DIOpArg(0, i128), DIOpConstant(i128 0), DIOpDiv()",
        W128,
        ErrorKind::DivisionByZero,
        2,
        false,
    );
}

/// %a = 2^64, the i65 minimum -2^64, and %b = 1.
const W65: &str = "%a = i65 0x10000000000000000\n%b = i65 0x1\narg 0 = %a\narg 1 = %b\n";

#[test]
fn i65_values_stay_sign_extended_in_their_nine_bytes() {
    for (line, want) in [
        // -2^64 - 1 wraps to 2^64 - 1.
        (
            "DIOpArg(0, i65), DIOpArg(1, i65), DIOpSub()",
            "0x0ffffffffffffffff",
        ),
        // -2^64 + -2^64 = -2^65 wraps to 0.
        (
            "DIOpArg(0, i65), DIOpArg(0, i65), DIOpAdd()",
            "0x00000000000000000",
        ),
        // -2^64 >> 1 = -2^63: 2^65 - 2^63.
        (
            "DIOpArg(0, i65), DIOpArg(1, i65), DIOpAShr()",
            "0x18000000000000000",
        ),
        // 2^64 >>> 1 = 2^63.
        (
            "DIOpArg(0, i65), DIOpArg(1, i65), DIOpLShr()",
            "0x08000000000000000",
        ),
        // -2^64 / 1.
        (
            "DIOpArg(0, i65), DIOpArg(1, i65), DIOpDiv()",
            "0x10000000000000000",
        ),
        // Sign- and zero-extended to 128 bits, and cut to 32.
        (
            "DIOpArg(0, i65), DIOpSExt(i128)",
            "0xffffffffffffffff0000000000000000",
        ),
        (
            "DIOpArg(0, i65), DIOpZExt(i128)",
            "0x00000000000000010000000000000000",
        ),
        (
            "DIOpArg(0, i65), DIOpArg(1, i65), DIOpSub(), DIOpConvert(i32)",
            "0xffffffff",
        ),
    ] {
        reads_in(&format!("[i65, i65] {line}"), W65, want, false);
    }
}

#[test]
fn a_wide_value_is_read_from_memory() {
    // The 16 bytes at 0x10 are 2^127 + 1 (the i128 minimum + 1); + 1.
    reads_in(
        "[ptr] DIOpArg(0, ptr), DIOpDeref(i128), DIOpRead(), DIOpConstant(i128 1), DIOpAdd()",
        "%p = i64 0x10\nmem 0 0x10 = 01 00 00 00 00 00 00 00 00 00 00 00 00 00 00 80\narg 0 = %p\n",
        "0x80000000000000000000000000000002",
        false,
    );
}

#[test]
fn integer_vectors_are_computed_lane_by_lane() {
    // Lanes (lane 0 in the low bits): [4, 3, 2, 1] + [1, 1, 1, 0xff].
    reads(
        "[<4 x i8>, <4 x i8>] DIOpArg(0, <4 x i8>), DIOpArg(1, <4 x i8>), DIOpAdd()",
        "%a = i32 0x01020304\n%b = i32 0xff010101\narg 0 = %a\narg 1 = %b\n",
        "0x00030405",
    );
    // i1 lanes: 0b10110010 ^ 0b01100110.
    reads(
        "[<8 x i1>, <8 x i1>] DIOpArg(0, <8 x i1>), DIOpArg(1, <8 x i1>), DIOpXor()",
        "%a = i8 0xb2\n%b = i8 0x66\narg 0 = %a\narg 1 = %b\n",
        "0xd4",
    );
    // i4 lanes [-8, 7] >> [1, 3] (arithmetic): [-4, 0].
    reads(
        "[<2 x i4>, <2 x i4>] DIOpArg(0, <2 x i4>), DIOpArg(1, <2 x i4>), DIOpAShr()",
        "%a = i8 0x78\n%b = i8 0x31\narg 0 = %a\narg 1 = %b\n",
        "0x0c",
    );
    // 128 bits, with the extensions: [3, -1] * [5, 2] = [15, -2].
    reads_in(
        "[<2 x i64>, <2 x i64>] DIOpArg(0, <2 x i64>), DIOpArg(1, <2 x i64>), DIOpMul()",
        "%a = i128 0xffffffffffffffff0000000000000003\n%b = i128 0x00000000000000020000000000000005\narg 0 = %a\narg 1 = %b\n",
        "0xfffffffffffffffe000000000000000f",
        false,
    );
    // Lane 2 divides by zero: the reference's error, at the division.
    fails(
        "[<4 x i8>, <4 x i8>] DIOpArg(0, <4 x i8>), DIOpArg(1, <4 x i8>), DIOpDiv()",
        "%a = i32 0x01020304\n%b = i32 0x01000101\narg 0 = %a\narg 1 = %b\n",
        ErrorKind::DivisionByZero,
        2,
    );
}

#[test]
fn signed_integers_convert_to_the_nearest_float() {
    for (ty, value, to, want) in [
        // -7.0f
        ("i32", "0xfffffff9", "float", "0xc0e00000"),
        // INT64_MIN: -2^63
        ("i64", "0x8000000000000000", "double", "0xc3e0000000000000"),
        // 2^24 + 1 and its negation: ties to even, 2^24.
        ("i32", "0x01000001", "float", "0x4b800000"),
        ("i32", "0xfeffffff", "float", "0xcb800000"),
        // A narrow -1.
        ("i7", "0x7f", "float", "0xbf800000"),
    ] {
        reads(
            &format!("[{ty}] DIOpArg(0, {ty}), DIOpConvert({to})"),
            &format!("%a = {ty} {value}\narg 0 = %a\n"),
            want,
        );
    }
}

#[test]
fn a_narrow_value_is_a_location_of_its_own_bits() {
    // 3 + 3 as an i7, its implicit location offset by 0 bits: 6.
    reads_in(
        "[i7] DIOpArg(0, i7), DIOpArg(0, i7), DIOpAdd(), DIOpConstant(i8 0), DIOpBitOffset(i7)",
        "%a = i7 0x3\narg 0 = %a\n",
        "0x06",
        false,
    );
    // Offset 3 bits: a location still (the spec fails only when it is
    // read), whose 7-bit read reaches past the value's bits and fails out
    // of bounds, as the reference's does (`compare_with` reads and writes
    // both locations).
    let c = case(
        "[i7] DIOpArg(0, i7), DIOpArg(0, i7), DIOpAdd(), DIOpConstant(i8 3), DIOpBitOffset(i7)",
        "%a = i7 0x3\narg 0 = %a\n",
    );
    assert_eq!(
        compare_with(&c, lower_ext, ext::evaluate_lowered),
        DwarfVerdict::Agree
    );
    let l = lower_ext(&c.bare, &c.types, &c.ctx).expect("lowers");
    let r = ext::evaluate_lowered(&l, &c.ctx).expect("a location");
    let e = diopter_semantics::access::read(&c.ctx, &r.loc, 7).unwrap_err();
    assert_eq!(
        e.kind,
        diopter_semantics::location::ReadErrorKind::OutOfBounds
    );
}

#[test]
fn half_bfloat_fp128_and_x86_fp80_are_computed_with_the_extensions() {
    // half 1.0 + 2.0 = 3.0; DWARF 5 only moves a half's bits.
    let line = "[half, half] DIOpArg(0, half), DIOpArg(1, half), DIOpAdd()";
    let ctx = |a: &str, b: &str| format!("%a = i16 {a}\n%b = i16 {b}\narg 0 = %a\narg 1 = %b\n");
    let c = case(line, &ctx("0x3c00", "0x4000"));
    let e = lower(&c.bare, &c.types, &c.ctx).unwrap_err();
    assert!(e.reason.starts_with("arithmetic on `half`"), "{e}");
    reads_in(line, &ctx("0x3c00", "0x4000"), "0x4200", false);
    // 2048 + 1 = 2049, halfway between 2048 and 2050: to even, 2048;
    // 2048 + 3 = 2051: 2052 (exponent 26, fraction 2).
    reads_in(line, &ctx("0x6800", "0x3c00"), "0x6800", false);
    reads_in(line, &ctx("0x6800", "0x4200"), "0x6802", false);
    // 65504 + 65504 overflows to +inf.
    reads_in(line, &ctx("0x7bff", "0x7bff"), "0x7c00", false);
    // bfloat 1.0 * 3.0 = 3.0.
    reads_in(
        "[bfloat, bfloat] DIOpArg(0, bfloat), DIOpArg(1, bfloat), DIOpMul()",
        &ctx("0x3f80", "0x4040"),
        "0x4040",
        false,
    );
    // fp128 1.0 + 1.0 = 2.0 (exponent 0x3fff + 1).
    reads_in(
        "[fp128] DIOpArg(0, fp128), DIOpArg(0, fp128), DIOpAdd()",
        "%a = i128 0x3fff0000000000000000000000000000\narg 0 = %a\n",
        "0x40000000000000000000000000000000",
        false,
    );
    // x86_fp80 1.0 (exponent 0x3fff, the integer bit 63 set) + 1.0 = 2.0
    // (exponent 0x4000).
    reads_in(
        "[x86_fp80] DIOpArg(0, x86_fp80), DIOpArg(0, x86_fp80), DIOpAdd()",
        "%a = i80 0x3fff8000000000000000\narg 0 = %a\n",
        "0x40008000000000000000",
        false,
    );
    // double 1.0 converted: the same number, with its integer bit.
    reads_in(
        "[double] DIOpArg(0, double), DIOpConvert(x86_fp80)",
        "%a = i64 0x3ff0000000000000\narg 0 = %a\n",
        "0x3fff8000000000000000",
        false,
    );
    // A half at bit 8 of a register (1.0), doubled.
    reads_in(
        "[i32] DIOpArg(0, i32), DIOpConstant(i8 8), DIOpBitOffset(half), \
         DIOpArg(0, i32), DIOpConstant(i8 8), DIOpBitOffset(half), DIOpAdd()",
        "%a = i32 0x003c0000\narg 0 = %a\n",
        "0x4000",
        false,
    );
}

#[test]
fn half_conversions_round_to_nearest_even() {
    for (from, value, to, want) in [
        // half 1.0 is float 1.0.
        ("half", "i16 0x3c00", "float", "0x3f800000"),
        // 65520 is halfway between 65504 (odd fraction) and 2^16: to
        // even, which overflows to +inf.
        ("float", "i32 0x477ff000", "half", "0x7c00"),
        // The integer -3: half -3.0.
        ("i32", "i32 0xfffffffd", "half", "0xc200"),
    ] {
        reads_in(
            &format!("[{from}] DIOpArg(0, {from}), DIOpConvert({to})"),
            &format!("%a = {value}\narg 0 = %a\n"),
            want,
            false,
        );
    }
}

#[test]
fn a_computed_value_retyped_as_a_narrow_integer_is_its_low_bits() {
    // -2 (i2 0b10 sign-extended to i64) retyped as an i1 is its bit 0, 0;
    // sign-extended to i64, 0. The container held -2, which is not the
    // i1's sign extension (fuzz/regressions/dwarf_diff/
    // narrow-retype-of-a-computed-value).
    reads(
        "[i2] DIOpArg(0, i2), DIOpSExt(i64), DIOpAddrOf(3), DIOpDeref(i1), DIOpSExt(i64)",
        "%a = i16 0xe7be\narg 0 = %a\n",
        "0x0000000000000000",
    );
    // -1 retyped: bit 0 is 1, so the i1 is -1.
    reads(
        "[i2] DIOpArg(0, i2), DIOpSExt(i64), DIOpAddrOf(3), DIOpDeref(i1), DIOpSExt(i64)",
        "%a = i16 0xe7bf\narg 0 = %a\n",
        "0xffffffffffffffff",
    );
}

#[test]
fn a_pointer_retyped_as_a_narrow_integer_is_its_low_bits() {
    // The i1 -1 zero-extended into a 64-bit pointer is 1; retyped as an i1
    // it is -1 again, sign-extended to i2: 0b11 (fuzz/regressions/
    // dwarf_diff/narrow-retype-of-a-pointer).
    reads(
        "[i1] DIOpArg(0, i1), DIOpConvert(ptr addrspace(42)), DIOpAddrOf(5), DIOpDeref(i1), DIOpSExt(i2)",
        "%a = i64 0xfffffffffffffffb\narg 0 = %a\n",
        "0x3",
    );
}

#[test]
fn vectors_of_widths_without_a_base_type_are_held_as_narrow_integers() {
    // <3 x i8>, 24 bits: lanes [3, 2, 1] + [1, 1, 0xff] = [4, 3, 0].
    reads(
        "[<3 x i8>, <3 x i8>] DIOpArg(0, <3 x i8>), DIOpArg(1, <3 x i8>), DIOpAdd()",
        "%a = i24 0x010203\n%b = i24 0xff0101\narg 0 = %a\narg 1 = %b\n",
        "0x000304",
    );
    // <2 x i1>: [0, 1] ^ [1, 1] = [1, 0].
    reads(
        "[<2 x i1>, <2 x i1>] DIOpArg(0, <2 x i1>), DIOpArg(1, <2 x i1>), DIOpXor()",
        "%a = i2 0x2\n%b = i2 0x3\narg 0 = %a\narg 1 = %b\n",
        "0x1",
    );
    // Its bits reinterpreted: the i24 -2, plus 1.
    reads(
        "[<3 x i8>] DIOpArg(0, <3 x i8>), DIOpReinterpret(i24), DIOpConstant(i24 1), DIOpAdd()",
        "%a = i24 0xfffffe\narg 0 = %a\n",
        "0xffffff",
    );
    // <4 x i17>, 68 bits (a 9-byte container, with the extensions): lanes
    // [1, 2, 3, 4] + [-1, 1, 1, 1] = [0, 3, 4, 5], lane i at bit 17 i.
    reads_in(
        "[<4 x i17>, <4 x i17>] DIOpArg(0, <4 x i17>), DIOpArg(1, <4 x i17>), DIOpAdd()",
        "%a = i68 0x20000c00040001\n%b = i68 0x800040003ffff\narg 0 = %a\narg 1 = %b\n",
        "0x00028001000060000",
        false,
    );
}
