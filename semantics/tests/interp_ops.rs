//! Hand-computed cases for every operation of the reference interpreter, each
//! with the sentence of the spec (or of AMD's document, or of DESIGN.md) it
//! checks. Every expected value was worked out by hand from that text; none was
//! pasted from the interpreter's output.

use diopter_semantics::access;
use diopter_semantics::check;
use diopter_semantics::context::Context;
use diopter_semantics::interp::{eval_bare, read_value, write_value, ErrorKind, Located, Outcome};
use diopter_semantics::location::{LocDesc, Part, ReadErrorKind, Storage, WriteErrorKind};
use diopter_semantics::syntax::parse_bare;
use diopter_semantics::types::{Type, TypeTable};
use diopter_semantics::value::Bits;
use num_bigint::BigInt;

fn ctx(text: &str) -> Context {
    Context::parse(text).unwrap_or_else(|d| panic!("context does not parse: {d:?}"))
}

fn run(expr: &str, c: &Context) -> Outcome {
    let b = parse_bare(expr).unwrap_or_else(|d| panic!("`{expr}` does not parse: {d}"));
    eval_bare(&b, &TypeTable::default(), c)
}

fn ok(expr: &str, c: &Context) -> Located {
    run(expr, c).unwrap_or_else(|e| panic!("`{expr}` failed: {e}"))
}

/// The value read from the result, as an unsigned number, and its width.
fn val(expr: &str, c: &Context) -> (u128, u64) {
    let r = ok(expr, c);
    let v =
        read_value(c, &r).unwrap_or_else(|e| panic!("`{expr}`: reading the result failed: {e}"));
    (v.to_u128().expect("small"), v.width())
}

fn err(expr: &str, c: &Context) -> ErrorKind {
    match run(expr, c) {
        Ok(r) => panic!("`{expr}` succeeded with {}: {}", r.ty, r.loc),
        Err(e) => e.kind,
    }
}

fn read_err(expr: &str, c: &Context) -> ReadErrorKind {
    let r = ok(expr, c);
    match read_value(c, &r) {
        Ok(v) => panic!("`{expr}`: reading gave {}", v.to_hex()),
        Err(e) => e.kind,
    }
}

fn empty() -> Context {
    Context::default()
}

fn ent(name: &str) -> LocDesc {
    LocDesc::entity(name, 0)
}

// ------------------------------------------------------------------ Referrer

#[test]
fn referrer_is_the_referrers_location() {
    // "L is the location description of the referrer R of the associated
    // lifetime segment LS."
    let c = ctx("%x = i32 0x11223344\nreferrer = %x");
    let r = ok("diexpr [referrer: i32] DIOpReferrer(i32)", &c);
    assert_eq!(r.loc, ent("%x"));
    assert_eq!(r.ty, Type::Int(32));
    assert_eq!(
        val("diexpr [referrer: i32] DIOpReferrer(i32)", &c),
        (0x11223344, 32)
    );
}

#[test]
fn referrer_size_must_match() {
    // "bitsizeof(T) must equal bitsizeof(R), otherwise the expression is not
    // well-formed."
    let c = ctx("%x = i32 0\nreferrer = %x");
    assert_eq!(
        err("diexpr [referrer: i64] DIOpReferrer(i32)", &c),
        ErrorKind::IllFormed
    );
}

#[test]
fn referrer_in_diexpression_is_argument_0() {
    // bare.rs / DESIGN: in diexpression DIOpReferrer without a referrer item
    // refers to argument 0.
    let c = ctx("%x = i32 5\narg 0 = %x");
    assert_eq!(ok("[i32] DIOpReferrer(i32)", &c).loc, ent("%x"));
}

#[test]
fn referrer_missing_from_the_context() {
    assert_eq!(
        err("diexpr [referrer: i32] DIOpReferrer(i32)", &empty()),
        ErrorKind::NoReferrer
    );
}

// ----------------------------------------------------------------------- Arg

#[test]
fn arg_is_the_arguments_location() {
    // "L is the location description of the Nth element, O, of the argObjects
    // field F" (zero-based in AMD's document).
    let c = ctx("$r0 = i32 1\n$r1 = i32 2\narg 0 = $r0\narg 1 = $r1");
    assert_eq!(ok("[i32, i32] DIOpArg(1, i32)", &c).loc, ent("$r1"));
    assert_eq!(val("[i32, i32] DIOpArg(0, i32)", &c), (1, 32));
}

#[test]
fn arg_index_and_size_rules() {
    let c = ctx("$r0 = i64 1\narg 0 = $r0");
    // "If F is not a tuple of DIObjects with at least N elements then the
    // expression is not well-formed."
    assert_eq!(err("[i64] DIOpArg(1, i64)", &c), ErrorKind::IllFormed);
    // "bitsizeof(T) must equal bitsizeof(O), otherwise the expression is not
    // well-formed."
    assert_eq!(err("[i64] DIOpArg(0, i32)", &c), ErrorKind::IllFormed);
    // The context must give the argument's location.
    assert_eq!(err("[i64, i64] DIOpArg(1, i64)", &c), ErrorKind::NoArgument);
}

#[test]
fn poison_argument_is_undefined() {
    // DESIGN/brief: a poison argument's location is undefined (and AMD's
    // verifier skips its size check): reading it is an error.
    let c = ctx("$r0 = i32 1\narg 0 = $r0");
    let r = ok("[i64 poison] DIOpArg(0, i32)", &c);
    assert_eq!(r.loc, LocDesc::undefined());
    assert_eq!(
        read_err("[i64 poison] DIOpArg(0, i32)", &c),
        ReadErrorKind::Undefined
    );
}

// ---------------------------------------------------------------- TypeObject

#[test]
fn type_object_is_the_object() {
    // "L is the location description of the instance O of an object of type
    // LT": the context's object. Memory bytes 01 02 03 04 read little-endian.
    let c = ctx("mem 1 0x10 = 01 02 03 04\nobject = mem(1, 0x10)");
    assert_eq!(val("[] DIOpTypeObject(i32)", &c), (0x04030201, 32));
    assert_eq!(err("[] DIOpTypeObject(i32)", &empty()), ErrorKind::NoObject);
}

// ------------------------------------------------------------------ Constant

#[test]
fn constant_integers_are_twos_complement() {
    // "L comprises one implicit location description IL. IL specifies implicit
    // location storage ILS and offset 0. ILS has value V and size bitsizeof(T)."
    let r = ok("[] DIOpConstant(i32 -1)", &empty());
    assert_eq!(r.loc, LocDesc::implicit(Bits::from_u64(32, 0xffff_ffff)));
    assert_eq!(val("[] DIOpConstant(i8 200)", &empty()), (0xc8, 8));
    assert_eq!(val("[] DIOpConstant(i1 true)", &empty()), (1, 1));
}

#[test]
fn constant_floats_are_their_bits() {
    // 1.5 = 1.1b × 2^0: exponent 127 (0x3f8 << 20), fraction bit 22: 0x3fc00000.
    assert_eq!(
        val("[] DIOpConstant(float 1.5)", &empty()),
        (0x3fc0_0000, 32)
    );
    // -2.0 in double: sign, exponent 1024 = 0x400: 0xc000000000000000.
    assert_eq!(
        val("[] DIOpConstant(double -2.0)", &empty()),
        (0xc000_0000_0000_0000, 64)
    );
}

#[test]
fn constant_vectors_and_arrays() {
    // Vector element i at bits [i*w, (i+1)*w): <i16 1, i16 -2> = 0xfffe_0001.
    assert_eq!(
        val("[] DIOpConstant(<2 x i16> <i16 1, i16 -2>)", &empty()),
        (0xfffe_0001, 32)
    );
    // Array elements at the element's alloc size (i1 allocates 8 bits), padding
    // zero: [i1 true, i1 true] = 0x0101 in 16 bits.
    assert_eq!(
        val("[] DIOpConstant([2 x i1] [i1 true, i1 true])", &empty()),
        (0x0101, 16)
    );
    // null and zeroinitializer are all zeros.
    assert_eq!(val("[] DIOpConstant(ptr null)", &empty()), (0, 64));
    assert_eq!(
        val("[] DIOpConstant(<2 x i32> zeroinitializer)", &empty()),
        (0, 64)
    );
}

#[test]
fn constant_undef_is_the_undefined_location() {
    // "If V is undef then L comprises one undefined location description IL."
    assert_eq!(
        ok("[] DIOpConstant(i32 undef)", &empty()).loc,
        LocDesc::undefined()
    );
    assert_eq!(
        read_err("[] DIOpConstant(i32 undef)", &empty()),
        ReadErrorKind::Undefined
    );
    assert_eq!(
        ok("[] DIOpConstant(i32 poison)", &empty()).loc,
        LocDesc::undefined()
    );
}

#[test]
fn constant_with_an_undef_element() {
    // Only the undef element's bits are undefined: element 0 (bits 0..32) reads
    // 7, element 1 (bits 32..64) is undefined.
    let e0 =
        "[] DIOpConstant(<2 x i32> <i32 7, i32 undef>), DIOpConstant(i32 0), DIOpBitOffset(i32)";
    assert_eq!(val(e0, &empty()), (7, 32));
    let e1 =
        "[] DIOpConstant(<2 x i32> <i32 7, i32 undef>), DIOpConstant(i32 32), DIOpBitOffset(i32)";
    assert_eq!(read_err(e1, &empty()), ReadErrorKind::Undefined);
}

// ------------------------------------------------------------------- Convert

#[test]
fn convert_integers() {
    // DESIGN: "Convert int→int truncates": i32 -1 → i8 0xff.
    assert_eq!(
        val("diexpr [] DIOpConstant(i32 -1), DIOpConvert(i8)", &empty()),
        (0xff, 8)
    );
    // "(to a wider type: zero-extends in the diexpr dialect, ill-formed in
    // diexpression, which has ZExt/SExt)"
    assert_eq!(
        val("diexpr [] DIOpConstant(i8 -1), DIOpConvert(i32)", &empty()),
        (0xff, 32)
    );
    assert_eq!(
        err("[] DIOpConstant(i8 -1), DIOpConvert(i32)", &empty()),
        ErrorKind::IllFormed
    );
}

#[test]
fn convert_int_and_float() {
    // "Convert int→float reads the integer as signed": -2 → -2.0f = 0xc0000000.
    assert_eq!(
        val("[] DIOpConstant(i32 -2), DIOpConvert(float)", &empty()),
        (0xc000_0000, 32)
    );
    // "float→int truncates toward zero": -2.75 → -2 = 0xfffffffe.
    assert_eq!(
        val("[] DIOpConstant(float -2.75), DIOpConvert(i32)", &empty()),
        (0xffff_fffe, 32)
    );
    // "an out-of-range or NaN input is an evaluation error": 300.0 does not fit
    // i8; the double-format hex NaN as a float is NaN.
    assert_eq!(
        err("[] DIOpConstant(float 300.0), DIOpConvert(i8)", &empty()),
        ErrorKind::ConvertOutOfRange
    );
    assert_eq!(
        err(
            "[] DIOpConstant(float 0x7FF8000000000000), DIOpConvert(i32)",
            &empty()
        ),
        ErrorKind::ConvertOutOfRange
    );
    assert_eq!(
        err(
            "[] DIOpConstant(double 0x7FF0000000000000), DIOpConvert(i64)",
            &empty()
        ),
        ErrorKind::ConvertOutOfRange
    );
}

#[test]
fn convert_float_to_float_rounds_to_nearest_even() {
    // The double nearest 0.1 rounds to the float nearest 0.1, 0x3dcccccd.
    assert_eq!(
        val("[] DIOpConstant(double 0.1), DIOpConvert(float)", &empty()),
        (0x3dcc_cccd, 32)
    );
    // 1.5 is exact in both: 0x3fc00000.
    assert_eq!(
        val("[] DIOpConstant(double 1.5), DIOpConvert(float)", &empty()),
        (0x3fc0_0000, 32)
    );
}

#[test]
fn convert_pointers_keeps_address_bits() {
    // "Convert between pointers changes the address space and keeps the address
    // bits (truncate or zero-extend to the new width)". AMDGPU: address space 5
    // has 32-bit pointers, 1 has 64-bit ones. 4294967297 = 0x1_0000_0001.
    let c = ctx("datalayout amdgpu");
    let e = "[] DIOpConstant(i64 4294967297), DIOpConvert(ptr addrspace(5))";
    assert_eq!(val(e, &c), (1, 32));
    let e = "[] DIOpConstant(i32 -1), DIOpConvert(ptr addrspace(5)), DIOpConvert(ptr addrspace(1))";
    assert_eq!(val(e, &c), (0xffff_ffff, 64));
}

// --------------------------------------------------------------- Reinterpret

#[test]
fn reinterpret_keeps_the_location() {
    // DESIGN: "Reinterpret keeps the location and changes only its type, as its
    // stack effect { L:T -> L:T' } says."
    let c = ctx("%x = i32 0x3fc00000\narg 0 = %x");
    let r = ok("[i32] DIOpArg(0, i32), DIOpReinterpret(float)", &c);
    assert_eq!(r.loc, ent("%x"));
    assert_eq!(
        r.ty,
        Type::float(diopter_semantics::value::FloatKind::Float)
    );
    // "If bitsizeof(T) is not equal to bitsizeof(T') then the expression is not
    // well-formed."
    assert_eq!(
        err("[i32] DIOpArg(0, i32), DIOpReinterpret(i64)", &c),
        ErrorKind::IllFormed
    );
    // And the checker's engine agrees that only Reinterpret passes a location.
    use diopter_semantics::ast::{Dialect, Op};
    assert_eq!(
        check::passes_location(&Op::Reinterpret(Type::Int(8)), Dialect::DiExpr),
        Some(0)
    );
    assert_eq!(check::passes_location(&Op::Read, Dialect::DiExpr), None);
    assert_eq!(check::passes_location(&Op::Offset, Dialect::DiExpr), None);
    assert_eq!(
        check::passes_location(&Op::BitOffset(Some(Type::Int(8))), Dialect::DiExpression),
        None
    );
}

// ------------------------------------------------------------------- Offsets

const MEM: &str =
    "mem 1 0xff = aa\nmem 1 0x100 = 00 11 22 33 44 55 66 77 88 99\nreferrer = mem(1, 0x100)\n";

#[test]
fn seed_offset_adds_bytes() {
    // "L' is L, but updated by adding VB * 8 to its bit offset." B is the top
    // entry. 2 bytes past 0x100: bytes 22 33 44 55 66 77 88 99 → 0x9988776655443322;
    // the type stays the input location's (i64).
    let c = ctx(MEM);
    let e = "diexpr [referrer: i64] DIOpReferrer(i64), DIOpConstant(i32 2), DIOpOffset()";
    assert_eq!(ok(e, &c).loc, LocDesc::memory(1, 0x102));
    assert_eq!(val(e, &c), (0x9988_7766_5544_3322, 64));
}

#[test]
fn offsets_are_signed() {
    // DESIGN: "The offset operand ... is read as a signed integer of its own
    // type": i8 255 is -1, so one byte back: bytes aa 00 11 22 33 44 55 66.
    let c = ctx(MEM);
    for b in ["i8 -1", "i8 255"] {
        let e =
            format!("diexpr [referrer: i64] DIOpReferrer(i64), DIOpConstant({b}), DIOpOffset()");
        assert_eq!(ok(&e, &c).loc, LocDesc::memory(1, 0xff));
        assert_eq!(val(&e, &c), (0x6655_4433_2211_00aa, 64));
    }
}

#[test]
fn negative_offset_before_the_storage_is_out_of_bounds() {
    // DESIGN: "a bit outside its storage, is an evaluation error".
    let c = ctx("%x = i32 7\narg 0 = %x");
    let e = "[i32] DIOpArg(0, i32), DIOpConstant(i32 -8), DIOpBitOffset(i32)";
    assert_eq!(ok(e, &c).loc, LocDesc::entity("%x", -8));
    assert_eq!(read_err(e, &c), ReadErrorKind::OutOfBounds);
}

#[test]
fn bit_offset_seed_and_live() {
    // Seed: "L' is L, but updated by adding VB to its bit offset." From bit 4
    // of 00 11 22 33 44: (0x4433221100 >> 4) mod 2^32 = 0x43322110.
    let c = ctx(MEM);
    let e = "diexpr [referrer: i32] DIOpReferrer(i32), DIOpConstant(i32 4), DIOpBitOffset()";
    assert_eq!(val(e, &c), (0x4332_2110, 32));
    // Live: the result type is the parameter: bits 4..12 of 0x12345678 = 0x67.
    let c = ctx("%x = i32 0x12345678\narg 0 = %x");
    assert_eq!(
        val(
            "[i32] DIOpArg(0, i32), DIOpConstant(i32 4), DIOpBitOffset(i8)",
            &c
        ),
        (0x67, 8)
    );
    // The seed's keeps i32: 32 bits from bit 4 of a 32-bit entity overrun it.
    let c = ctx("%x = i32 0x12345678\nreferrer = %x");
    let e = "diexpr [referrer: i32] DIOpReferrer(i32), DIOpConstant(i32 4), DIOpBitOffset()";
    assert_eq!(read_err(e, &c), ReadErrorKind::OutOfBounds);
}

#[test]
fn byte_offset() {
    // "(L':T') is as if DIOpBitOffset(T') was evaluated with a stack containing
    // (B * 8:I) (L:T)": the pointer 0x102 dereferenced, 2 bytes back, as i16:
    // bytes 00 11 → 0x1100.
    let c = ctx(&format!("{MEM}arg 0 = implicit(ptr addrspace(1) 0x102)"));
    let e = "[ptr addrspace(1)] DIOpArg(0, ptr addrspace(1)), DIOpDeref(i64), DIOpConstant(i32 -2), DIOpByteOffset(i16)";
    assert_eq!(ok(e, &c).loc, LocDesc::memory(1, 0x100));
    assert_eq!(val(e, &c), (0x1100, 16));
}

// ----------------------------------------------------------------- Composite

#[test]
fn composite_part_order() {
    // "The parts are concatenated starting at offset 0 in the order with M from
    // N to 1": L1 is the top (Arg 1), L2 = Arg 0 comes first, at bit 0.
    let c = ctx("%a = i16 0x1111\n%b = i16 0x2222\narg 0 = %a\narg 1 = %b");
    let e = "[i16, i16] DIOpArg(0, i16), DIOpArg(1, i16), DIOpComposite(2, i32)";
    let r = ok(e, &c);
    assert_eq!(
        r.loc,
        LocDesc::composite(vec![
            Part {
                loc: ent("%a"),
                bits: 16
            },
            Part {
                loc: ent("%b"),
                bits: 16
            }
        ])
    );
    assert_eq!(val(e, &c), (0x2222_1111, 32));
    // Writing splits the value the same way: low half to %a, high half to %b.
    let mut c2 = c.clone();
    write_value(&mut c2, &r, &Bits::from_u64(32, 0xaaaa_bbbb)).unwrap();
    assert_eq!(c2.entity("%a"), Some(&Bits::from_u64(16, 0xbbbb)));
    assert_eq!(c2.entity("%b"), Some(&Bits::from_u64(16, 0xaaaa)));
}

#[test]
fn composite_size_must_match() {
    // "If the sum of bitsizeof(TM) for M from 1 to N does not equal
    // bitsizeof(T) then the expression is not well-formed."
    assert_eq!(
        err(
            "[] DIOpConstant(i16 1), DIOpConstant(i8 2), DIOpComposite(2, i32)",
            &empty()
        ),
        ErrorKind::IllFormed
    );
}

#[test]
fn composite_with_an_undefined_part() {
    // Reading a bit of the undefined part is an error, the defined part reads.
    let e = "[] DIOpConstant(i8 undef), DIOpConstant(i8 5), DIOpComposite(2, i16)";
    assert_eq!(read_err(e, &empty()), ReadErrorKind::Undefined);
    // The high part (the top entry, i8 5) alone reads fine.
    let e = "[] DIOpConstant(i8 undef), DIOpConstant(i8 5), DIOpComposite(2, i16), DIOpConstant(i8 8), DIOpBitOffset(i8)";
    assert_eq!(val(e, &empty()), (5, 8));
}

// -------------------------------------------------------------------- Extend

#[test]
fn extend_is_n_copies() {
    // "(L':<N x T>) is as if DIOpComposite(N, <N x T>) was applied to a stack
    // containing N copies of (L:T)."
    let c = ctx("%c = i8 0x5a\narg 0 = %c");
    let r = ok("[i8] DIOpArg(0, i8), DIOpExtend(3)", &c);
    assert_eq!(r.ty.to_string(), "<3 x i8>");
    assert_eq!(
        r.loc,
        LocDesc::composite(vec![
            Part {
                loc: ent("%c"),
                bits: 8
            };
            3
        ])
    );
    assert_eq!(
        val("[i8] DIOpArg(0, i8), DIOpExtend(3)", &c),
        (0x5a5a5a, 24)
    );
}

// -------------------------------------------------------------------- Select

#[test]
fn select_picks_lanes_by_mask() {
    // "PLI is the same as L0 if the Ith least significant bit of M is zero,
    // otherwise it is the same as L1." Operand order as AMD's verifier accepts
    // it: mask deepest, then L0, then L1 on top.
    let e = |mask: u8| {
        format!(
            "[] DIOpConstant(i8 {mask}), DIOpConstant(<2 x i32> <i32 1, i32 2>), DIOpConstant(<2 x i32> <i32 3, i32 4>), DIOpSelect()"
        )
    };
    // mask 0b01: lane 0 from L1 (3), lane 1 from L0 (2).
    assert_eq!(val(&e(1), &empty()), (0x0000_0002_0000_0003, 64));
    // mask 0b10: lane 0 from L0 (1), lane 1 from L1 (4).
    assert_eq!(val(&e(2), &empty()), (0x0000_0004_0000_0001, 64));
    // Bits of the mask beyond lane N-1 do not matter: 0b1111_1100 selects L0.
    assert_eq!(val(&e(0xfc), &empty()), (0x0000_0002_0000_0001, 64));
}

#[test]
fn select_is_a_location_and_writes_the_selected_lanes() {
    // "(L:<N x T>) is as if DIOpComposite(N, <N x T>) was applied to ... (LI:T)
    // ... Each LI is as if DIOpBitOffset(T) was applied to ... (I *
    // bitsizeof(T):TI) (PLI:T)": lane I is bits I*32.. of L1 or L0.
    let c = ctx("%m = i8 1\n%p = <2 x i32> <i32 1, i32 2>\n%q = <2 x i32> <i32 3, i32 4>\narg 0 = %m\narg 1 = %p\narg 2 = %q");
    let e = "[i8, <2 x i32>, <2 x i32>] DIOpArg(0, i8), DIOpArg(1, <2 x i32>), DIOpArg(2, <2 x i32>), DIOpSelect()";
    let r = ok(e, &c);
    assert_eq!(
        r.loc,
        LocDesc::composite(vec![
            Part {
                loc: LocDesc::entity("%q", 0),
                bits: 32
            },
            Part {
                loc: LocDesc::entity("%p", 32),
                bits: 32
            },
        ])
    );
    let mut c2 = c.clone();
    write_value(&mut c2, &r, &Bits::from_u64(64, 0x0000_00bb_0000_00aa)).unwrap();
    // Lane 0 (0xaa) went to %q's lane 0, lane 1 (0xbb) to %p's lane 1.
    assert_eq!(
        c2.entity("%q"),
        Some(&Bits::from_u64(64, 0x0000_0004_0000_00aa))
    );
    assert_eq!(
        c2.entity("%p"),
        Some(&Bits::from_u64(64, 0x0000_00bb_0000_0001))
    );
}

// ------------------------------------------------------------ AddrOf / Deref

#[test]
fn deref_of_addr_of_is_the_location() {
    // "If DIOpDeref is applied to the resulting L':T' then it will result in L:T."
    let c = ctx("%x = i32 9\narg 0 = %x");
    assert_eq!(
        ok("[i32] DIOpArg(0, i32), DIOpAddrOf(5), DIOpDeref(i32)", &c).loc,
        ent("%x")
    );
    let r = ok("[i32] DIOpArg(0, i32), DIOpAddrOf(5)", &c);
    assert_eq!(r.ty, Type::opaque_ptr(5));
    assert!(matches!(
        r.loc.singles[0].storage,
        Storage::ImplicitAddress { .. }
    ));
    // The seed's AddrOf makes a typed pointer.
    let c = ctx("%x = i32 9\nreferrer = %x");
    let r = ok(
        "diexpr [referrer: i32] DIOpReferrer(i32), DIOpAddrOf(5)",
        &c,
    );
    assert_eq!(r.ty, Type::typed_ptr(Type::Int(32), 5));
    assert_eq!(
        ok(
            "diexpr [referrer: i32] DIOpReferrer(i32), DIOpAddrOf(5), DIOpDeref()",
            &c
        )
        .loc,
        ent("%x")
    );
}

#[test]
fn implicit_addresses_cannot_be_read() {
    // "If any other operation is applied then the expression is not well-formed";
    // DESIGN: "Any other operation that reads an implicit address is an
    // evaluation error".
    let c = ctx("%x = i32 9\narg 0 = %x");
    assert_eq!(
        err("[i32] DIOpArg(0, i32), DIOpAddrOf(5), DIOpRead()", &c),
        ErrorKind::ImplicitAddressRead
    );
    assert_eq!(
        read_err("[i32] DIOpArg(0, i32), DIOpAddrOf(5)", &c),
        ReadErrorKind::ImplicitAddress
    );
    // Nor written.
    let r = ok("[i32] DIOpArg(0, i32), DIOpAddrOf(5)", &c);
    let mut c2 = c.clone();
    let e = write_value(&mut c2, &r, &Bits::zero(64)).unwrap_err();
    assert_eq!(e.kind, WriteErrorKind::ImplicitAddress);
}

#[test]
fn deref_of_a_pointer_value_is_memory() {
    // "L' comprises one memory location description MLD. MLD specifies bit
    // offset A and the memory location storage corresponding to address space
    // N. A is the value obtained by reading bitsizeof(T) bits from L and
    // multiplying by 8."
    let c = ctx("mem 1 0x100 = 78 56 34 12\narg 0 = implicit(ptr addrspace(1) 0x100)");
    let e = "[ptr addrspace(1)] DIOpArg(0, ptr addrspace(1)), DIOpDeref(i32)";
    assert_eq!(
        ok(e, &c).loc,
        LocDesc::single(Storage::Memory { addrspace: 1 }, BigInt::from(0x800))
    );
    assert_eq!(val(e, &c), (0x1234_5678, 32));
    // The seed's Deref() takes the typed pointer's pointee.
    let c = ctx("mem 1 0x100 = 78 56 34 12\nreferrer = implicit(i64 0x100)");
    assert_eq!(
        val(
            "diexpr [referrer: i32 addrspace(1)*] DIOpReferrer(i32 addrspace(1)*), DIOpDeref()",
            &c
        ),
        (0x1234_5678, 32)
    );
}

#[test]
fn deref_reads_the_pointer_unsigned_and_memory_ends() {
    // DESIGN: "Deref reads the pointer as an unsigned address A". With 32-bit
    // pointers (AMDGPU address space 5) 0xfffffff0 is near the top, not -16.
    let c = ctx("datalayout amdgpu\narg 0 = implicit(ptr addrspace(5) 0xfffffff0)\narg 1 = implicit(ptr addrspace(5) 0xfffffffe)");
    let e = "[ptr addrspace(5)] DIOpArg(0, ptr addrspace(5)), DIOpDeref(i32)";
    assert_eq!(ok(e, &c).loc, LocDesc::memory(5, 0xffff_fff0u64));
    assert!(read_value(&c, &ok(e, &c)).is_ok());
    // 4 bytes at 0xfffffffe run past the 2^32 bytes of the address space.
    let e = "[ptr addrspace(5), ptr addrspace(5)] DIOpArg(1, ptr addrspace(5)), DIOpDeref(i32)";
    assert_eq!(read_err(e, &c), ReadErrorKind::OutOfBounds);
}

// ---------------------------------------------------------------------- Read

#[test]
fn read_makes_an_implicit_value() {
    // "L' comprises one implicit location description IL ... ILS has value V".
    let c = ctx("%x = i32 0x1234\narg 0 = %x");
    let r = ok("[i32] DIOpArg(0, i32), DIOpRead()", &c);
    assert_eq!(r.loc, LocDesc::implicit(Bits::from_u64(32, 0x1234)));
    // DESIGN: "Referrer(i32) and Referrer(i32), Read() read alike but only the
    // first is writable."
    let r0 = ok("[i32] DIOpArg(0, i32)", &c);
    assert_eq!(read_value(&c, &r0), read_value(&c, &r));
    let mut c2 = c.clone();
    assert_eq!(
        write_value(&mut c2, &r, &Bits::from_u64(32, 1))
            .unwrap_err()
            .kind,
        WriteErrorKind::Implicit
    );
    assert!(c2.same_state(&c));
    write_value(&mut c2, &r0, &Bits::from_u64(32, 1)).unwrap();
    assert_eq!(c2.entity("%x"), Some(&Bits::from_u64(32, 1)));
}

// ---------------------------------------------------------------- arithmetic

#[test]
fn add_sub_mul_are_v2_op_v1_and_wrap() {
    // "ILS has value V2 - V1": L1 (V1) is the top entry, so 7, 5, Sub is 7 - 5.
    assert_eq!(
        val(
            "[] DIOpConstant(i32 7), DIOpConstant(i32 5), DIOpSub()",
            &empty()
        ),
        (2, 32)
    );
    assert_eq!(
        val(
            "[] DIOpConstant(i32 5), DIOpConstant(i32 7), DIOpSub()",
            &empty()
        ),
        (0xffff_fffe, 32)
    );
    // "Add, Sub, Mul wrap": 200 + 100 = 300 = 44 mod 256; 16 * 17 = 272 = 16 mod 256.
    assert_eq!(
        val(
            "[] DIOpConstant(i8 200), DIOpConstant(i8 100), DIOpAdd()",
            &empty()
        ),
        (44, 8)
    );
    assert_eq!(
        val(
            "[] DIOpConstant(i8 16), DIOpConstant(i8 17), DIOpMul()",
            &empty()
        ),
        (16, 8)
    );
}

#[test]
fn float_arithmetic() {
    // 1.5 + 2.25 = 3.75 = 1.875 × 2^1: 0x40000000 | 0x700000.
    assert_eq!(
        val(
            "[] DIOpConstant(float 1.5), DIOpConstant(float 2.25), DIOpAdd()",
            &empty()
        ),
        (0x4070_0000, 32)
    );
    // V2 - V1 = 1.0 - 3.0 = -2.0.
    assert_eq!(
        val(
            "[] DIOpConstant(float 1.0), DIOpConstant(float 3.0), DIOpSub()",
            &empty()
        ),
        (0xc000_0000, 32)
    );
    // 1.0 / 4.0 = 0.25 = 2^-2: exponent 125 → 0x3e800000.
    assert_eq!(
        val(
            "[] DIOpConstant(float 1.0), DIOpConstant(float 4.0), DIOpDiv()",
            &empty()
        ),
        (0x3e80_0000, 32)
    );
    // IEEE: 1.0 / 0.0 is +infinity, not an error.
    assert_eq!(
        val(
            "[] DIOpConstant(float 1.0), DIOpConstant(float 0.0), DIOpDiv()",
            &empty()
        ),
        (0x7f80_0000, 32)
    );
    // 3.0 * 0.5 = 1.5.
    assert_eq!(
        val(
            "[] DIOpConstant(float 3.0), DIOpConstant(float 0.5), DIOpMul()",
            &empty()
        ),
        (0x3fc0_0000, 32)
    );
}

#[test]
fn vector_arithmetic_is_lane_by_lane() {
    // <1, 255> + <1, 1> = <2, 0> (lane 1 wraps without carrying into lane 2).
    let e =
        "[] DIOpConstant(<2 x i8> <i8 1, i8 255>), DIOpConstant(<2 x i8> <i8 1, i8 1>), DIOpAdd()";
    assert_eq!(val(e, &empty()), (0x0002, 16));
}

#[test]
fn div_and_mod() {
    // DESIGN: "Div and Mod are signed (truncating; Mod has the sign of the
    // dividend)": -7 / 2 = -3, -7 mod 2 = -1, 7 mod -2 = 1.
    assert_eq!(
        val(
            "[] DIOpConstant(i32 -7), DIOpConstant(i32 2), DIOpDiv()",
            &empty()
        ),
        (0xffff_fffd, 32)
    );
    assert_eq!(
        val(
            "[] DIOpConstant(i32 -7), DIOpConstant(i32 2), DIOpMod()",
            &empty()
        ),
        (0xffff_ffff, 32)
    );
    assert_eq!(
        val(
            "[] DIOpConstant(i32 7), DIOpConstant(i32 -2), DIOpMod()",
            &empty()
        ),
        (1, 32)
    );
    // "division or modulo by zero is an evaluation error"
    assert_eq!(
        err(
            "[] DIOpConstant(i32 1), DIOpConstant(i32 0), DIOpDiv()",
            &empty()
        ),
        ErrorKind::DivisionByZero
    );
    assert_eq!(
        err(
            "[] DIOpConstant(i32 1), DIOpConstant(i32 0), DIOpMod()",
            &empty()
        ),
        ErrorKind::DivisionByZero
    );
    // "INT_MIN / -1 wraps": -128 / -1 = 128 ≡ -128 = 0x80.
    assert_eq!(
        val(
            "[] DIOpConstant(i8 -128), DIOpConstant(i8 -1), DIOpDiv()",
            &empty()
        ),
        (0x80, 8)
    );
    assert_eq!(
        val(
            "[] DIOpConstant(i8 -128), DIOpConstant(i8 -1), DIOpMod()",
            &empty()
        ),
        (0, 8)
    );
}

#[test]
fn bitwise() {
    // 0b1100 op 0b1010.
    assert_eq!(
        val(
            "[] DIOpConstant(i8 12), DIOpConstant(i8 10), DIOpAnd()",
            &empty()
        ),
        (8, 8)
    );
    assert_eq!(
        val(
            "[] DIOpConstant(i8 12), DIOpConstant(i8 10), DIOpOr()",
            &empty()
        ),
        (14, 8)
    );
    assert_eq!(
        val(
            "[] DIOpConstant(i8 12), DIOpConstant(i8 10), DIOpXor()",
            &empty()
        ),
        (6, 8)
    );
}

#[test]
fn shifts() {
    // "ILS has value V2 << V1": 1, 3, Shl is 1 << 3; 3, 1, Shl is 3 << 1.
    assert_eq!(
        val(
            "[] DIOpConstant(i8 1), DIOpConstant(i8 3), DIOpShl()",
            &empty()
        ),
        (8, 8)
    );
    assert_eq!(
        val(
            "[] DIOpConstant(i8 3), DIOpConstant(i8 1), DIOpShl()",
            &empty()
        ),
        (6, 8)
    );
    // "an amount ≥ the width gives 0 (Shl, LShr) or the sign fill (AShr)";
    // amounts are unsigned: i8 -1 is 255.
    assert_eq!(
        val(
            "[] DIOpConstant(i8 1), DIOpConstant(i8 8), DIOpShl()",
            &empty()
        ),
        (0, 8)
    );
    assert_eq!(
        val(
            "[] DIOpConstant(i8 -128), DIOpConstant(i8 7), DIOpLShr()",
            &empty()
        ),
        (1, 8)
    );
    assert_eq!(
        val(
            "[] DIOpConstant(i8 -128), DIOpConstant(i8 7), DIOpAShr()",
            &empty()
        ),
        (0xff, 8)
    );
    assert_eq!(
        val(
            "[] DIOpConstant(i8 -128), DIOpConstant(i8 -1), DIOpLShr()",
            &empty()
        ),
        (0, 8)
    );
    assert_eq!(
        val(
            "[] DIOpConstant(i8 -128), DIOpConstant(i8 -56), DIOpAShr()",
            &empty()
        ),
        (0xff, 8)
    );
    assert_eq!(
        val(
            "[] DIOpConstant(i8 64), DIOpConstant(i8 -56), DIOpAShr()",
            &empty()
        ),
        (0, 8)
    );
    // "The seed's Shr is LShr": 0x80 >> 1 = 0x40, zero filled.
    assert_eq!(
        val(
            "diexpr [] DIOpConstant(i8 -128), DIOpConstant(i8 1), DIOpShr()",
            &empty()
        ),
        (0x40, 8)
    );
}

#[test]
fn zext_and_sext() {
    assert_eq!(
        val("[] DIOpConstant(i8 -1), DIOpZExt(i32)", &empty()),
        (0xff, 32)
    );
    assert_eq!(
        val("[] DIOpConstant(i8 -1), DIOpSExt(i32)", &empty()),
        (0xffff_ffff, 32)
    );
    assert_eq!(
        val("[] DIOpConstant(i8 127), DIOpSExt(i32)", &empty()),
        (0x7f, 32)
    );
}

#[test]
fn push_lane() {
    // "ILS has the value of the target architecture lane identifier".
    let c = ctx("lane 3");
    assert_eq!(val("[] DIOpPushLane(i32)", &c), (3, 32));
    assert_eq!(err("[] DIOpPushLane(i32)", &empty()), ErrorKind::NoLane);
    assert_eq!(err("[] DIOpPushLane(i1)", &c), ErrorKind::ConvertOutOfRange);
}

#[test]
fn fragment_is_metadata() {
    // DESIGN: "treat DIOpFragment(off, size) as metadata on the expression, not
    // a stack operation".
    let c = ctx("%x = i32 1\narg 0 = %x");
    let r = ok("[i32] -> i64 DIOpArg(0, i32), DIOpFragment(32, 32)", &c);
    assert_eq!(r.fragment, Some((32, 32)));
    assert_eq!(r.loc, ent("%x"));
    assert_eq!(
        err("[i32] -> i64 DIOpArg(0, i32), DIOpFragment(48, 32)", &c),
        ErrorKind::IllFormed
    );
}

// ---------------------------------------------------------- the stack itself

#[test]
fn the_stack_must_end_with_one_entry() {
    // "If the stack does not have a single element after evaluation then the
    // expression is not well-formed."
    let r = run("[] DIOpConstant(i8 1), DIOpConstant(i8 2)", &empty()).unwrap_err();
    assert_eq!((r.kind, r.op_index), (ErrorKind::IllFormed, 2));
    // "If evaluation can result in a stack with fewer entries than required by
    // an operation then the expression is not well-formed."
    let r = run("[] DIOpConstant(i8 1), DIOpAdd()", &empty()).unwrap_err();
    assert_eq!((r.kind, r.op_index), (ErrorKind::IllFormed, 1));
    // "DIOpAdd requires identical type inputs", from the signature L1:T L2:T.
    assert_eq!(
        err(
            "[] DIOpConstant(i8 1), DIOpConstant(i16 2), DIOpAdd()",
            &empty()
        ),
        ErrorKind::IllFormed
    );
}

// ------------------------------------------------------------ multi-location

#[test]
fn multi_location_reads_agree_or_are_inconsistent() {
    // The spec's note: "when reading from them, any of the single location
    // descriptions may be chosen" — they must agree; DESIGN: if they disagree
    // the outcome is Inconsistent.
    let c = ctx("mem 1 0x10 = 05 00 00 00\n%x = i32 5\n%y = i32 6\narg 0 = mem(1, 0x10) | %x\narg 1 = %x | %y");
    assert_eq!(val("[i32, i32] DIOpArg(0, i32)", &c), (5, 32));
    assert_eq!(
        read_err("[i32, i32] DIOpArg(1, i32)", &c),
        ReadErrorKind::Inconsistent
    );
    // An operation reading it fails with the Inconsistent class.
    assert_eq!(
        err("[i32, i32] DIOpArg(1, i32), DIOpRead()", &c),
        ErrorKind::Inconsistent
    );
}

#[test]
fn multi_location_writes_go_everywhere() {
    // "when writing to them the write must be performed into each single
    // location description."
    let c = ctx("%x = i32 5\narg 0 = mem(1, 0x10) | %x");
    let r = ok("[i32] DIOpArg(0, i32)", &c);
    let mut c2 = c.clone();
    write_value(&mut c2, &r, &Bits::from_u64(32, 0xdead_beef)).unwrap();
    assert_eq!(c2.entity("%x"), Some(&Bits::from_u64(32, 0xdead_beef)));
    let mut expect = c.clone();
    expect.set_memory(1, 0x10u32, &[0xef, 0xbe, 0xad, 0xde]);
    expect.set_entity("%x", Bits::from_u64(32, 0xdead_beef));
    assert!(c2.same_state(&expect), "{:?}", c2.state_diff(&expect));
    assert_eq!(
        read_value(&c2, &r).unwrap(),
        Bits::from_u64(32, 0xdead_beef)
    );
}

#[test]
fn refused_writes_change_nothing() {
    // Implicit storage refuses writes; the write is all or nothing, so %x (the
    // first single location) keeps its value.
    let c = ctx("%x = i32 5\narg 0 = %x | implicit(i32 5)");
    let r = ok("[i32] DIOpArg(0, i32)", &c);
    let mut c2 = c.clone();
    let e = write_value(&mut c2, &r, &Bits::from_u64(32, 1)).unwrap_err();
    assert_eq!(e.kind, WriteErrorKind::Implicit);
    assert_eq!(c2, c);
    // Undefined storage refuses too.
    let mut c3 = c.clone();
    assert_eq!(
        access::write(&mut c3, &LocDesc::undefined(), &Bits::zero(8))
            .unwrap_err()
            .kind,
        WriteErrorKind::Undefined
    );
}

#[test]
fn writes_through_offsets_reach_the_right_bits() {
    // Bits 8..16 of %x = 0x11223344 replaced by 0xaa: 0x1122aa44.
    let c = ctx("%x = i32 0x11223344\narg 0 = %x");
    let r = ok(
        "[i32] DIOpArg(0, i32), DIOpConstant(i32 1), DIOpByteOffset(i8)",
        &c,
    );
    let mut c2 = c.clone();
    write_value(&mut c2, &r, &Bits::from_u64(8, 0xaa)).unwrap();
    assert_eq!(c2.entity("%x"), Some(&Bits::from_u64(32, 0x1122_aa44)));
    // A memory write that starts mid-byte keeps the other bits of the bytes:
    // 4 bits 0xf at bit 4 of byte 0x10 (= 0x00) give 0xf0.
    let c = ctx("mem 1 0x10 = 00 00\narg 0 = mem(1, 0x10) + 4");
    let r = ok("[i4] DIOpArg(0, i4)", &c);
    let mut c2 = c.clone();
    write_value(&mut c2, &r, &Bits::from_u64(4, 0xf)).unwrap();
    assert_eq!(c2.byte(1, &0x10u32.into()), 0xf0);
    assert_eq!(c2.byte(1, &0x11u32.into()), 0x00);
}

#[test]
fn resource_limits_and_absurd_counts_do_not_hang() {
    // A count beyond the stack is ill-formed, found without building the count.
    assert_eq!(
        err(
            "[] DIOpConstant(i32 1), DIOpComposite(4294967295, i32)",
            &empty()
        ),
        ErrorKind::IllFormed
    );
    // 2^20 lanes of i1 is a legal type but over the composite-part limit.
    assert_eq!(
        err("[] DIOpConstant(i1 1), DIOpExtend(1048576)", &empty()),
        ErrorKind::ResourceLimit
    );
}

// ------------------------------------------- the corpus, against the checker

/// Every expression of the corpus evaluates without panicking in a context
/// that gives every input (arguments, referrer and object in memory, a lane),
/// and whenever the checker accepts an expression the interpreter does not
/// find it ill-formed: the two read the same signatures and the same prose.
#[test]
fn corpus_expressions_evaluate_and_agree_with_the_checker() {
    use diopter_semantics::diag::Source;
    use diopter_semantics::syntax::parse_expr_file;
    let corpus = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/amd");
    let mut evaluated = 0;
    let mut disagreements = Vec::new();
    for name in [
        "verifier.expr",
        "expressions.expr",
        "rewrites.expr",
        "dwarf.expr",
    ] {
        let path = corpus.join(name);
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let src = Source::new(name, text);
        let (file, _) = parse_expr_file(&src);
        let dl = file
            .datalayout
            .as_ref()
            .map(|(d, _)| d.clone())
            .unwrap_or_default();
        for entry in &file.entries {
            if entry.bare.args.is_none() {
                continue;
            }
            for seed in 0..3u64 {
                let mut c = Context::new(dl.clone());
                c.seed = seed;
                c.lane = Some(seed);
                for i in 0..entry.bare.args.as_ref().map_or(0, |a| a.len()) as u64 {
                    c.args.insert(i, LocDesc::memory(1, 0x1000 * (i + 1)));
                }
                c.referrer = Some(LocDesc::memory(1, 0x100));
                c.object = Some(LocDesc::memory(1, 0x200));
                let outcome = eval_bare(&entry.bare, &file.types, &c);
                evaluated += 1;
                let checked = check::check_bare(&entry.bare, &dl, &file.types);
                if let (Ok(_), Err(e)) = (&checked, &outcome) {
                    if e.kind == ErrorKind::IllFormed {
                        disagreements.push(format!(
                            "{name}:{}: checker accepts, interpreter says {e}",
                            entry.line
                        ));
                    }
                }
                if let Ok(r) = &outcome {
                    // Reading and writing the result never panic either.
                    let _ = read_value(&c, r);
                    let mut c2 = c.clone();
                    let _ = write_value(&mut c2, r, &Bits::zero(r.bits));
                }
            }
        }
    }
    assert!(
        evaluated > 100,
        "only {evaluated} evaluations: corpus missing?"
    );
    assert!(disagreements.is_empty(), "{}", disagreements.join("\n"));
}

#[test]
fn referrer_of_a_poison_argument_0_is_undefined() {
    let c = ctx("%x = i32 5\narg 0 = %x");
    assert_eq!(
        ok("[i32 poison] DIOpReferrer(i32)", &c).loc,
        LocDesc::undefined()
    );
}

#[test]
fn location_model_corner_cases() {
    let c = ctx("%x = i32 5\n%y = i32 6\n%z = i32 5");
    // The first failing single location is the outcome, before any comparison.
    let l = LocDesc::multi(vec![LocDesc::undefined(), ent("%x")]);
    assert_eq!(
        access::read(&c, &l, 32).unwrap_err().kind,
        ReadErrorKind::Undefined
    );
    // Reading no bits reads no bit, so even undefined storage gives 0 bits.
    assert_eq!(
        access::read(&c, &LocDesc::undefined(), 0).unwrap(),
        Bits::empty()
    );
    // A composite part with two disagreeing single locations is Inconsistent;
    // with agreeing ones it reads: part 0 = %x|%z (5), part 1 = %y (6).
    let bad = LocDesc::composite(vec![
        Part {
            loc: LocDesc::multi(vec![ent("%x"), ent("%y")]),
            bits: 32,
        },
        Part {
            loc: ent("%y"),
            bits: 32,
        },
    ]);
    assert_eq!(
        access::read(&c, &bad, 64).unwrap_err().kind,
        ReadErrorKind::Inconsistent
    );
    let good = LocDesc::composite(vec![
        Part {
            loc: LocDesc::multi(vec![ent("%x"), ent("%z")]),
            bits: 32,
        },
        Part {
            loc: ent("%y"),
            bits: 32,
        },
    ]);
    assert_eq!(
        access::read(&c, &good, 64).unwrap(),
        Bits::from_u64(64, 0x6_0000_0005)
    );
    // Reading past the composite's parts is out of bounds.
    assert_eq!(
        access::read(&c, &good.with_bit_offset(&BigInt::from(1)), 64)
            .unwrap_err()
            .kind,
        ReadErrorKind::OutOfBounds
    );
    // An out-of-bounds write is refused and changes nothing.
    let mut c2 = c.clone();
    let e = access::write(&mut c2, &LocDesc::entity("%x", 16), &Bits::zero(32)).unwrap_err();
    assert_eq!(e.kind, WriteErrorKind::OutOfBounds);
    assert_eq!(c2, c);
    // Writing the good composite writes %x and %z (both single locations of
    // part 0) and %y.
    let mut c3 = c.clone();
    access::write(&mut c3, &good, &Bits::from_u64(64, 0x2_0000_0001)).unwrap();
    assert_eq!(c3.entity("%x"), Some(&Bits::from_u64(32, 1)));
    assert_eq!(c3.entity("%z"), Some(&Bits::from_u64(32, 1)));
    assert_eq!(c3.entity("%y"), Some(&Bits::from_u64(32, 2)));
    // An entity the context does not have cannot be read.
    assert_eq!(
        access::read(&c, &ent("%w"), 8).unwrap_err().kind,
        ReadErrorKind::Undefined
    );
}
