//! Two kinds of update the `validate_diff` target and the default job's
//! `validate` check make besides salvages, casts and splits
//! (`diopter_harness::targets::{deletion_pair, fold_pair}`, judged by
//! `judge_update`): an operand deleted (`argJ := undefined`, the operands
//! after it renumbered), and a use of an operand folded away (`x * 0` to
//! `0`), which is never correct since the before-expression fails where
//! `x` cannot be read.

use diopter_harness::targets::{deletion_pair, fold_pair, judge_update};
use diopter_semantics::syntax::{parse_bare, print_bare, print_ops};
use diopter_semantics::types::{DataLayout, TypeTable};
use diopter_tv::validate::MapRhs;

fn bare(text: &str) -> diopter_semantics::ast::Bare {
    parse_bare(text).unwrap_or_else(|d| panic!("{text}: {}", d.message))
}

fn maps(p: &diopter_tv::validate::Pair) -> Vec<String> {
    p.map
        .iter()
        .map(|(k, m, _)| match m {
            MapRhs::Expr(e) => format!("arg{k} := {}", print_ops(e)),
            MapRhs::Undefined => format!("arg{k} := undefined"),
        })
        .collect()
}

const THREE: &str =
    "[i32, i32, i32] DIOpArg(0, i32), DIOpArg(1, i32), DIOpAdd(), DIOpArg(2, i32), DIOpMul()";

#[test]
fn a_deleted_operand_reads_as_undef_and_the_rest_are_renumbered() {
    let dl = DataLayout::llvm_default();
    let p = deletion_pair(&bare(THREE), &dl, 1, false).unwrap();
    // By hand: operand 1 deleted, operand 2 becomes new operand 1.
    assert_eq!(
        print_bare(p.after.as_ref().unwrap()),
        "[i32, i32] DIOpArg(0, i32), DIOpConstant(i32 undef), DIOpAdd(), DIOpArg(1, i32), DIOpMul()"
    );
    assert_eq!(
        maps(&p),
        [
            "arg0 := DIOpArg(0, i32)",
            "arg1 := undefined",
            "arg2 := DIOpArg(1, i32)"
        ]
    );
    // Both sides undefined where the deleted operand was read: the
    // validator's policy calls a lost value a refinement.
    let v = judge_update(&p, false, &TypeTable::default(), 7).unwrap();
    assert_eq!(v, "refinement");
    // Deleting an operand nothing reads loses nothing.
    let unused = bare("[i32, i32] DIOpArg(0, i32), DIOpConstant(i32 1), DIOpAdd()");
    let q = deletion_pair(&unused, &dl, 1, false).unwrap();
    assert_eq!(
        judge_update(&q, false, &TypeTable::default(), 7).unwrap(),
        "equivalent"
    );
    // The mistake: the deleted operand's use left as DIOpArg(1), which now
    // names old operand 2.
    let w = deletion_pair(&bare(THREE), &dl, 1, true).unwrap();
    assert_eq!(
        print_bare(w.after.as_ref().unwrap()),
        "[i32, i32] DIOpArg(0, i32), DIOpArg(1, i32), DIOpAdd(), DIOpArg(1, i32), DIOpMul()"
    );
    assert_eq!(
        judge_update(&w, true, &TypeTable::default(), 7).unwrap(),
        "refuted"
    );
}

#[test]
fn the_mistake_gets_a_next_operand_of_the_same_type_when_there_is_none() {
    let dl = DataLayout::llvm_default();
    // The last operand: the before-expression gains an unread operand 3
    // of its type, which the use left as DIOpArg(2) then names.
    let w = deletion_pair(&bare(THREE), &dl, 2, true).unwrap();
    assert_eq!(
        print_bare(&w.before),
        "[i32, i32, i32, i32] DIOpArg(0, i32), DIOpArg(1, i32), DIOpAdd(), DIOpArg(2, i32), DIOpMul()"
    );
    assert_eq!(
        print_bare(w.after.as_ref().unwrap()),
        "[i32, i32, i32] DIOpArg(0, i32), DIOpArg(1, i32), DIOpAdd(), DIOpArg(2, i32), DIOpMul()"
    );
    assert_eq!(
        maps(&w),
        [
            "arg0 := DIOpArg(0, i32)",
            "arg1 := DIOpArg(1, i32)",
            "arg2 := undefined",
            "arg3 := DIOpArg(2, i32)"
        ]
    );
    assert_eq!(
        judge_update(&w, true, &TypeTable::default(), 7).unwrap(),
        "refuted"
    );
    // A next operand of another type: the new one goes between, the
    // operands after it renumbered in the before-expression.
    let mixed = bare("[i32, i64] DIOpArg(0, i32), DIOpArg(1, i64), DIOpConvert(i32), DIOpAdd()");
    let m = deletion_pair(&mixed, &dl, 0, true).unwrap();
    assert_eq!(
        print_bare(&m.before),
        "[i32, i32, i64] DIOpArg(0, i32), DIOpArg(2, i64), DIOpConvert(i32), DIOpAdd()"
    );
    assert_eq!(
        print_bare(m.after.as_ref().unwrap()),
        "[i32, i64] DIOpArg(0, i32), DIOpArg(1, i64), DIOpConvert(i32), DIOpAdd()"
    );
    assert_eq!(
        maps(&m),
        [
            "arg0 := undefined",
            "arg1 := DIOpArg(0, i32)",
            "arg2 := DIOpArg(1, i64)"
        ]
    );
    assert_eq!(
        judge_update(&m, true, &TypeTable::default(), 7).unwrap(),
        "refuted"
    );
    // The mistake is made on an operand that is read: pick 0 of the read
    // ones here is operand 1.
    let skip = bare("[i32, i32, i32] DIOpArg(1, i32), DIOpArg(2, i32), DIOpAdd()");
    let s = deletion_pair(&skip, &dl, 0, true).unwrap();
    assert_eq!(maps(&s)[1], "arg1 := undefined");
    // Nothing read: a deletion is right whatever the pass does with uses.
    let none = bare("[i32, i32] DIOpConstant(i32 1)");
    assert!(deletion_pair(&none, &dl, 0, true).is_none());
    assert!(deletion_pair(&none, &dl, 0, false).is_some());
}

#[test]
fn folding_a_use_of_an_operand_away_is_refuted() {
    let dl = DataLayout::llvm_default();
    let p = fold_pair(
        &bare("[i32, i32] DIOpArg(0, i32), DIOpArg(1, i32), DIOpAdd()"),
        &dl,
    )
    .unwrap();
    assert_eq!(
        print_bare(&p.before),
        "[i32, i32] DIOpArg(0, i32), DIOpConstant(i32 0), DIOpMul(), DIOpArg(1, i32), DIOpAdd()"
    );
    assert_eq!(
        print_bare(p.after.as_ref().unwrap()),
        "[i32, i32] DIOpConstant(i32 0), DIOpArg(1, i32), DIOpAdd()"
    );
    assert_eq!(
        judge_update(&p, true, &TypeTable::default(), 7).unwrap(),
        "refuted"
    );
    // Nothing to fold: operand 0 unused, or not an integer.
    assert!(fold_pair(&bare("[i32, i32] DIOpArg(1, i32)"), &dl).is_none());
    assert!(fold_pair(&bare("[float] DIOpArg(0, float)"), &dl).is_none());
}
