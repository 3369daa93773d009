//! `diopter check`: one verdict per expression, diagnostics with carets, a
//! summary, and an exit code scripts can rely on. The checking is
//! `diopter_semantics::file_check`'s (an IR or MIR file's expressions
//! where they are, by `site_check`); this module counts and prints.

use crate::inputs;
use crate::Format;
use crate::{out, outln};
use diopter_semantics::diag::Source;
use diopter_semantics::file_check::{check_expr_file, check_ir, ExprOut, Verdict};
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
            let ir = check_ir(src, layout_override.as_ref());
            for w in &ir.warnings {
                out!(werr, "{w}");
            }
            results.extend(ir.exprs);
        } else {
            results.extend(check_expr_file(src, layout_override.as_ref()));
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
