//! `diopter replay`: evaluate a case file (written by the fuzzers and the
//! differential tests when oracles disagree) with each oracle again, print
//! every outcome and the verdict.

use crate::inputs;
use crate::Format;
use crate::{out, outln};
use diopter_diff::{self as diff, Observation, Oracle, Verdict};
use diopter_harness::registry::{oracle, ORACLE_NAMES};
use diopter_semantics::access::read_noting_unlisted;
use diopter_semantics::diag::Source;
use diopter_semantics::show::LocatedView;
use diopter_semantics::syntax::print_op;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// At most this many changed bytes or entities listed in JSON (all are
/// counted in `changes_total`): a wide write can change a million.
pub const JSON_CHANGES: usize = 4096;

pub const CASE_FILE_HELP: &str = "\
CASE FILES
  Written when oracles disagree (fuzz/artifacts/eval_diff/, the diff_props
  tests). Above the line `--- context`: an .expr file holding exactly one
  expression in the one-line form (with its `%t = type` lines and `target
  datalayout`); below it: a context (see `diopter eval --help`). A comment
  `# oracles: reference, fast` names the oracles to replay with.

  Example:
    # oracles: reference, fast
    [ptr addrspace(5)] DIOpArg(0, ptr addrspace(5)), DIOpDeref(i32)
    --- context
    datalayout amdgpu
    mem 5 0x100 = 78 56 34 12
    arg 0 = implicit(i32 0x100)

VERDICTS
  AGREE                 same location, same bits read, same effect of a write
  BOTH-ERROR            every oracle fails with the same error at the same operation
  INCONSISTENT-CONTEXT  the reference says the context's single locations disagree
  SKIPPED               an oracle hit a resource limit
  DISAGREE              anything else

WITH --smt
  The case goes through the prover's SMT encoding instead, with the
  context's values as numerals (what the `smt` row of a campaign checks),
  and is compared with the reference: agree, skipped (the encoding does not
  model the case: an inconsistent context, a resource limit) or
  DISAGREE with one line per difference. Campaign findings `smt-*.case`
  replay this way.

EXIT STATUS
  0 no disagreement; 1 the oracles disagree; 2 unreadable input or unknown oracle.

BIT RANGES
  Written LO..HI: bits LO up to but not including HI, bit 0 the least
  significant (half-open). Locations and values print as in `diopter eval
  --help`; in JSON they are the objects of docs/schema/location.json.";

#[derive(clap::Args)]
pub struct Args {
    /// The case file.
    pub file: PathBuf,
    /// An oracle to run (repeatable): `reference` or `fast`. Default: the
    /// file's `# oracles:` line, else all. The first is the baseline.
    #[arg(long = "oracle", value_name = "NAME", conflicts_with = "smt")]
    pub oracles: Vec<String>,
    /// Compare the prover's SMT encoding (on the context's values) with the
    /// reference instead of the oracles.
    #[arg(long)]
    pub smt: bool,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

fn fail(werr: &mut dyn Write, msg: String) -> u8 {
    outln!(werr, "diopter replay: {msg}");
    2
}

pub fn run(a: &Args) -> ExitCode {
    crate::run_std(|o, e| run_to(a, o, e))
}

/// [`run`], printing to `out` and `err`; returns the exit status.
pub fn run_to(a: &Args, wout: &mut dyn Write, werr: &mut dyn Write) -> u8 {
    let text = match inputs::read(&a.file) {
        Ok(t) => t,
        Err(e) => return fail(werr, e),
    };
    let case = match diff::read_case_file(&text) {
        Ok(c) => c,
        Err(ds) => {
            let src = Source::new(a.file.display().to_string(), text);
            for d in &ds {
                out!(werr, "{}", src.render(d));
            }
            return 2;
        }
    };
    if a.smt {
        return replay_smt(a, &case, wout);
    }
    let mut names = if a.oracles.is_empty() {
        diff::case_file_oracles(&text)
    } else {
        a.oracles.clone()
    };
    if names.is_empty() {
        names = ORACLE_NAMES.iter().map(|s| s.to_string()).collect();
    }
    let mut oracles: Vec<Box<dyn Oracle>> = Vec::new();
    for n in &names {
        match oracle(n) {
            Some(o) => oracles.push(o),
            None => {
                return fail(
                    werr,
                    format!("unknown oracle `{n}` (known: {})", ORACLE_NAMES.join(", ")),
                )
            }
        }
    }
    let refs: Vec<&dyn Oracle> = oracles.iter().map(|o| o.as_ref()).collect();
    let (obs, verdict) = diff::run_case_observed(&case, &refs);
    match a.format {
        Format::Text => print_text(wout, &a.file, &case, &obs, &verdict),
        Format::Json => print_json(wout, &a.file, &case, &obs, &verdict),
    }
    if verdict.is_disagreement() {
        1
    } else {
        0
    }
}

fn print_text(
    wout: &mut dyn Write,
    file: &std::path::Path,
    case: &diopter_gen::Case,
    obs: &[Observation],
    v: &Verdict,
) {
    outln!(wout, "case:       {}", file.display());
    outln!(wout, "expression: {}", case.expr_line());
    for o in obs {
        outln!(wout, "{}:", o.oracle);
        match &o.outcome {
            Err(e) => {
                let op = case
                    .bare
                    .expr
                    .ops
                    .get(e.op_index)
                    .map(|n| format!(" ({})", print_op(&n.op)))
                    .unwrap_or_default();
                outln!(
                    wout,
                    "  error:    {:?} at operation #{}{op}: {}",
                    e.kind,
                    e.op_index,
                    e.message
                );
            }
            Ok(r) => {
                let unlisted = read_noting_unlisted(&case.ctx, &r.loc, r.bits).1;
                let view = LocatedView::new(r, o.read.as_ref(), &unlisted);
                out!(wout, "{}", view.text(r, "  "));
                match &o.write {
                    Some(Ok(after)) => {
                        let (changes, total) = case.ctx.state_diff_first(after, 64);
                        if total == 0 {
                            outln!(wout, "  write:    done, nothing changed");
                        } else {
                            let more = if total > changes.len() {
                                format!(", … ({total} changes)")
                            } else {
                                String::new()
                            };
                            outln!(
                                wout,
                                "  write:    done; changed: {}{more}",
                                changes.join(", ")
                            );
                        }
                    }
                    Some(Err(e)) => {
                        outln!(wout, "  write:    refused: {:?}: {}", e.kind, e.message)
                    }
                    None => {}
                }
            }
        }
    }
    outln!(wout, "verdict:    {v}");
    if v.is_disagreement() {
        outln!(wout, "reproduce:  {}", diff::repro_command(file));
    }
}

fn print_json(
    wout: &mut dyn Write,
    file: &std::path::Path,
    case: &diopter_gen::Case,
    obs: &[Observation],
    v: &Verdict,
) {
    let outcomes: Vec<serde_json::Value> = obs
        .iter()
        .map(|o| match &o.outcome {
            Err(e) => serde_json::json!({
                "oracle": o.oracle,
                "error": { "kind": format!("{:?}", e.kind), "op_index": e.op_index, "message": e.message },
            }),
            Ok(r) => serde_json::json!({
                "oracle": o.oracle,
                "location": LocatedView::new(r, o.read.as_ref(), &read_noting_unlisted(&case.ctx, &r.loc, r.bits).1),
                "write": match &o.write {
                    Some(Ok(after)) => {
                        let (changes, total) = case.ctx.state_diff_first(after, JSON_CHANGES);
                        serde_json::json!({ "changes": changes, "changes_total": total })
                    }
                    Some(Err(e)) => serde_json::json!({ "refused": { "kind": format!("{:?}", e.kind), "message": e.message } }),
                    None => serde_json::Value::Null,
                },
            }),
        })
        .collect();
    let out = serde_json::json!({
        "case": file.display().to_string(),
        "expression": case.expr_line(),
        "outcomes": outcomes,
        "verdict": v.label(),
        "details": v.details(),
        "reproduce": diff::repro_command(file),
    });
    outln!(
        wout,
        "{}",
        serde_json::to_string_pretty(&out).unwrap_or_default()
    );
}

/// `--smt`: the encoding on the case's concrete values against the
/// reference.
fn replay_smt(a: &Args, case: &diopter_gen::Case, wout: &mut dyn Write) -> u8 {
    use diopter_smt::concrete::{compare_with_reference, Comparison};
    let cmp = compare_with_reference(&case.bare, &case.types, &case.ctx);
    let (verdict, details): (&str, Vec<String>) = match &cmp {
        Comparison::Agree => ("agree", vec![]),
        Comparison::Skipped(why) | Comparison::Unsupported(why) => ("skipped", vec![why.clone()]),
        Comparison::Disagree(lines) => ("DISAGREE", lines.clone()),
    };
    match a.format {
        Format::Text => {
            outln!(wout, "case:       {}", a.file.display());
            outln!(wout, "expression: {}", case.expr_line());
            outln!(wout, "smt encoding vs reference: {verdict}");
            for d in &details {
                outln!(wout, "  {d}");
            }
        }
        Format::Json => {
            let v = serde_json::json!({
                "case": a.file.display().to_string(),
                "expression": case.expr_line(),
                "smt": { "verdict": verdict.to_lowercase(), "details": details },
            });
            outln!(
                wout,
                "{}",
                serde_json::to_string_pretty(&v).unwrap_or_default()
            );
        }
    }
    u8::from(matches!(cmp, Comparison::Disagree(_)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(file: PathBuf, oracles: &[&str]) -> Args {
        Args {
            file,
            oracles: oracles.iter().map(|s| s.to_string()).collect(),
            format: Format::Text,
            smt: false,
        }
    }

    fn temp(name: &str, text: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("diopter-replay-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let p = dir.join(name);
        std::fs::write(&p, text).expect("written");
        p
    }

    #[test]
    fn exit_codes() {
        let ok = temp(
            "ok.case",
            "# oracles: reference, fast\n[i32] DIOpArg(0, i32)\n--- context\n%x = i32 7\narg 0 = %x\n",
        );
        assert_eq!(run(&args(ok.clone(), &[])), ExitCode::SUCCESS);
        assert_eq!(run(&args(ok.clone(), &["reference"])), ExitCode::SUCCESS);
        let mut json = args(ok.clone(), &["fast", "reference"]);
        json.format = Format::Json;
        assert_eq!(run(&json), ExitCode::SUCCESS);
        // Unknown oracle, unreadable file, bad case file: 2.
        assert_eq!(run(&args(ok, &["nope"])), ExitCode::from(2));
        assert_eq!(
            run(&args(PathBuf::from("/nonexistent/x.case"), &[])),
            ExitCode::from(2)
        );
        let bad = temp("bad.case", "[i32] DIOpArg(0, i32)\n");
        assert_eq!(run(&args(bad, &[])), ExitCode::from(2));
        // Both fail alike, or the context is inconsistent: no disagreement.
        let both = temp(
            "both.case",
            "[] DIOpConstant(i8 1), DIOpConstant(i8 0), DIOpDiv()\n--- context\n",
        );
        assert_eq!(run(&args(both, &[])), ExitCode::SUCCESS);
        let inc = temp(
            "inc.case",
            "[i8] DIOpArg(0, i8)\n--- context\n%x = i8 1\n%y = i8 2\narg 0 = %x | %y\n",
        );
        assert_eq!(run(&args(inc, &[])), ExitCode::SUCCESS);
    }
}
