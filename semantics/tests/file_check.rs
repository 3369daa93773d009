//! `file_check` returns what `diopter check` prints: verdicts in line
//! order, each diagnostic at its line and column with its caret rendering,
//! and an IR file's warnings as data rather than printed.

use diopter_semantics::diag::Source;
use diopter_semantics::file_check::{check_expr_file, check_ir, Verdict};

#[test]
fn an_expression_file_gives_one_verdict_per_line_with_placed_diagnostics() {
    let src = Source::new(
        "t.expr",
        "[] DIOpConstant(i32 1), DIOpConstant(i32 2), DIOpAdd()\n[] DIOpAdd()\n",
    );
    let out = check_expr_file(&src, None);
    let got: Vec<(usize, Verdict)> = out.iter().map(|r| (r.line, r.verdict)).collect();
    assert_eq!(got, [(1, Verdict::Valid), (2, Verdict::Invalid)]);
    assert_eq!(out[0].result_type.as_deref(), Some("i32"));
    let d = &out[1].diagnostics[0];
    assert_eq!(d.line, 2);
    assert!(d.column >= 1, "{}", d.column);
    assert!(d.rendered.contains('^'), "{}", d.rendered);
    assert!(!Verdict::Invalid.ok() && Verdict::ExpectedInvalid.ok());
}

#[test]
fn an_ir_file_without_expressions_gives_no_verdict_and_no_warning() {
    let src = Source::new("t.ll", "define void @f() {\n  ret void\n}\n");
    let ir = check_ir(&src, None);
    assert!(ir.exprs.is_empty());
    assert!(ir.warnings.is_empty());
}
