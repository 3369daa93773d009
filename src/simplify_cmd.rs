//! `diopter simplify`: rewrites expressions with the rule library to their
//! canonical form (`diopter_rules::simplify`) and prints them in the
//! one-line form, with `--explain` the rules applied.

use crate::inputs;
use crate::Format;
use crate::{out, outln};
use diopter_rules::render_located;
use diopter_rules::simplify::{Simplified, Simplifier};
use diopter_semantics::check::check_bare;
use diopter_semantics::diag::Source;
use diopter_semantics::syntax::{parse_expr_file, print_bare};
use diopter_semantics::types::DataLayout;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

pub const SIMPLIFY_HELP: &str = "\
Each expression (an .expr file holds one per line; see `diopter check --help`
for the one-line form) is rewritten by the rules of `--rules` (default
corpus/rules, or outside a checkout the library built into diopter;
files under refuted/ are not applied) and the generated
constant-folding rules until no rule applies, and printed in the one-line
form. The rule language is documented in corpus/rules/README.md.

Exit status: 0 when every expression was read and is well-formed, 1 when
some expression is not well-formed (it is printed unchanged), 2 when an
input or a rule file cannot be read.

Example:
  $ diopter simplify --explain -e '[i32] DIOpArg(0, i32), DIOpConstant(i32 0), DIOpAdd()'
  [i32] DIOpArg(0, i32), DIOpRead()
    add-zero (corpus/rules/identities.rules:6) at #0: DIOpArg(0, i32), DIOpConstant(i32 0), DIOpAdd() => DIOpArg(0, i32), DIOpRead()";

#[derive(clap::Args)]
pub struct Args {
    /// .expr files (one expression per line).
    pub paths: Vec<PathBuf>,
    /// Simplify one expression in the one-line form (may be repeated).
    #[arg(short = 'e', long = "expr", value_name = "ONE-LINE")]
    pub exprs: Vec<String>,
    /// Also print every rule applied, in order.
    #[arg(long)]
    pub explain: bool,
    /// Rule files or directories (read recursively for *.rules; default:
    /// corpus/rules of the working directory, else the library built into
    /// this binary).
    #[arg(long = "rules", value_name = "PATH")]
    pub rules: Vec<PathBuf>,
    /// Data layout: `default`, `amdgpu`, or an LLVM datalayout string
    /// (overrides a `target datalayout` line in the input).
    #[arg(long, value_name = "LAYOUT")]
    pub datalayout: Option<String>,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

pub fn run(a: &Args) -> ExitCode {
    crate::run_std(|o, e| run_to(a, o, e))
}

/// [`run`], printing to `out` and `err`; returns the exit status.
pub fn run_to(a: &Args, wout: &mut dyn Write, werr: &mut dyn Write) -> u8 {
    let rules = match crate::library::or_default(&a.rules) {
        Ok(r) => r,
        Err(e) => {
            outln!(werr, "diopter simplify: {e}");
            return 2;
        }
    };
    let simplifier = match Simplifier::load(&rules) {
        Ok(s) => s,
        Err(d) => {
            out!(werr, "{}", render_located(&d));
            return 2;
        }
    };
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
            "diopter simplify: give .expr files or -e 'ONE-LINE' (see --help)"
        );
        return 2;
    }
    let mut sources = Vec::new();
    for e in &a.exprs {
        sources.push(Source::new("<-e>", e.clone()));
    }
    let mut code = 0u8;
    for f in &a.paths {
        match inputs::read(f) {
            Ok(t) => sources.push(Source::new(f.display().to_string(), t)),
            Err(e) => {
                outln!(werr, "error: {e}");
                code = 2;
            }
        }
    }
    let mut json = Vec::new();
    for src in &sources {
        let (file, diags) = parse_expr_file(src);
        for d in &diags {
            out!(werr, "{}", src.render(d));
            code = 2;
        }
        if diags.is_empty() && file.entries.is_empty() {
            outln!(werr, "diopter simplify: {}: no expression", src.name);
            code = 2;
        }
        let dl = layout_override
            .clone()
            .or_else(|| file.datalayout.as_ref().map(|d| d.0.clone()))
            .unwrap_or_else(DataLayout::llvm_default);
        for entry in &file.entries {
            let well_formed = check_bare(&entry.bare, &dl, &file.types).is_ok();
            let result = if well_formed {
                simplifier.simplify(&entry.bare.expr, &dl, &file.types)
            } else {
                code = code.max(1);
                Simplified {
                    expr: entry.bare.expr.clone(),
                    steps: vec![],
                }
            };
            let mut out = entry.bare.clone();
            out.expr = result.expr.clone();
            let printed = print_bare(&out);
            match a.format {
                Format::Text => {
                    if !well_formed {
                        outln!(
                            werr,
                            "{}:{}: not well-formed, left as it is (see `diopter check`)",
                            src.name,
                            entry.line
                        );
                    }
                    outln!(wout, "{printed}");
                    if a.explain {
                        for s in &result.steps {
                            outln!(
                                wout,
                                "  {} ({}) at #{}: {} => {}",
                                s.rule,
                                s.origin,
                                s.at,
                                s.before,
                                s.after
                            );
                        }
                    }
                }
                Format::Json => json.push(serde_json::json!({
                    "file": src.name,
                    "line": entry.line,
                    "input": print_bare(&entry.bare),
                    "output": printed,
                    "well_formed": well_formed,
                    "steps": result.steps.iter().map(|s| serde_json::json!({
                        "rule": s.rule,
                        "origin": s.origin,
                        "at": s.at,
                        "before": s.before,
                        "after": s.after,
                        "result": s.result,
                        "measure": s.measure,
                    })).collect::<Vec<_>>(),
                })),
            }
        }
    }
    if a.format == Format::Json {
        let v = serde_json::json!({ "expressions": json, "exit_code": code });
        outln!(
            wout,
            "{}",
            serde_json::to_string_pretty(&v).unwrap_or_default()
        );
    }
    code
}
