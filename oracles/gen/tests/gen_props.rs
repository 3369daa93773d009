//! The generators keep their promises: every generated expression is
//! accepted by the checker, stays within the configured bounds, prints in
//! the one-line form and parses back to the same expression; every
//! generated context prints in the context format and parses back to the
//! same context; exhausted or tiny inputs still make valid cases.

use diopter_gen::entropy::SplitMix;
use diopter_gen::Generate;
use diopter_gen::{self as gen, Case, GenConfig};
use diopter_semantics::ast::Dialect;
use diopter_semantics::check::check_bare;
use diopter_semantics::context::Context;
use diopter_semantics::interp::{eval_bare, ErrorKind};
use diopter_semantics::syntax::{parse_bare, print_bare};
use proptest::prelude::*;
use proptest::test_runner::FileFailurePersistence;

/// Everything a generated case must satisfy.
fn check_case(case: &Case, cfg: &GenConfig) {
    let line = case.expr_line();
    if let Err(ds) = check_bare(&case.bare, case.datalayout(), &case.types) {
        let msgs: Vec<String> = ds.iter().map(|d| d.to_string()).collect();
        panic!("the checker rejects a generated expression:\n  {line}\n  {msgs:?}\ntypes: {:?}\ncontext:\n{}", case.types, case.ctx);
    }
    assert!(
        case.bare.expr.ops.len() <= cfg.max_ops.max(3),
        "{} operations (max {}): {line}",
        case.bare.expr.ops.len(),
        cfg.max_ops
    );
    let result_bits = check_bare(&case.bare, case.datalayout(), &case.types)
        .ok()
        .and_then(|c| case.datalayout().bitsizeof(&c.result, &case.types).ok())
        .unwrap_or(0);
    assert!(
        result_bits <= 3 * cfg.max_type_bits,
        "a {result_bits}-bit result (bound {}): {line}",
        cfg.max_type_bits
    );
    let again = parse_bare(&line).unwrap_or_else(|d| panic!("`{line}` does not parse back: {d}"));
    assert_eq!(again, case.bare, "{line}");
    assert_eq!(print_bare(&again), line);
    let text = case.ctx.to_string();
    let ctx = Context::parse(&text).unwrap_or_else(|ds| {
        let msgs: Vec<String> = ds.iter().map(|d| d.to_string()).collect();
        panic!("the context does not parse back: {msgs:?}\n{text}")
    });
    assert_eq!(ctx, case.ctx, "context round trip:\n{text}");
    // The checker is sound on generated expressions too.
    if let Err(e) = eval_bare(&case.bare, &case.types, &case.ctx) {
        assert_ne!(
            e.kind,
            ErrorKind::IllFormed,
            "checked expression is ill-formed at run time: {e}\n  {line}\ncontext:\n{text}"
        );
    }
}

#[test]
fn seeded_cases_are_well_formed_and_round_trip() {
    let cfg = GenConfig::default();
    for seed in 0..3000 {
        check_case(&Case::from_seed(seed, &cfg), &cfg);
    }
}

#[test]
fn both_dialects_and_small_bounds() {
    for dialect in [Dialect::DiExpr, Dialect::DiExpression] {
        for max_ops in [1, 2, 3, 5, 8, 16] {
            let cfg = GenConfig {
                max_ops,
                max_type_bits: 256,
                dialect: Some(dialect),
                ..GenConfig::default()
            };
            for seed in 0..200 {
                let c = Case::from_seed(seed, &cfg);
                assert_eq!(c.bare.expr.dialect, dialect);
                check_case(&c, &cfg);
            }
        }
    }
}

#[test]
fn exhausted_and_tiny_inputs_make_valid_cases() {
    let cfg = GenConfig::default();
    check_case(&Case::from_bytes(&[], &cfg), &cfg);
    for b in 0..=255u8 {
        check_case(&Case::from_bytes(&[b], &cfg), &cfg);
        check_case(&Case::from_bytes(&[b; 7], &cfg), &cfg);
        check_case(&Case::from_bytes(&[b, 255 - b, b / 3, 17], &cfg), &cfg);
    }
}

#[test]
fn byte_driven_cases_vary() {
    // Different inputs give different cases (the bytes are not ignored).
    let cfg = GenConfig::default();
    let mut lines = std::collections::BTreeSet::new();
    let mut s = SplitMix(7);
    for _ in 0..200 {
        let bytes: Vec<u8> = (0..256)
            .map(|_| diopter_gen::entropy::Entropy::below(&mut s, 256) as u8)
            .collect();
        lines.insert(Case::from_bytes(&bytes, &cfg).expr_line());
    }
    assert!(lines.len() > 150, "{} distinct of 200", lines.len());
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 500,
        // Failures are kept (and replayed first) in oracles/gen/proptest-regressions/.
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct("proptest-regressions/gen_props.txt"))),
        ..ProptestConfig::default()
    })]

    #[test]
    fn byte_strategy_cases_are_well_formed(case in gen::strategy(GenConfig::default())) {
        check_case(&case, &GenConfig::default());
    }
}
