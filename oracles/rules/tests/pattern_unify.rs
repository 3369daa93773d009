//! Matching a rule's left side: types unify structurally (opaque and typed
//! pointers, vectors against arrays, packed against unpacked structs), and
//! an operation's numbers (an argument's index, a composite's count) must
//! match or bind a parameter hole. Written against cargo-mutants survivors
//! (reports/mutants.md).

use diopter_rules::pattern::{param_sentinel, tvar, unify_op, unify_type};
use diopter_semantics::ast::Op;
use diopter_semantics::types::Type;
use std::collections::BTreeMap;

fn ptr(addrspace: u32, pointee: Option<Type>) -> Type {
    Type::Ptr {
        addrspace,
        pointee: pointee.map(Box::new),
    }
}

fn unifies(pat: &Type, t: &Type) -> bool {
    unify_type(pat, t, &mut BTreeMap::new())
}

#[test]
fn pointers_unify_by_address_space_and_pointee() {
    assert!(unifies(&ptr(0, None), &ptr(0, None)));
    assert!(!unifies(&ptr(0, None), &ptr(1, None)));
    assert!(unifies(
        &ptr(1, Some(Type::Int(8))),
        &ptr(1, Some(Type::Int(8)))
    ));
    assert!(!unifies(
        &ptr(1, Some(Type::Int(8))),
        &ptr(1, Some(Type::Int(16)))
    ));
    // An opaque pointer is not a typed one, either way round.
    assert!(!unifies(&ptr(0, None), &ptr(0, Some(Type::Int(8)))));
    assert!(!unifies(&ptr(0, Some(Type::Int(8))), &ptr(0, None)));
    // A type variable in the pointee binds.
    let mut b = BTreeMap::new();
    assert!(unify_type(
        &ptr(3, Some(tvar("T"))),
        &ptr(3, Some(Type::Int(32))),
        &mut b
    ));
    assert_eq!(b.get("T"), Some(&Type::Int(32)));
}

#[test]
fn structs_unify_field_by_field_and_by_packing() {
    let s = |packed, fields: Vec<Type>| Type::Struct { fields, packed };
    let (i8_, i32_) = (Type::Int(8), Type::Int(32));
    assert!(unifies(
        &s(false, vec![i8_.clone(), i32_.clone()]),
        &s(false, vec![i8_.clone(), i32_.clone()])
    ));
    assert!(unifies(
        &s(true, vec![i8_.clone(), i32_.clone()]),
        &s(true, vec![i8_.clone(), i32_.clone()])
    ));
    // Packing changes the layout: never the same type.
    assert!(!unifies(
        &s(true, vec![i8_.clone(), i32_.clone()]),
        &s(false, vec![i8_.clone(), i32_.clone()])
    ));
    assert!(!unifies(
        &s(false, vec![i8_.clone(), i32_.clone()]),
        &s(true, vec![i8_.clone(), i32_.clone()])
    ));
    assert!(!unifies(
        &s(false, vec![i8_.clone()]),
        &s(false, vec![i8_.clone(), i32_.clone()])
    ));
    assert!(!unifies(
        &s(false, vec![i8_.clone(), i8_.clone()]),
        &s(false, vec![i8_, i32_])
    ));
}

fn op_unifies(pat: &Op, params: &[(usize, String)], op: &Op) -> (bool, BTreeMap<String, u64>) {
    let mut nums = BTreeMap::new();
    let ok = unify_op(pat, params, op, &mut BTreeMap::new(), &mut nums);
    (ok, nums)
}

#[test]
fn an_arguments_index_and_type_must_match() {
    let arg = |n, t| Op::Arg(n, t);
    assert!(op_unifies(&arg(0, Type::Int(32)), &[], &arg(0, Type::Int(32))).0);
    assert!(!op_unifies(&arg(0, Type::Int(32)), &[], &arg(1, Type::Int(32))).0);
    assert!(!op_unifies(&arg(0, Type::Int(32)), &[], &arg(0, Type::Int(64))).0);
    // A parameter hole in the index binds it.
    let params = [(0usize, "n".to_string())];
    let (ok, nums) = op_unifies(
        &arg(param_sentinel(0), Type::Int(32)),
        &params,
        &arg(3, Type::Int(32)),
    );
    assert!(ok);
    assert_eq!(nums.get("n"), Some(&3));
    // A composite's count likewise.
    let comp = |n, t| Op::Composite(n, t);
    assert!(op_unifies(&comp(2, Type::Int(64)), &[], &comp(2, Type::Int(64))).0);
    assert!(!op_unifies(&comp(2, Type::Int(64)), &[], &comp(3, Type::Int(64))).0);
    assert!(!op_unifies(&comp(2, Type::Int(64)), &[], &comp(2, Type::Int(32))).0);
}
