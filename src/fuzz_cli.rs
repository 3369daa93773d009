//! The body of the `cli` fuzz target (and of `tests/cli_never_panics.rs`,
//! which replays `fuzz/regressions/cli/` and runs a proptest over the same
//! body): one command line of `check`, `eval`, `lower`, `simplify`,
//! `locations`, `replay`, `transform` or `specs`, run in this process through
//! [`crate::run_in_process`], so through the same parsing, evaluation and
//! printing code as the binary, in text or JSON.
//!
//! The input: byte 0 chooses the command and flags, the rest is either raw
//! text (the expression or IR file, a NUL, the context, a NUL, a `--write`
//! literal or, for `transform`, the pass) or, when bit 4 of byte 0 is set, bytes that drive the case
//! generator (`diopter_gen::Case::from_bytes`: a well-typed expression and a
//! context that fits it).
//!
//! A finding is a panic anywhere, an exit status other than 0, 1 or 2, or,
//! with `--format json` and status 0 or 1, standard output that is not JSON.

use diopter_gen::{Case, GenConfig};
use std::path::PathBuf;

/// Literals `--write` is given when the input asks for one and brings none.
const WRITES: &[&str] = &[
    "0",
    "-1",
    "0x7",
    "1.5",
    "-0.0",
    "0xffffffffffffffffffffffff",
    "1e300",
    "nan",
    "256",
];

/// A per-process scratch directory for the input files.
fn scratch() -> PathBuf {
    let d = std::env::temp_dir().join(format!("diopter-fuzz-cli-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&d);
    d
}

fn write_file(name: &str, text: &str) -> String {
    let p = scratch().join(name);
    let _ = std::fs::write(&p, text);
    p.display().to_string()
}

/// The rule library `simplify` loads (the source tree's).
fn rules_dir() -> String {
    concat!(env!("CARGO_MANIFEST_DIR"), "/corpus/rules").to_string()
}

/// The command line an input stands for.
pub fn command_line(data: &[u8]) -> Option<Vec<String>> {
    let (&sel, rest) = data.split_first()?;
    let json = sel & 0x08 != 0;
    let generated = sel & 0x10 != 0;
    let with_write = sel & 0x20 != 0;
    let flag = sel & 0x40 != 0;
    let with_ctx = sel & 0x80 != 0;
    let (expr, ctx, write) = if generated {
        let case = Case::from_bytes(rest, &GenConfig::default());
        let w = WRITES[rest.first().copied().unwrap_or(0) as usize % WRITES.len()];
        (case.expr_line(), case.ctx.to_string(), w.to_string())
    } else {
        let text = String::from_utf8_lossy(rest);
        let mut parts = text.splitn(3, '\0');
        let e = parts.next().unwrap_or("").to_string();
        let c = parts.next().unwrap_or("").to_string();
        let w = parts
            .next()
            .map(str::to_string)
            .unwrap_or_else(|| WRITES[rest.len() % WRITES.len()].to_string());
        (e, c, w)
    };
    let ctx_path = || write_file("context.txt", &ctx);
    let mut args: Vec<String> = Vec::new();
    let push_expr = |args: &mut Vec<String>, ext: &str| {
        if expr.contains('\n') {
            args.push(write_file(&format!("input.{ext}"), &expr));
        } else {
            args.push("-e".into());
            args.push(expr.clone());
        }
    };
    match sel & 0x07 {
        0 => {
            args.push("check".into());
            if flag {
                args.push(write_file("input.ll", &expr));
            } else {
                push_expr(&mut args, "expr");
            }
        }
        1 => {
            args.push("eval".into());
            push_expr(&mut args, "expr");
            if with_ctx {
                args.push("--context".into());
                args.push(ctx_path());
            }
            if with_write {
                args.push(format!("--write={write}"));
            }
            if flag {
                args.push("--no-check".into());
            }
        }
        2 => {
            args.push("lower".into());
            push_expr(&mut args, "expr");
            if with_ctx {
                args.push("--context".into());
                args.push(ctx_path());
            }
            if flag {
                args.push("--ext".into());
            }
        }
        3 => {
            args.push("simplify".into());
            push_expr(&mut args, "expr");
            args.push("--rules".into());
            args.push(rules_dir());
            if flag {
                args.push("--explain".into());
            }
        }
        4 => {
            args.push("locations".into());
            args.push(write_file("input.ll", &expr));
            if with_ctx {
                args.push("--context".into());
                args.push(ctx_path());
            }
        }
        5 => {
            args.push("replay".into());
            let first = expr.lines().next().unwrap_or("");
            args.push(write_file(
                "case.txt",
                &format!("{first}\n--- context\n{ctx}\n"),
            ));
            // Not `--smt`: this target's inputs have not been measured
            // through the encoding, and this target must run clean. (Its
            // memory is bounded since fuzz/regressions/smt/: a work budget,
            // `diopter_smt::concrete::WORK_BUDGET`.)
        }
        6 => {
            // The text as an IR file through a pass: the one the third part
            // names (after the second NUL), else one chosen by the input's
            // length; with few contexts, since the equivalence check runs
            // every variable of the program in each.
            let passes = diopter_transforms::PASSES;
            let pass = passes
                .iter()
                .find(|p| **p == write.trim())
                .copied()
                .unwrap_or(passes[rest.len() % passes.len()]);
            args.push("transform".into());
            args.push(write_file("input.ll", &expr));
            args.push("--pass".into());
            args.push(pass.into());
            args.push("--contexts".into());
            args.push("2".into());
            if flag {
                args.push("--limit".into());
                args.push("1".into());
            }
            // transform has no --format: its output is IR text.
            return Some(args);
        }
        _ => {
            args.push("specs".into());
        }
    }
    if json {
        args.push("--format".into());
        args.push("json".into());
    }
    Some(args)
}

/// Runs the command line `data` stands for; `Err` says what went wrong
/// short of a panic (a panic propagates).
pub fn fuzz_one(data: &[u8]) -> Result<(), String> {
    let Some(args) = command_line(data) else {
        return Ok(());
    };
    let mut out: Vec<u8> = Vec::new();
    let mut err: Vec<u8> = Vec::new();
    let Some(code) = crate::run_in_process(&args, &mut out, &mut err) else {
        return Err(format!("{args:?}: not a command run_in_process runs"));
    };
    if code > 2 {
        return Err(format!(
            "{args:?}: exit status {code}\n{}",
            String::from_utf8_lossy(&err)
        ));
    }
    let json = args.iter().any(|a| a == "json");
    if json && code <= 1 && !out.is_empty() {
        if let Err(e) = serde_json::from_slice::<serde_json::Value>(&out) {
            return Err(format!(
                "{args:?}: --format json printed something that is not JSON ({e}):\n{}",
                String::from_utf8_lossy(&out)
            ));
        }
    }
    Ok(())
}
