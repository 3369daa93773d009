//! Every decision DESIGN.md takes where the spec is silent, ambiguous or wrong,
//! as a named test. The errata report lists these names; changing a decision
//! means changing its test, here, and nowhere else.
//!
//! Expected values are worked out by hand from DESIGN.md's sentence (quoted in
//! each test) and the spec's prose.

use diopter_semantics::check::check_bare;
use diopter_semantics::context::Context;
use diopter_semantics::interp::{eval_bare, read_value, write_value, ErrorKind, Located};
use diopter_semantics::syntax::parse_bare;
use diopter_semantics::types::{DataLayout, TypeTable};
use diopter_semantics::value::Bits;

fn ctx(text: &str) -> Context {
    Context::parse(text).unwrap_or_else(|d| panic!("context: {d:?}"))
}

/// Checks (must be well-formed) and evaluates.
#[track_caller]
fn run(line: &str, c: &Context) -> Result<Located, ErrorKind> {
    let b = parse_bare(line).unwrap_or_else(|d| panic!("{line}: {d}"));
    if let Err(d) = check_bare(&b, &c.datalayout, &TypeTable::default()) {
        panic!(
            "{line}: not well-formed: {:?}",
            d.iter().map(|d| &d.message).collect::<Vec<_>>()
        );
    }
    eval_bare(&b, &TypeTable::default(), c).map_err(|e| e.kind)
}

/// The value read from the result, as unsigned hex.
#[track_caller]
fn value(line: &str, c: &Context) -> String {
    let r = run(line, c).unwrap_or_else(|k| panic!("{line}: {k:?}"));
    read_value(c, &r)
        .unwrap_or_else(|e| panic!("{line}: {e}"))
        .to_hex()
}

#[track_caller]
fn error(line: &str, c: &Context) -> ErrorKind {
    match run(line, c) {
        Ok(r) => match read_value(c, &r) {
            Ok(v) => panic!("{line}: expected an error, got {}", v.to_hex()),
            Err(e) => panic!(
                "{line}: evaluation succeeded; the read failed with {:?}",
                e.kind
            ),
        },
        Err(k) => k,
    }
}

#[track_caller]
fn ill_formed(line: &str) {
    let b = parse_bare(line).unwrap_or_else(|d| panic!("{line}: {d}"));
    assert!(
        check_bare(&b, &DataLayout::default(), &TypeTable::default()).is_err(),
        "{line}: expected ill-formed"
    );
}

#[test]
fn bits_are_little_endian() {
    // "byte 0 holds the least significant byte; within a byte bit 0 is least
    // significant. A location's bit offset counts from bit 0."
    let c = ctx("mem 0 0x10 = 01 02 03 04\narg 0 = mem(0, 0x10)");
    assert_eq!(value("[i32] DIOpArg(0, i32)", &c), "0x04030201");
    // Bit offset 4 then 8 bits: the high nibble of byte 0 and the low nibble of byte 1.
    assert_eq!(
        value(
            "[i32] DIOpArg(0, i32), DIOpConstant(i8 4), DIOpBitOffset(i8)",
            &c
        ),
        "0x20"
    );
}

#[test]
fn integer_widths_are_1_to_2_pow_23() {
    // "iN (1 <= N <= 2^23)"
    assert!(parse_bare("[] DIOpConstant(i8388608 1)").is_ok());
    assert!(parse_bare("[] DIOpConstant(i8388609 1)").is_err());
    assert!(parse_bare("[] DIOpConstant(i0 0)").is_err());
}

#[test]
fn bitsizeof_follows_llvm_data_layout() {
    // "bitsizeof follows LLVM's data layout rules ... the default gives every
    // pointer 64 bits." { i8, i32 } pads the i8 to the i32's 32-bit alignment.
    let b = parse_bare("[] DIOpConstant(i8 0), DIOpConstant(i8 0), DIOpConstant(i16 0), DIOpConstant(i32 0), DIOpComposite(4, { i8, i32 })").unwrap();
    assert!(check_bare(&b, &DataLayout::default(), &TypeTable::default()).is_ok());
    ill_formed("[] DIOpConstant(i8 0), DIOpConstant(i32 0), DIOpComposite(2, { i8, i32 })");
    let b = parse_bare("[ptr addrspace(5)] DIOpArg(0, ptr addrspace(5)), DIOpReinterpret(i64)")
        .unwrap();
    assert!(check_bare(&b, &DataLayout::default(), &TypeTable::default()).is_ok());
    assert!(check_bare(&b, &DataLayout::amdgpu(), &TypeTable::default()).is_err());
}

#[test]
fn reading_undefined_storage_is_an_error() {
    // "A bit of undefined storage ... is an evaluation error."
    let c = ctx("arg 0 = undef");
    assert_eq!(
        error("[i32] DIOpArg(0, i32), DIOpRead()", &c),
        ErrorKind::ReadUndefined
    );
    assert_eq!(
        error("[] DIOpConstant(i32 undef), DIOpRead()", &c),
        ErrorKind::ReadUndefined
    );
}

#[test]
fn reading_outside_storage_is_an_error() {
    // "... or a bit outside its storage, is an evaluation error."
    let c = ctx("%r = i16 7\narg 0 = %r");
    assert_eq!(
        error(
            "[i16] DIOpArg(0, i16), DIOpConstant(i8 8), DIOpBitOffset(i16), DIOpRead()",
            &c
        ),
        ErrorKind::OutOfBounds
    );
    assert_eq!(
        error(
            "[i16] DIOpArg(0, i16), DIOpConstant(i8 -1), DIOpBitOffset(i16), DIOpRead()",
            &c
        ),
        ErrorKind::OutOfBounds
    );
}

#[test]
fn disagreeing_single_locations_are_inconsistent() {
    // "If the single locations disagree ... the outcome is Inconsistent."
    let c = ctx("%a = i32 1\n%b = i32 2\narg 0 = %a | %b");
    assert_eq!(
        error("[i32] DIOpArg(0, i32), DIOpRead()", &c),
        ErrorKind::Inconsistent
    );
    let c = ctx("%a = i32 5\n%b = i32 5\narg 0 = %a | %b");
    assert_eq!(value("[i32] DIOpArg(0, i32)", &c), "0x00000005");
}

#[test]
fn writing_updates_every_single_location() {
    // "Writing ... writes the bits into every single location."
    let c = ctx("%a = i32 5\nmem 0 0x20 = 05 00 00 00\narg 0 = %a | mem(0, 0x20)");
    let r = run("[i32] DIOpArg(0, i32)", &c).unwrap();
    let mut after = c.clone();
    write_value(&mut after, &r, &Bits::from_u64(32, 0xaabbccdd)).unwrap();
    assert_eq!(after.entity("%a").unwrap().to_hex(), "0xaabbccdd");
    let mem: Vec<u8> = (0x20u32..0x24).map(|a| after.byte(0, &a.into())).collect();
    assert_eq!(mem, [0xdd, 0xcc, 0xbb, 0xaa]);
}

#[test]
fn implicit_implicit_address_and_undefined_storage_refuse_writes() {
    // "Implicit, implicit-address and undefined storage refuse writes."
    let c = ctx("%x = i32 1\narg 0 = %x");
    for line in [
        "[i32] DIOpArg(0, i32), DIOpRead()",
        "[] DIOpConstant(i32 7)",
        "[] DIOpConstant(i32 undef)",
        "[i32] DIOpArg(0, i32), DIOpAddrOf(5)",
    ] {
        let r = run(line, &c).unwrap();
        let mut after = c.clone();
        assert!(
            write_value(&mut after, &r, &Bits::zero(r.bits)).is_err(),
            "{line}: write accepted"
        );
        assert!(
            after.same_state(&c),
            "{line}: a refused write changed the context"
        );
    }
}

#[test]
fn read_makes_a_location_read_only() {
    // "Referrer(i32) and Referrer(i32), Read() read alike but only the first is writable."
    let c = ctx("%x = i32 9\nreferrer = %x");
    let plain = run("[referrer: i32] DIOpReferrer(i32)", &c).unwrap();
    let read = run("[referrer: i32] DIOpReferrer(i32), DIOpRead()", &c).unwrap();
    assert_eq!(
        read_value(&c, &plain).unwrap(),
        read_value(&c, &read).unwrap()
    );
    assert!(write_value(&mut c.clone(), &plain, &Bits::from_u64(32, 1)).is_ok());
    assert!(write_value(&mut c.clone(), &read, &Bits::from_u64(32, 1)).is_err());
}

#[test]
fn add_sub_mul_wrap() {
    // "Add, Sub, Mul wrap." Sub pushes V2 - V1 with V1 the top entry.
    let c = ctx("");
    assert_eq!(
        value(
            "[] DIOpConstant(i8 200), DIOpConstant(i8 100), DIOpAdd()",
            &c
        ),
        "0x2c"
    );
    assert_eq!(
        value("[] DIOpConstant(i8 1), DIOpConstant(i8 2), DIOpSub()", &c),
        "0xff"
    );
    assert_eq!(
        value("[] DIOpConstant(i8 16), DIOpConstant(i8 17), DIOpMul()", &c),
        "0x10"
    );
}

#[test]
fn div_and_mod_are_signed_and_truncating() {
    // "Div and Mod are signed (truncating; Mod has the sign of the dividend)."
    let c = ctx("");
    assert_eq!(
        value("[] DIOpConstant(i8 -7), DIOpConstant(i8 2), DIOpDiv()", &c),
        "0xfd"
    ); // -3
    assert_eq!(
        value("[] DIOpConstant(i8 -7), DIOpConstant(i8 2), DIOpMod()", &c),
        "0xff"
    ); // -1
    assert_eq!(
        value("[] DIOpConstant(i8 7), DIOpConstant(i8 -2), DIOpMod()", &c),
        "0x01"
    ); // 1
}

#[test]
fn division_by_zero_is_an_evaluation_error() {
    // "division or modulo by zero is an evaluation error"
    let c = ctx("");
    assert_eq!(
        error("[] DIOpConstant(i32 1), DIOpConstant(i32 0), DIOpDiv()", &c),
        ErrorKind::DivisionByZero
    );
    assert_eq!(
        error("[] DIOpConstant(i32 1), DIOpConstant(i32 0), DIOpMod()", &c),
        ErrorKind::DivisionByZero
    );
}

#[test]
fn int_min_divided_by_minus_one_wraps() {
    // "INT_MIN / -1 wraps"
    let c = ctx("");
    assert_eq!(
        value(
            "[] DIOpConstant(i8 -128), DIOpConstant(i8 -1), DIOpDiv()",
            &c
        ),
        "0x80"
    );
}

#[test]
fn shift_amounts_are_unsigned_and_saturate() {
    // "Shift amounts are unsigned; an amount >= the width gives 0 (Shl, LShr)
    // or the sign fill (AShr)." i8 -1 as an amount is 255.
    let c = ctx("");
    assert_eq!(
        value("[] DIOpConstant(i8 1), DIOpConstant(i8 -1), DIOpShl()", &c),
        "0x00"
    );
    assert_eq!(
        value(
            "[] DIOpConstant(i8 -128), DIOpConstant(i8 8), DIOpLShr()",
            &c
        ),
        "0x00"
    );
    assert_eq!(
        value(
            "[] DIOpConstant(i8 -128), DIOpConstant(i8 9), DIOpAShr()",
            &c
        ),
        "0xff"
    );
    assert_eq!(
        value("[] DIOpConstant(i8 64), DIOpConstant(i8 9), DIOpAShr()", &c),
        "0x00"
    );
    assert_eq!(
        value(
            "[] DIOpConstant(i8 -128), DIOpConstant(i8 1), DIOpAShr()",
            &c
        ),
        "0xc0"
    );
}

#[test]
fn seed_shr_is_lshr_of_the_second_entry() {
    // "The seed's Shr is LShr; its sentence about the sign bit 'of V1' is
    // erratum (the shifted value is V2)." V2 = -128 (second from top), V1 = 1.
    let c = ctx("");
    assert_eq!(
        value(
            "diexpr [] DIOpConstant(i8 -128), DIOpConstant(i8 1), DIOpShr()",
            &c
        ),
        "0x40"
    );
}

#[test]
fn offsets_are_read_signed() {
    // "The offset operand ... is read as a signed integer of its own type."
    // i8 255 is -1: one byte below 0x11.
    let c = ctx("mem 0 0x10 = aa bb\narg 0 = mem(0, 0x11)");
    assert_eq!(
        value(
            "[i8] DIOpArg(0, i8), DIOpConstant(i8 255), DIOpByteOffset(i8)",
            &c
        ),
        "0xaa"
    );
    let c = ctx("mem 0 0x10 = 0f\narg 0 = mem(0, 0x10)");
    assert_eq!(value("diexpr [i8] DIOpArg(0, i8), DIOpConstant(i4 -4), DIOpBitOffset(), DIOpConstant(i8 4), DIOpBitOffset()", &c), "0x0f");
}

#[test]
fn convert_int_to_float_reads_signed_and_rounds_to_nearest_even() {
    // "Convert int->float reads the integer as signed"; IEEE round to nearest even.
    let c = ctx("");
    assert_eq!(
        value("[] DIOpConstant(i8 -1), DIOpConvert(float)", &c),
        "0xbf800000"
    ); // -1.0
       // 2^24 + 1 is halfway between 2^24 and 2^24 + 2: even mantissa wins, 2^24.
    assert_eq!(
        value("[] DIOpConstant(i32 16777217), DIOpConvert(float)", &c),
        "0x4b800000"
    );
}

#[test]
fn convert_float_to_int_truncates_and_traps_out_of_range() {
    // "float->int truncates toward zero and an out-of-range or NaN input is an
    // evaluation error."
    let c = ctx("");
    assert_eq!(
        value("[] DIOpConstant(float -2.75), DIOpConvert(i32)", &c),
        "0xfffffffe"
    );
    assert_eq!(
        error("[] DIOpConstant(float 300.0), DIOpConvert(i8)", &c),
        ErrorKind::ConvertOutOfRange
    );
    assert_eq!(
        error(
            "[] DIOpConstant(float 0x7FF8000000000000), DIOpConvert(i32)",
            &c
        ),
        ErrorKind::ConvertOutOfRange
    );
}

#[test]
fn convert_int_to_int_truncates_and_widening_depends_on_the_dialect() {
    // "Convert int->int truncates (to a wider type: zero-extends in the diexpr
    // dialect, ill-formed in diexpression)."
    let c = ctx("");
    assert_eq!(
        value("[] DIOpConstant(i16 511), DIOpConvert(i8)", &c),
        "0xff"
    );
    assert_eq!(
        value("diexpr [] DIOpConstant(i8 -1), DIOpConvert(i16)", &c),
        "0x00ff"
    );
    ill_formed("[] DIOpConstant(i8 -1), DIOpConvert(i16)");
}

#[test]
fn convert_between_pointers_keeps_the_address_bits() {
    // "Convert between pointers changes the address space and keeps the address
    // bits (truncate or zero-extend to the new width)."
    let c = ctx("datalayout amdgpu\narg 0 = implicit(ptr addrspace(5) 0x80000010)");
    assert_eq!(
        value(
            "[ptr addrspace(5)] DIOpArg(0, ptr addrspace(5)), DIOpConvert(ptr)",
            &c
        ),
        "0x0000000080000010"
    );
    let c = ctx("datalayout amdgpu\narg 0 = implicit(ptr 0x1234567890)");
    assert_eq!(
        value("[ptr] DIOpArg(0, ptr), DIOpConvert(ptr addrspace(3))", &c),
        "0x34567890"
    );
}

#[test]
fn reinterpret_keeps_the_location() {
    // "Reinterpret keeps the location and changes only its type, as its stack
    // effect { L:T -> L:T' } says; the sentence that makes it an implicit value
    // ... is erratum." So the result stays writable.
    let c = ctx("%x = i32 0x3f800000\narg 0 = %x");
    let r = run("[i32] DIOpArg(0, i32), DIOpReinterpret(float)", &c).unwrap();
    assert_eq!(r.loc.to_string(), "%x");
    assert_eq!(r.ty.to_string(), "float");
    let mut after = c.clone();
    write_value(&mut after, &r, &Bits::from_u64(32, 0x40000000)).unwrap();
    assert_eq!(after.entity("%x").unwrap().to_hex(), "0x40000000");
}

#[test]
fn deref_reads_an_unsigned_address() {
    // "Deref reads the pointer as an unsigned address A and yields a memory
    // location in the pointer's address space at bit offset 8*A."
    let c = ctx(
        "datalayout amdgpu\nmem 5 0xfffffff0 = 2a\narg 0 = implicit(ptr addrspace(5) 0xfffffff0)",
    );
    let r = run(
        "[ptr addrspace(5)] DIOpArg(0, ptr addrspace(5)), DIOpDeref(i8)",
        &c,
    )
    .unwrap();
    assert_eq!(r.loc.to_string(), "mem(5, 0xfffffff0)");
    assert_eq!(read_value(&c, &r).unwrap().to_hex(), "0x2a");
}

#[test]
fn deref_of_addrof_yields_the_referenced_location() {
    // "If the pointer is an implicit address made by AddrOf, Deref yields the
    // referenced location instead."
    let c = ctx("%x = i64 5\nreferrer = %x");
    let r = run(
        "diexpr [referrer: i64] DIOpReferrer(i64), DIOpAddrOf(5), DIOpDeref()",
        &c,
    )
    .unwrap();
    assert_eq!(r.loc.to_string(), "%x");
    assert_eq!(r.ty.to_string(), "i64");
}

#[test]
fn reading_an_implicit_address_is_an_error() {
    // "Any other operation that reads an implicit address is an evaluation
    // error; the checker rejects it statically when it can see the AddrOf."
    ill_formed("[i64] DIOpArg(0, i64), DIOpAddrOf(5), DIOpReinterpret(i64)");
    let c = ctx("%x = i64 5\n%p = i64 0\narg 0 = addrof(ptr addrspace(5), i64, %x)");
    assert_eq!(
        error(
            "[ptr addrspace(5)] DIOpArg(0, ptr addrspace(5)), DIOpReinterpret(i64), DIOpRead()",
            &c
        ),
        ErrorKind::ImplicitAddressRead
    );
}

#[test]
fn composite_puts_the_deepest_part_at_bit_0() {
    // "Composite(N, T) pops L1 (top) ... LN; the part of LN starts at bit 0,
    // then LN-1, ..., L1 last, as the prose says." Arg 0 is pushed first, so it
    // is LN = L2: the low half.
    let c = ctx("arg 0 = implicit(i16 0x1111)\narg 1 = implicit(i16 0x2222)");
    assert_eq!(
        value(
            "[i16, i16] DIOpArg(0, i16), DIOpArg(1, i16), DIOpComposite(2, i32)",
            &c
        ),
        "0x22221111"
    );
}

#[test]
fn spec_sroa_example_composite_order_is_erratum() {
    // "The spec's own SRoA examples (DIOpArg(1, i32), DIOpArg(0, i32),
    // DIOpComposite(2, i64) with the low half as argument 0) assume the opposite
    // order: erratum, reported." With the prose's order, argument 1 (pushed
    // first) is the LOW half, so `x.lo` ends up high.
    let c = ctx("arg 0 = implicit(i32 0x000000aa)\narg 1 = implicit(i32 0x000000bb)");
    assert_eq!(
        value(
            "diexpr [i32, i32] DIOpArg(1, i32), DIOpArg(0, i32), DIOpComposite(2, i64)",
            &c
        ),
        "0x000000aa000000bb"
    );
}

#[test]
fn select_takes_the_mask_first() {
    // "Work out which order the verifier's verdicts imply, follow it": AMD's
    // verifier accepts `DIOpArg(0, i32), <v>, <v>, DIOpSelect()`, mask deepest.
    // Lane i = mask bit i ? L1 (top) : L0. Mask 0b01: lane 0 from L1 = 3, lane 1 from L0 = 2.
    let c = ctx("arg 0 = implicit(i32 1)");
    assert_eq!(
        value("[i32] DIOpArg(0, i32), DIOpConstant(<2 x i32> <i32 1, i32 2>), DIOpConstant(<2 x i32> <i32 3, i32 4>), DIOpSelect()", &c),
        "0x0000000200000003"
    );
    ill_formed("[i32] DIOpConstant(<2 x i32> <i32 1, i32 2>), DIOpConstant(<2 x i32> <i32 3, i32 4>), DIOpArg(0, i32), DIOpSelect()");
}

#[test]
fn floats_round_to_nearest_even() {
    // "Floats follow IEEE-754, round to nearest even." 1 + 2^-24 in float is a
    // tie between 1.0 and 1 + 2^-23: even (1.0) wins.
    let c = ctx("");
    assert_eq!(
        value(
            "[] DIOpConstant(float 1.0), DIOpConstant(float 0x3E70000000000000), DIOpAdd()",
            &c
        ),
        "0x3f800000"
    );
}

/// DESIGN.md, Lifetimes: "A bounded lifetime is active at instruction I when
/// some control-flow path from its `llvm.dbg.def` reaches I without passing
/// an `llvm.dbg.kill` of the same lifetime." Here `b` is reached from the def
/// both through the kill in `a` and around it, so it is active there; the
/// instruction after the kill in `a` is reached only through the kill. (The
/// def and kill instructions themselves count as inside the range: the
/// location list's ranges run from the def to the kill inclusive.)
#[test]
fn lifetime_active_on_some_path_from_def_avoiding_kills() {
    use diopter_semantics::ir::InstRef;
    use diopter_semantics::objloc::{Model, Rule};
    use diopter_semantics::syntax::module::parse_module;
    let text = "define void @f(i1 %c, i32 %x) {\n\
        entry:\n  call void @llvm.dbg.def(metadata !2, metadata i32 %x)\n  br i1 %c, label %a, label %b\n\
        a:\n  call void @llvm.dbg.kill(metadata !2)\n  br label %b\n\
        b:\n  ret void\n}\n\
        !1 = !DILocalVariable(name: \"x\")\n\
        !2 = distinct !DILifetime(object: !1, location: !DIExpr(DIOpReferrer(i32)))\n";
    let (m, diags) = parse_module(text);
    assert!(diags.is_empty(), "{diags:?}");
    let model = Model::new(&m);
    let at = |block, inst| InstRef {
        function: 0,
        block,
        inst,
    };
    assert!(model.is_active(2, at(0, 0)), "the def");
    assert!(model.is_active(2, at(0, 1)), "after the def");
    assert!(model.is_active(2, at(1, 0)), "the kill");
    assert!(
        !model.is_active(2, at(1, 1)),
        "only reached through the kill"
    );
    assert!(model.is_active(2, at(2, 0)), "reached around the kill");
    assert_eq!(model.segments(1, Some(at(2, 0))).rule, Rule::Bounded);
    assert_eq!(model.segments(1, Some(at(1, 1))).rule, Rule::Undefined);
}

// x86_fp80's encodings outside IEEE-754 (value::X86_FP80_DECISIONS). The
// bit patterns are worked out by hand from the 80-bit layout: sign (bit
// 79), exponent (bits 64..79, bias 16383), explicit integer bit (63),
// fraction (0..63).

fn fp80(raw: u128) -> Bits {
    Bits::from_u128(80, raw)
}

#[test]
fn x86_fp80_invalid_encodings_are_nans() {
    use diopter_semantics::value::{float_is_nan, FloatKind};
    let k = FloatKind::X86Fp80;
    // Pseudo-infinity: exponent all ones, integer bit and fraction clear.
    assert!(float_is_nan(k, &fp80(0x7fff_0000_0000_0000_0000)));
    // Pseudo-NaN: exponent all ones, integer bit clear, fraction set.
    assert!(float_is_nan(k, &fp80(0x7fff_4000_0000_0000_0001)));
    // Unnormal: exponent 0x3fff, integer bit clear.
    assert!(float_is_nan(k, &fp80(0x3fff_4000_0000_0000_0000)));
    // The same with the integer bit set are infinity, a NaN and 1.5.
    assert!(!float_is_nan(k, &fp80(0x7fff_8000_0000_0000_0000)));
    assert!(float_is_nan(k, &fp80(0x7fff_c000_0000_0000_0000)));
    assert!(!float_is_nan(k, &fp80(0x3fff_c000_0000_0000_0000)));
}

#[test]
fn x86_fp80_pseudo_denormal_is_written_back_normal() {
    use diopter_semantics::value::{float_to_float, FloatKind};
    let k = FloatKind::X86Fp80;
    // Exponent 0 with the integer bit set: 2^-16382 · 1.0, the smallest
    // normal, whose canonical encoding has exponent 1.
    let back = float_to_float(k, k, &fp80(0x0000_8000_0000_0000_0000));
    assert_eq!(back, fp80(0x0001_8000_0000_0000_0000));
}

#[test]
fn x86_fp80_converted_nans_are_quiet_with_the_integer_bit() {
    use diopter_semantics::value::{float_to_float, FloatKind};
    // double's quiet NaN 0x7ff8_0000_0000_0000: exponent all ones, integer
    // bit, quiet bit (62), no payload.
    let q = float_to_float(
        FloatKind::Double,
        FloatKind::X86Fp80,
        &Bits::from_u64(64, 0x7ff8_0000_0000_0000),
    );
    assert_eq!(q, fp80(0x7fff_c000_0000_0000_0000));
    // A signalling NaN (payload 1) comes out quiet, its payload shifted by
    // the 11 more fraction bits: 1 << 11.
    let s = float_to_float(
        FloatKind::Double,
        FloatKind::X86Fp80,
        &Bits::from_u64(64, 0x7ff0_0000_0000_0001),
    );
    assert_eq!(s, fp80(0x7fff_c000_0000_0000_0800));
}
