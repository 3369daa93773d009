//! Hand-worked semantics of the classic `!DIExpression(DW_OP_...)` dialect:
//! each operation and each decision (`diopter_semantics::classic::DECISIONS`,
//! `docs/classic.md`), evaluated by the reference interpreter on the DIOp
//! translation. Every expected value was computed by hand from DWARF 5's
//! description of the operation and the decision it checks, never pasted
//! from the interpreter's output.

use diopter_semantics::check::check_bare;
use diopter_semantics::classic::{translate, Hole, Kind, RecordUse, Translation, DECISIONS};
use diopter_semantics::context::Context;
use diopter_semantics::interp::{eval_bare, read_value};
use diopter_semantics::syntax::classic::{parse_classic, DW_OPS};
use diopter_semantics::syntax::parse_bare;
use diopter_semantics::types::{DataLayout, Type, TypeTable};

fn ty(s: &str) -> Type {
    let b = parse_bare(&format!("[{s}] DIOpArg(0, {s})")).expect("a type");
    b.args.unwrap()[0].ty.clone()
}

fn tr(
    e: &str,
    use_: RecordUse,
    ops: &[&str],
    var: u64,
    dl: &DataLayout,
) -> Result<Translation, String> {
    let c = parse_classic(e, 0).map_err(|d| d.message)?;
    let ops: Vec<(Type, bool)> = ops.iter().map(|t| (ty(t), false)).collect();
    translate(
        &c,
        use_,
        &ops,
        var,
        dl,
        &TypeTable::default(),
        Default::default(),
    )
    .map_err(|d| d.message)
}

/// Evaluates the translation with operand `k` holding `vals[k]` (an entity
/// of the operand's type), holes in order holding `holes`, and `mem` lines;
/// the value the variable reads, or the error text.
fn run_in(
    e: &str,
    use_: RecordUse,
    ops: &[(&str, &str)],
    holes: &[u128],
    var: u64,
    dl_text: &str,
    mem: &str,
) -> Result<u128, String> {
    let dl = DataLayout::from_name_or_string(dl_text).unwrap();
    let types: Vec<&str> = ops.iter().map(|(t, _)| *t).collect();
    let t = tr(e, use_, &types, var, &dl)?;
    check_bare(&t.bare, &dl, &TypeTable::default())
        .unwrap_or_else(|d| panic!("`{e}` translates to an ill-formed expression: {d:?}"));
    let mut c = format!(
        "datalayout {}\n{mem}\n",
        if dl_text == "default" {
            "default".to_string()
        } else {
            format!("\"{dl_text}\"")
        }
    );
    for (k, (t, v)) in ops.iter().enumerate() {
        c.push_str(&format!("%a{k} = {t} {v}\narg {k} = %a{k}\n"));
    }
    assert_eq!(t.holes.len(), holes.len(), "`{e}`: holes {:?}", t.holes);
    for (j, h) in t.holes.iter().enumerate() {
        let bits = match h {
            Hole::UpperBits { bits, .. } => *bits,
            Hole::Signedness => 1,
        };
        let k = ops.len() + j;
        c.push_str(&format!("%h{j} = i{bits} {}\narg {k} = %h{j}\n", holes[j]));
    }
    let ctx = Context::parse(&c).unwrap_or_else(|d| panic!("context: {d:?}\n{c}"));
    let r = eval_bare(&t.bare, &TypeTable::default(), &ctx).map_err(|e| e.to_string())?;
    let v = read_value(&ctx, &r).map_err(|e| e.to_string())?;
    assert_eq!(v.width(), t.bits);
    Ok(v.to_u128().unwrap())
}

fn run(e: &str, ops: &[(&str, &str)], holes: &[u128], var: u64) -> u128 {
    run_in(e, RecordUse::Value, ops, holes, var, "default", "")
        .unwrap_or_else(|m| panic!("`{e}`: {m}"))
}

fn refused(e: &str, ops: &[&str], var: u64) -> String {
    match tr(e, RecordUse::Value, ops, var, &DataLayout::llvm_default()) {
        Ok(t) => panic!("`{e}` translated: {:?}", t.bare.expr),
        Err(m) => m,
    }
}

const M64: u128 = u64::MAX as u128;

/// `a OP b` over two i64 operands, as a 64-bit stack value.
fn binary(op: &str, a: &str, b: &str, holes: &[u128]) -> u128 {
    run(
        &format!("!DIExpression(DW_OP_LLVM_arg, 0, DW_OP_LLVM_arg, 1, {op}, DW_OP_stack_value)"),
        &[("i64", a), ("i64", b)],
        holes,
        64,
    )
}

// ------------------------------------------------------------ arithmetic

#[test]
fn plus_uconst_and_constu_mul_minus_on_i64() {
    // LLVM 19's salvage of `add i64 %a, 8` and of `sub (mul %a, 3), 7`.
    let e = "!DIExpression(DW_OP_plus_uconst, 8, DW_OP_stack_value)";
    assert_eq!(run(e, &[("i64", "5")], &[], 64), 13);
    let e = "!DIExpression(DW_OP_constu, 3, DW_OP_mul, DW_OP_constu, 7, DW_OP_minus, DW_OP_stack_value)";
    assert_eq!(run(e, &[("i64", "10")], &[], 64), 23);
    // -1 * 3 - 7 = -10, modulo 2^64.
    assert_eq!(run(e, &[("i64", "-1")], &[], 64), M64 - 9);
}

#[test]
fn narrow_values_have_unknown_upper_bits_that_low_bits_ignore() {
    // Decision "narrower SSA values": 7 * 5 - 3 = 32 in the low 32 bits,
    // whatever the 32 bits above the i32 in the register.
    let e = "!DIExpression(DW_OP_constu, 5, DW_OP_mul, DW_OP_constu, 3, DW_OP_minus, DW_OP_stack_value)";
    assert_eq!(run(e, &[("i32", "7")], &[0], 32), 32);
    assert_eq!(run(e, &[("i32", "7")], &[0xdead_beef], 32), 32);
    // ... but a right shift brings them down: 0x80000000 >> 4 is 0x08000000
    // with zero upper bits, and bit 32 (upper bit 0 set) lands on bit 28.
    let e = "!DIExpression(DW_OP_constu, 4, DW_OP_shr, DW_OP_stack_value)";
    assert_eq!(run(e, &[("i32", "0x80000000")], &[0], 32), 0x0800_0000);
    assert_eq!(run(e, &[("i32", "0x80000000")], &[1], 32), 0x1800_0000);
}

#[test]
fn generic_width_is_the_pointer_width() {
    // (0xffffffff + 1) >> 32: 1 with a 64-bit generic type, 0 with 32 bits.
    let e = "!DIExpression(DW_OP_constu, 4294967295, DW_OP_plus_uconst, 1, DW_OP_constu, 32, DW_OP_shr, DW_OP_stack_value)";
    assert_eq!(
        run_in(e, RecordUse::Value, &[("i64", "0")], &[], 32, "default", ""),
        Ok(1)
    );
    assert_eq!(
        run_in(
            e,
            RecordUse::Value,
            &[("i32", "0")],
            &[],
            32,
            "e-p:32:32",
            ""
        ),
        Ok(0)
    );
    // A 64-bit variable cannot read a 32-bit stack value.
    let dl = DataLayout::from_name_or_string("e-p:32:32").unwrap();
    let m = tr(e, RecordUse::Value, &["i32"], 64, &dl).unwrap_err();
    assert!(
        m.contains("32-bit stack value for a 64-bit variable"),
        "{m}"
    );
    // An i64 cannot be pushed onto a 32-bit generic stack.
    let m = tr(
        "!DIExpression(DW_OP_plus_uconst, 1, DW_OP_stack_value)",
        RecordUse::Value,
        &["i64"],
        64,
        &dl,
    )
    .unwrap_err();
    assert!(m.contains("more than the 32-bit generic type"), "{m}");
}

#[test]
fn bitwise_and_shifts() {
    let two = |op: &str, a: &str, b: &str| binary(op, a, b, &[]);
    assert_eq!(two("DW_OP_and", "0xff00", "0x0ff0"), 0x0f00);
    assert_eq!(two("DW_OP_or", "0xff00", "0x0ff0"), 0xfff0);
    assert_eq!(two("DW_OP_xor", "0xff00", "0x0ff0"), 0xf0f0);
    assert_eq!(two("DW_OP_shl", "3", "4"), 48);
    assert_eq!(two("DW_OP_plus", "3", "4"), 7);
    assert_eq!(two("DW_OP_minus", "3", "4"), M64);
    // shr is logical, shra arithmetic, in every reading (no signedness hole).
    assert_eq!(two("DW_OP_shr", "-16", "2"), M64 >> 2 & !3);
    assert_eq!(two("DW_OP_shra", "-16", "2"), M64 - 3);
    // Decision "shifts": an amount at or above the width gives 0 or the sign.
    assert_eq!(two("DW_OP_shl", "1", "64"), 0);
    assert_eq!(two("DW_OP_shra", "-1", "70"), M64);
    // not: all bits flipped; lit0: 0.
    assert_eq!(
        run(
            "!DIExpression(DW_OP_lit0, DW_OP_not, DW_OP_stack_value)",
            &[("i64", "0")],
            &[],
            64
        ),
        M64
    );
}

#[test]
fn generic_signedness_is_an_input_of_the_verdict() {
    // Decision "generic signedness": hole 1 = signed (DWARF 5), 0 = unsigned
    // (GDB, LLDB). -1 < 0 signed, not unsigned.
    let cmp = |op: &str, a: &str, b: &str, s: u128| binary(op, a, b, &[s]);
    assert_eq!(cmp("DW_OP_lt", "-1", "0", 1), 1);
    assert_eq!(cmp("DW_OP_lt", "-1", "0", 0), 0);
    assert_eq!(cmp("DW_OP_gt", "-1", "0", 1), 0);
    assert_eq!(cmp("DW_OP_gt", "-1", "0", 0), 1);
    assert_eq!(cmp("DW_OP_le", "5", "5", 1), 1);
    assert_eq!(cmp("DW_OP_le", "6", "5", 0), 0);
    assert_eq!(cmp("DW_OP_ge", "-1", "5", 1), 0);
    assert_eq!(cmp("DW_OP_ge", "-1", "5", 0), 1);
    // -6 / 3: -2 signed; (2^64 - 6) / 3 = 6148914691236517203 unsigned.
    assert_eq!(cmp("DW_OP_div", "-6", "3", 1), M64 - 1);
    assert_eq!(cmp("DW_OP_div", "-6", "3", 0), 6_148_914_691_236_517_203);
    // -7 mod 3: -1 signed (C's remainder); 2^64 = 1 (mod 3), so 2^64 - 7 = 0.
    assert_eq!(cmp("DW_OP_mod", "-7", "3", 1), M64);
    assert_eq!(cmp("DW_OP_mod", "-7", "3", 0), 0);
    // eq/ne need no reading.
    let eq = |op: &str, a: &str, b: &str| binary(op, a, b, &[]);
    assert_eq!(eq("DW_OP_eq", "7", "7"), 1);
    assert_eq!(eq("DW_OP_eq", "7", "-7"), 0);
    assert_eq!(eq("DW_OP_ne", "0", "0x8000000000000000"), 1);
    assert_eq!(eq("DW_OP_ne", "-3", "-3"), 0);
}

#[test]
fn division_by_zero_shows_nothing() {
    let e = "!DIExpression(DW_OP_LLVM_arg, 0, DW_OP_LLVM_arg, 1, DW_OP_div, DW_OP_stack_value)";
    for s in [0, 1] {
        let r = run_in(
            e,
            RecordUse::Value,
            &[("i64", "5"), ("i64", "0")],
            &[s],
            64,
            "default",
            "",
        );
        assert!(r.is_err(), "{r:?}");
    }
}

// ------------------------------------------------------------ types

#[test]
fn convert_extends_by_the_source_signedness() {
    // LLVM 19's salvage of `sext i32 %a to i64`: -5 stays -5 in 64 bits,
    // whatever the register held above the i32.
    let e = "!DIExpression(DW_OP_LLVM_convert, 32, DW_ATE_signed, DW_OP_LLVM_convert, 64, DW_ATE_signed, DW_OP_stack_value)";
    assert_eq!(run(e, &[("i32", "-5")], &[0x1234], 64), M64 - 4);
    let e = "!DIExpression(DW_OP_LLVM_convert, 32, DW_ATE_unsigned, DW_OP_LLVM_convert, 64, DW_ATE_unsigned, DW_OP_stack_value)";
    assert_eq!(run(e, &[("i32", "-5")], &[0x1234], 64), 0xffff_fffb);
    // The zext-of-icmp salvage: convert to 1 bit keeps bit 0.
    let e = "!DIExpression(DW_OP_constu, 6, DW_OP_LLVM_convert, 1, DW_ATE_unsigned, DW_OP_LLVM_convert, 32, DW_ATE_unsigned, DW_OP_stack_value)";
    assert_eq!(run(e, &[("i64", "0")], &[], 32), 0);
    // Mixed signedness and generic widening are refused (decision).
    let m = refused("!DIExpression(DW_OP_LLVM_convert, 32, DW_ATE_signed, DW_OP_LLVM_convert, 64, DW_ATE_unsigned, DW_OP_stack_value)", &["i32"], 64);
    assert!(m.contains("signedness differ"), "{m}");
    let m = refused(
        "!DIExpression(DW_OP_LLVM_convert, 128, DW_ATE_signed, DW_OP_stack_value)",
        &["i64"],
        128,
    );
    assert!(m.contains("generic value"), "{m}");
    let m = refused(
        "!DIExpression(DW_OP_LLVM_convert, 32, DW_ATE_float, DW_OP_stack_value)",
        &["i64"],
        32,
    );
    assert!(m.contains("encoding 4"), "{m}");
}

#[test]
fn typed_values_use_their_own_signedness_and_width() {
    // Signed 32-bit: -8 / 2 = -4 (no signedness hole: the type says).
    let e = "!DIExpression(DW_OP_LLVM_convert, 32, DW_ATE_signed, DW_OP_constu, 2, DW_OP_LLVM_convert, 32, DW_ATE_signed, DW_OP_div, DW_OP_stack_value)";
    assert_eq!(run(e, &[("i32", "-8")], &[0], 32), 0xffff_fffc);
    // Unsigned 32-bit: 0xfffffff8 / 2 = 0x7ffffffc.
    let e = "!DIExpression(DW_OP_LLVM_convert, 32, DW_ATE_unsigned, DW_OP_constu, 2, DW_OP_LLVM_convert, 32, DW_ATE_unsigned, DW_OP_div, DW_OP_stack_value)";
    assert_eq!(run(e, &[("i32", "-8")], &[0], 32), 0x7fff_fffc);
    // A generic value and a base type of another width do not mix.
    let m = refused("!DIExpression(DW_OP_LLVM_convert, 32, DW_ATE_signed, DW_OP_constu, 1, DW_OP_plus, DW_OP_stack_value)", &["i32"], 32);
    assert!(m.contains("different types"), "{m}");
    // Of the generic width they do: signed 64 + generic 1.
    let e = "!DIExpression(DW_OP_LLVM_convert, 32, DW_ATE_signed, DW_OP_LLVM_convert, 64, DW_ATE_signed, DW_OP_constu, 1, DW_OP_plus, DW_OP_stack_value)";
    assert_eq!(run(e, &[("i32", "-1")], &[7], 64), 0);
}

#[test]
fn a_variable_reads_the_low_bits_of_a_wider_value() {
    let e = "!DIExpression(DW_OP_constu, 0x1122334455667788, DW_OP_stack_value)"
        .replace("0x1122334455667788", &0x1122_3344_5566_7788u64.to_string());
    assert_eq!(run(&e, &[("i64", "0")], &[], 16), 0x7788);
    // A register location: the i64 register's low 32 bits.
    let t = tr(
        "!DIExpression()",
        RecordUse::Value,
        &["i64"],
        32,
        &DataLayout::llvm_default(),
    )
    .unwrap();
    assert_eq!(t.kind, Kind::Register);
    assert_eq!(
        run("!DIExpression()", &[("i64", "0x1122334455667788")], &[], 32),
        0x5566_7788
    );
    // An integer register narrower than the variable: the value, and above
    // it whatever the register holds (the hole). debugify's `i1` in an
    // 8-bit variable: value 1, upper bits 0b0101010 give 0b0101_0101.
    let t = tr(
        "!DIExpression()",
        RecordUse::Value,
        &["i1"],
        8,
        &DataLayout::llvm_default(),
    )
    .unwrap();
    assert_eq!(t.kind, Kind::Value);
    assert_eq!(
        t.holes,
        vec![Hole::UpperBits {
            operand: 0,
            bits: 7
        }]
    );
    assert_eq!(run("!DIExpression()", &[("i1", "1")], &[0x2a], 8), 0x55);
    assert_eq!(run("!DIExpression()", &[("i1", "0")], &[0], 8), 0);
    // An i8 in a 32-bit variable: 0xab under 0x123456 gives 0x123456ab.
    assert_eq!(
        run("!DIExpression()", &[("i8", "0xab")], &[0x12_3456], 32),
        0x1234_56ab
    );
    // A pointer narrower than the variable is still refused.
    let dl = DataLayout::from_name_or_string("e-p:32:32").unwrap();
    let m = tr("!DIExpression()", RecordUse::Value, &["ptr"], 64, &dl)
        .err()
        .unwrap();
    assert!(m.contains("32-bit operand for a 64-bit variable"), "{m}");
}

// ------------------------------------------------------------ locations

const MEM: &str = "mem 0 0x1000 = 11 22 33 44 55 66 77 88\nmem 0 0x2000 = 00 10 00 00 00 00 00 00";

#[test]
fn deref_and_deref_size_read_memory() {
    let r = |e: &str| {
        run_in(
            e,
            RecordUse::Value,
            &[("ptr", "0x1000")],
            &[],
            64,
            "default",
            MEM,
        )
    };
    assert_eq!(
        r("!DIExpression(DW_OP_deref, DW_OP_stack_value)"),
        Ok(0x8877_6655_4433_2211)
    );
    // deref_size 2 zero-extends the two bytes.
    assert_eq!(
        r("!DIExpression(DW_OP_deref_size, 2, DW_OP_stack_value)"),
        Ok(0x2211)
    );
    assert!(refused(
        "!DIExpression(DW_OP_deref_size, 9, DW_OP_stack_value)",
        &["ptr"],
        64
    )
    .contains("more than the 64-bit"));
}

#[test]
fn stack_value_versus_memory() {
    let v = |e: &str, use_| run_in(e, use_, &[("ptr", "0x1000")], &[], 32, "default", MEM);
    // No stack_value in a #dbg_value: memory at the computed address ...
    assert_eq!(
        v("!DIExpression(DW_OP_plus_uconst, 4)", RecordUse::Value),
        Ok(0x8877_6655)
    );
    // ... and a trailing deref is that memory's implied read.
    assert_eq!(
        v(
            "!DIExpression(DW_OP_plus_uconst, 4, DW_OP_deref)",
            RecordUse::Value
        ),
        Ok(0x8877_6655)
    );
    // With stack_value: the address itself, low 32 bits.
    assert_eq!(
        v(
            "!DIExpression(DW_OP_plus_uconst, 4, DW_OP_stack_value)",
            RecordUse::Value
        ),
        Ok(0x1004)
    );
    // #dbg_declare: memory at the operand; a DW_OP_deref in it is a real load
    // (the pointer stored at 0x2000 is 0x1000).
    assert_eq!(v("!DIExpression()", RecordUse::Declare), Ok(0x4433_2211));
    let d = |e: &str| {
        run_in(
            e,
            RecordUse::Declare,
            &[("ptr", "0x2000")],
            &[],
            32,
            "default",
            MEM,
        )
    };
    assert_eq!(d("!DIExpression(DW_OP_deref)"), Ok(0x4433_2211));
    assert_eq!(
        d("!DIExpression(DW_OP_deref, DW_OP_plus_uconst, 2)"),
        Ok(0x6655_4433)
    );
    let t = tr(
        "!DIExpression()",
        RecordUse::Declare,
        &["ptr"],
        32,
        &DataLayout::llvm_default(),
    )
    .unwrap();
    assert_eq!(t.kind, Kind::Memory);
}

#[test]
fn extract_bits() {
    // Bits 4..12 of 0xab0: 0xab; sign-extended from 8 bits: 0xffffffab.
    let e = "!DIExpression(DW_OP_LLVM_extract_bits_zext, 4, 8)";
    assert_eq!(run(e, &[("i32", "0xab0")], &[0], 32), 0xab);
    let e = "!DIExpression(DW_OP_LLVM_extract_bits_sext, 4, 8)";
    assert_eq!(run(e, &[("i32", "0xab0")], &[0], 32), 0xffff_ffab);
    // In a #dbg_declare the memory is read first: bits 8..16 of 0x2211 = 0x22.
    let r = run_in(
        "!DIExpression(DW_OP_LLVM_extract_bits_zext, 8, 8)",
        RecordUse::Declare,
        &[("ptr", "0x1000")],
        &[],
        8,
        "default",
        MEM,
    );
    assert_eq!(r, Ok(0x22));
}

#[test]
fn fragments_describe_part_of_the_variable() {
    let t = tr(
        "!DIExpression(DW_OP_LLVM_fragment, 32, 16)",
        RecordUse::Value,
        &["i16"],
        64,
        &DataLayout::llvm_default(),
    )
    .unwrap();
    assert_eq!((t.fragment, t.bits), (Some((32, 16)), 16));
    assert_eq!(
        run(
            "!DIExpression(DW_OP_stack_value, DW_OP_LLVM_fragment, 0, 8)",
            &[("i16", "0x1234")],
            &[0],
            64
        ),
        0x34
    );
    let m = refused("!DIExpression(DW_OP_LLVM_fragment, 60, 8)", &["i8"], 64);
    assert!(m.contains("outside the 64-bit variable"), "{m}");
}

// ------------------------------------------------------------ stack and constants

#[test]
fn stack_operations_and_constants() {
    let r = |e: &str| run(e, &[("i64", "0")], &[], 64);
    assert_eq!(r("!DIExpression(DW_OP_constu, 10, DW_OP_constu, 3, DW_OP_swap, DW_OP_minus, DW_OP_stack_value)"), M64 - 6);
    assert_eq!(
        r("!DIExpression(DW_OP_constu, 2, DW_OP_dup, DW_OP_mul, DW_OP_stack_value)"),
        4
    );
    // [5, 7] over -> [5, 7, 5]; minus -> [5, 2]; plus -> [7].
    assert_eq!(r("!DIExpression(DW_OP_constu, 5, DW_OP_constu, 7, DW_OP_over, DW_OP_minus, DW_OP_plus, DW_OP_stack_value)"), 7);
    // consts: LLVM's unsigned element read as int64: -1.
    assert_eq!(
        r("!DIExpression(DW_OP_consts, 18446744073709551615, DW_OP_stack_value)"),
        M64
    );
    // The implicit operand is pushed first.
    assert_eq!(
        run(
            "!DIExpression(DW_OP_constu, 1, DW_OP_minus, DW_OP_stack_value)",
            &[("i64", "10")],
            &[],
            64
        ),
        9
    );
    // tag_offset has no effect on the value.
    assert_eq!(
        run(
            "!DIExpression(DW_OP_LLVM_tag_offset, 3, DW_OP_plus_uconst, 1, DW_OP_stack_value)",
            &[("i64", "1")],
            &[],
            64
        ),
        2
    );
    // On a 32-bit generic type consts -1 is 0xffffffff.
    assert_eq!(
        run_in(
            "!DIExpression(DW_OP_consts, 18446744073709551615, DW_OP_stack_value)",
            RecordUse::Value,
            &[("i32", "0")],
            &[],
            32,
            "e-p:32:32",
            ""
        ),
        Ok(0xffff_ffff)
    );
}

#[test]
fn poison_operands_show_nothing() {
    let c = parse_classic("!DIExpression(DW_OP_plus_uconst, 1, DW_OP_stack_value)", 0).unwrap();
    let dl = DataLayout::llvm_default();
    let t = translate(
        &c,
        RecordUse::Value,
        &[(Type::Int(64), true)],
        64,
        &dl,
        &TypeTable::default(),
        Default::default(),
    )
    .unwrap();
    let ctx = Context::parse("arg 0 = undef").unwrap();
    let r = eval_bare(&t.bare, &TypeTable::default(), &ctx);
    assert!(r.is_err() || read_value(&ctx, &r.unwrap()).is_err());
}

// ------------------------------------------------------------ refusals

#[test]
fn every_operation_llvm_accepts_has_a_meaning_or_a_named_refusal() {
    let dl = DataLayout::llvm_default();
    for info in DW_OPS.iter().filter(|o| o.valid) {
        if matches!(
            info.name,
            "DW_OP_LLVM_fragment" | "DW_OP_stack_value" | "DW_OP_swap"
        ) {
            continue; // placement rules; covered above
        }
        let args: Vec<String> = (0..info.args)
            .map(|k| {
                if info.name == "DW_OP_LLVM_convert" && k == 1 {
                    "DW_ATE_unsigned".into()
                } else {
                    "1".into()
                }
            })
            .collect();
        let mut elems = vec![
            "DW_OP_LLVM_arg, 0, DW_OP_LLVM_arg, 1".to_string(),
            info.name.to_string(),
        ];
        elems.extend(args);
        let text = format!("!DIExpression({}, DW_OP_stack_value)", elems.join(", "));
        let c = match parse_classic(&text, 0) {
            Ok(c) => c,
            Err(d) => {
                // entry_value's placement rule: checked on its own below.
                assert_eq!(info.name, "DW_OP_LLVM_entry_value", "{text}: {}", d.message);
                continue;
            }
        };
        let ops = [(Type::Int(64), false), (Type::Int(64), false)];
        match translate(
            &c,
            RecordUse::Value,
            &ops,
            64,
            &dl,
            &TypeTable::default(),
            Default::default(),
        ) {
            Ok(t) => {
                check_bare(&t.bare, &dl, &TypeTable::default())
                    .unwrap_or_else(|d| panic!("{text}: ill-formed {d:?}"));
            }
            Err(d) => assert!(
                d.message.contains(info.name) || d.message.contains("stack value for a"),
                "{text}: {}",
                d.message
            ),
        }
    }
    for (e, name) in [
        (
            "!DIExpression(DW_OP_LLVM_entry_value, 1, DW_OP_stack_value)",
            "DW_OP_LLVM_entry_value",
        ),
        (
            "!DIExpression(DW_OP_LLVM_implicit_pointer)",
            "DW_OP_LLVM_implicit_pointer",
        ),
        (
            "!DIExpression(DW_OP_breg7, 8, DW_OP_stack_value)",
            "DW_OP_breg7",
        ),
        ("!DIExpression(DW_OP_regx, 3)", "DW_OP_regx"),
        (
            "!DIExpression(DW_OP_push_object_address)",
            "DW_OP_push_object_address",
        ),
        ("!DIExpression(DW_OP_xderef)", "DW_OP_xderef"),
    ] {
        let m = refused(e, &["i64"], 64);
        assert!(m.contains(name), "{e}: {m}");
    }
    assert!(refused(
        "!DIExpression(DW_OP_LLVM_arg, 2, DW_OP_stack_value)",
        &["i64"],
        64
    )
    .contains("1 location operand"));
    assert!(
        refused("!DIExpression(DW_OP_plus, DW_OP_stack_value)", &["i64"], 64)
            .contains("stack is empty")
    );
    assert!(refused(
        "!DIExpression(DW_OP_plus_uconst, 1, DW_OP_stack_value)",
        &["float"],
        32
    )
    .contains("integers and pointers"));
}

#[test]
fn every_decision_is_recorded_and_pinned() {
    // The errata report and docs/classic.md list these; each names the test
    // of this file that pins it.
    let here = include_str!("classic.rs");
    assert!(DECISIONS.len() >= 14);
    for (name, text, test) in DECISIONS {
        assert!(name.starts_with("classic: ") && text.len() > 40, "{name}");
        assert!(
            here.contains(&format!("fn {test}()")),
            "{name}: no test `{test}`"
        );
    }
}
