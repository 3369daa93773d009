//! The checker's rules, one test per rule or decision, each case derived by hand
//! from the spec sentence (quoted) or the DESIGN.md decision it pins.

use diopter_semantics::ast::{Dialect, Op};
use diopter_semantics::check::{arity, check_bare, passes_location, signature_for};
use diopter_semantics::syntax::parse_bare;
use diopter_semantics::types::{DataLayout, Type, TypeTable};

fn types() -> TypeTable {
    let mut t = TypeTable::default();
    t.define(
        "struct.type",
        Some(Type::Struct {
            fields: vec![Type::opaque_ptr(0), Type::opaque_ptr(0)],
            packed: false,
        }),
    );
    t
}

#[track_caller]
fn valid(line: &str, want: &str) {
    let b = parse_bare(line).unwrap_or_else(|d| panic!("{line}: {d}"));
    match check_bare(&b, &DataLayout::default(), &types()) {
        Ok(c) => assert_eq!(c.result.to_string(), want, "{line}"),
        Err(d) => panic!(
            "{line}: expected valid, got {:?}",
            d.iter().map(|d| &d.message).collect::<Vec<_>>()
        ),
    }
}

#[track_caller]
fn valid_amd(line: &str, want: &str) {
    let b = parse_bare(line).unwrap_or_else(|d| panic!("{line}: {d}"));
    match check_bare(&b, &DataLayout::amdgpu(), &types()) {
        Ok(c) => assert_eq!(c.result.to_string(), want, "{line}"),
        Err(d) => panic!(
            "{line}: expected valid, got {:?}",
            d.iter().map(|d| &d.message).collect::<Vec<_>>()
        ),
    }
}

/// Ill-formed, with a diagnostic containing `msg` at operation `op`.
#[track_caller]
fn invalid(line: &str, msg: &str, op: Option<usize>) {
    let b = parse_bare(line).unwrap_or_else(|d| panic!("{line}: {d}"));
    match check_bare(&b, &DataLayout::default(), &types()) {
        Ok(c) => panic!("{line}: expected ill-formed, got valid {}", c.result),
        Err(d) => assert!(
            d.iter()
                .any(|d| d.message.contains(msg) && d.op_index == op),
            "{line}: no diagnostic with `{msg}` at {op:?}: {:?}",
            d.iter()
                .map(|d| (&d.message, d.op_index))
                .collect::<Vec<_>>()
        ),
    }
}

#[test]
fn arity_and_location_passing_come_from_the_signatures() {
    let d = Dialect::DiExpression;
    assert_eq!(arity(&Op::Add, d), 2);
    assert_eq!(arity(&Op::Referrer(Type::Int(8)), d), 0);
    assert_eq!(arity(&Op::Composite(5, Type::Int(40)), d), 5);
    assert_eq!(arity(&Op::Select, d), 3);
    assert_eq!(arity(&Op::Fragment(0, 8), d), 0);
    assert!(signature_for(&Op::Fragment(0, 8), d).is_none());
    // `DIOpReinterpret(T':type) { L:T -> L:T' }`: the location passes through.
    assert_eq!(passes_location(&Op::Reinterpret(Type::Int(8)), d), Some(0));
    assert_eq!(passes_location(&Op::Convert(Type::Int(8)), d), None);
    assert_eq!(passes_location(&Op::Read, d), None);
}

#[test]
fn stack_depth() {
    // "If the stack does not have a single element after evaluation then the
    // expression is not well-formed."
    invalid(
        "[] DIOpConstant(i32 0), DIOpConstant(i32 1)",
        "requires one element on stack",
        None,
    );
    invalid("[]", "requires one element on stack", None);
    // "If evaluation can result in a stack with fewer entries than required by
    // an operation then the expression is not well-formed."
    invalid(
        "[] DIOpConstant(i32 0), DIOpAdd()",
        "requires more inputs",
        Some(1),
    );
    invalid(
        "[] DIOpConstant(i8 0), DIOpComposite(1000000000, i8)",
        "requires more inputs",
        Some(1),
    );
}

#[test]
fn referrer_size_must_match() {
    // "bitsizeof(T) must equal bitsizeof(R), otherwise the expression is not well-formed."
    valid("diexpr [referrer: i64] DIOpReferrer(i64)", "i64");
    invalid(
        "diexpr [referrer: i64] DIOpReferrer(i32)",
        "same size in bits",
        Some(0),
    );
    // In the live dialect the referrer is argument 0 (AMD's verifier).
    invalid(
        "[ptr] -> ptr DIOpReferrer(i32), DIOpDeref(ptr)",
        "same size in bits",
        Some(0),
    );
    valid("[ptr] DIOpReferrer(i64)", "i64");
    // A bare diexpr expression with no referrer named cannot use one.
    invalid("diexpr [] DIOpReferrer(i64)", "needs a referrer", Some(0));
}

#[test]
fn arg_index_and_size() {
    // "If F is not a tuple of DIObjects with at least N elements then the
    // expression is not well-formed. bitsizeof(T) must equal bitsizeof(O)."
    valid("[i32, i64] DIOpArg(1, i64)", "i64");
    invalid("[i32] DIOpArg(1, i32)", "index out of range", Some(0));
    invalid(
        "[ptr] DIOpArg(0, i32)",
        "same size in bits as argument",
        Some(0),
    );
    // Different type, same size: allowed (AMD: sizes, not types, must agree).
    valid("[float] DIOpArg(0, i32)", "i32");
    // Poison operands skip the size check, also as the live dialect's referrer.
    valid("[i8 poison] DIOpArg(0, i32)", "i32");
    valid("[i8 poison] DIOpReferrer(i32)", "i32");
}

#[test]
fn binary_operations_require_identical_types() {
    // `DIOpAdd() { L1:T L2:T -> L:T }`: the second mention of T asserts identity.
    invalid(
        "[] DIOpConstant(i32 0), DIOpConstant(i8 0), DIOpAdd()",
        "requires identical type inputs",
        Some(2),
    );
    valid(
        "[] DIOpConstant(i32 0), DIOpConstant(i32 1), DIOpSub()",
        "i32",
    );
    valid(
        "[] DIOpConstant(float 1.0), DIOpConstant(float 2.0), DIOpMul()",
        "float",
    );
    valid(
        "[] DIOpConstant(<2 x i32> <i32 1, i32 2>), DIOpConstant(<2 x i32> <i32 3, i32 4>), DIOpAdd()",
        "<2 x i32>",
    );
    // Pointers are not arithmetic (AMD's corpus reinterprets to i64 first).
    invalid(
        "[ptr, ptr] DIOpArg(0, ptr), DIOpArg(1, ptr), DIOpAdd()",
        "integer or floating-point",
        Some(2),
    );
}

#[test]
fn shifts_and_bitwise_require_integers() {
    // Seed Shr/Shl: "If T is not an integral type the expression is not well-formed."
    invalid(
        "[] DIOpConstant(float 1.0), DIOpConstant(float 1.0), DIOpShl()",
        "integer inputs",
        Some(2),
    );
    invalid(
        "[ptr] DIOpArg(0, ptr), DIOpArg(0, ptr), DIOpLShr()",
        "requires all integer inputs",
        Some(2),
    );
    valid(
        "[i64] DIOpArg(0, i64), DIOpConstant(i64 7), DIOpAShr()",
        "i64",
    );
    valid(
        "diexpr [] DIOpConstant(i8 1), DIOpConstant(i8 1), DIOpShr()",
        "i8",
    );
    invalid(
        "[] DIOpConstant(double 1.0), DIOpConstant(double 1.0), DIOpMod()",
        "integer",
        Some(2),
    );
    valid(
        "[] DIOpConstant(i16 1), DIOpConstant(i16 1), DIOpXor()",
        "i16",
    );
}

#[test]
fn offsets_require_an_integer_offset_operand() {
    // "If I is not an integral type then the expression is not well-defined."
    invalid(
        "[ptr] DIOpConstant(float 0.0), DIOpArg(0, ptr), DIOpBitOffset(ptr)",
        "first input be integer typed",
        Some(2),
    );
    invalid(
        "[ptr] DIOpConstant(ptr undef), DIOpArg(0, ptr), DIOpByteOffset(ptr)",
        "first input be integer typed",
        Some(2),
    );
    // Seed Offset keeps the location's type: `{ B:I L:T -> L':T }`.
    valid(
        "diexpr [referrer: i64] DIOpReferrer(i64), DIOpConstant(i8 -1), DIOpOffset()",
        "i64",
    );
    valid(
        "diexpr [referrer: i64] DIOpReferrer(i64), DIOpConstant(i8 3), DIOpBitOffset()",
        "i64",
    );
    // Live BitOffset/ByteOffset give the location their parameter's type.
    valid(
        "[ptr] DIOpArg(0, ptr), DIOpDeref(%struct.type), DIOpConstant(i32 64), DIOpBitOffset(ptr)",
        "ptr",
    );
}

#[test]
fn convert_rules() {
    // "The expression is not well-formed if T or T' are not equivalent to
    // DIBasicType types."
    invalid(
        "[] DIOpConstant(<2 x i32> <i32 1, i32 2>), DIOpConvert(i64)",
        "basic",
        Some(1),
    );
    valid("[i32] DIOpArg(0, i32), DIOpConvert(float)", "float");
    valid("[double] DIOpArg(0, double), DIOpConvert(i32)", "i32");
    valid(
        "[ptr addrspace(3)] DIOpArg(0, ptr addrspace(3)), DIOpConvert(ptr)",
        "ptr",
    );
    // DESIGN: int->int to a wider type zero-extends in diexpr, is ill-formed in
    // diexpression (AMD's verifier: "DIOpConvert on integers requires result
    // type to be no wider than input type").
    invalid(
        "[i8] DIOpArg(0, i8), DIOpConvert(i16)",
        "no wider than input type",
        Some(1),
    );
    valid("diexpr [i8] DIOpArg(0, i8), DIOpConvert(i16)", "i16");
    valid("[i64] DIOpArg(0, i64), DIOpConvert(i32)", "i32");
}

#[test]
fn reinterpret_keeps_the_size() {
    // "If bitsizeof(T) is not equal to bitsizeof(T') then the expression is not well-formed."
    invalid(
        "[ptr] -> ptr DIOpArg(0, ptr), DIOpReinterpret(i32)",
        "must not alter bitsize",
        Some(1),
    );
    valid("[ptr] DIOpArg(0, ptr), DIOpReinterpret(i64)", "i64");
    valid("[i32] DIOpArg(0, i32), DIOpReinterpret(float)", "float");
}

#[test]
fn composite_sizes_must_add_up() {
    // "If the sum of bitsizeof(TM) for M from 1 to N does not equal bitsizeof(T)
    // then the expression is not well-formed."
    invalid(
        "[ptr] -> i32 DIOpArg(0, ptr), DIOpDeref(i16), DIOpConstant(i8 0), DIOpComposite(2, i32)",
        "does not match sum of child bitsizes",
        Some(3),
    );
    valid(
        "[i32, i32] DIOpArg(0, i32), DIOpArg(1, i32), DIOpComposite(2, i64)",
        "i64",
    );
    valid(
        "[ptr] DIOpArg(0, ptr), DIOpArg(0, ptr), DIOpComposite(2, %struct.type)",
        "%struct.type",
    );
    // Parts may have different types: each TM is its own variable.
    valid(
        "[] DIOpConstant(i8 1), DIOpConstant(i24 2), DIOpComposite(2, i32)",
        "i32",
    );
}

#[test]
fn addrof_results_only_feed_deref() {
    // "If DIOpDeref is applied to the resulting L':T' then it will result in
    // L:T. If any other operation is applied then the expression is not well-formed."
    valid(
        "diexpr [referrer: i64] DIOpReferrer(i64), DIOpAddrOf(5), DIOpDeref()",
        "i64",
    );
    valid(
        "[i64] DIOpArg(0, i64), DIOpAddrOf(5), DIOpDeref(i64)",
        "i64",
    );
    invalid(
        "[i64] DIOpArg(0, i64), DIOpAddrOf(5), DIOpReinterpret(i64)",
        "only DIOpDeref may consume it",
        Some(2),
    );
    invalid(
        "[i64] DIOpArg(0, i64), DIOpAddrOf(5), DIOpConstant(i32 0), DIOpByteOffset(ptr addrspace(5))",
        "only DIOpDeref may consume it",
        Some(3),
    );
    // No operation applied: the implicit pointer itself is the result (the
    // spec's implicit-pointer example ends this way).
    valid(
        "diexpr [referrer: i64] DIOpReferrer(i64), DIOpAddrOf(5)",
        "i64 addrspace(5)*",
    );
    valid("[i64] DIOpArg(0, i64), DIOpAddrOf(5)", "ptr addrspace(5)");
}

#[test]
fn deref_needs_a_pointer() {
    // Seed: "If T is not a pointer type then the expression is not well-formed."
    invalid(
        "[ptr] -> i32 DIOpArg(0, ptr), DIOpDeref(i32), DIOpDeref(i32)",
        "pointer",
        Some(2),
    );
    valid(
        "diexpr [referrer: i64 addrspace(5)*] DIOpReferrer(i64 addrspace(5)*), DIOpDeref()",
        "i64",
    );
    // Seed Deref() takes its result type from the typed pointer's pointee; an
    // opaque pointer has none.
    invalid(
        "diexpr [referrer: ptr] DIOpReferrer(ptr), DIOpDeref()",
        "typed pointer",
        Some(1),
    );
}

#[test]
fn live_dialect_rules() {
    invalid(
        "[ptr] -> i32 DIOpArg(0, ptr), DIOpZExt(i64)",
        "requires integer typed input",
        Some(1),
    );
    invalid(
        "[i64] DIOpArg(0, i64), DIOpZExt(i64)",
        "wider than input type",
        Some(1),
    );
    invalid(
        "[i64] DIOpArg(0, i64), DIOpSExt(i32)",
        "wider than input type",
        Some(1),
    );
    valid("[i8] DIOpArg(0, i8), DIOpSExt(i64)", "i64");
    invalid(
        "[] -> i32 DIOpPushLane(ptr)",
        "integer result type",
        Some(0),
    );
    valid("[] DIOpPushLane(i32)", "i32");
    invalid(
        "[] DIOpConstant(<2 x i32> <i32 0, i32 0>), DIOpExtend(2)",
        "integer, floating point, or ptr",
        Some(1),
    );
    valid("[] DIOpConstant(float 1.0), DIOpExtend(4)", "<4 x float>");
    valid("[] DIOpTypeObject(double)", "double");
}

#[test]
fn select_follows_the_verifier_operand_order() {
    // DESIGN: AMD's verifier accepts the mask pushed FIRST; the rst prints it on top.
    valid(
        "[i32] DIOpArg(0, i32), DIOpConstant(<2 x i32> <i32 1, i32 2>), DIOpConstant(<2 x i32> <i32 3, i32 4>), DIOpSelect()",
        "<2 x i32>",
    );
    // The rst's order (mask on top) is therefore not well-formed.
    invalid(
        "[i32] DIOpConstant(<2 x i32> <i32 1, i32 2>), DIOpConstant(<2 x i32> <i32 3, i32 4>), DIOpArg(0, i32), DIOpSelect()",
        "vector",
        Some(3),
    );
    // The mask needs one bit per lane.
    invalid(
        "[] DIOpConstant(i1 1), DIOpConstant(<2 x i32> <i32 1, i32 2>), DIOpConstant(<2 x i32> <i32 3, i32 4>), DIOpSelect()",
        "mask",
        Some(3),
    );
}

#[test]
fn fragments_must_lie_inside_the_variable() {
    valid("[i16] -> i32 DIOpArg(0, i16), DIOpFragment(16, 16)", "i16");
    invalid(
        "[i16] -> i32 DIOpArg(0, i16), DIOpFragment(24, 16)",
        "contained within variable",
        Some(1),
    );
    // AMD's verifier accepts a fragment mid-expression: it is metadata.
    valid(
        "[ptr] DIOpArg(0, ptr), DIOpFragment(1, 2), DIOpDeref(i32)",
        "i32",
    );
}

#[test]
fn sizes_follow_the_data_layout() {
    // addrspace(5) pointers are 32 bits under the amdgpu preset.
    valid_amd(
        "[ptr addrspace(5)] DIOpArg(0, ptr addrspace(5)), DIOpReinterpret(i32)",
        "i32",
    );
    invalid(
        "[ptr addrspace(5)] -> i32 DIOpArg(0, ptr addrspace(5)), DIOpReinterpret(i32)",
        "bitsize",
        Some(1),
    );
}

#[test]
fn unsized_types_are_diagnosed() {
    invalid("[] DIOpConstant(%nope undef)", "not defined", Some(0));
    let b = parse_bare("[%opaque] DIOpArg(0, i32)").unwrap();
    let mut t = TypeTable::default();
    t.define("opaque", None);
    let d = check_bare(&b, &DataLayout::default(), &t).unwrap_err();
    assert!(d.iter().any(|d| d.message.contains("opaque")), "{d:?}");
}
