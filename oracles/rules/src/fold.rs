//! Constant folding, the rules that cannot be written as one pattern each:
//! for every arithmetic, bitwise, shift, convert, extend and reinterpret
//! operation, a rule `DIOpConstant(T ?a) [DIOpConstant(T ?b)] OP =>
//! DIOpConstant(U {term})` whose term is the operation's meaning on values
//! (the [`Term`](super::instance::Term) language the prover reasons in).
//!
//! They are generated per operation here and instantiated per width like
//! every rule ([`Rule::instances`](super::Rule::instances)), so the prover
//! proves them exactly as it proves the rule files; the simplifier applies
//! them by evaluating the term on the constants it matched
//! ([`eval_term`](super::term::eval_term)).
//!
//! Preconditions keep each rule inside the operation's defined domain:
//! division and remainder by zero are evaluation errors (so `?b != 0`),
//! float-to-int conversion of a NaN or out-of-range value is an error
//! (`FitsSInt`), and float results must not be NaN: a NaN's payload is
//! whatever IEEE arithmetic leaves, which the concrete evaluator shares with
//! the interpreter but an SMT float theory does not model.

use super::instance::{BinOp, Relation};
use super::pattern::{tvar, PatOp};
use super::term::{FloatFn, TermPat};
use super::{Class, Origin, Rule};
use diopter_semantics::ast::{Dialect, Op, Span};
use num_bigint::BigInt;

fn hole(n: &str) -> TermPat {
    TermPat::Hole(n.to_string(), Span::default())
}

fn chole(name: &str, ty: &str) -> PatOp {
    PatOp::ConstHole {
        name: name.to_string(),
        ty: tvar(ty),
        span: Span::default(),
    }
}

fn op(o: Op) -> PatOp {
    PatOp::Op {
        op: o,
        params: vec![],
        span: Span::default(),
    }
}

fn computed(ty: &str, term: TermPat) -> PatOp {
    PatOp::Computed {
        ty: tvar(ty),
        term,
        span: Span::default(),
    }
}

fn not_nan(kind: &str, t: TermPat) -> TermPat {
    TermPat::Not(Box::new(TermPat::Float {
        op: FloatFn::IsNaN,
        kind: tvar(kind),
        args: vec![t],
    }))
}

fn nonzero(n: &str) -> TermPat {
    TermPat::Bin(
        BinOp::Ne,
        Box::new(hole(n)),
        Box::new(TermPat::Lit(BigInt::from(0), Span::default())),
    )
}

#[allow(clippy::too_many_arguments)]
fn rule(
    name: &str,
    what: &str,
    vars: &[(&str, Class)],
    lhs: Vec<PatOp>,
    rhs: Vec<PatOp>,
    pre: Vec<TermPat>,
) -> Rule {
    Rule {
        name: name.to_string(),
        origin: Origin::Generated(what.to_string()),
        relation: Relation::Equivalent,
        dialects: vec![Dialect::DiExpr, Dialect::DiExpression],
        vars: vars.iter().map(|(v, c)| (v.to_string(), *c)).collect(),
        lhs,
        rhs,
        type_conds: vec![],
        pre,
        refuted: false,
        lemma: false,
    }
}

/// Every generated folding rule.
pub fn rules() -> Vec<Rule> {
    let mut out = Vec::new();
    // Integer binary operations: `a, b, OP` computes `a OP b` (the spec's
    // `V2 OP V1` with `L1` = `b` on top of the stack).
    let call = |f: &str| {
        let f = f.to_string();
        move |a: TermPat, b: TermPat| TermPat::Call(f.clone(), vec![a, b], Span::default())
    };
    type Mk = Box<dyn Fn(TermPat, TermPat) -> TermPat>;
    let bin = |o: BinOp| -> Mk { Box::new(move |a, b| TermPat::Bin(o, Box::new(a), Box::new(b))) };
    let int_ops: Vec<(Op, &str, Mk, bool)> = vec![
        (Op::Add, "add", bin(BinOp::Add), false),
        (Op::Sub, "sub", bin(BinOp::Sub), false),
        (Op::Mul, "mul", bin(BinOp::Mul), false),
        (Op::Div, "div", Box::new(call("sdiv")), true),
        (Op::Mod, "mod", Box::new(call("srem")), true),
        (Op::And, "and", Box::new(call("and")), false),
        (Op::Or, "or", Box::new(call("or")), false),
        (Op::Xor, "xor", Box::new(call("xor")), false),
        (Op::Shl, "shl", Box::new(call("shl")), false),
        (Op::Shr, "shr", Box::new(call("lshr")), false),
        (Op::LShr, "lshr", Box::new(call("lshr")), false),
        (Op::AShr, "ashr", Box::new(call("ashr")), false),
    ];
    for (o, n, mk, divides) in int_ops {
        let what = format!("constant folding of {} on integers", o.name());
        out.push(rule(
            &format!("fold-{n}-int"),
            &what,
            &[("T", Class::Int)],
            vec![chole("a", "T"), chole("b", "T"), op(o)],
            vec![computed("T", mk(hole("a"), hole("b")))],
            if divides { vec![nonzero("b")] } else { vec![] },
        ));
    }
    for (o, n, f) in [
        (Op::Add, "add", FloatFn::Add),
        (Op::Sub, "sub", FloatFn::Sub),
        (Op::Mul, "mul", FloatFn::Mul),
        (Op::Div, "div", FloatFn::Div),
    ] {
        let what = format!("constant folding of {} on floats", o.name());
        let result = TermPat::Float {
            op: f,
            kind: tvar("T"),
            args: vec![hole("a"), hole("b")],
        };
        out.push(rule(
            &format!("fold-{n}-float"),
            &what,
            &[("T", Class::Float)],
            vec![chole("a", "T"), chole("b", "T"), op(o)],
            vec![computed("T", result.clone())],
            vec![
                not_nan("T", hole("a")),
                not_nan("T", hole("b")),
                not_nan("T", result),
            ],
        ));
    }
    let resize = |f: &str| {
        TermPat::Call(
            f.to_string(),
            vec![hole("a"), TermPat::Type(tvar("U"), Span::default())],
            Span::default(),
        )
    };
    // Convert between integers: truncation, or (diexpr) zero extension.
    out.push(rule(
        "fold-convert-int-int",
        "constant folding of DIOpConvert between integers",
        &[("T", Class::Int), ("U", Class::Int)],
        vec![chole("a", "T"), op(Op::Convert(tvar("U")))],
        vec![computed("U", resize("zext"))],
        vec![],
    ));
    out.push(rule(
        "fold-convert-int-float",
        "constant folding of DIOpConvert from integers (signed) to floats",
        &[("T", Class::Int), ("U", Class::Float)],
        vec![chole("a", "T"), op(Op::Convert(tvar("U")))],
        vec![computed(
            "U",
            TermPat::Float {
                op: FloatFn::FromSInt,
                kind: tvar("U"),
                args: vec![hole("a")],
            },
        )],
        vec![],
    ));
    out.push(rule(
        "fold-convert-float-int",
        "constant folding of DIOpConvert from floats to (signed) integers",
        &[("T", Class::Float), ("U", Class::Int)],
        vec![chole("a", "T"), op(Op::Convert(tvar("U")))],
        vec![computed(
            "U",
            TermPat::Float {
                op: FloatFn::ToSInt(tvar("U")),
                kind: tvar("T"),
                args: vec![hole("a")],
            },
        )],
        vec![TermPat::Float {
            op: FloatFn::FitsSInt(tvar("U")),
            kind: tvar("T"),
            args: vec![hole("a")],
        }],
    ));
    let f2f = TermPat::Float {
        op: FloatFn::Convert(tvar("U")),
        kind: tvar("T"),
        args: vec![hole("a")],
    };
    out.push(rule(
        "fold-convert-float-float",
        "constant folding of DIOpConvert between floats",
        &[("T", Class::Float), ("U", Class::Float)],
        vec![chole("a", "T"), op(Op::Convert(tvar("U")))],
        vec![computed("U", f2f)],
        vec![not_nan("T", hole("a"))],
    ));
    out.push(rule(
        "fold-zext",
        "constant folding of DIOpZExt",
        &[("T", Class::Int), ("U", Class::Int)],
        vec![chole("a", "T"), op(Op::ZExt(tvar("U")))],
        vec![computed("U", resize("zext"))],
        vec![],
    ));
    out.push(rule(
        "fold-sext",
        "constant folding of DIOpSExt",
        &[("T", Class::Int), ("U", Class::Int)],
        vec![chole("a", "T"), op(Op::SExt(tvar("U")))],
        vec![computed("U", resize("sext"))],
        vec![],
    ));
    // Reinterpret keeps the bits; the checker makes the sizes equal.
    out.push(rule(
        "fold-reinterpret",
        "constant folding of DIOpReinterpret between integers and floats",
        &[("T", Class::Num), ("U", Class::Num)],
        vec![chole("a", "T"), op(Op::Reinterpret(tvar("U")))],
        vec![computed("U", hole("a"))],
        vec![],
    ));
    for r in &out {
        debug_assert!(super::measure::check_rule(r).is_ok(), "{} shrinks", r.name);
    }
    out
}
