//! The differential driver: classification, case files, and its power to
//! see a difference (a deliberately wrong oracle must be caught).

use diopter_diff::{
    self as diff, case_file_oracles, case_file_text, classify, observe, read_case_file, run_case,
    Oracle, Reference, Verdict,
};
use diopter_gen::Generate;
use diopter_gen::{Case, GenConfig};
use diopter_semantics::context::Context;
use diopter_semantics::diag::Source;
use diopter_semantics::interp::{ErrorKind, Outcome};
use diopter_semantics::syntax::parse_bare;
use diopter_semantics::types::TypeTable;
use num_bigint::BigInt;

fn case(line: &str, ctx: &str) -> Case {
    Case {
        bare: parse_bare(line).unwrap_or_else(|d| panic!("{line}: {d}")),
        types: TypeTable::default(),
        ctx: Context::parse(ctx).unwrap_or_else(|d| panic!("{d:?}")),
    }
}

/// The reference, but every location it yields is 8 bits further on.
struct OffByOneByte;
impl Oracle for OffByOneByte {
    fn name(&self) -> &str {
        "off-by-one-byte"
    }
    fn eval(&self, case: &Case) -> Outcome {
        Reference.eval(case).map(|mut r| {
            r.loc = r.loc.with_bit_offset(&BigInt::from(8));
            r
        })
    }
}

/// The reference, but errors report the next operation.
struct WrongIndex;
impl Oracle for WrongIndex {
    fn name(&self) -> &str {
        "wrong-index"
    }
    fn eval(&self, case: &Case) -> Outcome {
        Reference.eval(case).map_err(|mut e| {
            e.op_index += 1;
            e
        })
    }
}

#[test]
fn the_reference_agrees_with_itself() {
    let cfg = GenConfig::default();
    for seed in 0..500 {
        let c = Case::from_seed(seed, &cfg);
        let v = run_case(&c, &[&Reference, &Reference]);
        assert!(!v.is_disagreement(), "{v}\n{}", c.expr_line());
    }
}

#[test]
fn classification_by_hand() {
    let ok = case("[i32] DIOpArg(0, i32)", "%x = i32 7\narg 0 = %x");
    assert_eq!(run_case(&ok, &[&Reference, &Reference]), Verdict::Agree);
    let v = run_case(&ok, &[&Reference, &OffByOneByte]);
    match &v {
        Verdict::Disagree { details } => {
            assert!(
                details.iter().any(|d| d.contains("location")),
                "{details:?}"
            );
        }
        v => panic!("{v}"),
    }
    let div0 = case("[] DIOpConstant(i32 1), DIOpConstant(i32 0), DIOpDiv()", "");
    assert_eq!(
        run_case(&div0, &[&Reference, &Reference]),
        Verdict::BothError {
            kind: ErrorKind::DivisionByZero,
            op_index: 2
        }
    );
    assert!(run_case(&div0, &[&Reference, &WrongIndex]).is_disagreement());
    // Two single locations holding different bits: the reference says
    // Inconsistent when reading, which is never agreement.
    let inc = case(
        "[i32] DIOpArg(0, i32), DIOpRead()",
        "%x = i32 1\n%y = i32 2\narg 0 = %x | %y",
    );
    assert!(matches!(
        run_case(&inc, &[&Reference, &Reference]),
        Verdict::InconsistentContext { .. }
    ));
    // Only reading the result finds it: still Inconsistent.
    let inc2 = case(
        "[i32] DIOpArg(0, i32)",
        "%x = i32 1\n%y = i32 2\narg 0 = %x | %y",
    );
    assert!(matches!(
        run_case(&inc2, &[&Reference, &Reference]),
        Verdict::InconsistentContext { .. }
    ));
    // Over diopter's resource limit: skipped.
    let big = case("[] DIOpConstant(i1 1), DIOpExtend(70000)", "");
    assert!(matches!(
        run_case(&big, &[&Reference, &Reference]),
        Verdict::Skipped { .. }
    ));
}

#[test]
fn writes_are_compared() {
    // Same value, different locations: `Referrer` is writable, `Read` is not.
    let c = case("[i32] DIOpArg(0, i32)", "%x = i32 7\narg 0 = %x");
    struct ReadOnly;
    impl Oracle for ReadOnly {
        fn name(&self) -> &str {
            "read-only"
        }
        fn eval(&self, case: &Case) -> Outcome {
            let mut r = Reference.eval(case)?;
            let v = diopter_semantics::interp::read_value(&case.ctx, &r).expect("readable");
            r.loc = diopter_semantics::location::LocDesc::implicit(v);
            Ok(r)
        }
    }
    let obs = [observe(&c, &Reference), observe(&c, &ReadOnly)];
    match classify(&obs) {
        Verdict::Disagree { details } => {
            assert!(
                details.iter().any(|d| d.contains("write refused")),
                "{details:?}"
            );
            assert!(!details.iter().any(|d| d.contains("reads")), "{details:?}");
        }
        v => panic!("{v}"),
    }
}

#[test]
fn a_wrong_oracle_is_caught_on_generated_cases() {
    let cfg = GenConfig::default();
    let caught = (0..300)
        .filter(|s| {
            run_case(&Case::from_seed(*s, &cfg), &[&Reference, &OffByOneByte]).is_disagreement()
        })
        .count();
    assert!(caught > 100, "only {caught} of 300");
}

#[test]
fn case_files_round_trip() {
    let cfg = GenConfig::default();
    for seed in 0..1000 {
        let c = Case::from_seed(seed, &cfg);
        let v = run_case(&c, &[&Reference]);
        let text = case_file_text(&c, &["reference", "fast"], Some(&v));
        let back = read_case_file(&text).unwrap_or_else(|ds| {
            let src = Source::new("case", text.clone());
            let r: Vec<String> = ds.iter().map(|d| src.render(d)).collect();
            panic!("{}\n{text}", r.join(""))
        });
        assert_eq!(back, c, "{text}");
        assert_eq!(case_file_oracles(&text), ["reference", "fast"]);
    }
}

#[test]
fn case_file_errors_point_at_the_line() {
    let render = |text: &str| -> String {
        let ds = read_case_file(text).expect_err("must fail");
        let src = Source::new("c.case", text);
        ds.iter().map(|d| src.render(d)).collect()
    };
    let r = render("[i32] DIOpArg(0, i32)\n");
    assert!(r.contains("--- context"), "{r}");
    let r = render("[i32] DIOpArg(0, i32)\n--- context\narg 0 = %nope\n");
    assert!(r.contains("c.case:3:"), "{r}");
    let r = render("[i32] DIOpArg(0, i32\n--- context\n");
    assert!(r.contains("c.case:1:"), "{r}");
    let r = render("[] DIOpConstant(i8 1)\n[] DIOpConstant(i8 2)\n--- context\n");
    assert!(
        r.contains("exactly one expression") && r.contains("c.case:2:"),
        "{r}"
    );
    let r = render("target datalayout = \"e-p:32:32\"\n[] DIOpConstant(i8 1)\n--- context\ndatalayout amdgpu\n");
    assert!(r.contains("differs") && r.contains("c.case:1:"), "{r}");
    // Without a context datalayout line, the expression's applies.
    let c =
        read_case_file("target datalayout = \"e-p:32:32\"\n[] DIOpConstant(i8 1)\n--- context\n")
            .expect("reads");
    assert_eq!(c.ctx.datalayout.pointer_bits(0), 32);
    // Multi-byte characters in comments keep spans right.
    let r = render("# ééé\n[i32] DIOpArg(0, i32)\n--- context\n# ü\nbogus line\n");
    assert!(r.contains("c.case:5:1"), "{r}");
}

#[test]
fn write_case_file_writes_a_replayable_file() {
    let dir = std::env::temp_dir().join(format!("diopter-diff-test-{}", std::process::id()));
    let path = dir.join("sub/x.case");
    let c = case(
        "[i32] DIOpArg(0, i32), DIOpRead()",
        "%x = i32 7\narg 0 = %x",
    );
    diff::write_case_file(&path, &c, &[&Reference, &OffByOneByte]).expect("writes");
    let text = std::fs::read_to_string(&path).expect("reads");
    assert!(
        text.contains("# oracles: reference, off-by-one-byte"),
        "{text}"
    );
    assert!(text.contains("# verdict: DISAGREE"), "{text}");
    assert_eq!(read_case_file(&text).expect("parses"), c);
    assert_eq!(
        diff::repro_command(&path),
        format!("cargo run --release -- replay {}", path.display())
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_shortcut_gives_the_full_verdict() {
    // run_case skips reading and writing through equal locations; the
    // verdict must be what observing everything gives.
    let cfg = GenConfig::default();
    let fast = diopter_harness::adapters::Fast::default();
    for seed in 0..400 {
        let c = Case::from_seed(seed, &cfg);
        for oracles in [
            vec![&Reference as &dyn Oracle, &fast],
            vec![&Reference as &dyn Oracle, &OffByOneByte],
            vec![&Reference as &dyn Oracle, &WrongIndex, &fast],
        ] {
            assert_eq!(
                run_case(&c, &oracles),
                diff::run_case_observed(&c, &oracles).1,
                "{}",
                c.expr_line()
            );
        }
    }
}

// The DWARF oracle in the driver: left out where it does not lower.
#[test]
fn the_driver_leaves_out_the_dwarf_oracle_where_it_does_not_lower() {
    use diopter_diff::{run_case, Reference, Verdict};
    use diopter_harness::adapters::{Dwarf, Fast};
    use diopter_semantics::case::Case;
    use diopter_semantics::context::Context;
    use diopter_semantics::syntax::parse_bare;
    use diopter_semantics::types::TypeTable;
    let ctx = |text: &str| Context::parse(text).expect("the test's context parses");
    let case = |line: &str, c: &str| Case {
        bare: parse_bare(line).unwrap(),
        types: TypeTable::default(),
        ctx: ctx(c),
    };
    // An i128 addition does not lower (DWARF's values stop at 64 bits):
    // reference vs fast still agree, and the reference vs dwarf alone is
    // skipped with the reason.
    let c = case(
        "[i128] DIOpArg(0, i128), DIOpArg(0, i128), DIOpAdd()",
        "%a = i128 1\narg 0 = %a\n",
    );
    let fast = Fast::default();
    assert_eq!(run_case(&c, &[&Reference, &fast, &Dwarf]), Verdict::Agree);
    match run_case(&c, &[&Reference, &Dwarf]) {
        Verdict::Skipped { reason } => assert!(reason.contains("an i128 value"), "{reason}"),
        v => panic!("{v}"),
    }
    // Where it lowers, the locations differ in form (an implicit value vs
    // DWARF's stack value) but read and write alike: agreement.
    let c = case(
        "[i32, i32] DIOpArg(0, i32), DIOpArg(1, i32), DIOpAdd()",
        "%a = i32 5\n%b = i32 7\narg 0 = %a\narg 1 = %b\n",
    );
    assert_eq!(run_case(&c, &[&Reference, &Dwarf]), Verdict::Agree);
}
