//! Helpers the prover's tests share: expressions and types from their
//! one-line text, and an instance's verdict.

#![allow(dead_code)]

use diopter_rules::instance::Instance;
use diopter_semantics::ast::Expr;
use diopter_semantics::syntax::parse_bare;
use diopter_semantics::types::Type;
use diopter_smt::prove::{prove_instance, ProveConfig, Verdict};

/// The operations `ops` as an expression (hole arguments `[?]`).
pub fn expr(ops: &str) -> Expr {
    parse_bare(&format!("[?] {ops}"))
        .unwrap_or_else(|d| panic!("{ops}: {}", d.message))
        .expr
}

/// The type written `s`.
pub fn ty(s: &str) -> Type {
    let b = parse_bare(&format!("[{s}] DIOpArg(0, {s})")).expect("a type");
    b.args.expect("args")[0].ty.clone()
}

/// The prover's verdict on `i` (a minute's timeout, no case split first).
pub fn verdict(i: &Instance) -> Verdict {
    prove_instance(
        i,
        &ProveConfig {
            timeout_ms: 60_000,
            split_first: false,
            deadline: None,
            values_first: false,
        },
    )
    .verdict
}

/// `i` is proved; a refutation prints its counterexample.
pub fn assert_proved(i: &Instance) {
    match verdict(i) {
        Verdict::Proved => {}
        Verdict::Refuted(c) => panic!("{} refuted:\n{}", i.rule, c.render()),
        v => panic!("{}: {v:?}", i.rule),
    }
}
