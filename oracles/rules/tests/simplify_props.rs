//! The simplifier against the reference interpreter on generated cases
//! (DESIGN.md's equivalence, through `diopter_empirical::relate`, which
//! classifies `diff::observe`'s observations with `diff::classify`):
//!
//! * `reference(e)` and `reference(simplify(e))` relate as equivalent;
//! * replacing one subexpression by its simplified form inside the larger
//!   expression keeps the outcome (congruence);
//! * the result is a fixpoint: simplifying it again applies no rule, and
//!   every step shrinks the termination measure.

use diopter_empirical::simplify::{congruence, is_fixpoint, simplify_diff};
use diopter_gen::Generate;
use diopter_gen::{strategy, Case, GenConfig};
use diopter_rules::simplify::Simplifier;
use diopter_rules::{load_rule_files, measure};
use proptest::prelude::*;
use proptest::test_runner::FileFailurePersistence;
use std::path::PathBuf;
use std::sync::OnceLock;

fn simplifier() -> &'static Simplifier {
    static S: OnceLock<Simplifier> = OnceLock::new();
    S.get_or_init(|| {
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../corpus/rules");
        Simplifier::new(load_rule_files(&[dir]).expect("the rule library loads"))
    })
}

/// Smaller expressions than the default, so that the rules' left sides
/// (constants next to constants, offsets next to offsets) come up often.
fn cfg() -> GenConfig {
    GenConfig {
        max_ops: 16,
        ..GenConfig::default()
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 3000,
        // A failing case is kept (and replayed first) in the repository.
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct(
            "proptest-regressions/simplify_props.txt",
        ))),
        ..ProptestConfig::default()
    })]

    #[test]
    fn simplify_keeps_the_meaning(case in strategy(cfg())) {
        let (v, simple, steps) = simplify_diff(simplifier(), &case);
        prop_assert!(
            !v.is_disagreement(),
            "{v}\nexpression: {}\nsimplified: {}\nrules: {:?}",
            case.expr_line(),
            simple.expr_line(),
            steps.iter().map(|s| &s.rule).collect::<Vec<_>>()
        );
    }

    #[test]
    fn simplifying_a_subexpression_keeps_the_meaning(case in strategy(cfg()), pick in any::<usize>()) {
        if let Some((v, other)) = congruence(simplifier(), &case, pick) {
            prop_assert!(
                !v.is_disagreement(),
                "{v}\nexpression: {}\nwith a subexpression simplified: {}",
                case.expr_line(),
                other.expr_line()
            );
        }
    }

    #[test]
    fn the_result_is_a_fixpoint_and_every_step_shrinks(case in strategy(cfg())) {
        let s = simplifier();
        prop_assert!(is_fixpoint(s, &case), "not a fixpoint: {}", case.expr_line());
        let r = s.simplify(&case.bare.expr, &case.ctx.datalayout, &case.types);
        let mut m = measure::measure(case.bare.expr.ops());
        for st in &r.steps {
            prop_assert!(st.measure < m, "{} did not shrink the measure ({} -> {})", st.rule, m, st.measure);
            m = st.measure;
        }
        prop_assert!(r.steps.len() as u64 <= measure::measure(case.bare.expr.ops()));
    }
}

/// The properties above are only worth something if rules fire: over a
/// fixed set of seeds, many cases are rewritten and many rules are used.
#[test]
fn generated_cases_exercise_the_rules() {
    let s = simplifier();
    let mut rewritten = 0;
    let mut used = std::collections::BTreeSet::new();
    for seed in 0..2000u64 {
        let case = Case::from_seed(seed, &cfg());
        let r = s.simplify(&case.bare.expr, &case.ctx.datalayout, &case.types);
        if !r.steps.is_empty() {
            rewritten += 1;
        }
        used.extend(r.steps.into_iter().map(|st| st.rule));
    }
    println!(
        "{rewritten} of 2000 cases rewritten, {} rules used: {used:?}",
        used.len()
    );
    assert!(rewritten >= 200, "only {rewritten} of 2000 cases rewritten");
    assert!(used.len() >= 15, "only {} rules used: {used:?}", used.len());
}
