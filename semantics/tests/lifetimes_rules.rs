//! One test per well-formedness rule of the spec's lifetime sections
//! (`DILifetime` l. 451-566, `llvm.dbg.def`/`llvm.dbg.kill` l. 968-1012 of
//! seed 000), through the public API: the diagnostic's line and message, a
//! corrected file that is clean, and, where the rule concerns locations, what
//! the location model makes of the ill-formed input (it never panics on it).

use diopter_semantics::diag::Source;
use diopter_semantics::ir::InstRef;
use diopter_semantics::lifetimes::{check_lifetimes, LifetimeKind};
use diopter_semantics::objloc::{Model, Rule};
use diopter_semantics::syntax::module::parse_module;

/// The lifetime diagnostics as `line: message`.
fn diags(s: &str) -> Vec<String> {
    let (m, ds) = parse_module(s);
    assert!(ds.is_empty(), "parse: {ds:?}");
    let src = Source::new("t.ll", s);
    check_lifetimes(&m)
        .iter()
        .map(|d| format!("{}: {}", src.line_col(d.span.start).0, d))
        .collect()
}

fn only(s: &str, line: usize, text: &str) {
    let ds = diags(s);
    assert_eq!(ds.len(), 1, "{ds:#?}");
    assert!(
        ds[0].starts_with(&format!("{line}: ")) && ds[0].contains(text),
        "{ds:#?}"
    );
}

fn clean(s: &str) {
    let ds = diags(s);
    assert!(ds.is_empty(), "{ds:#?}");
}

const X: &str = "!1 = !DILocalVariable(name: \"x\")\n";
const REF: &str = "location: !DIExpr(DIOpReferrer(i32))";

/// l. 471-474: "If not referenced by exactly one call to the `llvm.dbg.def`
/// intrinsic it is not well-formed."
#[test]
fn bounded_segment_has_exactly_one_def() {
    let two = format!(
        "call void @llvm.dbg.def(metadata !2, metadata i32 %a)\ncall void @llvm.dbg.def(metadata !2, metadata i32 %b)\n{X}!2 = distinct !DILifetime(object: !1, {REF})\n"
    );
    only(
        &two,
        4,
        "bounded lifetime segment !2 is defined by 2 llvm.dbg.def calls",
    );
    // The location model still answers: both defs start a range.
    let (m, _) = parse_module(&two);
    let model = Model::new(&m);
    assert_eq!(model.kind(2), Some(LifetimeKind::Bounded));
    let at = |i| InstRef {
        function: 0,
        block: 0,
        inst: i,
    };
    assert!(model.is_active(2, at(0)) && model.is_active(2, at(1)));
    clean(&format!(
        "call void @llvm.dbg.def(metadata !2, metadata i32 %a)\n{X}!2 = distinct !DILifetime(object: !1, {REF})\n"
    ));
}

/// l. 1003-1005: "Every call to the `llvm.dbg.kill` intrinsic must be
/// reachable from a call to the `llvm.dbg.def` intrinsic which specifies the
/// same `DILifetime`, otherwise it is not well-formed."
#[test]
fn kill_reachable_from_def() {
    let md = format!("{X}!2 = distinct !DILifetime(object: !1, {REF})\n");
    let s = format!(
        "define void @f(i1 %c) {{\nentry:\n  br i1 %c, label %a, label %b\na:\n  call void @llvm.dbg.def(metadata !2, metadata i32 0)\n  br label %b\nb:\n  call void @llvm.dbg.kill(metadata !2)\n  call void @llvm.dbg.kill(metadata !2)\n  ret void\n}}\n{md}"
    );
    // Both kills are reachable from the def through `a` (the entry's other
    // edge skips the def, but one path is enough).
    clean(&s);
    let s = format!(
        "define void @f() {{\nentry:\n  call void @llvm.dbg.kill(metadata !2)\n  br label %a\na:\n  call void @llvm.dbg.def(metadata !2, metadata i32 0)\n  ret void\n}}\n{md}"
    );
    only(
        &s,
        3,
        "llvm.dbg.kill of !2 is not reachable along control flow from a llvm.dbg.def",
    );
}

/// l. 477-478: "A `DILifetime` which does not match exactly one of the above
/// kinds is not well-formed." Such a lifetime takes no part in locations.
#[test]
fn exactly_one_kind() {
    let s = format!(
        "@g = global i32 0, !dbg.default !2\ncall void @llvm.dbg.def(metadata !2, metadata i32 %a)\n{X}!2 = distinct !DILifetime(object: !1, {REF})\n"
    );
    only(
        &s,
        4,
        "referenced as a default and a bounded lifetime segment at once",
    );
    let (m, _) = parse_module(&s);
    let model = Model::new(&m);
    assert_eq!(model.kind(2), None);
    assert_eq!(model.segments(1, None).rule, Rule::Undefined);
}

/// l. 465-470: a type segment referenced by more than one `DICompositeType`,
/// a default one by more than one global.
#[test]
fn type_and_default_segments_have_one_referrer() {
    only(
        "!1 = !DICompositeType(tag: DW_TAG_array_type, dataLocation: !3)\n!2 = !DICompositeType(tag: DW_TAG_array_type, rank: !3)\n!3 = distinct !DILifetime(location: !DIExpr(DIOpReferrer(ptr)))\n",
        3,
        "referenced by more than one DICompositeType",
    );
    only(
        &format!("@a = global i32 0, !dbg.default !2\n@b = global i32 0, !dbg.default !2\n{X}!2 = distinct !DILifetime(object: !1, {REF})\n"),
        4,
        "the `!dbg.default` of more than one global variable (@a, @b)",
    );
}

/// l. 480-484: `object` required for default, bounded and computed segments,
/// omitted for type segments.
#[test]
fn object_field() {
    let s = format!("call void @llvm.dbg.def(metadata !2, metadata i32 %a)\n{X}!2 = distinct !DILifetime({REF})\n");
    let ds = diags(&s);
    assert!(
        ds.iter().any(|d| d.starts_with("3: ")
            && d.contains("bounded lifetime segment !2 has no `object` field")),
        "{ds:#?}"
    );
    only(
        &format!("{X}!2 = !DICompositeType(tag: DW_TAG_array_type, dataLocation: !3)\n!3 = distinct !DILifetime(object: !1, location: !DIExpr(DIOpReferrer(ptr)))\n"),
        3,
        "type lifetime segment !3 has an `object` field; it must be omitted",
    );
}

/// l. 497-499: "If the `DIObject` has any other lifetime segments it is not
/// well-formed." The computed segment still wins in the location model, as
/// the rule's first sentence says.
#[test]
fn computed_beside_other_segments() {
    let s = format!(
        "call void @llvm.dbg.def(metadata !3, metadata i32 %a)\n{X}!2 = distinct !DILifetime(object: !1, location: !DIExpr(DIOpConstant(i32 0)))\n!3 = distinct !DILifetime(object: !1, {REF})\n"
    );
    only(
        &s,
        3,
        "DIObject !1 has the computed lifetime segment !2 and other lifetime segments (!3)",
    );
    let (m, _) = parse_module(&s);
    let model = Model::new(&m);
    let at = InstRef {
        function: 0,
        block: 0,
        inst: 0,
    };
    let seg = model.segments(1, Some(at));
    assert_eq!((seg.rule, seg.lifetimes), (Rule::Computed, vec![2]));
}

/// l. 537-538: "A computed lifetime segment does not have a referrer and the
/// expression is not well-formed if it uses the `DIOpReferrer` operation."
#[test]
fn referrer_in_computed_segment() {
    only(
        &format!("{X}!2 = distinct !DILifetime(object: !1, {REF})\n"),
        2,
        "DIOpReferrer in computed lifetime segment !2",
    );
}

/// l. 551-553: "If the reachable lifetime graph has any cycles … then the
/// metadata is not well-formed." The location model reports the cycle as an
/// evaluation error instead of recursing forever.
#[test]
fn cycles() {
    let s = "!1 = !DILocalVariable(name: \"x\")\n!2 = !DILocalVariable(name: \"y\")\n\
             !3 = distinct !DILifetime(object: !1, location: !DIExpr(DIOpArg(0, i32)), argObjects: {!2})\n\
             !4 = distinct !DILifetime(object: !2, location: !DIExpr(DIOpArg(0, i32)), argObjects: {!1})\n";
    let ds = diags(s);
    assert!(
        !ds.is_empty() && ds.iter().all(|d| d.contains("cycle")),
        "{ds:#?}"
    );
    let (m, _) = parse_module(s);
    let model = Model::new(&m);
    let e = model
        .locate(1, None, &Default::default())
        .expect_err("a cycle has no location");
    assert!(e.message.contains("!1 -> !2 -> !1"), "{e}");
}

/// l. 551-553: "… or if any `DILifetime` or `DIFragment` are not in the
/// reachable lifetime graph then the metadata is not well-formed."
#[test]
fn unreachable_nodes() {
    let s = format!(
        "{X}!2 = distinct !DIFragment()\n!3 = distinct !DILifetime(object: !2, location: !DIExpr(DIOpConstant(i32 1)))\n"
    );
    let ds = diags(&s);
    assert_eq!(ds.len(), 2, "{ds:#?}");
    assert!(ds[0].starts_with("2: DIFragment !2 is not in the reachable lifetime graph"));
    assert!(ds[1].starts_with("3: DILifetime !3 is not in the reachable lifetime graph"));
    clean(&format!(
        "{X}!2 = distinct !DIFragment()\n!3 = distinct !DILifetime(object: !2, location: !DIExpr(DIOpConstant(i32 1)))\n!4 = distinct !DILifetime(object: !1, location: !DIExpr(DIOpArg(0, i32)), argObjects: {{!2}})\n"
    ));
}

/// l. 974 and 1000: "The first argument to `llvm.dbg.def` [`llvm.dbg.kill`]
/// must be a `DILifetime`".
#[test]
fn def_and_kill_name_lifetimes() {
    let ds = diags(&format!(
        "call void @llvm.dbg.def(metadata !1, metadata i32 %a)\ncall void @llvm.dbg.kill(metadata !9)\n{X}"
    ));
    assert_eq!(ds.len(), 2, "{ds:#?}");
    assert!(ds[0].starts_with("1: the first argument of llvm.dbg.def must be a DILifetime"));
    assert!(ds[1].starts_with(
        "2: the first argument of llvm.dbg.kill must be a DILifetime, but !9 is not defined"
    ));
}
