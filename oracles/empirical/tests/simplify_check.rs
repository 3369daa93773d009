//! The simplifier's differential checks (`diopter_empirical::simplify`) on
//! hand-written cases: the subexpressions the congruence property replaces,
//! and the `simplify_diff` fuzz target's body.

use diopter_empirical::simplify::{fuzz_simplify_diff, subexpressions};
use diopter_rules::load_rule_files;
use diopter_rules::simplify::Simplifier;
use diopter_semantics::syntax::parse_bare;
use diopter_semantics::types::TypeTable;
use std::path::PathBuf;
use std::sync::OnceLock;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn simplifier() -> &'static Simplifier {
    static S: OnceLock<Simplifier> = OnceLock::new();
    S.get_or_init(|| Simplifier::new(load_rule_files(&[root().join("corpus/rules")]).unwrap()))
}

/// A simplifier of the rules in `text` only (then the generated folds).
fn simplifier_of(text: &str) -> Simplifier {
    Simplifier::new(diopter_rules::parse_rules(text, "t.rules").expect("the test's rules parse"))
}

/// The operation ranges that push one entry each, innermost first, as the
/// congruence property replaces them (worked by hand: each argument alone,
/// then the addition over both, then the shift over all).
#[test]
fn subexpressions_are_the_ranges_that_push_one_entry() {
    let b = parse_bare(
        "[i32, i32] DIOpArg(0, i32), DIOpArg(1, i32), DIOpAdd(), DIOpConstant(i32 1), DIOpShl()",
    )
    .unwrap();
    assert_eq!(
        subexpressions(&b.expr),
        Some(vec![(0, 0), (1, 1), (0, 2), (3, 3), (0, 4)])
    );
    // Not one expression: an operation without its operands.
    let b = parse_bare("[i32] DIOpArg(0, i32), DIOpAdd()").unwrap();
    assert_eq!(subexpressions(&b.expr), None);
}

/// The `simplify_diff` fuzz target's body: a wrong rule is a failure that
/// names the rule and writes a replayable case file; the library's rules
/// pass on the same case.
#[test]
fn the_fuzz_body_reports_a_wrong_rule_with_a_case_file() {
    let wrong =
        simplifier_of("rule drop-addend: ?x:T, ?y:T, DIOpAdd() => ?x, DIOpRead()   where T: int\n");
    let case = diopter_gen::Case {
        bare: parse_bare("[i32, i32] DIOpArg(0, i32), DIOpArg(1, i32), DIOpAdd()").unwrap(),
        types: TypeTable::default(),
        ctx: diopter_semantics::context::Context::parse(
            "%a = i32 5\n%b = i32 7\narg 0 = %a\narg 1 = %b\n",
        )
        .unwrap(),
    };
    let dir = std::env::temp_dir().join(format!("diopter-simplify-fuzz-{}", std::process::id()));
    let e = fuzz_simplify_diff(&wrong, &case, Some(&dir)).unwrap_err();
    assert!(e.contains("simplification changes the meaning"), "{e}");
    assert!(e.contains("drop-addend"), "{e}");
    let path = e
        .lines()
        .find_map(|l| l.strip_prefix("case file: "))
        .expect("a case file is named");
    assert!(std::path::Path::new(path).is_file(), "{path}");
    assert!(fuzz_simplify_diff(simplifier(), &case, None).is_ok());
    let _ = std::fs::remove_dir_all(&dir);
}
