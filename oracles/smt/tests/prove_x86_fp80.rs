//! The prover on rules over x86_fp80, as a user would write them: one that
//! holds is proved, ones that do not are refuted with a counterexample the
//! reference interpreter confirms, and the counterexample is the kind of
//! input that breaks the rule.

use diopter_rules::instance::{Hole, HoleKind, Instance, Relation};
use diopter_semantics::ast::Dialect;
use diopter_semantics::types::TypeTable;
use diopter_semantics::value::{self, Bits, FloatKind};
use diopter_smt::prove::{Counterexample, Verdict};

mod support;
use support::{assert_proved, expr, ty, verdict};

/// `?x:t, lhs => ?x, rhs`, in the live dialect.
fn instance(name: &str, t: &str, lhs: &str, rhs: &str) -> Instance {
    Instance {
        rule: name.into(),
        origin: "tests/prove_x86_fp80.rs".into(),
        relation: Relation::Equivalent,
        dialect: Dialect::DiExpression,
        binding: vec![],
        holes: vec![Hole {
            name: "x".into(),
            ty: ty(t),
            kind: HoleKind::Expr,
        }],
        types: TypeTable::default(),
        lhs: expr(&format!("DIOpArg(0, {t}), {lhs}")),
        rhs: expr(&format!("DIOpArg(0, {t}), {rhs}")),
        pre: vec![],
        defs: vec![],
    }
}

/// The refutation of `i`, which the reference must confirm.
fn refuted(i: &Instance) -> Counterexample {
    match verdict(i) {
        Verdict::Refuted(c) => {
            assert!(
                c.confirmed(),
                "not confirmed by the reference:\n{}",
                c.render()
            );
            eprintln!("{}", c.render());
            *c
        }
        v => panic!("{} should be refuted: {v:?}", i.rule),
    }
}

/// The bits of the counterexample's only input.
fn input(c: &Counterexample) -> Bits {
    c.inputs[0].bits.clone().expect("the input's bits")
}

#[test]
fn i64_through_x86_fp80_and_back_is_the_value() {
    // x86_fp80's significand has 64 bits: every i64 converts exactly.
    assert_proved(&instance(
        "i64-x87-i64",
        "i64",
        "DIOpConvert(x86_fp80), DIOpConvert(i64)",
        "DIOpRead()",
    ));
}

#[test]
fn i66_through_x86_fp80_and_back_is_not() {
    // (i65 goes through: its magnitudes are at most 2^64.)
    let c = refuted(&instance(
        "i66-x87-i66",
        "i66",
        "DIOpConvert(x86_fp80), DIOpConvert(i66)",
        "DIOpRead()",
    ));
    // An integer with more than 64 significant bits.
    let v = input(&c).to_bigint();
    let m = v.magnitude();
    let significant = m.bits() - m.trailing_zeros().unwrap_or(0);
    assert!(significant > 64, "{v}: {}", c.render());
}

#[test]
fn narrower_floats_through_x86_fp80_are_converted_exactly() {
    // Every half, bfloat, float and double value is an x86_fp80 value, and
    // a NaN's payload comes back (quieted, as a conversion to the kind
    // itself quiets it).
    for k in ["half", "bfloat", "float", "double"] {
        assert_proved(&instance(
            &format!("{k}-x87-{k}"),
            k,
            &format!("DIOpConvert(x86_fp80), DIOpConvert({k})"),
            &format!("DIOpConvert({k})"),
        ));
    }
}

#[test]
fn x86_fp80_through_double_and_back_is_not_the_value() {
    let c = refuted(&instance(
        "x87-double-x87",
        "x86_fp80",
        "DIOpConvert(double), DIOpConvert(x86_fp80)",
        "DIOpRead()",
    ));
    assert!(
        c.differences.iter().any(|d| d.contains("reads")),
        "{}",
        c.render()
    );
}

#[test]
fn x86_fp80_converted_to_itself_is_not_a_read() {
    // Converting quiets signalling NaNs (and the encodings read as NaNs)
    // and writes pseudo-denormals canonically: the input is one of those.
    let c = refuted(&instance(
        "x87-x87",
        "x86_fp80",
        "DIOpConvert(x86_fp80)",
        "DIOpRead()",
    ));
    let x = input(&c);
    let raw = x.to_u128().expect("80 bits");
    let pseudo_denormal = (raw >> 64) & 0x7fff == 0 && (raw >> 63) & 1 == 1;
    assert!(
        value::float_is_nan(FloatKind::X86Fp80, &x) || pseudo_denormal,
        "{}",
        c.render()
    );
}
