//! Each form the lowering handles, one small case at a time: it must lower
//! (a form that silently became "not lowerable" would only shrink the
//! differential oracle's reach, which no disagreement reveals), and the
//! DWARF evaluation must agree with the reference interpreter on it. Also
//! the lowering's and the evaluators' limits, at and beside each bound.
//! Written against the survivors of `cargo mutants -p diopter-dwarf`
//! (reports/mutants.md).

use diopter_diff::Oracle;
use diopter_dwarf::ext::{ExtMachine, DW_OP_LLVM_USER};
use diopter_dwarf::{evaluate, lower};
use diopter_gen::Case;
use diopter_harness::adapters::dwarf::{compare_with, DwarfVerdict};
use diopter_semantics::context::Context;
use diopter_semantics::interp::{self, ErrorKind};
use diopter_semantics::syntax::parse_bare;
use diopter_semantics::types::TypeTable;
use diopter_semantics::value::Bits;

fn case(line: &str, ctx: &str) -> Case {
    Case {
        bare: parse_bare(line).unwrap_or_else(|e| panic!("{line}: {e:?}")),
        types: TypeTable::default(),
        ctx: Context::parse(ctx).expect("the test's context parses"),
    }
}

/// Lowers, evaluates the DWARF and the reference, and insists on agreement
/// with a location that reads `want` (hex) at the result's size.
fn agrees_reading(line: &str, ctx: &str, want: &str) {
    let c = case(line, ctx);
    let l =
        lower(&c.bare, &c.types, &c.ctx).unwrap_or_else(|e| panic!("{line}: not lowerable: {e}"));
    let r = evaluate(&l, &c.ctx).unwrap_or_else(|e| panic!("{line}: {e:?}"));
    let got = interp::read_value(&c.ctx, &r).unwrap_or_else(|e| panic!("{line}: {e:?}"));
    assert_eq!(got.to_hex(), want, "{line}");
    let v = compare_with(&c, lower, evaluate);
    assert!(matches!(v, DwarfVerdict::Agree), "{line}: {v:?}");
}

const REGS: &str = "%a = i32 5\n%b = i32 7\narg 0 = %a\narg 1 = %b\n";

#[test]
fn every_integer_binary_operation_lowers() {
    // 5 op 7 at i32, worked by hand; the second operand is the top of stack.
    for (op, want) in [
        ("DIOpAdd", "0x0000000c"),
        ("DIOpSub", "0xfffffffe"),
        ("DIOpMul", "0x00000023"),
        ("DIOpDiv", "0x00000000"),
        ("DIOpMod", "0x00000005"),
        ("DIOpAnd", "0x00000005"),
        ("DIOpOr", "0x00000007"),
        ("DIOpXor", "0x00000002"),
        ("DIOpShl", "0x00000280"),
        ("DIOpLShr", "0x00000000"),
        ("DIOpAShr", "0x00000000"),
    ] {
        let line = format!("[i32, i32] DIOpArg(0, i32), DIOpArg(1, i32), {op}()");
        agrees_reading(&line, REGS, want);
    }
}

#[test]
fn a_byte_offset_computed_at_run_time_into_memory_lowers() {
    // Memory at 2^32 + 8: the context's bytes there are 0x11 .. 0x18. (At
    // 2^32, an i32 offset cannot take the address out of 0..2^64, which the
    // lowering must know to lower it: DWARF's address arithmetic wraps.)
    let ctx = "mem 0 0x100000000 = 01 02 03 04 05 06 07 08 11 12 13 14 15 16 17 18\n\
               %o = i32 8\narg 0 = mem(0, 0x100000000)\narg 1 = %o\n";
    agrees_reading(
        "[i64, i32] DIOpArg(0, i64), DIOpArg(1, i32), DIOpByteOffset(i64)",
        ctx,
        "0x1817161514131211",
    );
    // A second run-time offset, now from a computed address whose interval
    // is [2^40 - 2^31, 2^40 + 2^31 - 1]: with another i32 offset it stays in
    // 0..2^64, so it lowers too (+8, then -8: back at 2^40).
    let ctx = "mem 0 0x10000000000 = 01 02 03 04 05 06 07 08 11 12 13 14 15 16 17 18\n\
               %o = i32 8\n%m = i32 -8\narg 0 = mem(0, 0x10000000000)\narg 1 = %o\narg 2 = %m\n";
    agrees_reading(
        "[i64, i32, i32] DIOpArg(0, i64), DIOpArg(1, i32), DIOpByteOffset(i64), \
         DIOpArg(2, i32), DIOpByteOffset(i64)",
        ctx,
        "0x0807060504030201",
    );
}

#[test]
fn an_offset_read_past_its_implicit_value_is_not_folded() {
    // The offset operand is the i16 at bit 4 of a 16-bit implicit value:
    // reading it goes past the value's end, an error in the reference, so
    // the lowering must not fold it to a constant.
    let c = case(
        "[i64] DIOpArg(0, i64), DIOpConstant(i16 258), DIOpConstant(i8 4), \
         DIOpBitOffset(i16), DIOpByteOffset(i64)",
        "arg 0 = mem(0, 0x100)\n",
    );
    let v = compare_with(&c, lower, evaluate);
    assert!(
        matches!(
            v,
            DwarfVerdict::BothError { .. } | DwarfVerdict::NotLowerable(_)
        ),
        "{v:?}"
    );
}

#[test]
fn entity_names_up_to_256_bytes_lower() {
    for (len, lowers) in [(255, true), (256, true), (257, false)] {
        // The entity's name is `%` and len - 1 letters: len bytes in all.
        let name = format!("%{}", "r".repeat(len - 1));
        let ctx = format!("{name} = i32 5\narg 0 = {name}\n");
        let c = case("[i32] DIOpArg(0, i32)", &ctx);
        let l = lower(&c.bare, &c.types, &c.ctx);
        assert_eq!(l.is_ok(), lowers, "a {len}-byte name: {:?}", l.err());
        if let Err(e) = l {
            assert!(e.reason.contains("256 bytes"), "{e}");
        }
    }
}

#[test]
fn a_register_that_names_no_entity_is_an_error_not_undefined() {
    let c = case("[i32] DIOpArg(0, i32)", REGS);
    let mut l = lower(&c.bare, &c.types, &c.ctx).unwrap();
    assert_eq!(l.bytes, [0x90, 0x00]);
    // DW_OP_regx 5: the lowering named only register 0.
    l.bytes = vec![0x90, 0x05];
    let e = evaluate(&l, &c.ctx).unwrap_err();
    assert!(e.message.contains("names no entity"), "{e:?}");
    // DW_OP_regx UNDEF_REG (0xfff0, uleb f0 ff 03): the undefined location.
    l.bytes = vec![0x90, 0xf0, 0xff, 0x03];
    let r = evaluate(&l, &c.ctx).unwrap();
    assert!(interp::read_value(&c.ctx, &r).is_err(), "{:?}", r.loc);
}

#[test]
fn the_extension_oracle_says_where_it_does_not_apply() {
    let ext = diopter_harness::adapters::DwarfExt;
    // Its locations come back from DWARF's coarser model: compared by what
    // they read and write, not structurally.
    assert!(!ext.exact_locations());
    assert_eq!(
        ext.not_applicable(&case("[i32] DIOpArg(0, i32)", REGS)),
        None
    );
    // An i128 addition lowers with the extensions (a 16-byte base type);
    // an i4096 one has no base type DW_OP_const_type can make.
    assert_eq!(
        ext.not_applicable(&case(
            "[i128] DIOpArg(0, i128), DIOpArg(0, i128), DIOpAdd()",
            "%a = i128 1\narg 0 = %a\n",
        )),
        None
    );
    let why = ext
        .not_applicable(&case(
            "[] DIOpConstant(i4096 1), DIOpConstant(i4096 1), DIOpAdd()",
            "",
        ))
        .expect("an i4096 addition does not lower");
    assert!(why.starts_with("not lowerable: "), "{why}");
    assert!(why.contains("i4096"), "{why}");
}

#[test]
fn select_bit_piece_stops_at_the_location_size_limit() {
    let ctx = Context::parse("%r0 = i32 1\n%r1 = i32 2\n").unwrap();
    let regs = vec!["%r0".to_string(), "%r1".to_string()];
    let m = ExtMachine::new(&ctx, &regs);
    const USER: u8 = DW_OP_LLVM_USER;
    // regx 0, extend 1 131073 (uleb 0x81 0x80 0x08): a composite of 2^17 + 1
    // one-bit parts; regx 1; lit1; select_bit_piece 1 2 would build
    // 2 (2^17 + 1) parts, beyond the limit of 2^18 location nodes.
    let bytes = [
        0x90, 0, USER, 0x0b, 1, 0x81, 0x80, 0x08, 0x90, 1, 0x31, USER, 0x0c, 1, 2,
    ];
    let e = m.evaluate(&bytes, &|_| 32).unwrap_err();
    assert_eq!(e.kind, ErrorKind::ResourceLimit, "{e:?}");
    assert!(e.message.contains("select_bit_piece"), "{e:?}");
    // Two parts fewer (2^17 - 1, uleb 0xff 0xff 0x07): 2^18 nodes, at the limit, and the selection reads
    // bit 0 from %r1 (mask bit 0 set) and bit 1 from the extension of %r0.
    let bytes = [
        0x90, 0, USER, 0x0b, 1, 0xff, 0xff, 0x07, 0x90, 1, 0x31, USER, 0x0c, 1, 2,
    ];
    let l = m.evaluate(&bytes, &|_| 32).unwrap();
    let got = diopter_semantics::access::read(&ctx, &l, 2).unwrap();
    assert_eq!(got, Bits::from_u64(2, 0b10));
}

#[test]
fn addresses_below_32_are_literals_and_from_32_constants() {
    // DW_OP_lit0..lit31 (0x30 + n) hold 0..31; 32 needs DW_OP_constu (0x10).
    for (addr, first) in [(31u64, vec![0x4f]), (32, vec![0x10, 0x20])] {
        let ctx = format!(
            "mem 0 {addr:#x} = 01 00 00 00\n%b = i32 7\narg 0 = mem(0, {addr:#x})\narg 1 = %b\n"
        );
        let line = "[i32, i32] DIOpArg(0, i32), DIOpArg(1, i32), DIOpAdd()";
        let c = case(line, &ctx);
        let l = lower(&c.bare, &c.types, &c.ctx).unwrap();
        // The address, then DW_OP_deref_type (0xa6) reads the i32 there.
        let mut want = first.clone();
        want.push(0xa6);
        assert!(
            l.bytes.windows(want.len()).any(|w| w == want),
            "{addr:#x}: {:02x?}",
            l.bytes
        );
        agrees_reading(line, &ctx, "0x00000008");
    }
}

#[test]
fn a_run_time_offset_that_may_leave_the_address_space_does_not_lower() {
    // From 0x100, an i32 offset reaches below 0: DWARF would wrap.
    let c = case(
        "[i64, i32] DIOpArg(0, i64), DIOpArg(1, i32), DIOpByteOffset(i64)",
        "%o = i32 8\narg 0 = mem(0, 0x100)\narg 1 = %o\n",
    );
    let e = lower(&c.bare, &c.types, &c.ctx).unwrap_err();
    assert!(e.reason.contains("may leave 0..2^64"), "{e}");
}

#[test]
fn a_constant_offset_read_inside_an_implicit_value_is_folded() {
    // The offset is the i8 at bit 4 of the i16 258 (0x0102): 0x10 = 16.
    let c = case(
        "[i64] DIOpArg(0, i64), DIOpConstant(i16 258), DIOpConstant(i8 4), \
         DIOpBitOffset(i8), DIOpByteOffset(i64)",
        "arg 0 = mem(0, 0x100000000)\n",
    );
    let l = lower(&c.bare, &c.types, &c.ctx).unwrap();
    assert_eq!(l.ops, [diopter_dwarf::ops::DwOp::Addr(0x1_0000_0010)]);
}

#[test]
fn push_lane_lowers_with_the_extensions_up_to_255_bytes() {
    let ctx = "lane 3\n";
    for (ty, lowers) in [
        ("i32", true),
        ("i64", true),
        ("i65", true),
        ("i2040", true),
        ("i2041", false),
    ] {
        let c = case(&format!("[] DIOpPushLane({ty})"), ctx);
        let l = diopter_dwarf::lower_ext(&c.bare, &c.types, &c.ctx);
        assert_eq!(l.is_ok(), lowers, "{ty}: {:?}", l.err());
    }
}

/// gimli 0.31 adds +0.0 to a float register read by DW_OP_regval_type
/// (docs/known-issues.md): for -0.0 and signalling NaNs the DWARF oracle
/// says it cannot evaluate the case (a resource limit: the driver's
/// SKIPPED), instead of reporting gimli's bug as diopter's.
#[test]
fn float_registers_that_gimli_would_change_are_skipped() {
    let line = "[double, double] DIOpArg(0, double), DIOpArg(1, double), DIOpDiv()";
    for (bits, skipped) in [
        ("0x8000000000000000", true),  // -0.0
        ("0x7ff0000000000001", true),  // a signalling NaN
        ("0x7ff8000000000001", false), // a quiet NaN: unchanged by + 0.0
        ("0x0000000000000000", false), // +0.0
        ("0x3ff0000000000000", false), // 1.0
    ] {
        let ctx = format!("%a = i64 {bits}\n%b = i64 0x4000000000000000\narg 0 = %a\narg 1 = %b\n");
        let c = case(line, &ctx);
        let l = lower(&c.bare, &c.types, &c.ctx).unwrap();
        match evaluate(&l, &c.ctx) {
            Err(e) if skipped => {
                assert_eq!(e.kind, ErrorKind::ResourceLimit, "{bits}: {e:?}");
                assert!(e.message.contains("gimli adds +0.0"), "{bits}: {e:?}");
            }
            r => assert!(!skipped && r.is_ok(), "{bits}: {r:?}"),
        }
    }
    // The campaign's case: a verdict of its own, not a disagreement.
    let c = case(
        line,
        "%a = i64 0x8000000000000000\narg 0 = %a\narg 1 = implicit(i64 0x92904ec8d21995b3)\n",
    );
    let v = compare_with(&c, lower, evaluate);
    assert!(!matches!(v, DwarfVerdict::Disagree(_)), "{v:?}");
}
