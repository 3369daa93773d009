//! Lowering unit tests: byte sequences checked by hand against the DWARF 5
//! standard's encodings (section 7.7.1, table 7.9: DW_OP_addr 0x03, swap
//! 0x16, div 0x1b, plus 0x22, shr 0x25, lit0 0x30, regx 0x90, bregx 0x92,
//! piece 0x93, implicit_value 0x9e, stack_value 0x9f, implicit_pointer
//! 0xa0, regval_type 0xa5, xderef_type 0xa7, convert 0xa8, reinterpret
//! 0xa9; operands ULEB128/SLEB128, section 7.6), every sequence read back
//! with gimli's parser, and the evaluation's results and error classes.

use diopter_dwarf::eval::ENCODING;
use diopter_dwarf::ops::{print_ops, BaseType, DwOp};
use diopter_dwarf::{evaluate, lower, Lowered, NotLowerable};
use diopter_semantics::context::Context;
use diopter_semantics::interp::{self, ErrorKind};
use diopter_semantics::location::LocDesc;
use diopter_semantics::syntax::parse_bare;
use diopter_semantics::types::TypeTable;
use diopter_semantics::value::Bits;
use gimli::read::{EndianSlice, Operation};
use gimli::LittleEndian;

fn ctx(text: &str) -> Context {
    Context::parse(text).expect("the test's context parses")
}

fn lower_in(line: &str, c: &Context) -> Result<Lowered, NotLowerable> {
    let b = parse_bare(line).expect("the test's expression parses");
    lower(&b, &TypeTable::default(), c)
}

/// Lowers `line` in `c` and checks the bytes; also that gimli parses them
/// back into as many operations.
fn bytes_of(line: &str, c: &Context) -> Vec<u8> {
    let l = lower_in(line, c).unwrap_or_else(|e| panic!("{line}: not lowerable: {e}"));
    let mut r = EndianSlice::new(&l.bytes, LittleEndian);
    let mut n = 0;
    while !r.is_empty() {
        Operation::parse(&mut r, ENCODING).expect("gimli parses every lowered operation");
        n += 1;
    }
    assert_eq!(n, l.ops.len(), "{}", print_ops(&l.ops));
    l.bytes
}

const REGS: &str = "%a = i32 5\n%b = i32 7\n%c = i8 0x80\n%d = i16 0\narg 0 = %a\narg 1 = %b\n";

#[test]
fn an_entity_argument_is_a_register_location() {
    assert_eq!(bytes_of("[i32] DIOpArg(0, i32)", &ctx(REGS)), [0x90, 0x00]);
}

#[test]
fn a_pointer_in_a_register_is_a_breg_address() {
    let c = ctx("%p = i64 0x1000\narg 0 = %p\n");
    // DW_OP_bregx 0 0: the register's value plus 0 is the address.
    assert_eq!(
        bytes_of("[ptr] DIOpArg(0, ptr), DIOpDeref(i32)", &c),
        [0x92, 0x00, 0x00]
    );
}

#[test]
fn add_reads_the_top_first_and_is_typed() {
    // regval_type 1 (int32_t, DIE 3), regval_type 0, swap, plus, stack_value.
    let line = "[i32, i32] DIOpArg(0, i32), DIOpArg(1, i32), DIOpAdd()";
    assert_eq!(
        bytes_of(line, &ctx(REGS)),
        [0xa5, 0x01, 0x03, 0xa5, 0x00, 0x03, 0x16, 0x22, 0x9f]
    );
    let b = parse_bare(line).unwrap();
    let c = ctx(REGS);
    let r = evaluate(&lower(&b, &TypeTable::default(), &c).unwrap(), &c).unwrap();
    assert_eq!(interp::read_value(&c, &r).unwrap(), Bits::from_u64(32, 12));
}

#[test]
fn a_constant_is_an_implicit_value() {
    assert_eq!(
        bytes_of("[] DIOpConstant(i32 7)", &ctx("")),
        [0x9e, 0x04, 0x07, 0x00, 0x00, 0x00]
    );
}

#[test]
fn a_composite_is_pieces_lowest_first() {
    assert_eq!(
        bytes_of(
            "[i32, i32] DIOpArg(0, i32), DIOpArg(1, i32), DIOpComposite(2, i64)",
            &ctx(REGS)
        ),
        [0x90, 0x00, 0x93, 0x04, 0x90, 0x01, 0x93, 0x04]
    );
}

#[test]
fn zext_reinterprets_unsigned_then_converts() {
    let c = ctx("%c = i8 0x80\narg 0 = %c\n");
    // regval_type 0 int8_t(1); reinterpret uint8_t(5); convert int32_t(3); stack_value.
    assert_eq!(
        bytes_of("[i8] DIOpArg(0, i8), DIOpZExt(i32)", &c),
        [0xa5, 0x00, 0x01, 0xa9, 0x05, 0xa8, 0x03, 0x9f]
    );
    let b = parse_bare("[i8] DIOpArg(0, i8), DIOpZExt(i32)").unwrap();
    let r = evaluate(&lower(&b, &TypeTable::default(), &c).unwrap(), &c).unwrap();
    assert_eq!(
        interp::read_value(&c, &r).unwrap(),
        Bits::from_u64(32, 0x80)
    );
}

#[test]
fn lshr_shifts_an_unsigned_reinterpretation() {
    // V1, V2, swap; amount as uint32_t (7); swap, V2 as uint32_t, swap; shr; back to int32_t (3).
    assert_eq!(
        bytes_of(
            "[i32, i32] DIOpArg(0, i32), DIOpArg(1, i32), DIOpLShr()",
            &ctx(REGS)
        ),
        [
            0xa5, 0x01, 0x03, 0xa5, 0x00, 0x03, 0x16, 0xa9, 0x07, 0x16, 0xa9, 0x07, 0x16, 0x25,
            0xa9, 0x03, 0x9f
        ]
    );
}

#[test]
fn a_memory_argument_is_an_address() {
    let c = ctx("arg 0 = mem(0, 0x100)\n");
    assert_eq!(
        bytes_of("[i32] DIOpArg(0, i32)", &c),
        [0x03, 0x00, 0x01, 0, 0, 0, 0, 0, 0]
    );
}

#[test]
fn another_address_space_is_read_with_xderef() {
    let c = ctx("datalayout amdgpu\narg 0 = implicit(ptr addrspace(5) 0x10)\n");
    // lit16 (the pointer), lit5 swap (the space under it), xderef_type 4 int32_t, stack_value.
    assert_eq!(
        bytes_of(
            "[ptr addrspace(5)] DIOpArg(0, ptr addrspace(5)), DIOpDeref(i32), DIOpRead()",
            &c
        ),
        [0x40, 0x35, 0x16, 0xa7, 0x04, 0x03, 0x9f]
    );
}

#[test]
fn addrof_an_argument_is_an_implicit_pointer() {
    // DW_OP_implicit_pointer, the DIE offset 0x1000 in 4 bytes, SLEB 0.
    assert_eq!(
        bytes_of("[i32] DIOpArg(0, i32), DIOpAddrOf(5)", &ctx(REGS)),
        [0xa0, 0x00, 0x10, 0x00, 0x00, 0x00]
    );
}

#[test]
fn leb128_operands() {
    let mut out = Vec::new();
    DwOp::Consts(-4).encode(&mut out);
    DwOp::Constu(300).encode(&mut out);
    DwOp::RegvalType(200, BaseType::F64).encode(&mut out);
    // consts -4 = 0x7c; constu 300 = 0xac 0x02; regx 200 = 0xc8 0x01, double = DIE 10.
    assert_eq!(out, [0x11, 0x7c, 0x10, 0xac, 0x02, 0xa5, 0xc8, 0x01, 0x0a]);
    assert_eq!(
        print_ops(&[DwOp::Regx(0), DwOp::Piece(4)]),
        "DW_OP_regx 0x0, DW_OP_piece 0x4"
    );
}

#[test]
fn division_by_zero_is_attributed_to_its_operation() {
    let line = "[i32, i32] DIOpArg(0, i32), DIOpArg(1, i32), DIOpDiv(), DIOpArg(1, i32), DIOpDiv()";
    let c = ctx("%a = i32 6\n%b = i32 0\narg 0 = %a\narg 1 = %b\n");
    let e = evaluate(&lower_in(line, &c).unwrap(), &c).unwrap_err();
    assert_eq!((e.kind, e.op_index), (ErrorKind::DivisionByZero, 2));
    let c = ctx("%a = i32 6\n%b = i32 1\narg 0 = %a\narg 1 = %b\n");
    assert!(evaluate(&lower_in(line, &c).unwrap(), &c).is_ok());
}

#[test]
fn reading_an_undefined_or_missing_input_fails_at_the_reader() {
    let c = ctx("%a = i32 6\narg 0 = %a\narg 1 = undef\n");
    let line = "[i32, i32] DIOpArg(0, i32), DIOpArg(1, i32), DIOpAdd()";
    let e = evaluate(&lower_in(line, &c).unwrap(), &c).unwrap_err();
    assert_eq!((e.kind, e.op_index), (ErrorKind::ReadUndefined, 2));
    // An entity narrower than the type read: out of bounds.
    let c = ctx("%a = i16 6\narg 0 = %a\n");
    let e = evaluate(
        &lower_in("[i32] DIOpArg(0, i32), DIOpRead()", &c).unwrap(),
        &c,
    )
    .unwrap_err();
    assert_eq!((e.kind, e.op_index), (ErrorKind::OutOfBounds, 1));
}

#[test]
fn an_undefined_result_is_an_empty_piece() {
    let c = ctx("arg 0 = undef\n");
    assert_eq!(bytes_of("[i32] DIOpArg(0, i32)", &c), [0x93, 0x04]);
    let r = evaluate(&lower_in("[i32] DIOpArg(0, i32)", &c).unwrap(), &c).unwrap();
    assert_eq!(
        interp::read_value(&c, &r).unwrap_err().kind,
        diopter_semantics::location::ReadErrorKind::Undefined
    );
}

#[test]
fn not_lowerable_reasons_are_precise() {
    let c = ctx("%a = i128 1\narg 0 = %a\n");
    let e = lower_in("[i128] DIOpArg(0, i128), DIOpArg(0, i128), DIOpAdd()", &c).unwrap_err();
    assert_eq!(e.class(), "an i128 value");
    let c = ctx("datalayout amdgpu\n%p = i32 16\narg 0 = %p\n");
    let e = lower_in(
        "[ptr addrspace(5)] DIOpArg(0, ptr addrspace(5)), DIOpDeref(i32)",
        &c,
    )
    .unwrap_err();
    assert_eq!(e.class(), "a memory location in address space 5");
    assert_eq!(e.op_index, Some(1));
    let e = lower_in(
        "[i32, i32] DIOpArg(0, i32), DIOpArg(1, i32), DIOpAdd(), DIOpAddrOf(5)",
        &ctx(REGS),
    )
    .unwrap_err();
    assert!(
        e.reason
            .starts_with("an implicit pointer to a location computed at run time"),
        "{e}"
    );
    let c = ctx("%a = i32 5\narg 0 = %a | mem(0, 0x10)\n");
    let e = lower_in("[i32] DIOpArg(0, i32)", &c).unwrap_err();
    assert_eq!(e.class(), "an input with 2 single locations");
}

#[test]
fn a_64_bit_address_with_an_offset_does_not_lower() {
    // 0xffff_ffff_ffff_fffc + 8 wraps to 4 in DWARF; in the spec it is out of bounds.
    let c = ctx("%p = i64 0xfffffffffffffffc\narg 0 = %p\n");
    let e = lower_in(
        "[ptr] DIOpArg(0, ptr), DIOpDeref(i64), DIOpConstant(i32 8), DIOpByteOffset(i64)",
        &c,
    )
    .unwrap_err();
    assert!(e.reason.contains("wraps"), "{e}");
    // The same offset from a known address lowers: the interval is exact.
    let c = ctx("arg 0 = mem(0, 0x100)\n");
    let l = lower_in(
        "[i64] DIOpArg(0, i64), DIOpConstant(i32 8), DIOpByteOffset(i64)",
        &c,
    )
    .unwrap();
    assert_eq!(l.ops, [DwOp::Addr(0x108)]);
    let r = evaluate(&l, &c).unwrap();
    assert_eq!(r.loc, LocDesc::memory(0, 0x108));
}
