//! `check::dialect_neutral` claims that an expression free of the
//! dialect-sensitive operations means the same in both dialects; `diopter
//! prove` relies on it to decide such a rule instance once for both
//! dialects. Checked here against the reference interpreter: generated
//! cases of one dialect, re-read in the other, must give the same outcome,
//! the same bits read and the same effect of a write.

use diopter_diff::{observe, Reference};
use diopter_gen::Generate;
use diopter_gen::{Case, GenConfig};
use diopter_semantics::ast::Dialect;
use diopter_semantics::check::dialect_neutral;

fn flipped(d: Dialect) -> Dialect {
    match d {
        Dialect::DiExpr => Dialect::DiExpression,
        Dialect::DiExpression => Dialect::DiExpr,
    }
}

#[test]
fn neutral_expressions_mean_the_same_in_both_dialects() {
    let mut compared = 0;
    let mut succeeded = 0;
    for seed in 0..6000u64 {
        let cfg = GenConfig {
            max_ops: 12,
            ..GenConfig::default()
        };
        let case = Case::from_seed(seed, &cfg);
        if !dialect_neutral(&case.bare.expr) {
            continue;
        }
        let mut twin = case.clone();
        twin.bare.expr.dialect = flipped(case.bare.expr.dialect);
        let (a, b) = (observe(&case, &Reference), observe(&twin, &Reference));
        assert_eq!(
            format!("{:?}|{:?}|{:?}", a.outcome, a.read, a.write),
            format!("{:?}|{:?}|{:?}", b.outcome, b.read, b.write),
            "seed {seed}: {} differs between the dialects",
            case.expr_line()
        );
        compared += 1;
        succeeded += usize::from(a.outcome.is_ok());
    }
    // The claim must have been put to the test on many expressions,
    // well-formed and evaluating ones among them.
    assert!(compared >= 1000, "only {compared} neutral cases");
    assert!(succeeded >= 200, "only {succeeded} neutral cases evaluated");
}

#[test]
fn the_sensitive_operations_are_not_neutral() {
    use diopter_semantics::ast::{Expr, Literal, Op};
    use diopter_semantics::types::Type;
    let i32t = Type::Int(32);
    for op in [
        Op::Referrer(i32t.clone()),
        Op::Convert(Type::Int(64)),
        Op::AddrOf(5),
    ] {
        let e = Expr::new(Dialect::DiExpr, vec![Op::Arg(0, i32t.clone()), op.clone()]);
        assert!(!dialect_neutral(&e), "{op:?} is dialect-sensitive");
    }
    let e = Expr::new(
        Dialect::DiExpr,
        vec![
            Op::Arg(0, i32t.clone()),
            Op::Constant(i32t, Literal::Int(1.into())),
            Op::Add,
        ],
    );
    assert!(dialect_neutral(&e));
}
