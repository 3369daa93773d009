//! The prover's exhaustive fallback (issue #15, part 3): an instance Z3
//! gives up on (here: a timeout of 1 ms) whose holes total at most 16 bits is
//! decided by trying every input, proved ("proved (exhaustive, N inputs)")
//! or refuted with a counterexample the reference interpreter confirms.

use diopter_rules::instance::{Hole, HoleKind, Instance, Relation};
use diopter_semantics::ast::Dialect;
use diopter_semantics::types::TypeTable;
use diopter_smt::prove::{decide_exhaustively, prove_instance, ProveConfig, Verdict};
use std::time::Instant;

mod support;
use support::{expr, ty};

fn instance(name: &str, holes: &[(&str, &str, HoleKind)], lhs: &str, rhs: &str) -> Instance {
    Instance {
        rule: name.into(),
        origin: "tests/prove_exhaustive.rs".into(),
        relation: Relation::Equivalent,
        dialect: Dialect::DiExpression,
        binding: vec![],
        holes: holes
            .iter()
            .map(|(n, t, k)| Hole {
                name: (*n).into(),
                ty: ty(t),
                kind: *k,
            })
            .collect(),
        types: TypeTable::default(),
        lhs: expr(lhs),
        rhs: expr(rhs),
        pre: vec![],
        defs: vec![],
    }
}

fn decide(i: &Instance, timeout_ms: u32) -> Verdict {
    let t = Instant::now();
    let v = prove_instance(
        i,
        &ProveConfig {
            timeout_ms,
            split_first: false,
            deadline: None,
            values_first: false,
        },
    )
    .verdict;
    eprintln!("{}: {v:?} in {} ms", i.rule, t.elapsed().as_millis());
    v
}

const X: HoleKind = HoleKind::Expr;
const C: HoleKind = HoleKind::Const;

#[test]
fn i8_through_half_and_back_is_proved_exhaustively() {
    let i = instance(
        "i8-half-i8",
        &[("x", "i8", X)],
        "DIOpArg(0, i8), DIOpConvert(half), DIOpConvert(double), DIOpConvert(float), DIOpConvert(i8)",
        "DIOpArg(0, i8), DIOpRead()",
    );
    // With the whole time Z3 proves it (in tens of milliseconds): the
    // fallback must agree.
    let whole = decide(&i, 10_000);
    assert!(matches!(whole, Verdict::Proved), "{whole:?}");
    match decide(&i, 1) {
        Verdict::ProvedExhaustive(n) => assert_eq!(n, 256),
        Verdict::Proved => {
            panic!("Z3 decided it within 1 ms: the test no longer exercises the fallback")
        }
        v => panic!("{v:?}"),
    }
}

#[test]
fn i8_through_half_to_i4_is_refuted_exhaustively() {
    // Out of i4's range the conversion fails, the truncation does not.
    let i = instance(
        "i8-half-i4",
        &[("x", "i8", X)],
        "DIOpArg(0, i8), DIOpConvert(half), DIOpConvert(i4)",
        "DIOpArg(0, i8), DIOpConvert(i4)",
    );
    match decide(&i, 1) {
        Verdict::Refuted(c) => {
            assert!(c.confirmed());
            eprintln!("{}", c.render());
        }
        v => panic!("{v:?}"),
    }
    // Z3 may have found that one within 1 ms; the exhaustive search alone
    // refutes it too.
    match exhaustive_only(&i) {
        Verdict::Refuted(c) => {
            assert!(c.confirmed());
            assert!(
                c.differences.iter().any(|d| d.contains("fails")),
                "{}",
                c.render()
            );
        }
        v => panic!("{v:?}"),
    }
}

fn exhaustive_only(i: &Instance) -> Verdict {
    decide_exhaustively(i, &ProveConfig::default())
        .expect("the instance has at most 16 bits of input")
}

#[test]
fn wider_inputs_are_not_tried_exhaustively() {
    let i = instance(
        "i32-float-i32",
        &[("x", "i32", X)],
        "DIOpArg(0, i32), DIOpConvert(float), DIOpConvert(i32)",
        "DIOpArg(0, i32), DIOpRead()",
    );
    assert!(decide_exhaustively(&i, &ProveConfig::default()).is_none());
    let two = instance(
        "i8-i16",
        &[("x", "i8", X), ("y", "i16", C)],
        "DIOpArg(0, i8), DIOpConvert(i8)",
        "DIOpArg(0, i8), DIOpRead()",
    );
    assert!(decide_exhaustively(&two, &ProveConfig::default()).is_none());
}

#[test]
fn half_constant_rules_decide_exhaustively() {
    // True: widening twice then narrowing back is one widening and back.
    let t = instance(
        "half-float-double-half",
        &[("c", "half", C)],
        "DIOpArg(0, half), DIOpConvert(float), DIOpConvert(double), DIOpConvert(half)",
        "DIOpArg(0, half), DIOpConvert(float), DIOpConvert(half)",
    );
    match decide(&t, 1) {
        Verdict::ProvedExhaustive(n) => assert_eq!(n, 65536),
        Verdict::Proved => {}
        v => panic!("{v:?}"),
    }
    // False: a signalling NaN comes back quiet.
    let f = instance(
        "half-float-half",
        &[("x", "half", X)],
        "DIOpArg(0, half), DIOpConvert(float), DIOpConvert(half)",
        "DIOpArg(0, half), DIOpRead()",
    );
    match decide(&f, 1) {
        Verdict::Refuted(c) => {
            assert!(c.confirmed());
            eprintln!("{}", c.render());
        }
        v => panic!("{v:?}"),
    }
    match exhaustive_only(&f) {
        Verdict::Refuted(c) => {
            assert!(c.confirmed());
            // An sNaN (exponent all ones, quiet bit clear, payload not 0).
            let x = c.inputs[0]
                .bits
                .as_ref()
                .expect("bits")
                .to_u128()
                .expect("16 bits");
            assert_eq!(x & 0x7e00, 0x7c00, "{}", c.render());
            assert_ne!(x & 0x1ff, 0, "{}", c.render());
        }
        v => panic!("{v:?}"),
    }
}
