//! The simplifier on hand-written expressions: the canonical forms it
//! produces, what it must leave alone, termination on long inputs, and
//! well-formedness and idempotence on the whole corpus.

use diopter_rules::simplify::{Simplified, Simplifier};
use diopter_rules::{load_rule_files, measure};
use diopter_semantics::check::check_bare;
use diopter_semantics::diag::Source;
use diopter_semantics::syntax::{parse_bare, parse_expr_file, print_bare};
use diopter_semantics::types::{DataLayout, TypeTable};
use std::path::PathBuf;
use std::sync::OnceLock;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn simplifier() -> &'static Simplifier {
    static S: OnceLock<Simplifier> = OnceLock::new();
    S.get_or_init(|| Simplifier::new(load_rule_files(&[root().join("corpus/rules")]).unwrap()))
}

fn run(line: &str) -> (String, Simplified) {
    let b = parse_bare(line).unwrap_or_else(|d| panic!("{line}: {d}"));
    let dl = DataLayout::llvm_default();
    check_bare(&b, &dl, &TypeTable::default()).unwrap_or_else(|d| panic!("{line}: {d:?}"));
    let r = simplifier().simplify(&b.expr, &dl, &TypeTable::default());
    let mut out = b.clone();
    out.expr = r.expr.clone();
    check_bare(&out, &dl, &TypeTable::default())
        .unwrap_or_else(|d| panic!("{line} simplified to an ill-formed expression: {d:?}"));
    (print_bare(&out), r)
}

fn simplified(line: &str) -> String {
    run(line).0
}

#[test]
fn canonical_forms() {
    let cases: &[(&str, &str)] = &[
        ("[i32] DIOpArg(0, i32), DIOpConstant(i32 0), DIOpAdd()", "[i32] DIOpArg(0, i32), DIOpRead()"),
        ("[i32] DIOpConstant(i32 0), DIOpArg(0, i32), DIOpAdd()", "[i32] DIOpArg(0, i32), DIOpRead()"),
        ("[i13] DIOpArg(0, i13), DIOpConstant(i13 zeroinitializer), DIOpShl()", "[i13] DIOpArg(0, i13), DIOpRead()"),
        ("[i32] DIOpArg(0, i32), DIOpConstant(i32 3), DIOpAdd(), DIOpConstant(i32 -3), DIOpAdd()", "[i32] DIOpArg(0, i32), DIOpRead()"),
        ("[i8] DIOpArg(0, i8), DIOpConstant(i8 100), DIOpAdd(), DIOpConstant(i8 100), DIOpAdd()", "[i8] DIOpArg(0, i8), DIOpConstant(i8 -56), DIOpAdd()"),
        ("[] DIOpConstant(i32 6), DIOpConstant(i32 7), DIOpMul(), DIOpConstant(i32 2), DIOpSub()", "[] DIOpConstant(i32 40)"),
        ("[] DIOpConstant(i8 -128), DIOpConstant(i8 -1), DIOpDiv()", "[] DIOpConstant(i8 -128)"),
        ("[] DIOpConstant(i32 -7), DIOpConstant(i32 2), DIOpMod()", "[] DIOpConstant(i32 -1)"),
        ("[] DIOpConstant(i16 1), DIOpConstant(i16 20), DIOpShl()", "[] DIOpConstant(i16 0)"),
        ("[] DIOpConstant(i8 -16), DIOpConstant(i8 2), DIOpAShr()", "[] DIOpConstant(i8 -4)"),
        ("[] DIOpConstant(i8 -16), DIOpZExt(i32)", "[] DIOpConstant(i32 240)"),
        ("[] DIOpConstant(i8 -16), DIOpSExt(i32)", "[] DIOpConstant(i32 -16)"),
        ("[] DIOpConstant(i32 300), DIOpConvert(i8)", "[] DIOpConstant(i8 44)"),
        ("[] DIOpConstant(i32 -3), DIOpConvert(double)", "[] DIOpConstant(double -3.000000e+00)"),
        ("[] DIOpConstant(float 2.5), DIOpConvert(i32)", "[] DIOpConstant(i32 2)"),
        ("[] DIOpConstant(float 1.5), DIOpConstant(float 2.0), DIOpMul()", "[] DIOpConstant(float 3.000000e+00)"),
        ("[] DIOpConstant(i32 1065353216), DIOpReinterpret(float)", "[] DIOpConstant(float 1.000000e+00)"),
        ("[] DIOpConstant(i32 5), DIOpRead(), DIOpRead()", "[] DIOpConstant(i32 5)"),
        ("[i64] DIOpArg(0, i64), DIOpAddrOf(5), DIOpDeref(i64)", "[i64] DIOpArg(0, i64)"),
        ("diexpr [i64] DIOpArg(0, i64), DIOpAddrOf(5), DIOpDeref()", "diexpr [i64] DIOpArg(0, i64)"),
        ("[i32] DIOpArg(0, i32), DIOpAddrOf(0), DIOpDeref(float)", "[i32] DIOpArg(0, i32), DIOpReinterpret(float)"),
        ("[i32] DIOpArg(0, i32), DIOpReinterpret(float), DIOpReinterpret(i32)", "[i32] DIOpArg(0, i32)"),
        ("[i32] DIOpArg(0, i32), DIOpConvert(i32)", "[i32] DIOpArg(0, i32), DIOpRead()"),
        ("[i8] DIOpArg(0, i8), DIOpZExt(i16), DIOpZExt(i64)", "[i8] DIOpArg(0, i8), DIOpZExt(i64)"),
        ("[i8] DIOpArg(0, i8), DIOpSExt(i64), DIOpConvert(i8)", "[i8] DIOpArg(0, i8), DIOpRead()"),
        ("[i64] DIOpArg(0, i64), DIOpConvert(i32), DIOpConvert(i8)", "[i64] DIOpArg(0, i64), DIOpConvert(i8)"),
        ("[ptr] DIOpArg(0, ptr), DIOpDeref(i32), DIOpConstant(i8 1), DIOpByteOffset(i32), DIOpConstant(i8 -1), DIOpByteOffset(i32)", "[ptr] DIOpArg(0, ptr), DIOpDeref(i32)"),
        ("diexpr [i32] DIOpArg(0, i32), DIOpConstant(i16 4), DIOpOffset(), DIOpConstant(i16 4), DIOpOffset()", "diexpr [i32] DIOpArg(0, i32), DIOpConstant(i16 8), DIOpOffset()"),
        ("[i32, i32] DIOpArg(0, i32), DIOpArg(1, i32), DIOpAdd(), DIOpRead()", "[i32, i32] DIOpArg(0, i32), DIOpArg(1, i32), DIOpAdd()"),
        ("[i32] DIOpArg(0, i32), DIOpComposite(1, i32), DIOpRead()", "[i32] DIOpArg(0, i32), DIOpRead()"),
        // Inside a larger expression, leftmost-innermost first.
        ("[i32, ptr] DIOpArg(1, ptr), DIOpDeref(i32), DIOpConstant(i32 0), DIOpAdd(), DIOpArg(0, i32), DIOpConstant(i32 1), DIOpMul(), DIOpAdd()", "[i32, ptr] DIOpArg(1, ptr), DIOpDeref(i32), DIOpRead(), DIOpArg(0, i32), DIOpRead(), DIOpAdd()"),
    ];
    for (input, want) in cases {
        assert_eq!(&simplified(input), want, "for {input}");
    }
}

#[test]
fn what_must_stay() {
    for line in [
        // undef is not a value: reading it fails, the constant itself does not.
        "[] DIOpConstant(i32 undef), DIOpRead()",
        "[i32] DIOpArg(0, i32), DIOpConstant(i32 undef), DIOpAdd()",
        "[] DIOpConstant(<2 x i32> <i32 1, i32 undef>), DIOpRead()",
        // Evaluation errors are not folded away.
        "[] DIOpConstant(i32 7), DIOpConstant(i32 0), DIOpDiv()",
        "[] DIOpConstant(i32 7), DIOpConstant(i32 0), DIOpMod()",
        "[] DIOpConstant(float 1.0e10), DIOpConvert(i8)",
        // NaN results are left to the evaluator.
        "[] DIOpConstant(float 0.0), DIOpConstant(float 0.0), DIOpDiv()",
        // Float identities are not integer ones.
        "[float] DIOpArg(0, float), DIOpConstant(float 0.0), DIOpAdd()",
        // Dropping a read, or a value that may fail, is never done.
        "[i32] DIOpArg(0, i32), DIOpRead()",
        "[i32] DIOpArg(0, i32), DIOpConstant(i32 0), DIOpMul()",
        "[i32] DIOpArg(0, i32), DIOpArg(0, i32), DIOpSub()",
        // Offsets whose sum overflows their type stay apart.
        "diexpr [i32] DIOpArg(0, i32), DIOpConstant(i8 100), DIOpOffset(), DIOpConstant(i8 100), DIOpOffset()",
        // A composite of one part is not the part (inside a larger expression).
        "[i32] DIOpArg(0, i32), DIOpComposite(1, i32)",
        // The seed's DIOpDeref() needs diexpr's typed pointer.
        "[ptr] DIOpArg(0, ptr), DIOpDeref(i32)",
    ] {
        let (out, r) = run(line);
        assert_eq!(out, print_bare(&parse_bare(line).unwrap()), "{:?}", r.steps);
        assert!(r.steps.is_empty());
    }
}

#[test]
fn fragments_are_kept_and_explain_names_each_rule() {
    let (out, r) =
        run("[i32] -> i64 DIOpArg(0, i32), DIOpConstant(i32 0), DIOpAdd(), DIOpFragment(0, 32)");
    assert_eq!(
        out,
        "[i32] -> i64 DIOpArg(0, i32), DIOpRead(), DIOpFragment(0, 32)"
    );
    assert_eq!(r.steps.len(), 1);
    let s = &r.steps[0];
    assert_eq!(s.rule, "add-zero");
    assert!(
        s.origin.ends_with("corpus/rules/identities.rules:6"),
        "{}",
        s.origin
    );
    assert_eq!(s.at, 0);
    assert_eq!(s.before, "DIOpArg(0, i32), DIOpConstant(i32 0), DIOpAdd()");
    assert_eq!(s.after, "DIOpArg(0, i32), DIOpRead()");
    assert_eq!(s.measure, 3);
    let (_, r) = run("[] DIOpConstant(i32 1), DIOpConstant(i32 2), DIOpAdd()");
    assert_eq!(r.steps[0].rule, "fold-add-int");
    assert_eq!(
        r.steps[0].origin,
        "generated: constant folding of DIOpAdd on integers"
    );
}

#[test]
fn long_inputs_terminate_within_the_measure() {
    // 300 reads collapse one pair at a time.
    let line = format!("[i32] DIOpArg(0, i32){}", ", DIOpRead()".repeat(300));
    let b = parse_bare(&line).unwrap();
    let m0 = measure::measure(b.expr.ops());
    let (out, r) = run(&line);
    assert_eq!(out, "[i32] DIOpArg(0, i32), DIOpRead()");
    assert_eq!(r.steps.len(), 299);
    assert!((r.steps.len() as u64) <= m0);
    // 200 constant additions fold to one constant.
    let line = format!(
        "[] DIOpConstant(i16 0){}",
        ", DIOpConstant(i16 3), DIOpAdd()".repeat(200)
    );
    assert_eq!(simplified(&line), "[] DIOpConstant(i16 600)");
    // Reinterpret chains, nested AddrOf/Deref.
    let line = format!(
        "[i32] DIOpArg(0, i32){}",
        ", DIOpAddrOf(1), DIOpDeref(i32), DIOpReinterpret(float), DIOpReinterpret(i32)".repeat(50)
    );
    assert_eq!(simplified(&line), "[i32] DIOpArg(0, i32)");
    // The measure strictly decreases at every step.
    let mut m = m0;
    let (_, r) = run(&format!(
        "[i32] DIOpArg(0, i32){}",
        ", DIOpRead()".repeat(20)
    ));
    m = m.min(measure::measure(
        parse_bare(&format!(
            "[i32] DIOpArg(0, i32){}",
            ", DIOpRead()".repeat(20)
        ))
        .unwrap()
        .expr
        .ops(),
    ));
    for s in &r.steps {
        assert!(s.measure < m);
        m = s.measure;
    }
}

#[test]
fn the_corpus_simplifies_to_well_formed_fixpoints() {
    let mut files = Vec::new();
    let mut stack = vec![root().join("corpus")];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "expr") {
                files.push(p);
            }
        }
    }
    let mut checked = 0;
    let mut rewritten = 0;
    for f in files {
        let src = Source::new(
            f.display().to_string(),
            std::fs::read_to_string(&f).unwrap(),
        );
        let (file, _) = parse_expr_file(&src);
        let dl = file
            .datalayout
            .as_ref()
            .map_or_else(DataLayout::llvm_default, |d| d.0.clone());
        for e in &file.entries {
            if e.parse_only || check_bare(&e.bare, &dl, &file.types).is_err() {
                continue;
            }
            let r = simplifier().simplify(&e.bare.expr, &dl, &file.types);
            let mut out = e.bare.clone();
            out.expr = r.expr.clone();
            let ok = check_bare(&out, &dl, &file.types);
            assert!(
                ok.is_ok(),
                "{}:{}: {} became ill-formed: {}",
                src.name,
                e.line,
                print_bare(&e.bare),
                print_bare(&out)
            );
            let again = simplifier().simplify(&r.expr, &dl, &file.types);
            assert!(
                again.steps.is_empty(),
                "{}:{}: not a fixpoint",
                src.name,
                e.line
            );
            checked += 1;
            rewritten += usize::from(!r.steps.is_empty());
        }
    }
    assert!(checked >= 100, "{checked}");
    assert!(rewritten >= 1, "no corpus expression simplifies");
}

/// A rewrite writes a constant back only as a literal of exactly its type's
/// width: bits of another width are no literal of that type.
#[test]
fn literals_are_written_only_at_their_types_width() {
    use diopter_rules::simplify::literal_from_bits;
    use diopter_semantics::types::Type;
    use diopter_semantics::value::Bits;
    use diopter_semantics::value::FloatKind;
    let float = Type::float(FloatKind::Float);
    assert!(literal_from_bits(&float, &Bits::from_u64(32, 0x3fc0_0000)).is_some());
    assert!(literal_from_bits(&float, &Bits::from_u64(64, 0x3fc0_0000)).is_none());
    assert!(literal_from_bits(&float, &Bits::from_u64(16, 0x3c00)).is_none());
    assert!(literal_from_bits(&Type::Int(8), &Bits::from_u64(8, 0xff)).is_some());
    assert!(literal_from_bits(&Type::Int(8), &Bits::from_u64(16, 0xff)).is_none());
    let ptr = Type::opaque_ptr(0);
    assert!(literal_from_bits(&ptr, &Bits::zero(64)).is_some());
    assert!(literal_from_bits(&ptr, &Bits::from_u64(64, 8)).is_none());
}

/// A constant hole used bare on the right is written back as a constant of
/// the type it was bound at. (The termination measure counts a bare `?c` on
/// the right as a hole the left side does not have, so such a rule loads
/// only without that check, as `prove` loads rules; the simplifier applies
/// whatever rules it is given.)
#[test]
fn a_constant_hole_used_as_a_value_on_the_right_is_a_constant() {
    use diopter_rules::syntax::{parse_rules_spanned_with, Termination};
    let text = "rule drop-read: DIOpConstant(T ?c), DIOpRead() => ?c   where T: int\n";
    let (rules, diags) = parse_rules_spanned_with(text, "t.rules", Termination::Skip);
    assert!(diags.is_empty(), "{diags:?}");
    let s = Simplifier::new(rules.into_iter().map(|(r, _)| r).collect());
    let b = parse_bare("[] DIOpConstant(i16 7), DIOpRead()").unwrap();
    let r = s.simplify(&b.expr, &DataLayout::llvm_default(), &TypeTable::default());
    let mut out = b.clone();
    out.expr = r.expr;
    assert_eq!(print_bare(&out), "[] DIOpConstant(i16 7)");
}

/// A hole written twice on a rule's left side (and-self, shl-lshr-mask)
/// matches only where both occurrences are equal: the same subexpression,
/// the same constant bits.
#[test]
fn repeated_holes_match_only_equal_parts() {
    let rewritten: &[(&str, &str)] = &[
        ("[i32] DIOpArg(0, i32), DIOpArg(0, i32), DIOpAnd()", "[i32] DIOpArg(0, i32), DIOpRead()"),
        ("[i32] DIOpArg(0, i32), DIOpArg(0, i32), DIOpOr()", "[i32] DIOpArg(0, i32), DIOpRead()"),
        // Two equal compound subexpressions; the value left needs no read.
        ("[i32] DIOpArg(0, i32), DIOpConstant(i32 5), DIOpOr(), DIOpArg(0, i32), DIOpConstant(i32 5), DIOpOr(), DIOpAnd()", "[i32] DIOpArg(0, i32), DIOpConstant(i32 5), DIOpOr()"),
        // 0xff >> 3 = 31; 0xff << 2 = 0xfc = -4 as i8.
        ("[i8] DIOpArg(0, i8), DIOpConstant(i8 3), DIOpShl(), DIOpConstant(i8 3), DIOpLShr()", "[i8] DIOpArg(0, i8), DIOpConstant(i8 31), DIOpAnd()"),
        ("[i8] DIOpArg(0, i8), DIOpConstant(i8 2), DIOpLShr(), DIOpConstant(i8 2), DIOpShl()", "[i8] DIOpArg(0, i8), DIOpConstant(i8 -4), DIOpAnd()"),
    ];
    for (input, want) in rewritten {
        assert_eq!(&simplified(input), want, "for {input}");
    }
    for line in [
        "[i32, i32] DIOpArg(0, i32), DIOpArg(1, i32), DIOpAnd()",
        "[i32] DIOpArg(0, i32), DIOpConstant(i32 5), DIOpOr(), DIOpArg(0, i32), DIOpConstant(i32 6), DIOpOr(), DIOpAnd()",
        "[i8] DIOpArg(0, i8), DIOpConstant(i8 3), DIOpShl(), DIOpConstant(i8 2), DIOpLShr()",
        "[i8] DIOpArg(0, i8), DIOpConstant(i8 2), DIOpLShr(), DIOpConstant(i8 3), DIOpShl()",
    ] {
        let (out, r) = run(line);
        assert_eq!(out, print_bare(&parse_bare(line).unwrap()), "{:?}", r.steps);
    }
}
