//! Checking a whole input as `diopter check` does: a file of one-line
//! expressions ([`check_expr_file`]) or an IR or MIR file
//! ([`check_ir`], each expression checked where it is by
//! [`crate::site_check`]), giving one [`ExprOut`] per expression with its
//! diagnostics placed in the file (line, column, the caret rendering).
//! The CLI only counts and prints them.

use crate::check::check_bare;
use crate::diag::{Diagnostic, Severity, Source};
use crate::lifetimes;
use crate::site_check::{check_site, unchecked_widths, MIR_WIDTH_NOTE};
use crate::sites;
use crate::syntax::mir;
use crate::syntax::module::parse_module;
use crate::syntax::{parse_expr_file, print_bare, Expect};
use crate::types::DataLayout;
use serde::Serialize;

/// What happened to one expression.
#[derive(Serialize, Clone, Copy, PartialEq, Eq, Debug)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// Well-formed.
    Valid,
    /// Not well-formed.
    Invalid,
    /// Not well-formed, as its `#! expect invalid` says.
    ExpectedInvalid,
    /// Well-formed although `#! expect invalid` says otherwise.
    UnexpectedValid,
    /// Only parsed and printed (`#! parse-only`).
    ParseOnly,
    /// Could not be read.
    SyntaxError,
}

impl Verdict {
    /// Whether the expression is as expected (the exit status counts the
    /// others).
    pub fn ok(self) -> bool {
        matches!(
            self,
            Verdict::Valid | Verdict::ExpectedInvalid | Verdict::ParseOnly
        )
    }
}

/// A diagnostic placed in its file: 1-based line and column, and the
/// rendering with the source line and caret.
#[derive(Serialize)]
pub struct DiagOut {
    pub line: usize,
    pub column: usize,
    pub message: String,
    pub op_index: Option<usize>,
    pub notes: Vec<String>,
    pub rendered: String,
}

/// One expression's verdict.
#[derive(Serialize)]
pub struct ExprOut {
    pub file: String,
    pub line: usize,
    pub text: String,
    pub verdict: Verdict,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result_type: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expected_message: Option<String>,
    pub diagnostics: Vec<DiagOut>,
}

fn diag_out(src: &Source, d: &Diagnostic) -> DiagOut {
    let (line, column) = src.line_col(d.span.start);
    DiagOut {
        line,
        column,
        message: d.message.clone(),
        op_index: d.op_index,
        notes: d.notes.clone(),
        rendered: src.render(d),
    }
}

/// A one-line-expression file (`.expr`, or `-e`): its syntax errors, the
/// expressions its `#! expect invalid` directives expect to fail to parse,
/// then one verdict per expression, in line order. `layout_override` wins
/// over the file's `target datalayout`.
pub fn check_expr_file(src: &Source, layout_override: Option<&DataLayout>) -> Vec<ExprOut> {
    let mut out = Vec::new();
    let (file, diags) = parse_expr_file(src);
    let dl = layout_override
        .cloned()
        .or_else(|| file.datalayout.as_ref().map(|(d, _)| d.clone()))
        .unwrap_or_default();
    for d in &diags {
        let (line, _) = src.line_col(d.span.start);
        out.push(ExprOut {
            file: src.name.clone(),
            line,
            text: src.line_text(line).to_string(),
            verdict: Verdict::SyntaxError,
            result_type: None,
            expected_message: None,
            diagnostics: vec![diag_out(src, d)],
        });
    }
    for (line, d) in &file.expected_failures {
        out.push(ExprOut {
            file: src.name.clone(),
            line: *line,
            text: src.line_text(*line).to_string(),
            verdict: Verdict::ExpectedInvalid,
            result_type: None,
            expected_message: None,
            diagnostics: vec![diag_out(src, d)],
        });
    }
    for e in &file.entries {
        let text = print_bare(&e.bare);
        if e.parse_only {
            out.push(ExprOut {
                file: src.name.clone(),
                line: e.line,
                text,
                verdict: Verdict::ParseOnly,
                result_type: None,
                expected_message: None,
                diagnostics: vec![],
            });
            continue;
        }
        let verdict = check_bare(&e.bare, &dl, &file.types);
        let expected_invalid = match &e.expect {
            Some(Expect::Invalid(m)) => Some(m.clone()),
            _ => None,
        };
        let (v, ty, ds) = match (&verdict, &expected_invalid) {
            (Ok(c), None) => (Verdict::Valid, Some(c.result.to_string()), vec![]),
            (Ok(c), Some(_)) => (Verdict::UnexpectedValid, Some(c.result.to_string()), vec![]),
            (Err(d), None) => (
                Verdict::Invalid,
                None,
                d.iter().map(|d| diag_out(src, d)).collect(),
            ),
            (Err(d), Some(_)) => (
                Verdict::ExpectedInvalid,
                None,
                d.iter().map(|d| diag_out(src, d)).collect(),
            ),
        };
        out.push(ExprOut {
            file: src.name.clone(),
            line: e.line,
            text,
            verdict: v,
            result_type: ty,
            expected_message: expected_invalid.flatten(),
            diagnostics: ds,
        });
    }
    out.sort_by_key(|r| r.line);
    out
}

/// An IR or MIR file's verdicts, and the warnings to show beside them.
pub struct IrCheck {
    pub exprs: Vec<ExprOut>,
    /// Each rendered with its source line and caret: the reader's
    /// warnings, then a MIR register width accepted as AMD's reader accepts
    /// it (docs/mir.md).
    pub warnings: Vec<String>,
}

/// IR files: the reader's syntax errors, the lifetime section's rules, then one
/// verdict per DIOp expression found, checked in the environment its place in
/// the file gives it (a lifetime's argObjects and referrer, a debug record's
/// location operands), in line order; with the reader's warnings, rendered,
/// in the order they arise.
pub fn check_ir(src: &Source, layout_override: Option<&DataLayout>) -> IrCheck {
    let mut out = Vec::new();
    let mut warnings = Vec::new();
    // A MIR file is read as llc reads it (its YAML documents, each machine
    // function's body); its operands' widths come from the registers.
    let (m, diags, bits, target) = if mir::is_mir(&src.text) {
        let (f, d) = mir::parse_mir(&src.text);
        (f.module, d, f.operand_bits, f.target)
    } else {
        let (m, d) = parse_module(&src.text);
        (m, d, Default::default(), None)
    };
    let dl = layout_override
        .cloned()
        .or_else(|| m.datalayout.as_ref().map(|(d, _)| d.clone()))
        .or_else(|| {
            // llc gives a MIR file without a datalayout its target's.
            target
                .filter(|t| t.starts_with("amdgcn"))
                .map(|_| DataLayout::amdgpu())
        })
        .unwrap_or_default();
    let mut push =
        |line: usize, verdict: Verdict, result_type: Option<String>, ds: Vec<DiagOut>| {
            out.push(ExprOut {
                file: src.name.clone(),
                line,
                text: src.line_text(line).trim().to_string(),
                verdict,
                result_type,
                expected_message: None,
                diagnostics: ds,
            })
        };
    let errors: Vec<&Diagnostic> = diags
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .collect();
    for d in &errors {
        push(
            src.line_col(d.span.start).0,
            Verdict::SyntaxError,
            None,
            vec![diag_out(src, d)],
        );
    }
    for d in diags.iter().filter(|d| d.severity != Severity::Error) {
        warnings.push(src.render(d));
    }
    for d in lifetimes::check_lifetimes(&m) {
        push(
            src.line_col(d.span.start).0,
            Verdict::Invalid,
            None,
            vec![diag_out(src, &d)],
        );
    }
    for site in sites::expressions(&m) {
        let line = src.line_col(site.expr.span.start).0;
        match check_site(&m, &site, &dl, &bits) {
            Ok(c) => push(line, Verdict::Valid, Some(c.result.to_string()), vec![]),
            Err(ds) => match unchecked_widths(&m, &site, &dl, &bits) {
                // Read as AMD reads a MIR file: its reader checks no DIOp
                // expression against its operands, so an expression that
                // fails only on a register's width is accepted, with the
                // width diagnostic as a warning (docs/mir.md).
                Some(c) => {
                    let ws: Vec<Diagnostic> = ds
                        .iter()
                        .map(|d| {
                            let mut w = d.clone();
                            w.severity = Severity::Warning;
                            w.note(MIR_WIDTH_NOTE)
                        })
                        .collect();
                    for w in &ws {
                        warnings.push(src.render(w));
                    }
                    push(
                        line,
                        Verdict::Valid,
                        Some(c.result.to_string()),
                        ws.iter().map(|w| diag_out(src, w)).collect(),
                    )
                }
                None => push(
                    line,
                    Verdict::Invalid,
                    None,
                    ds.iter().map(|d| diag_out(src, d)).collect(),
                ),
            },
        }
    }
    out.sort_by_key(|r| r.line);
    IrCheck {
        exprs: out,
        warnings,
    }
}
