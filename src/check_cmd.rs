//! `diopter check`: one verdict per expression, diagnostics with carets, a
//! summary, and an exit code scripts can rely on. An IR or MIR file's
//! expressions are checked where they are by `diopter_semantics::site_check`.

use crate::inputs;
use crate::Format;
use crate::{out, outln};
use diopter_semantics::check::check_bare;
use diopter_semantics::diag::{Diagnostic, Severity, Source};
use diopter_semantics::lifetimes;
use diopter_semantics::site_check::{check_site, unchecked_widths, MIR_WIDTH_NOTE};
use diopter_semantics::sites;
use diopter_semantics::syntax::mir;
use diopter_semantics::syntax::module::parse_module;
use diopter_semantics::syntax::{parse_expr_file, print_bare, Expect};
use diopter_semantics::types::DataLayout;
use serde::Serialize;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// `diopter check --help`'s exit statuses (after the one-line form).
pub const CHECK_EXIT_HELP: &str = "\
EXIT STATUS
  0 every expression is as expected: well-formed, or not well-formed where a
    `#! expect invalid` directive says so, or `#! parse-only`
  1 some expression is not well-formed, or is well-formed against its
    `#! expect invalid` (\"unexpectedly valid\")
  2 a syntax error, an unreadable file or directory, a bad --datalayout, or
    no expression in the input (an empty -e or file: nothing checked)";

#[derive(clap::Args)]
pub struct Args {
    /// Files (.expr one-line files, .ll/.mir IR files) or directories to check recursively.
    pub paths: Vec<PathBuf>,
    /// Check one expression in the one-line form (may be repeated).
    #[arg(short = 'e', long = "expr", value_name = "ONE-LINE")]
    pub exprs: Vec<String>,
    /// Data layout: `default` (64-bit pointers), `amdgpu`, or an LLVM datalayout string.
    /// Overrides a `target datalayout` line in the input.
    #[arg(long, value_name = "LAYOUT")]
    pub datalayout: Option<String>,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Print only problems and the summary, not every verdict.
    #[arg(short, long)]
    pub quiet: bool,
}

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
    fn ok(self) -> bool {
        matches!(
            self,
            Verdict::Valid | Verdict::ExpectedInvalid | Verdict::ParseOnly
        )
    }
}

#[derive(Serialize)]
pub struct DiagOut {
    pub line: usize,
    pub column: usize,
    pub message: String,
    pub op_index: Option<usize>,
    pub notes: Vec<String>,
    pub rendered: String,
}

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

#[derive(Serialize, Default)]
pub struct Summary {
    pub files: usize,
    pub expressions: usize,
    pub valid: usize,
    pub invalid: usize,
    pub expected_invalid: usize,
    pub unexpected_valid: usize,
    pub parse_only: usize,
    pub syntax_errors: usize,
    pub unreadable_files: usize,
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

pub fn run(a: &Args) -> ExitCode {
    crate::run_std(|o, e| run_to(a, o, e))
}

/// [`run`], printing to `out` and `err`; returns the exit status.
pub fn run_to(a: &Args, wout: &mut dyn Write, werr: &mut dyn Write) -> u8 {
    let layout_override = match a.datalayout.as_deref().map(DataLayout::from_name_or_string) {
        None => None,
        Some(Ok(dl)) => Some(dl),
        Some(Err(e)) => {
            outln!(werr, "diopter: --datalayout: {e}");
            return 2;
        }
    };
    if a.paths.is_empty() && a.exprs.is_empty() {
        outln!(
            werr,
            "diopter check: give files, directories or -e 'ONE-LINE' (see --help)"
        );
        return 2;
    }
    let mut results: Vec<ExprOut> = Vec::new();
    let mut summary = Summary::default();
    let mut unreadable: Vec<String> = Vec::new();
    let files = match inputs::expand(&a.paths) {
        Ok(f) => f,
        Err(e) => {
            outln!(werr, "diopter: {e}");
            return 2;
        }
    };
    let mut sources: Vec<Source> = Vec::new();
    for (i, e) in a.exprs.iter().enumerate() {
        let name = if a.exprs.len() == 1 {
            "<-e>".to_string()
        } else {
            format!("<-e #{}>", i + 1)
        };
        sources.push(Source::new(name, e.clone()));
    }
    for f in &files {
        match inputs::read(f) {
            Ok(t) => sources.push(Source::new(f.display().to_string(), t)),
            Err(e) => unreadable.push(e),
        }
    }
    summary.files = sources.len();
    summary.unreadable_files = unreadable.len();
    for src in &sources {
        let is_ir = src.name.ends_with(".ll") || src.name.ends_with(".mir");
        if is_ir {
            crate::check_cmd::check_ir(werr, src, layout_override.as_ref(), &mut results);
        } else {
            check_expr_file(src, layout_override.as_ref(), &mut results);
        }
    }
    for r in &results {
        summary.expressions += 1;
        match r.verdict {
            Verdict::Valid => summary.valid += 1,
            Verdict::Invalid => summary.invalid += 1,
            Verdict::ExpectedInvalid => summary.expected_invalid += 1,
            Verdict::UnexpectedValid => summary.unexpected_valid += 1,
            Verdict::ParseOnly => summary.parse_only += 1,
            Verdict::SyntaxError => summary.syntax_errors += 1,
        }
    }
    // Empty input is an error: an -e that holds no expression, or nothing
    // to check at all.
    let mut empty = false;
    for src in sources.iter().take(a.exprs.len()) {
        if !results.iter().any(|r| r.file == src.name) {
            outln!(werr, "diopter check: {}: no expression", src.name);
            empty = true;
        }
    }
    if results.is_empty() && unreadable.is_empty() && !empty {
        outln!(werr, "diopter check: no expression in the input");
        empty = true;
    }
    let code = if empty || summary.syntax_errors > 0 || summary.unreadable_files > 0 {
        2
    } else if results.iter().all(|r| r.verdict.ok()) {
        0
    } else {
        1
    };
    match a.format {
        Format::Json => {
            let v = serde_json::json!({
                "expressions": results,
                "unreadable": unreadable,
                "summary": summary,
                "exit_code": code,
            });
            outln!(
                wout,
                "{}",
                serde_json::to_string_pretty(&v).unwrap_or_default()
            );
        }
        Format::Text => {
            for e in &unreadable {
                outln!(werr, "error: {e}");
            }
            for r in &results {
                let show = !a.quiet || !r.verdict.ok();
                if !show {
                    continue;
                }
                let what = match r.verdict {
                    Verdict::Valid => format!("valid: {}", r.result_type.as_deref().unwrap_or("?")),
                    Verdict::Invalid => "NOT WELL-FORMED".into(),
                    Verdict::ExpectedInvalid => "invalid, as expected".into(),
                    Verdict::UnexpectedValid => format!(
                        "UNEXPECTEDLY VALID (expected invalid{}): {}",
                        r.expected_message
                            .as_ref()
                            .map(|m| format!(": {m}"))
                            .unwrap_or_default(),
                        r.result_type.as_deref().unwrap_or("?")
                    ),
                    Verdict::ParseOnly => "parsed (parse-only)".into(),
                    Verdict::SyntaxError => "SYNTAX ERROR".into(),
                };
                outln!(wout, "{}:{}: {what}", r.file, r.line);
                if !r.verdict.ok() {
                    for d in &r.diagnostics {
                        out!(wout, "{}", indent(&d.rendered));
                    }
                }
            }
            outln!(wout,
                "checked {} expression{} in {} input{}: {} valid, {} not well-formed, {} invalid as expected, {} unexpectedly valid, {} parse-only, {} syntax error{}{}",
                summary.expressions,
                plural(summary.expressions),
                summary.files,
                plural(summary.files),
                summary.valid,
                summary.invalid,
                summary.expected_invalid,
                summary.unexpected_valid,
                summary.parse_only,
                summary.syntax_errors,
                plural(summary.syntax_errors),
                if summary.unreadable_files > 0 { format!(", {} unreadable file(s)", summary.unreadable_files) } else { String::new() },
            );
        }
    }
    code
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

fn indent(s: &str) -> String {
    s.lines().map(|l| format!("    {l}\n")).collect()
}

fn check_expr_file(src: &Source, layout_override: Option<&DataLayout>, out: &mut Vec<ExprOut>) {
    let first = out.len();
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
    out[first..].sort_by_key(|r| r.line);
}

/// IR files: the reader's syntax errors, the lifetime section's rules, then one
/// verdict per DIOp expression found, checked in the environment its place in
/// the file gives it (a lifetime's argObjects and referrer, a debug record's
/// location operands).
pub fn check_ir(
    werr: &mut dyn Write,
    src: &Source,
    layout_override: Option<&DataLayout>,
    out: &mut Vec<ExprOut>,
) {
    let first = out.len();
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
        out!(werr, "{}", src.render(d));
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
                        out!(werr, "{}", src.render(w));
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
    out[first..].sort_by_key(|r| r.line);
}
