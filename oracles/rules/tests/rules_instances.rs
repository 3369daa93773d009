//! Instance enumeration (what the prover receives), the concrete term
//! evaluator the simplifier applies computed constants with, and the
//! termination measure of every rule.

use diopter_rules::instance::{BinOp, HoleKind, Instance, ResizeOp, Term};
use diopter_rules::term::{eval_term, is_nan};
use diopter_rules::{generated_rules, load_rule_files, measure, Rule, DEFAULT_WIDTHS};
use diopter_semantics::ast::{Dialect, Op};
use diopter_semantics::check::{check_expr, ArgInfo, Env, ReferrerInfo};
use diopter_semantics::types::{DataLayout, Type};
use diopter_semantics::value::{Bits, FloatKind};
use num_bigint::BigInt;
use std::path::PathBuf;

fn all_rules() -> Vec<Rule> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../corpus/rules");
    let mut rules = load_rule_files(&[dir]).unwrap();
    rules.extend(generated_rules());
    rules
}

fn rule(name: &str) -> Rule {
    all_rules()
        .into_iter()
        .find(|r| r.name == name)
        .unwrap_or_else(|| panic!("no rule {name}"))
}

fn bound(i: &Instance, var: &str) -> String {
    i.binding
        .iter()
        .find(|(k, _)| k == var)
        .map(|(_, v)| v.clone())
        .unwrap_or_default()
}

fn well_formed(i: &Instance, e: &diopter_semantics::ast::Expr) -> bool {
    let dl = DataLayout::llvm_default();
    let args: Vec<ArgInfo> = i
        .holes
        .iter()
        .map(|h| ArgInfo {
            ty: Some(h.ty.clone()),
            bits: None,
            poison: false,
        })
        .collect();
    let env = Env {
        dialect: i.dialect,
        dl: &dl,
        types: &i.types,
        args: Some(&args),
        referrer: &ReferrerInfo::Known {
            ty: None,
            bits: None,
        },
        var_bits: None,
    };
    check_expr(e, &env).is_ok()
}

#[test]
fn addrof_deref_instances() {
    let insts = rule("addrof-deref").instances(DEFAULT_WIDTHS);
    assert!(!insts.is_empty());
    let mut spaces = std::collections::BTreeSet::new();
    for i in &insts {
        assert_eq!(i.holes.len(), 1);
        assert_eq!(i.holes[0].kind, HoleKind::Expr);
        assert_eq!(i.holes[0].name, "x");
        let ops: Vec<&Op> = i.lhs.ops().collect();
        let t = &i.holes[0].ty;
        assert_eq!(ops[0], &Op::Arg(0, t.clone()));
        let Op::AddrOf(n) = ops[1] else {
            panic!("{ops:?}")
        };
        spaces.insert(*n);
        assert_eq!(ops[2], &Op::Deref(Some(t.clone())));
        assert_eq!(
            i.rhs.ops().collect::<Vec<_>>(),
            vec![&Op::Arg(0, t.clone())]
        );
        assert_eq!(bound(i, "?n"), n.to_string());
        assert!(i.pre.is_empty() && i.defs.is_empty());
    }
    assert_eq!(spaces.into_iter().collect::<Vec<_>>(), vec![0, 1, 5]);
    // Both dialects; the typed-pointer (seed) form only in diexpr.
    assert!(insts.iter().any(|i| i.dialect == Dialect::DiExpression));
    let seed = rule("addrof-deref-seed").instances(DEFAULT_WIDTHS);
    assert!(!seed.is_empty() && seed.iter().all(|i| i.dialect == Dialect::DiExpr));
}

#[test]
fn classes_enumerate_widths_floats_pointers_and_aggregates() {
    // int: exactly the widths asked for, in both dialects.
    let insts = rule("add-zero").instances(DEFAULT_WIDTHS);
    assert_eq!(insts.len(), 2 * DEFAULT_WIDTHS.len());
    for w in DEFAULT_WIDTHS {
        assert!(
            insts.iter().any(|i| bound(i, "T") == format!("i{w}")),
            "i{w}"
        );
    }
    // At the widths asked for and those its literal `0` calls for (its bit
    // length is 0: widths 1 and 2, see `diopter_rules::widths`).
    let few = rule("add-zero").instances(&[8]);
    let mut ws: Vec<String> = few.iter().map(|i| bound(i, "T")).collect();
    ws.sort();
    ws.dedup();
    assert_eq!(ws, ["i1", "i2", "i8"]);
    assert_eq!(few.len(), 6);
    // float: every kind the reference evaluates.
    let f = rule("fold-add-float").instances(&[8]);
    for k in ["half", "bfloat", "float", "double", "fp128", "x86_fp80"] {
        assert!(f.iter().any(|i| bound(i, "T") == k), "{k}");
    }
    // ptr: opaque in address spaces 0 and 5; typed pointers in diexpr.
    let p = rule("convert-same-ptr").instances(&[8]);
    for t in ["ptr", "ptr addrspace(5)"] {
        assert!(p.iter().any(|i| bound(i, "T") == t), "{t}");
    }
    assert!(p
        .iter()
        .any(|i| i.dialect == Dialect::DiExpr && bound(i, "T").ends_with('*')));
    assert!(!p
        .iter()
        .any(|i| i.dialect == Dialect::DiExpression && bound(i, "T").ends_with('*')));
    // any: a vector and a struct among the samples.
    let a = rule("reinterpret-same").instances(&[8]);
    assert!(a.iter().any(|i| bound(i, "T") == "<2 x i32>"));
    assert!(a.iter().any(|i| bound(i, "T").starts_with('{')));
}

#[test]
fn type_conditions_are_decided_at_instantiation() {
    let insts = rule("addrof-deref-retype").instances(DEFAULT_WIDTHS);
    assert!(!insts.is_empty());
    let width = |s: &str| -> u64 {
        match s {
            "half" | "bfloat" => 16,
            "float" => 32,
            "double" => 64,
            "x86_fp80" => 80,
            "fp128" => 128,
            _ => s[1..].parse().unwrap(),
        }
    };
    for i in &insts {
        assert_eq!(
            width(&bound(i, "T")),
            width(&bound(i, "U")),
            "{:?}",
            i.binding
        );
    }
    // convert-convert-int: width(V) <= width(U) in every instance.
    for i in rule("convert-convert-int").instances(&[8, 16, 32]) {
        assert!(width(&bound(&i, "V")) <= width(&bound(&i, "U")));
    }
}

#[test]
fn constant_holes_preconditions_and_computed_constants() {
    let insts = rule("offset-merge").instances(&[8]);
    assert!(!insts.is_empty());
    for i in &insts {
        let kinds: Vec<HoleKind> = i.holes.iter().map(|h| h.kind).collect();
        assert_eq!(
            kinds,
            vec![
                HoleKind::Expr,
                HoleKind::Const,
                HoleKind::Const,
                HoleKind::Const
            ]
        );
        assert_eq!(i.holes[1].ty, Type::Int(8));
        assert_eq!(i.pre.len(), 1);
        assert_eq!(i.defs.len(), 1);
        assert_eq!(i.defs[0].0, 3);
        assert_eq!(
            i.defs[0].1,
            Term::Bin(BinOp::Add, Box::new(Term::Hole(1)), Box::new(Term::Hole(2)))
        );
        // The right side uses the computed hole.
        assert!(i.rhs.ops().any(|o| *o == Op::Arg(3, Type::Int(8))));
        // add_nsw at 8 bits: 100 + 27 fits, 100 + 28 does not.
        let v = |a: i64, b: i64| {
            vec![
                None,
                Some(Bits::from_bigint(8, &a.into())),
                Some(Bits::from_bigint(8, &b.into())),
                None,
            ]
        };
        assert_eq!(
            eval_term(&i.pre[0], &v(100, 27)),
            Some(Bits::from_u64(1, 1))
        );
        assert_eq!(
            eval_term(&i.pre[0], &v(100, 28)),
            Some(Bits::from_u64(1, 0))
        );
        assert_eq!(
            eval_term(&i.pre[0], &v(-100, -28)),
            Some(Bits::from_u64(1, 1))
        );
        assert_eq!(
            eval_term(&i.pre[0], &v(-100, -29)),
            Some(Bits::from_u64(1, 0))
        );
    }
    // The generated division folding excludes a zero divisor.
    let d = &rule("fold-div-int").instances(&[32])[0];
    assert_eq!(
        d.pre,
        vec![Term::Bin(
            BinOp::Ne,
            Box::new(Term::Hole(1)),
            Box::new(Term::Lit {
                value: BigInt::from(0),
                width: 32
            })
        )]
    );
    assert_eq!(d.defs[0].0, 2);
    assert_eq!(
        d.origin,
        "generated: constant folding of DIOpDiv on integers"
    );
    // The constant-hole rule with a precondition.
    let z = &rule("add-zero-hole").instances(&[16])[0];
    assert_eq!(z.pre.len(), 1);
    assert_eq!(z.holes[1].kind, HoleKind::Const);
}

#[test]
fn every_rule_has_instances_and_library_instances_are_well_formed() {
    for r in all_rules() {
        let insts = r.instances(DEFAULT_WIDTHS);
        assert!(!insts.is_empty(), "{} has no instance", r.name);
        for i in &insts {
            assert!(well_formed(i, &i.lhs), "{}: lhs of {:?}", r.name, i.binding);
            assert_eq!(i.origin, r.origin.to_string());
            assert_eq!(i.rule, r.name);
            if !r.expect_refuted() {
                assert!(well_formed(i, &i.rhs), "{}: rhs of {:?}", r.name, i.binding);
            }
            // Hole k is DIOpArg(k, its type) on both sides.
            for op in i.lhs.ops().chain(i.rhs.ops()) {
                if let Op::Arg(k, t) = op {
                    assert_eq!(&i.holes[*k as usize].ty, t, "{}", r.name);
                }
            }
        }
    }
}

#[test]
fn every_rule_shrinks_the_measure() {
    for r in all_rules() {
        assert!(measure::check_rule(&r).is_ok(), "{}", r.name);
        assert!(measure::min_decrease(&r) >= 1, "{}", r.name);
    }
    assert_eq!(measure::weight(&Op::Read), 1);
    assert_eq!(measure::weight(&Op::Add), 2);
}

#[test]
fn the_concrete_term_evaluator() {
    let b = |w: u64, v: i64| Bits::from_bigint(w, &BigInt::from(v));
    let h = |k: usize| Box::new(Term::Hole(k));
    let vals = vec![
        Some(b(8, -128)),
        Some(b(8, -1)),
        Some(b(8, 9)),
        Some(b(8, 0)),
    ];
    let bin = |op, x, y| eval_term(&Term::Bin(op, h(x), h(y)), &vals);
    assert_eq!(
        bin(BinOp::SDiv, 0, 1),
        Some(b(8, -128)),
        "INT_MIN / -1 wraps"
    );
    assert_eq!(bin(BinOp::SRem, 0, 1), Some(b(8, 0)));
    assert_eq!(
        bin(BinOp::SDiv, 2, 3),
        None,
        "division by zero is undefined"
    );
    assert_eq!(
        bin(BinOp::Shl, 1, 2),
        Some(b(8, 0)),
        "an amount >= the width gives 0"
    );
    assert_eq!(bin(BinOp::AShr, 0, 2), Some(b(8, -1)), "or the sign fill");
    assert_eq!(bin(BinOp::LShr, 0, 1), Some(b(8, 0)));
    assert_eq!(bin(BinOp::Add, 0, 1), Some(b(8, 127)));
    assert_eq!(bin(BinOp::Slt, 0, 2), Some(Bits::from_u64(1, 1)));
    assert_eq!(bin(BinOp::Ult, 0, 2), Some(Bits::from_u64(1, 0)));
    let sext = Term::Resize(ResizeOp::Sext, 16, h(1));
    assert_eq!(eval_term(&sext, &vals), Some(b(16, -1)));
    let zext = Term::Resize(ResizeOp::Zext, 16, h(1));
    assert_eq!(eval_term(&zext, &vals), Some(b(16, 255)));
    let trunc = Term::Resize(ResizeOp::Trunc, 4, h(2));
    assert_eq!(eval_term(&trunc, &vals), Some(b(4, 9)));
    // Float NaN detection by kind.
    assert!(is_nan(FloatKind::Float, &Bits::from_u64(32, 0x7fc0_0000)));
    assert!(
        !is_nan(FloatKind::Float, &Bits::from_u64(32, 0x7f80_0000)),
        "infinity"
    );
    assert!(is_nan(FloatKind::Half, &Bits::from_u64(16, 0x7e00)));
    assert!(is_nan(FloatKind::BFloat, &Bits::from_u64(16, 0xffc1)));
    assert!(is_nan(
        FloatKind::Double,
        &Bits::from_u64(64, 0x7ff0_0000_0000_0001)
    ));
    assert!(!is_nan(
        FloatKind::Double,
        &Bits::from_u64(64, 0x3ff0_0000_0000_0000)
    ));
    // x86_fp80 as the reference reads it: the encodings the 387 refuses
    // are NaNs, except the pseudo-denormal, which is a number.
    let x87 = |raw: u128| is_nan(FloatKind::X86Fp80, &Bits::from_u128(80, raw));
    assert!(x87(0x7fff_c000_0000_0000_0000), "quiet NaN");
    assert!(x87(0x7fff_0000_0000_0000_0000), "pseudo-infinity");
    assert!(x87(0xffff_4000_0000_0000_0001), "pseudo-NaN");
    assert!(x87(0x3fff_0000_0000_0000_0000), "unnormal");
    assert!(!x87(0x7fff_8000_0000_0000_0000), "infinity");
    assert!(!x87(0x3fff_8000_0000_0000_0000), "1.0");
    assert!(!x87(0x0000_8000_0000_0000_0001), "pseudo-denormal");
    assert!(!x87(0x0000_0000_0000_0000_0001), "denormal");
}
