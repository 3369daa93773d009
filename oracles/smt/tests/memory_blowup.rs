//! `fuzz/regressions/smt/encoding-memory-blowup.case` through the concrete
//! SMT path (`diopter replay --smt`): it once needed more than 4 GB, because
//! every state merge of a write duplicated the addresses both states had
//! written (4x per lane of its `DIOpSelect`). It must now agree with the
//! reference within a small work budget, and a budget too small must give
//! the "too large" diagnostic, not agreement and not an abort.

use diopter_smt::concrete::{compare_with_reference, compare_within, Comparison};

fn case() -> diopter_gen::Case {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../fuzz/regressions/smt/encoding-memory-blowup.case"
    );
    let text = std::fs::read_to_string(path).expect("the regression case is readable");
    diopter_diff::read_case_file(&text).expect("the regression case parses")
}

#[test]
fn the_blowup_case_agrees_within_a_small_budget() {
    let c = case();
    // The work it needs is about 6,000 units; the exponential growth needed
    // more than 10^9 (addresses alone).
    assert_eq!(
        compare_within(&c.bare, &c.types, &c.ctx, 20_000),
        Comparison::Agree
    );
    assert_eq!(
        compare_with_reference(&c.bare, &c.types, &c.ctx),
        Comparison::Agree
    );
}

#[test]
fn an_exceeded_budget_is_unsupported_not_agreement() {
    let c = case();
    match compare_within(&c.bare, &c.types, &c.ctx, 100) {
        Comparison::Unsupported(m) => assert!(m.contains("budget of 100"), "{m}"),
        other => panic!("expected the budget diagnostic, got {other:?}"),
    }
}
