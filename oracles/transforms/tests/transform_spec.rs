//! The debug-information updates of `diopter_transforms` on the
//! spec's examples keep every variable's location at every program
//! instruction (checked in random contexts), and a wrong update is caught.

use diopter_semantics::context::Context;
use diopter_semantics::lifetimes::check_lifetimes;
use diopter_semantics::syntax::module::parse_module;
use diopter_semantics::value::Bits;
use diopter_transforms::{apply, check_equivalent, map_context, Derived};
use std::path::Path;

fn spec(name: &str) -> String {
    std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../corpus/spec")
            .join(name),
    )
    .unwrap()
}

/// `src` with `from` replaced by `to`, which must occur.
fn edited(src: &str, from: &str, to: &str) -> String {
    let s = src.replace(from, to);
    assert_ne!(s, src, "no `{from}` to replace");
    s
}

/// Applies `pass` to `file`; the result is well-formed and equivalent.
fn keeps(pass: &str, file: &str) -> String {
    let src = spec(file);
    let t = apply(pass, &src, 10).unwrap_or_else(|e| panic!("{pass} on {file}: {e}"));
    let (m, ds) = parse_module(&t.text);
    assert!(ds.is_empty(), "{pass} on {file}: {ds:?}\n{}", t.text);
    let ds = check_lifetimes(&m);
    assert!(ds.is_empty(), "{pass} on {file}: {ds:?}\n{}", t.text);
    if let Err(ms) = check_equivalent(&src, &t, 8) {
        panic!("{pass} on {file}:\n{}\n{}", ms[0], t.text);
    }
    t.text
}

/// Spec l. 1215-1243, done on the canonical i64 form (l. 1069-1077): the
/// result has the shape of the spec's, with DESIGN.md's composite order.
#[test]
fn sroa_on_the_spec() {
    let t = keeps("sroa", "03-mem2reg-canonical.ll");
    assert!(
        t.contains("call void @llvm.dbg.def(metadata !1001, metadata i32 %x.lo)"),
        "{t}"
    );
    assert!(
        t.contains("call void @llvm.dbg.def(metadata !1003, metadata i32 %x.hi)"),
        "{t}"
    );
    assert!(t.contains("!2 = distinct !DILifetime(object: !1, location: !DIExpr(DIOpArg(0, i32), DIOpArg(1, i32), DIOpComposite(2, i64)), argObjects: {!1000, !1002})"), "{t}");
    keeps("sroa", "19-proven-constant-before.ll");
    keeps("sroa", "17-induction-variable-before.ll");
    keeps("sroa", "22-spilling-before.ll");
}

/// The spec's own operand order (`DIOpArg(1, i32), DIOpArg(0, i32)` with
/// `argObjects: {lo, hi}`, l. 1238) puts x.hi at bit 0 under DESIGN.md's
/// `DIOpComposite`: the checker of equivalence must say so.
#[test]
fn the_spec_composite_order_is_caught() {
    let src = spec("03-mem2reg-canonical.ll");
    let mut t = apply("sroa", &src, 10).unwrap();
    t.text = t.text.replace(
        "DIOpArg(0, i32), DIOpArg(1, i32)",
        "DIOpArg(1, i32), DIOpArg(0, i32)",
    );
    let ms = check_equivalent(&src, &t, 4).unwrap_err();
    assert!(
        ms.iter().all(|m| m.what == "reads" && m.variable == 1),
        "{ms:?}"
    );
}

/// Spec l. 1037-1077 and the slides' alloca (seed 004 l. 316-328).
#[test]
fn mem2reg_on_the_spec() {
    let t = keeps("mem2reg", "01-alloca.ll");
    assert!(
        t.contains("call void @llvm.dbg.def(metadata !2, metadata i64 %x.addr.val)"),
        "{t}"
    );
    assert!(
        t.contains("!2 = distinct !DILifetime(object: !1, location: !DIExpr(DIOpReferrer(i64)))"),
        "{t}"
    );
    keeps("mem2reg", "23-spilling-after.ll");
    let t = keeps("mem2reg", "slides-01-explicit-lifetime.ll");
    assert!(t.contains("metadata i32 %var.alloca.val"), "{t}");
}

/// Spec l. 1296-1345 / 1750-1776: the variable in its register and its spill
/// slot at once.
#[test]
fn spill_on_the_spec() {
    let t = keeps("spill", "22-spilling-before.ll");
    assert!(
        t.contains("call void @llvm.dbg.def(metadata !1000, metadata ptr addrspace(5) %x.spill)"),
        "{t}"
    );
    keeps("spill", "03-mem2reg-canonical.ll");
    keeps("spill", "17-induction-variable-before.ll");
}

/// A spill whose slot does not hold the register's value is caught: the
/// two locations disagree (`Inconsistent`).
#[test]
fn a_wrong_spill_is_caught() {
    let src = spec("22-spilling-before.ll");
    let mut t = apply("spill", &src, 10).unwrap();
    if let Derived::SpillOf { entity, .. } = &mut t.state[0].1 {
        *entity = "%nothing".into();
    }
    // Without the copy the mapped context cannot be built: no check runs.
    assert!(map_context(&Context::default(), &t.state).is_err());
    let mut t = apply("spill", &src, 10).unwrap();
    t.text = t.text.replace(
        "DIOpDeref(i32)",
        "DIOpDeref(i16), DIOpConstant(i16 0), DIOpComposite(2, i32)",
    );
    let ms = check_equivalent(&src, &t, 4).unwrap_err();
    assert!(!ms.is_empty());
}

#[test]
fn passes_say_when_they_do_not_apply() {
    assert!(apply("sroa", &spec("01-alloca.ll"), 10)
        .unwrap_err()
        .0
        .contains("finds nothing"));
    assert!(apply("frobnicate", &spec("01-alloca.ll"), 10)
        .unwrap_err()
        .0
        .contains("unknown pass"));
}

#[test]
fn state_maps() {
    let mut c = Context::default();
    c.set_entity("%x", Bits::from_u64(64, 0x1122334455667788));
    c.set_entity("%p", Bits::from_u64(64, 0x40));
    c.set_memory(5, 0x40u32, &[0xaa, 0xbb]);
    let m = map_context(
        &c,
        &vec![
            (
                "%x.hi".into(),
                Derived::Slice {
                    entity: "%x".into(),
                    offset: 32,
                    width: 32,
                },
            ),
            (
                "%v".into(),
                Derived::Load {
                    pointer: "%p".into(),
                    addrspace: 5,
                    width: 16,
                },
            ),
            (
                "%s".into(),
                Derived::SpillOf {
                    entity: "%x".into(),
                    addrspace: 5,
                    address: 0x100,
                    ptr_bits: 32,
                },
            ),
        ],
    )
    .unwrap();
    assert_eq!(m.entity("%x.hi"), Some(&Bits::from_u64(32, 0x11223344)));
    assert_eq!(m.entity("%v"), Some(&Bits::from_u64(16, 0xbbaa)));
    assert_eq!(m.entity("%s"), Some(&Bits::from_u64(32, 0x100)));
    assert_eq!(m.byte(5, &0x100u32.into()), 0x88);
}

/// Spec "Proven Constant" (l. 1440-1463), with the `...` of `%x = i64 ...`
/// instantiated as the constant the pass proves: a read-only refinement
/// (the constant cannot be assigned), which the check accepts for this pass
/// only.
#[test]
fn proven_constant() {
    let src = spec("19-proven-constant-before.ll").replace("%x = i64 ...", "%x = i64 42");
    let t = apply("proven-constant", &src, 10).unwrap();
    assert!(
        t.text
            .contains("call void @llvm.dbg.def(metadata !2, metadata i64 undef)"),
        "{}",
        t.text
    );
    assert!(
        t.text.contains("location: !DIExpr(DIOpConstant(i64 42))"),
        "{}",
        t.text
    );
    assert!(t.read_only_refinement);
    check_equivalent(&src, &t, 8).unwrap();
    // Claimed as an equivalence, the lost writability is a mismatch.
    let mut strict = t.clone();
    strict.read_only_refinement = false;
    let ms = check_equivalent(&src, &strict, 2).unwrap_err();
    assert!(ms.iter().all(|m| m.what == "writes"), "{ms:?}");
    // The spec's `...` proves nothing.
    assert!(apply("proven-constant", &spec("19-proven-constant-before.ll"), 10).is_err());
    // A wrong constant is caught.
    let mut wrong = t.clone();
    wrong.text = wrong
        .text
        .replace("DIOpConstant(i64 42)", "DIOpConstant(i64 43)");
    assert!(check_equivalent(&src, &wrong, 2).is_err());
}

/// Spec "Further Decomposition" (l. 1270-1292) flattened: x's expression
/// takes the composite of x.hi's halves in place of fragment `!5`, whose
/// lifetime `!6` goes away with it.
#[test]
fn flatten_the_further_decomposition() {
    let t = keeps("flatten", "13-further-decomposition-after.ll");
    assert!(t.contains("!2 = distinct !DILifetime(object: !1, location: !DIExpr(DIOpArg(2, i16), DIOpArg(1, i16), DIOpComposite(2, i32), DIOpArg(0, i32), DIOpComposite(2, i64)), argObjects: {!3, !7, !9})"), "{t}");
    assert!(!t.contains("!5 = ") && !t.contains("!6 = "), "{t}");
    assert!(apply("flatten", &spec("11-two-scalars-after.ll"), 10).is_err());
}

/// Spec "Induction Variable" (l. 1374-1423), with `%i = i64 ...` read as
/// `%i = add i64 %x, %y` (what "`i` … is always equal to `x + y`" means):
/// the result is the spec's after-IR (l. 1404-1423, its `argObjects` typo
/// corrected), and i's lifetime lies inside x's and y's. A read-only
/// refinement, like the proven constant.
#[test]
fn induction_variable() {
    let src =
        spec("17-induction-variable-before.ll").replace("%i = i64 ...", "%i = add i64 %x, %y");
    let t = apply("induction", &src, 10).unwrap();
    assert!(
        t.text
            .contains("call void @llvm.dbg.def(metadata !6, metadata i64 undef)"),
        "{}",
        t.text
    );
    assert!(t.text.contains("!6 = distinct !DILifetime(object: !5, location: !DIExpr(DIOpArg(0, i64), DIOpArg(1, i64), DIOpAdd()), argObjects: {!1, !3})"), "{}", t.text);
    check_equivalent(&src, &t, 8).unwrap();
    // Had i lived longer than y, the rewrite would lose it: not applied.
    let longer = edited(
        &src,
        "call void @llvm.dbg.kill(metadata !6)\ncall void @llvm.dbg.kill(metadata !4)",
        "call void @llvm.dbg.kill(metadata !4)\n%z = i64 ...\ncall void @llvm.dbg.kill(metadata !6)",
    );
    assert!(apply("induction", &longer, 10).is_err());
}

fn transforms(name: &str) -> String {
    std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../corpus/transforms")
            .join(name),
    )
    .unwrap()
}

/// The lines of an IR file that carry meaning here: no comments, no blank
/// lines, no `!dbg`/`!tbaa` attachments (the spec's are stale, see
/// corpus/spec/NOTES.md).
fn meaningful_lines(text: &str) -> Vec<String> {
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with(';'))
        .map(|l| {
            let l = l.split(", !dbg").next().unwrap_or(l);
            l.replace(" !dbg !8 {", " {")
        })
        .collect()
}

/// Spec "Common Subexpression Elimination (CSE)" (l. 1465-1673): the second
/// load of `*bar` goes, both variables live in `%0`, read-only. The result is
/// the spec's expected EarlyCSE output (l. 1645-1670) line for line, as
/// corpus/spec/21-cse-expected.ll reads it: the spec prints every
/// `llvm.dbg.def` with its arguments swapped (`metadata i32* %bar, metadata
/// !19`) and defines `!21` twice and `!23` never (`!21 = ... object: !17`,
/// `!22 = ... object: !18`); diopter writes `llvm.dbg.def(metadata !19,
/// metadata i32* %bar)` and `!22` (redundant), `!23` (loaded), matching the
/// calls. Attachments (`!dbg`, `!tbaa`) are stale in the spec and not
/// compared.
#[test]
fn cse_on_the_spec() {
    let src = transforms("cse-before.ll");
    let t = apply("cse", &src, 10).unwrap();
    assert_eq!(
        meaningful_lines(&t.text),
        meaningful_lines(&spec("21-cse-expected.ll")),
        "{}",
        t.text
    );
    assert!(t.read_only_refinement);
    assert_eq!(t.removed.len(), 1);
    let (m, ds) = parse_module(&t.text);
    assert!(ds.is_empty() && check_lifetimes(&m).is_empty(), "{ds:?}");
    check_equivalent(&src, &t, 8).unwrap();
    // Both variables lose writability: as an equivalence, that is refused,
    // for `redundant` (!17) and `loaded` (!18) and nothing else.
    let mut strict = t.clone();
    strict.read_only_refinement = false;
    let ms = check_equivalent(&src, &strict, 2).unwrap_err();
    assert!(
        ms.iter()
            .all(|m| m.what == "writes" && (m.variable == 17 || m.variable == 18)),
        "{ms:?}"
    );
    assert!(ms.iter().any(|m| m.variable == 17) && ms.iter().any(|m| m.variable == 18));
}

/// What current LLVM does with the modified source (spec l. 1583-1606):
/// both variables in `%0`, both writable. Every read agrees and both stay
/// writable, so only the effect of a write tells: assigning `loaded`
/// changes `%1` in the original and `%0`, i.e. `redundant` too, after. The
/// check reports exactly that, for `loaded` (!18) only: assigning
/// `redundant` writes `%0` on both sides.
#[test]
fn cse_leaving_both_writable_is_caught_by_the_write_effect() {
    let src = transforms("cse-before.ll");
    let mut t = apply("cse", &src, 10).unwrap();
    t.text = t
        .text
        .replace("DIOpReferrer(i32), DIOpRead()", "DIOpReferrer(i32)");
    let ms = check_equivalent(&src, &t, 4).unwrap_err();
    assert!(
        ms.iter()
            .all(|m| m.what == "write effect" && m.variable == 18),
        "{ms:?}"
    );
    // At the two program points where loaded is live (the add, the ret), in
    // each of the 4 contexts.
    assert_eq!(ms.len(), 8, "{ms:?}");
}

/// CSE needs the loads to read the same memory, and every location of their
/// values to be made read-only.
#[test]
fn cse_does_not_apply_across_a_store_or_to_other_locations() {
    let src = transforms("cse-before.ll");
    for between in [
        "store i32 0, i32* %bar",
        "call void @g()",
        "%v = load volatile i32, i32* %bar",
    ] {
        let s = edited(&src, "  %1 = load", &format!("  {between}\n  %1 = load"));
        assert!(
            apply("cse", &s, 10)
                .unwrap_err()
                .0
                .contains("finds nothing"),
            "{between}"
        );
    }
    // A pure instruction between does not stop it.
    let s = edited(&src, "  %1 = load", "  %t = add i32 1, 2\n  %1 = load");
    let t = apply("cse", &s, 10).unwrap();
    check_equivalent(&s, &t, 4).unwrap();
    // `loaded` as a float reinterpretation of %1 stays writable; CSE leaves it.
    let s = edited(
        &src,
        "!23 = distinct !DILifetime(object: !18, location: !DIExpr(DIOpReferrer(i32)))",
        "!23 = distinct !DILifetime(object: !18, location: !DIExpr(DIOpReferrer(i32), DIOpReinterpret(float)))",
    );
    assert!(apply("cse", &s, 10).is_err());
}
