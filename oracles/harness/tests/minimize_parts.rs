//! The minimizer's measures, which decide what a finding is and which case
//! is smaller: the class of each disagreement line (findings are
//! deduplicated by it), and the cost order of constants. Written against
//! cargo-mutants survivors (reports/mutants.md).

use diopter_gen::Case;
use diopter_harness::minimize::{cost, detail_class};
use diopter_semantics::context::Context;
use diopter_semantics::syntax::parse_bare;
use diopter_semantics::types::TypeTable;

fn class(line: &str) -> (String, String) {
    detail_class(line)
}

fn pair(who: &str, c: &str) -> (String, String) {
    (who.to_string(), c.to_string())
}

/// Lines as `diopter_diff` writes them (its `compare_*` functions).
#[test]
fn each_kind_of_difference_has_its_class() {
    assert_eq!(
        class("fast: type `i32` vs reference `i64`"),
        pair("fast", "type")
    );
    assert_eq!(
        class("dwarf: 32 bits vs reference 64"),
        pair("dwarf", "size")
    );
    assert_eq!(
        class("fast: fragment Some((0, 8)) vs reference None"),
        pair("fast", "fragment")
    );
    assert_eq!(
        class("fast: location %a vs reference %b"),
        pair("fast", "location")
    );
    assert_eq!(
        class("fast: reads 0x01 vs reference read fails with Undefined"),
        pair("fast", "read")
    );
    assert_eq!(
        class("fast: read fails with Undefined (x) vs reference reads 0x01"),
        pair("fast", "read")
    );
    assert_eq!(
        class("dwarf: writing the pattern leaves a different context (reference vs dwarf: %a)"),
        pair("dwarf", "write")
    );
    assert_eq!(
        class("fast: write refused with ReadOnly vs reference Undefined"),
        pair("fast", "write")
    );
    assert_eq!(
        class("fast: writes vs reference refuses with ReadOnly"),
        pair("fast", "write")
    );
    assert_eq!(
        class("fast: fails with IllFormed at op 2 vs reference succeeds"),
        pair("fast", "outcome")
    );
    assert_eq!(
        class("fast: succeeds vs reference fails"),
        pair("fast", "outcome")
    );
    assert_eq!(
        class("fast: IllFormed at op 1 vs reference DivisionByZero"),
        pair("fast", "error")
    );
    // A line that names no oracle.
    assert_eq!(class("something else"), pair("?", "error"));
}

fn constant_case(lit: &str) -> Case {
    Case {
        bare: parse_bare(&format!("[] DIOpConstant(i32 {lit})")).unwrap(),
        types: TypeTable::default(),
        ctx: Context::parse("").unwrap(),
    }
}

/// 0 < 1 < -1 < larger magnitudes: the minimizer turns constants into 0
/// where the failure allows, else 1, else -1.
#[test]
fn constants_cost_zero_then_one_then_minus_one_then_by_magnitude() {
    let c = |lit: &str| cost(&constant_case(lit)).constants;
    assert_eq!(c("0"), 0);
    assert!(c("0") < c("1"), "{} {}", c("0"), c("1"));
    assert!(c("1") < c("-1"));
    assert!(c("-1") < c("2"));
    assert!(c("2") < c("1000"));
    assert!(c("1000") < c("-100000"));
    assert!(cost(&constant_case("0")) < cost(&constant_case("7")));
}

fn case_of(line: &str, ctx: &str) -> Case {
    Case {
        bare: parse_bare(line).unwrap(),
        types: TypeTable::default(),
        ctx: Context::parse(ctx).unwrap(),
    }
}

fn op_lines(cases: &[Case]) -> Vec<String> {
    cases.iter().map(|c| c.expr_line()).collect()
}

/// A subexpression of several operations may become a fresh argument that
/// holds its result; a single operation never does (the argument is no
/// smaller than the operation it replaces).
#[test]
fn only_subexpressions_of_several_operations_become_fresh_arguments() {
    let c = case_of(
        "[i32, i32] DIOpArg(0, i32), DIOpArg(1, i32), DIOpAdd()",
        "%a = i32 5\n%b = i32 7\narg 0 = %a\narg 1 = %b\n",
    );
    let lines = op_lines(&diopter_harness::minimize::reductions(&c));
    assert!(
        lines.iter().any(|l| l.ends_with("DIOpArg(2, i32)")),
        "the whole addition as a fresh argument: {lines:#?}"
    );
    assert!(
        !lines
            .iter()
            .any(|l| l.contains("DIOpArg(2, i32), DIOpAdd()")),
        "the leaf DIOpArg(1, i32) replaced by a fresh argument: {lines:#?}"
    );
}

/// An expression that leaves two entries (not well-formed, but the
/// minimizer also reduces checker failures) may lose either one.
#[test]
fn with_several_roots_a_root_may_be_dropped() {
    let c = case_of(
        "[i32, i32] DIOpArg(0, i32), DIOpArg(1, i32)",
        "%a = i32 5\n%b = i32 7\narg 0 = %a\narg 1 = %b\n",
    );
    let lines = op_lines(&diopter_harness::minimize::reductions(&c));
    assert!(
        lines.iter().any(|l| l.ends_with("] DIOpArg(1, i32)")),
        "{lines:#?}"
    );
}

/// Dropping a part of an integer composite shrinks its type by the part's
/// size (two i32 parts of an i64: one i32 part of an i32).
#[test]
fn a_dropped_composite_part_shrinks_the_composite() {
    let c = case_of(
        "[i32, i32] DIOpArg(0, i32), DIOpArg(1, i32), DIOpComposite(2, i64)",
        "%a = i32 5\n%b = i32 7\narg 0 = %a\narg 1 = %b\n",
    );
    let lines = op_lines(&diopter_harness::minimize::reductions(&c));
    assert!(
        lines
            .iter()
            .any(|l| l.ends_with("] DIOpArg(1, i32), DIOpComposite(1, i32)")),
        "{lines:#?}"
    );
}

/// No candidate is the case itself (it would cost an oracle run and could
/// never be kept): checked on constants already at their simplest.
#[test]
fn no_reduction_is_the_case_itself() {
    for (line, ctx) in [
        ("[] DIOpConstant(<2 x i32> zeroinitializer)", ""),
        ("[] DIOpConstant(i32 0)", ""),
        ("[] DIOpConstant(ptr null)", ""),
        (
            "[i32, i32] DIOpArg(0, i32), DIOpArg(1, i32), DIOpAdd()",
            "%a = i32 5\n%b = i32 7\narg 0 = %a\narg 1 = %b\n",
        ),
    ] {
        let c = case_of(line, ctx);
        let same = diopter_harness::minimize::reductions(&c)
            .into_iter()
            .filter(|r| r.bare == c.bare && r.types == c.types && r.ctx == c.ctx)
            .count();
        assert_eq!(same, 0, "{line}");
    }
}

/// Narrowing a width replaces it everywhere: in every operation's type
/// (here an argument and a reinterpretation) and inside aggregate types.
#[test]
fn a_narrowed_width_is_replaced_everywhere() {
    let c = case_of(
        "[i48] DIOpArg(0, i48), DIOpReinterpret(i48)",
        "%a = i48 5\narg 0 = %a\n",
    );
    let lines = op_lines(&diopter_harness::minimize::reductions(&c));
    assert!(
        lines.contains(&"[i32] DIOpArg(0, i32), DIOpReinterpret(i32)".to_string()),
        "{lines:#?}"
    );
    let c = case_of("[] DIOpConstant({ i48, i8 } zeroinitializer)", "");
    let lines = op_lines(&diopter_harness::minimize::reductions(&c));
    assert!(
        lines.contains(&"[] DIOpConstant({ i32, i8 } zeroinitializer)".to_string()),
        "{lines:#?}"
    );
}

/// A constant that no longer fits the narrower width becomes 0 (one that
/// fits keeps its value).
#[test]
fn a_constant_that_no_longer_fits_becomes_zero() {
    let c = case_of("[] DIOpConstant(i64 1000)", "");
    let lines = op_lines(&diopter_harness::minimize::reductions(&c));
    assert!(
        lines.contains(&"[] DIOpConstant(i8 0)".to_string()),
        "{lines:#?}"
    );
    assert!(!lines.iter().any(|l| l.contains("i8 1000")), "{lines:#?}");
    assert!(
        lines.contains(&"[] DIOpConstant(i16 1000)".to_string()),
        "{lines:#?}"
    );
}

/// An unused argument is dropped and the later ones renumbered.
#[test]
fn dropping_an_unused_argument_renumbers_the_later_ones() {
    let c = case_of(
        "[i32, i32] DIOpArg(1, i32)",
        "%a = i32 5\n%b = i32 7\narg 0 = %a\narg 1 = %b\n",
    );
    let rs = diopter_harness::minimize::reductions(&c);
    let dropped = rs
        .iter()
        .find(|r| r.expr_line() == "[i32] DIOpArg(0, i32)")
        .unwrap_or_else(|| panic!("{:#?}", op_lines(&rs)));
    // Its location is the old argument 1's.
    assert_eq!(dropped.ctx.args.get(&0), c.ctx.args.get(&1));
    assert_eq!(dropped.ctx.args.len(), 1);
}

/// A location of several single locations may lose any one of them.
#[test]
fn a_location_with_several_single_locations_loses_one() {
    let c = case_of(
        "[i32] DIOpArg(0, i32)",
        "%a = i32 5\n%b = i32 5\narg 0 = %a | %b\n",
    );
    let rs = diopter_harness::minimize::reductions(&c);
    for alone in ["%a", "%b"] {
        let want = Context::parse(&format!("%a = i32 5\n%b = i32 5\narg 0 = {alone}\n")).unwrap();
        assert!(
            rs.iter().any(|r| r.ctx.args.get(&0) == want.args.get(&0)),
            "no reduction keeps only {alone}"
        );
    }
}

/// The minimizer's counts: each kept reduction is a step, each candidate
/// the predicate was asked about a try (the predicate is also asked about
/// the case itself and about each kept case read back from its file).
#[test]
fn minimize_counts_its_steps_and_tries() {
    use diopter_harness::minimize::{minimize, Options};
    use diopter_semantics::ast::Op;
    let c = case_of(
        "[i32, i32] DIOpArg(0, i32), DIOpArg(1, i32), DIOpAdd(), DIOpConstant(i32 3), DIOpMul()",
        "%a = i32 5\n%b = i32 7\narg 0 = %a\narg 1 = %b\n",
    );
    let mut calls = 0usize;
    let m = minimize(
        &c,
        &mut |k: &Case| {
            calls += 1;
            k.bare.expr.ops().any(|o| *o == Op::Add)
        },
        &Options::default(),
    );
    assert!(m.one_minimal);
    assert!(m.case.bare.expr.ops().any(|o| *o == Op::Add));
    assert!(m.case.bare.expr.ops.len() < c.bare.expr.ops.len());
    assert!(
        m.steps >= 2,
        "the multiplication and at least one operand go: {}",
        m.steps
    );
    assert!(m.tries >= m.steps);
    assert!(
        calls >= 1 + m.tries + m.steps,
        "{calls} {} {}",
        m.tries,
        m.steps
    );
}

/// A planted oracle compares locations as the oracle it wraps does.
#[test]
fn a_planted_oracle_keeps_its_inner_oracles_comparison() {
    use diopter_diff::Oracle;
    use diopter_harness::minimize::plant::{Plant, Planted};
    let fast = Planted::new(
        Box::new(diopter_harness::adapters::Fast::default()),
        Plant::AddOffByOne,
    );
    assert!(fast.exact_locations());
    let dwarf = Planted::new(
        Box::new(diopter_harness::adapters::Dwarf),
        Plant::AddOffByOne,
    );
    assert!(!dwarf.exact_locations());
}
