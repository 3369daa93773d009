//! Differential checks of the simplifier against the reference interpreter,
//! shared by the property tests (`oracles/rules/tests/simplify_props.rs`,
//! `oracles/empirical/tests/simplify_check.rs`) and the
//! fuzz target `simplify_diff`:
//!
//! * [`simplify_diff`]: `reference(e)` against `reference(simplify(e))`,
//!   related by DESIGN.md's equivalence ([`crate::relate`]);
//! * [`congruence`]: one subexpression of `e` replaced by its simplified
//!   form, the whole compared with `e` the same way (the rules must be
//!   sound *inside* any expression, not just at the top);
//! * [`is_fixpoint`]: the result is canonical, simplifying it again changes
//!   nothing.

use crate::relate;
use diopter_diff::{self as diff, Reference, Verdict};
use diopter_gen::Case;
use diopter_rules::instance::Relation;
use diopter_rules::simplify::{Simplifier, Step};
use diopter_semantics::ast::{Expr, Op};
use diopter_semantics::check;
use diopter_semantics::syntax::print_bare;
use std::path::Path;

/// `case` with its expression simplified, and the rules applied.
pub fn simplified_case(s: &Simplifier, case: &Case) -> (Case, Vec<Step>) {
    let r = s.simplify(&case.bare.expr, &case.ctx.datalayout, &case.types);
    let mut out = case.clone();
    out.bare.expr = r.expr;
    (out, r.steps)
}

/// How `case` and `other` (the same context, another expression) relate.
///
/// Two successes with the same type and location description read and
/// write alike (reading and writing depend only on those and the
/// context), so they agree without being observed, unless reading them
/// meets an inconsistent multi-location; everything else is observed in
/// full and related by [`relate`]. (The shortcut is what keeps fuzzing
/// fast; the verdict is the same either way.)
pub fn compare(case: &Case, other: &Case) -> Verdict {
    use diff::Oracle;
    let a = Reference.eval(case);
    let b = Reference.eval(other);
    if let (Ok(x), Ok(y)) = (&a, &b) {
        if x == y {
            return match diopter_semantics::interp::read_value(&case.ctx, x) {
                Err(e) if e.kind == diopter_semantics::location::ReadErrorKind::Inconsistent => {
                    Verdict::InconsistentContext { detail: e.message }
                }
                _ => Verdict::Agree,
            };
        }
    }
    relate(
        &diff::observe(case, &Reference),
        &diff::observe(other, &Reference),
        Relation::Equivalent,
    )
}

/// The verdict of `reference(e)` against `reference(simplify(e))`, with the
/// simplified case and the rules applied. When no rule applies there is
/// nothing to compare: `Skipped`.
pub fn simplify_diff(s: &Simplifier, case: &Case) -> (Verdict, Case, Vec<Step>) {
    let (simple, steps) = simplified_case(s, case);
    if steps.is_empty() {
        let v = Verdict::Skipped {
            reason: "no rule applies".into(),
        };
        return (v, simple, steps);
    }
    (compare(case, &simple), simple, steps)
}

/// The operation ranges of `e` that are subexpressions pushing one entry
/// (`start..=end` as `(start, end)`), skipping any that contain a
/// `DIOpFragment`; `None` when the operations are not one expression.
pub fn subexpressions(e: &Expr) -> Option<Vec<(usize, usize)>> {
    let ops: Vec<&Op> = e.ops().collect();
    let mut start: Vec<usize> = Vec::with_capacity(ops.len());
    let mut stack: Vec<usize> = Vec::new();
    let mut out = Vec::new();
    for (i, op) in ops.iter().enumerate() {
        if matches!(op, Op::Fragment(..)) {
            start.push(i);
            continue;
        }
        let n = check::arity(op, e.dialect);
        if stack.len() < n {
            return None;
        }
        let kids = stack.split_off(stack.len() - n);
        let s = kids.first().map_or(i, |k| start[*k]);
        start.push(s);
        stack.push(i);
        if !ops[s..=i].iter().any(|o| matches!(o, Op::Fragment(..))) {
            out.push((s, i));
        }
    }
    Some(out)
}

/// Replaces subexpression number `pick` (modulo their count) of `case` by
/// its simplified form and compares the result with `case`. `None` when
/// the case has no subexpression or simplifying it changes nothing.
pub fn congruence(s: &Simplifier, case: &Case, pick: usize) -> Option<(Verdict, Case)> {
    let subs = subexpressions(&case.bare.expr)?;
    if subs.is_empty() {
        return None;
    }
    let (a, b) = subs[pick % subs.len()];
    let ops: Vec<Op> = case.bare.expr.ops().cloned().collect();
    let sub = Expr::new(case.bare.expr.dialect, ops[a..=b].to_vec());
    let r = s.simplify(&sub, &case.ctx.datalayout, &case.types);
    if r.steps.is_empty() {
        return None;
    }
    let mut new_ops = ops[..a].to_vec();
    new_ops.extend(r.expr.ops().cloned());
    new_ops.extend(ops[b + 1..].iter().cloned());
    let mut other = case.clone();
    other.bare.expr = Expr::new(case.bare.expr.dialect, new_ops);
    Some((compare(case, &other), other))
}

/// Whether simplifying `e`'s simplified form applies no rule.
pub fn is_fixpoint(s: &Simplifier, case: &Case) -> bool {
    let (simple, _) = simplified_case(s, case);
    let again = s.simplify(&simple.bare.expr, &case.ctx.datalayout, &case.types);
    again.steps.is_empty() && again.expr == simple.bare.expr
}

/// The body of the `simplify_diff` fuzz target: a generated case, its
/// reference outcome against its simplified form's. On a disagreement the
/// original case is written as a case file under `case_dir` (when given),
/// with the simplified expression and the rules applied as comments, and
/// the error says so.
pub fn fuzz_simplify_diff(
    s: &Simplifier,
    case: &Case,
    case_dir: Option<&Path>,
) -> Result<(), String> {
    let (v, simple, steps) = simplify_diff(s, case);
    if !v.is_disagreement() {
        return Ok(());
    }
    let rules = step_lines(&steps);
    let mut msg = format!(
        "simplification changes the meaning: {v}\nexpression: {}\nsimplified: {}\nrules:\n  {}",
        case.expr_line(),
        print_bare(&simple.bare),
        rules.join("\n  ")
    );
    if let Some(dir) = case_dir {
        match write_case(case, &simple, &rules, dir) {
            Ok(path) => msg.push_str(&format!(
                "\ncase file: {}\nreproduce: {} (and the simplified line above)",
                path.display(),
                diff::repro_command(&path)
            )),
            Err(e) => msg.push_str(&format!(
                "\n(writing a case file in {} failed: {e})",
                dir.display()
            )),
        }
    }
    Err(msg)
}

/// Writes `case` as a case file under `dir`, named after its contents, with
/// its simplified form and the rules applied (`rules`, one line each) as
/// comments; returns its path.
pub fn write_case(
    case: &Case,
    simple: &Case,
    rules: &[String],
    dir: &Path,
) -> std::io::Result<std::path::PathBuf> {
    let mut text = String::new();
    text.push_str(&format!("# simplified: {}\n", print_bare(&simple.bare)));
    for r in rules {
        text.push_str(&format!("# rule: {r}\n"));
    }
    text.push_str(&diff::case_file_text(case, &["reference"], None));
    let h = text.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    });
    let path = dir.join(format!("simplify-{h:016x}.case"));
    std::fs::create_dir_all(dir).and_then(|()| std::fs::write(&path, text))?;
    Ok(path)
}

/// The rules applied, one line each, as case files and messages show them.
pub fn step_lines(steps: &[Step]) -> Vec<String> {
    steps
        .iter()
        .map(|st| {
            format!(
                "{} ({}) at #{}: {} => {}",
                st.rule, st.origin, st.at, st.before, st.after
            )
        })
        .collect()
}
