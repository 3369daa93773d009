//! The SROA kind of the `validate_diff` fuzz target
//! (`diopter_harness::targets::sroa_pair`, judged by `judge_update`, the
//! target's own check) on hand-made before-expressions: a correct split is
//! never refuted, each deliberately wrong one is, in both forms (the
//! operand held as one value, and the variable in an alloca that SROA
//! removed). And the target's whole body on its hand seeds of the kind
//! (`fuzz/corpus/validate_diff/seed-hand-sroa-*`, written by
//! `fuzz/seed.sh`).

use diopter_harness::targets::{
    judge_update, sroa_pair, validate_diff_outcome, Split, SplitError, Update,
};
use diopter_semantics::syntax::{parse_bare, print_bare, print_ops};
use diopter_semantics::types::{DataLayout, TypeTable};
use diopter_tv::validate::MapRhs;

fn pair(text: &str, in_memory: bool, how: Split) -> diopter_tv::validate::Pair {
    let b = parse_bare(text).unwrap_or_else(|d| panic!("{text}: {}", d.message));
    sroa_pair(
        &b,
        &DataLayout::llvm_default(),
        &TypeTable::default(),
        in_memory,
        how,
    )
    .unwrap_or_else(|| panic!("{text}: operand 0 does not split"))
}

/// Before-expressions whose operand 0 splits: a whole 8-bit integer, an
/// operand beside another (renumbered after the pieces), a byte read at an
/// offset inside the split operand, a float whose bits are split, and the
/// second field of a two-field aggregate.
const BEFORE: &[&str] = &[
    "[i8] DIOpArg(0, i8)",
    "[i16, i8] DIOpArg(0, i16), DIOpArg(1, i8), DIOpZExt(i16), DIOpAdd()",
    "[i16] DIOpArg(0, i16), DIOpConstant(i8 1), DIOpByteOffset(i8)",
    "[half] DIOpArg(0, half)",
    "[{ i8, i8 }] DIOpArg(0, { i8, i8 }), DIOpConstant(i32 1), DIOpByteOffset(i8)",
];

#[test]
fn the_split_is_written_as_amd_writes_it() {
    // By hand: operand 0 (i16) becomes new operands 0 and 1 (i8, low
    // first); old operand 1 is new operand 2.
    let p = pair(BEFORE[1], false, Split::Correct);
    assert_eq!(
        print_bare(p.after.as_ref().unwrap()),
        "[i8, i8, i8] DIOpArg(0, i8), DIOpArg(1, i8), DIOpComposite(2, i16), DIOpArg(2, i8), DIOpZExt(i16), DIOpAdd()"
    );
    let maps: Vec<String> = p
        .map
        .iter()
        .map(|(k, m, _)| match m {
            MapRhs::Expr(e) => format!("arg{k} := {}", print_ops(e)),
            MapRhs::Undefined => format!("arg{k} := undefined"),
        })
        .collect();
    assert_eq!(
        maps,
        [
            "arg0 := DIOpArg(0, i8), DIOpArg(1, i8), DIOpComposite(2, i16)",
            "arg1 := DIOpArg(2, i8)"
        ]
    );
    // In memory: the before-expression reads the alloca, the old pointer
    // is the address of the pieces' composite.
    let m = pair(BEFORE[0], true, Split::Correct);
    assert_eq!(
        print_bare(&m.before),
        "[ptr addrspace(5)] DIOpArg(0, ptr addrspace(5)), DIOpDeref(i8)"
    );
    match &m.map[0].1 {
        MapRhs::Expr(e) => assert_eq!(
            print_ops(e),
            "DIOpArg(0, i4), DIOpArg(1, i4), DIOpComposite(2, i8), DIOpAddrOf(5)"
        ),
        MapRhs::Undefined => panic!("undefined"),
    }
}

#[test]
fn a_correct_split_is_equivalent() {
    for text in BEFORE {
        for in_memory in [false, true] {
            let p = pair(text, in_memory, Split::Correct);
            let v = judge_update(&p, false, &TypeTable::default(), 7)
                .unwrap_or_else(|e| panic!("{text} (in memory: {in_memory}): {e}"));
            assert_eq!(v, "equivalent", "{text} (in memory: {in_memory})");
        }
    }
}

#[test]
fn a_wrong_split_is_refuted() {
    for text in BEFORE {
        for in_memory in [false, true] {
            for e in SplitError::ALL {
                let p = pair(text, in_memory, Split::Wrong(e));
                let v = judge_update(&p, true, &TypeTable::default(), 7)
                    .unwrap_or_else(|m| panic!("{text} {e:?} (in memory: {in_memory}): {m}"));
                assert_eq!(v, "refuted", "{text} {e:?} (in memory: {in_memory})");
            }
        }
    }
}

#[test]
fn an_operand_of_odd_size_does_not_split() {
    let b = parse_bare("[i7] DIOpArg(0, i7)").unwrap();
    assert!(sroa_pair(
        &b,
        &DataLayout::llvm_default(),
        &TypeTable::default(),
        false,
        Split::Correct
    )
    .is_none());
}

#[test]
fn the_hand_seeds_split_and_get_the_verdict_their_name_says() {
    let dir =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/corpus/validate_diff");
    let mut seeds: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("seed-hand-sroa-"))
        })
        .collect();
    seeds.sort();
    assert!(seeds.len() >= 5, "{seeds:?}");
    for p in seeds {
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        let data = std::fs::read(&p).unwrap();
        let got = validate_diff_outcome(&data).unwrap_or_else(|m| panic!("{name}: {m}"));
        let Some((Update::Split, verdict)) = got else {
            panic!("{name}: not a split: {got:?}");
        };
        if name.contains("-correct") {
            assert_eq!(verdict, "equivalent", "{name}");
        } else {
            // These generated expressions are long (up to 8 operations
            // around the split operand, the misplaced high piece adds 7):
            // within the target's 2 s per query Z3 may give up on a loaded
            // machine (seed a-high-misplaced did, once). What the target
            // forbids of a wrong update, a verdict of equivalent or
            // refinement, is excluded either way; the small expressions
            // above are held to `refuted`.
            assert!(
                ["refuted", "unknown"].contains(&verdict),
                "{name}: {verdict}"
            );
        }
    }
}
