//! The body of the `cli` fuzz target (and of `tests/cli_never_panics.rs`,
//! which replays `fuzz/regressions/cli/` and runs a proptest over the same
//! body): one command line of `check`, `eval`, `lower`, `simplify`,
//! `locations`, `replay`, `transform`, `specs`, `prove` (a rule file, or
//! `--merge` of shard JSON), `validate` (a pair, or two IR files) or
//! `minimize`, run in this process through [`crate::run_in_process`], so
//! through the same parsing, evaluation and printing code as the binary, in
//! text or JSON.
//!
//! The input: byte 0 chooses the command and flags (its low three bits the
//! command; 7 reads one more byte, [`MORE`], to choose among `specs` and the
//! commands that run Z3 or the minimizer), the rest is either raw text (the
//! expression, rule or IR file, a NUL, the context or second file, a NUL, a
//! `--write` literal, the pass of `transform` or the `--map`s of `validate`,
//! a line `where T: int` among them its `--where`)
//! or, when bit 4 of byte 0 is set, bytes that drive the case generator
//! (`diopter_gen::Case::from_bytes`: a well-typed expression and a context
//! that fits it), from which `prove` makes a rule and `validate` a pair.
//!
//! The commands that prove or minimize get small limits (`--timeout`,
//! `--time-limit`, one width, one job, no proof cache, no reports), so that
//! one input runs well under a second; their limits are the commands' own
//! options, enforced by their code (`ProveConfig::deadline`).
//!
//! Left out: `prove --transforms`, `run`, `report` and `campaign`. They read
//! no input but paths of the source tree and durations, and they run the
//! whole rule library, cargo and fuzzers, and write `reports/`: minutes per
//! execution, and nothing a user writes to parse. What of them reads user
//! input is here: `report` and `run` prove through `prove`, and the shard
//! JSON of `prove --merge` is the one file a user hands back.
//!
//! A finding is a panic anywhere, an exit status other than 0, 1 or 2, or,
//! with `--format json` and status 0 or 1, standard output that is not JSON;
//! or a command that cannot have checked anything and still exits 0 or 1
//! ([`must_refuse`]: `transform --contexts 0`, `validate` of IR files with
//! no debug record or of a pair file with no pair, `locations` of a file
//! with no variable).

use diopter_gen::Generate;
use diopter_gen::{Case, GenConfig};
use diopter_semantics::ast::Op;
use diopter_semantics::syntax::print_op;
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

/// `prove`'s limits here: one width, a short query timeout and time limit,
/// one job, no proof cache (nothing written into the source tree's
/// `target/`), no reports.
const PROVE_LIMITS: &[&str] = &[
    "--widths",
    "8",
    "--timeout",
    "100",
    "--time-limit",
    "0.3",
    "--jobs",
    "1",
    "--no-cache",
    "--no-report",
];

/// `validate`'s limits here: a short query timeout, and a time limit that
/// also bounds the random contexts tried after Z3 gives up.
const VALIDATE_LIMITS: &[&str] = &["--timeout", "100", "--time-limit", "0.3"];

/// A scratch directory for the input files, per process and thread (the
/// tests run several commands of one process at once: a shared `input.ll`
/// was overwritten by another test's).
fn scratch() -> PathBuf {
    let thread: String = format!("{:?}", std::thread::current().id())
        .chars()
        .filter(char::is_ascii_digit)
        .collect();
    let d = std::env::temp_dir().join(format!("diopter-fuzz-cli-{}-{thread}", std::process::id()));
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

/// What selector 7's second byte chooses (modulo its length).
pub const MORE: &[&str] = &[
    "specs",
    "prove",
    "validate",
    "validate-ll",
    "minimize",
    "prove-merge",
];

/// A rule (a `lemma`: it need not shrink) made from a generated case: each
/// `DIOpArg(k, T)` becomes the hole `?ak:T`. The right side is the left
/// (it holds) or, with `refute`, the first hole read (mostly refuted, which
/// prints a counterexample).
fn rule_of(case: &Case, refute: bool) -> String {
    let mut lhs = Vec::new();
    let mut first_hole = None;
    for op in case.bare.expr.ops() {
        match op {
            Op::Arg(k, t) => {
                lhs.push(format!("?a{k}:{t}"));
                first_hole.get_or_insert(format!("?a{k}"));
            }
            o => lhs.push(print_op(o)),
        }
    }
    let lhs = lhs.join(", ");
    let rhs = match (refute, first_hole) {
        (true, Some(h)) => format!("{h}, DIOpRead()"),
        _ => lhs.clone(),
    };
    format!("lemma fuzz [{}]: {lhs} => {rhs}\n", case.bare.expr.dialect)
}

/// `argK := DIOpArg(K, T)` for each argument of a generated case: the
/// mapping of a pass that kept every operand where it was.
fn identity_maps(case: &Case) -> Vec<String> {
    case.bare
        .args
        .iter()
        .flatten()
        .enumerate()
        .map(|(k, a)| format!("arg{k} := DIOpArg({k}, {})", a.ty))
        .collect()
}

/// The command line an input stands for.
pub fn command_line(data: &[u8]) -> Option<Vec<String>> {
    let (&sel, rest) = data.split_first()?;
    let json = sel & 0x08 != 0;
    let generated = sel & 0x10 != 0;
    let with_write = sel & 0x20 != 0;
    let flag = sel & 0x40 != 0;
    let with_ctx = sel & 0x80 != 0;
    // Selector 7 takes one more byte: which of `MORE`. Without it, `specs`
    // (as before there was a second byte).
    let (more, rest) = match (sel & 0x07, rest.split_first()) {
        (7, Some((&m, r))) => (MORE[m as usize % MORE.len()], r),
        (7, None) => ("specs", rest),
        _ => ("", rest),
    };
    let case = generated.then(|| Case::from_bytes(rest, &GenConfig::default()));
    let (expr, ctx, write, third) = if let Some(case) = &case {
        let w = WRITES[rest.first().copied().unwrap_or(0) as usize % WRITES.len()];
        (case.expr_line(), case.ctx.to_string(), w.to_string(), None)
    } else {
        let text = String::from_utf8_lossy(rest);
        let mut parts = text.splitn(3, '\0');
        let e = parts.next().unwrap_or("").to_string();
        let c = parts.next().unwrap_or("").to_string();
        let third = parts.next().map(str::to_string);
        let w = third
            .clone()
            .unwrap_or_else(|| WRITES[rest.len() % WRITES.len()].to_string());
        (e, c, w, third)
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
            // With bit 3 (`--format json`, which transform does not take):
            // no contexts at all, which must be refused.
            args.push("--contexts".into());
            args.push(if json { "0" } else { "2" }.into());
            if flag {
                args.push("--limit".into());
                args.push("1".into());
            }
            // transform has no --format: its output is IR text.
            return Some(args);
        }
        _ => match more {
            "prove" => {
                let rules = match &case {
                    Some(c) => rule_of(c, with_write),
                    None => expr.clone(),
                };
                args.push("prove".into());
                args.push(write_file("input.rules", &rules));
                args.extend(PROVE_LIMITS.iter().map(|s| s.to_string()));
                if flag {
                    args.push("--strict".into());
                }
                if with_ctx {
                    args.push("--verbose".into());
                }
            }
            "prove-merge" => {
                // Each NUL-separated part a shard's JSON (the report is not
                // written: --no-report).
                args.extend(["prove".into(), "--no-report".into(), "--merge".into()]);
                let mut parts = vec![expr.clone()];
                if !ctx.is_empty() {
                    parts.push(ctx.clone());
                }
                parts.extend(third.clone());
                for (k, p) in parts.iter().enumerate() {
                    args.push(write_file(&format!("shard-{k}.json"), p));
                }
            }
            "validate" => {
                args.push("validate".into());
                let (before, after, maps) = match &case {
                    Some(c) => {
                        // AFTER: the same expression (equivalent), the
                        // deleted variable, or another generated case (a
                        // pair that mostly does not type or is refuted).
                        let after = if with_write {
                            "poisoned".to_string()
                        } else if flag {
                            let mut r = rest.to_vec();
                            r.reverse();
                            Case::from_bytes(&r, &GenConfig::default()).expr_line()
                        } else {
                            expr.clone()
                        };
                        (expr.clone(), after, identity_maps(c))
                    }
                    None => (
                        expr.clone(),
                        ctx.clone(),
                        third
                            .iter()
                            .flat_map(|t| t.lines())
                            .map(str::to_string)
                            .collect(),
                    ),
                };
                for e in [before, after] {
                    // One line each: -e takes the one-line form.
                    args.push("-e".into());
                    args.push(e.lines().next().unwrap_or("").to_string());
                }
                for m in maps {
                    // A `where` line makes the pair generic (`--where`).
                    match m.strip_prefix("where ") {
                        Some(w) => args.push(format!("--where={w}")),
                        None => args.push(format!("--map={m}")),
                    }
                }
                if with_ctx {
                    args.push("--datalayout".into());
                    args.push("amdgpu".into());
                }
                args.extend(VALIDATE_LIMITS.iter().map(|s| s.to_string()));
            }
            "validate-ll" if flag && !generated => {
                // The text as a pair file (`diopter validate FILE`).
                args.push("validate".into());
                args.push(write_file("pairs.map", &expr));
                args.extend(VALIDATE_LIMITS.iter().map(|s| s.to_string()));
            }
            "validate-ll" => {
                args.push("validate".into());
                args.push(write_file("before.ll", &expr));
                args.push(write_file("after.ll", &ctx));
                for m in third.iter().flat_map(|t| t.lines()) {
                    args.push(format!("--map={m}"));
                }
                args.extend(VALIDATE_LIMITS.iter().map(|s| s.to_string()));
            }
            "minimize" => {
                args.push("minimize".into());
                if flag && generated {
                    // The raw bytes, as `minimize --bytes` reads a fuzz
                    // artifact of eval_diff.
                    let p = scratch().join("input.bytes");
                    let _ = std::fs::write(&p, rest);
                    args.push(p.display().to_string());
                    args.push("--bytes".into());
                } else {
                    let first = expr.lines().next().unwrap_or("");
                    args.push(write_file(
                        "case.txt",
                        &format!("{first}\n--- context\n{ctx}\n"),
                    ));
                }
                // The oracle and the plant the third part names, else
                // ones chosen by the input's length.
                let names = diopter_harness::registry::ORACLE_NAMES;
                let plants = diopter_harness::minimize::plant::PLANTS.map(|(n, _)| n);
                let named = |list: &[&'static str], k: usize| {
                    third
                        .as_deref()
                        .and_then(|t| list.iter().find(|n| t.split_whitespace().any(|w| w == **n)))
                        .copied()
                        .unwrap_or(list[k % list.len()])
                };
                let b = rest.len();
                args.push("--oracle".into());
                args.push(named(&names, b).into());
                if with_write {
                    // A planted bug: a case that fails, so the minimizer
                    // runs (most generated cases fail no real oracle).
                    args.push("--plant".into());
                    args.push(named(&plants, b / names.len()).into());
                }
                args.push("--output".into());
                args.push(scratch().join("min.case").display().to_string());
                args.extend(["--time-limit".into(), "0.3".into()]);
                // minimize has no --format: its output is text.
                return Some(args);
            }
            _ => args.push("specs".into()),
        },
    }
    if json {
        args.push("--format".into());
        args.push("json".into());
    }
    Some(args)
}

/// Why the command line `args` cannot check anything, when it cannot: then
/// it must exit 2 (bad input) with a message, never 0 or 1. Decided from the
/// arguments and the input files' text alone, by conditions under which no
/// reading of the input could give the command something to check.
pub fn must_refuse(args: &[String]) -> Option<&'static str> {
    let read = |p: &String| std::fs::read_to_string(p).unwrap_or_default();
    let files: Vec<&String> = args[1..]
        .iter()
        .filter(|a| !a.starts_with('-') && std::path::Path::new(a.as_str()).is_file())
        .collect();
    match args.first().map(String::as_str)? {
        "transform" => args
            .windows(2)
            .any(|w| w[0] == "--contexts" && w[1] == "0")
            .then_some("transform --contexts 0 checks in no context"),
        "validate" if files.len() == 2 && files.iter().all(|f| f.ends_with(".ll")) => {
            // Every debug record (`#dbg_*`, `llvm.dbg.*`, MIR's `DBG_*`)
            // has `dbg` in its name.
            (!files
                .iter()
                .any(|f| read(f).to_ascii_lowercase().contains("dbg")))
            .then_some("validate of two IR files with no debug record")
        }
        "validate" if files.len() == 1 && files[0].ends_with(".map") => {
            // Every pair has a `before` line.
            (!read(files[0])
                .lines()
                .any(|l| l.trim_start().starts_with("before")))
            .then_some("validate of a pair file with no pair")
        }
        "locations" => {
            let t = files.first().map(|f| read(f)).unwrap_or_default();
            (!["DILocalVariable", "DIGlobalVariable", "DIFragment"]
                .iter()
                .any(|n| t.contains(n)))
            .then_some("locations of a file with no variable")
        }
        _ => None,
    }
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
    if let (Some(why), 0 | 1) = (must_refuse(&args), code) {
        return Err(format!(
            "{args:?}: {why}, yet exit status {code}\n{}",
            String::from_utf8_lossy(&out)
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
