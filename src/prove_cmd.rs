//! `diopter prove`: proves the rule library with Z3 (`diopter_smt::prove`),
//! every rule at every width of `--widths`, and refutes the rules under
//! `refuted/`. Prints per rule and instance the verdict and the time, an
//! Alive-style counterexample for a refutation, and writes the report to
//! `reports/proofs.json` and `reports/proofs.md`.

use crate::Format;
use diopter_rules::instance::{Instance, Relation};
use diopter_rules::{self as rules, render_located, Rule};
use diopter_semantics::diag::Diagnostic;
use diopter_smt::prove::{prove_instance, Outcome, ProveConfig, Verdict};
use serde_json::json;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

pub const PROVE_HELP: &str = "\
Every rule is instantiated at every width of --widths (integer type
variables; float kinds, pointers and a sample of other types besides) and
each instance is one Z3 query: \"are there inputs, each hole in any storage
(memory in address spaces 0 and 5, entity, implicit, undefined, implicit
address, composite, two single locations, a failing subexpression), on which
the two sides differ in failure, type, bits read or the effect of a write?\"
(DESIGN.md, Equivalence; `=>ro` rules may refuse writes the left side
accepts). A refutation prints the counterexample, re-evaluated by the
reference interpreter.

Rules under a directory named `refuted/` are expected to be refuted. With no
FILES, the library is corpus/rules plus the generated constant-folding rules.

Exit status: 0 when every rule that claims to hold is proved at every width
and every rule under refuted/ is refuted (an `unknown`, e.g. a timeout, is
tolerated unless --strict); 1 otherwise (and for any encoding bug: a
difference Z3 found that the reference interpreter does not confirm); 2 when
a rule file cannot be read or parsed.";

#[derive(clap::Args)]
pub struct Args {
    /// Rule files or directories (read recursively for *.rules). Default:
    /// corpus/rules and the generated constant-folding rules.
    pub paths: Vec<PathBuf>,
    /// Integer widths to instantiate type variables with.
    #[arg(
        long,
        value_name = "LIST",
        default_value = "1,2,3,4,7,8,16,32,33,64",
        value_delimiter = ','
    )]
    pub widths: Vec<u64>,
    /// Timeout of one Z3 query, in milliseconds; a timeout is `unknown`.
    #[arg(long, value_name = "MS", default_value_t = 10_000)]
    pub timeout: u32,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Count `unknown` as a failure.
    #[arg(long)]
    pub strict: bool,
    /// Queries run in parallel (default: the number of CPUs).
    #[arg(long, value_name = "N")]
    pub jobs: Option<usize>,
    /// Only rules whose name contains this (may be repeated).
    #[arg(long, value_name = "TEXT")]
    pub rule: Vec<String>,
    /// With FILES: also the generated constant-folding rules.
    #[arg(long)]
    pub generated: bool,
    /// Do not write reports/proofs.json and reports/proofs.md.
    #[arg(long)]
    pub no_report: bool,
    /// Where the reports go.
    #[arg(long, value_name = "DIR", default_value = "reports")]
    pub report_dir: PathBuf,
    /// Prove the transformations' rewrites (corpus/transforms, SRoA and
    /// mem2reg) instead, into reports/transforms.{md,json}.
    #[arg(long)]
    pub transforms: bool,
    /// Text output: list every instance with its verdict and time, not only
    /// those that are not as the rule claims (and one counterexample of
    /// each refuted rule).
    #[arg(long, short)]
    pub verbose: bool,
}

/// The rule loader. One place to switch if the rule language's entry point
/// changes.
fn load(paths: &[PathBuf]) -> Result<Vec<Rule>, Vec<Diagnostic>> {
    rules::load_rule_files(paths)
}

/// What a rule's instances add up to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Status {
    /// As claimed: proved everywhere, or (under refuted/) refuted somewhere.
    Ok,
    Unknown,
    Fail,
}

impl Status {
    fn label(self) -> &'static str {
        match self {
            Status::Ok => "ok",
            Status::Unknown => "unknown",
            Status::Fail => "FAIL",
        }
    }
}

fn rule_status(expect_refuted: bool, outs: &[&Outcome]) -> (Status, String) {
    let count = |f: fn(&Verdict) -> bool| outs.iter().filter(|o| f(&o.verdict)).count();
    let proved = count(|v| matches!(v, Verdict::Proved));
    let refuted = count(|v| matches!(v, Verdict::Refuted(_)));
    let unknown = count(|v| matches!(v, Verdict::Unknown(_)));
    let bad = count(|v| matches!(v, Verdict::Invalid(_) | Verdict::EncodingBug(_)));
    let summary = format!(
        "{proved} proved, {refuted} refuted, {unknown} unknown, {bad} invalid or encoding bug"
    );
    if bad > 0 {
        return (Status::Fail, summary);
    }
    if outs
        .iter()
        .all(|o| matches!(o.verdict, Verdict::NotApplicable(_)))
    {
        return (Status::Unknown, "no instance applies".into());
    }
    let status = if expect_refuted {
        if refuted > 0 {
            Status::Ok
        } else if unknown > 0 {
            Status::Unknown
        } else {
            Status::Fail
        }
    } else if refuted > 0 {
        Status::Fail
    } else if unknown > 0 {
        Status::Unknown
    } else {
        Status::Ok
    };
    (status, summary)
}

fn binding(i: &Instance) -> String {
    let mut s: Vec<String> = i
        .binding
        .iter()
        .map(|(k, v)| format!("{k} = {v}"))
        .collect();
    s.push(format!("{}", i.dialect));
    s.join(", ")
}

fn reason(v: &Verdict) -> Option<String> {
    match v {
        Verdict::Unknown(m)
        | Verdict::NotApplicable(m)
        | Verdict::Invalid(m)
        | Verdict::EncodingBug(m) => Some(m.clone()),
        _ => None,
    }
}

/// Proves the rule library (`--transforms` is `prove_transforms_cmd::run`,
/// chosen by `main`).
pub fn run(a: &Args) -> ExitCode {
    let paths: Vec<PathBuf> = if a.paths.is_empty() {
        vec![PathBuf::from("corpus/rules")]
    } else {
        a.paths.clone()
    };
    for p in &paths {
        if !p.exists() {
            eprintln!("error: {}: no such file or directory", p.display());
            return ExitCode::from(2);
        }
    }
    let mut rules = match load(&paths) {
        Ok(r) => r,
        Err(d) => {
            eprint!("{}", render_located(&d));
            return ExitCode::from(2);
        }
    };
    if a.paths.is_empty() || a.generated {
        rules.extend(rules::generated_rules());
    }
    if !a.rule.is_empty() {
        rules.retain(|r| a.rule.iter().any(|f| r.name.contains(f.as_str())));
    }
    if a.widths.is_empty() || a.widths.contains(&0) {
        eprintln!("error: --widths needs widths of at least 1 bit");
        return ExitCode::from(2);
    }
    let start = Instant::now();
    let mut work: Vec<(usize, Instance)> = Vec::new();
    for (k, r) in rules.iter().enumerate() {
        for i in r.instances(&a.widths) {
            work.push((k, i));
        }
    }
    let jobs = a
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    let cfg = ProveConfig {
        timeout_ms: a.timeout,
        split_first: false,
    };
    let results: Vec<Mutex<Option<Outcome>>> = work.iter().map(|_| Mutex::new(None)).collect();
    let next = AtomicUsize::new(0);
    // A rule expected to be refuted needs one refutation: its other
    // instances are skipped once one is refuted.
    let refuted_rules: Vec<std::sync::atomic::AtomicBool> = rules
        .iter()
        .map(|_| std::sync::atomic::AtomicBool::new(false))
        .collect();
    let done = AtomicUsize::new(0);
    eprintln!(
        "proving {} instances of {} rules (widths {:?}, timeout {} ms, {jobs} jobs)",
        work.len(),
        rules.len(),
        a.widths,
        a.timeout
    );
    std::thread::scope(|s| {
        for _ in 0..jobs {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some((k, inst)) = work.get(i) else { break };
                let expect_refuted = rules[*k].expect_refuted();
                let o = if expect_refuted && refuted_rules[*k].load(Ordering::SeqCst) {
                    Outcome {
                        verdict: Verdict::Skipped("the rule is already refuted".into()),
                        millis: 0,
                    }
                } else {
                    prove_instance(inst, &cfg)
                };
                if expect_refuted && matches!(o.verdict, Verdict::Refuted(_)) {
                    refuted_rules[*k].store(true, Ordering::SeqCst);
                }
                *results[i].lock().expect("not poisoned") = Some(o);
                done.fetch_add(1, Ordering::SeqCst);
            });
        }
        // Progress for long runs.
        let mut last = Instant::now();
        while done.load(Ordering::SeqCst) < work.len() {
            std::thread::sleep(Duration::from_millis(100));
            if last.elapsed() >= Duration::from_secs(5) {
                eprintln!(
                    "  {}/{} instances, {:.1} s",
                    done.load(Ordering::SeqCst),
                    work.len(),
                    start.elapsed().as_secs_f64()
                );
                last = Instant::now();
            }
        }
    });
    let outcomes: Vec<Outcome> = results
        .into_iter()
        .map(|m| {
            m.into_inner()
                .expect("not poisoned")
                .expect("every instance ran")
        })
        .collect();
    let total = start.elapsed();

    // Per rule.
    let mut failed = false;
    let mut rows = Vec::new();
    for (k, r) in rules.iter().enumerate() {
        let idx: Vec<usize> = (0..work.len()).filter(|&i| work[i].0 == k).collect();
        let outs: Vec<&Outcome> = idx.iter().map(|&i| &outcomes[i]).collect();
        let (status, summary) = if idx.is_empty() {
            (Status::Unknown, "no instance at these widths".to_string())
        } else {
            rule_status(r.expect_refuted(), &outs)
        };
        if status == Status::Fail || (status == Status::Unknown && a.strict) {
            failed = true;
        }
        rows.push((r, idx, status, summary));
    }
    let counts = |s: Status| rows.iter().filter(|r| r.2 == s).count();
    let summary_line = format!(
        "{} rules: {} ok, {} unknown, {} FAIL; {} instances in {:.1} s",
        rows.len(),
        counts(Status::Ok),
        counts(Status::Unknown),
        counts(Status::Fail),
        work.len(),
        total.as_secs_f64()
    );

    let text = render_text(&rows, &work, &outcomes, &summary_line, a.verbose);
    let json = render_json(a, &rows, &work, &outcomes, total, &summary_line);
    match a.format {
        Format::Text => print!("{text}"),
        Format::Json => println!(
            "{}",
            serde_json::to_string_pretty(&json).unwrap_or_default()
        ),
    }
    if !a.no_report {
        if let Err(e) = write_reports(&a.report_dir, &json, &rows, &outcomes, &summary_line) {
            eprintln!(
                "warning: writing the reports in {}: {e}",
                a.report_dir.display()
            );
        }
    }
    if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

type Row<'a> = (&'a Rule, Vec<usize>, Status, String);

fn render_text(
    rows: &[Row],
    work: &[(usize, Instance)],
    outs: &[Outcome],
    summary: &str,
    verbose: bool,
) -> String {
    let mut s = String::new();
    for (r, idx, status, sum) in rows {
        let expect = if r.expect_refuted() {
            " (expected refuted)"
        } else {
            ""
        };
        let rel = match r.relation {
            Relation::Equivalent => "=>",
            Relation::ReadOnly => "=>ro",
        };
        s += &format!(
            "{} {} [{rel}] {}{expect}: {sum}\n",
            status.label(),
            r.name,
            r.origin
        );
        let mut shown_cex = false;
        for &i in idx {
            let (inst, o) = (&work[i].1, &outs[i]);
            // Without --verbose, an instance is listed only when it is not
            // as its rule claims, or when it shows a refuted rule's
            // counterexample: thousands of `proved` lines hide the one
            // that matters.
            let as_claimed = if r.expect_refuted() {
                !matches!(o.verdict, Verdict::Refuted(_)) || shown_cex
            } else {
                matches!(
                    o.verdict,
                    Verdict::Proved | Verdict::NotApplicable(_) | Verdict::Skipped(_)
                )
            };
            if !verbose && as_claimed {
                continue;
            }
            s += &format!(
                "    {:<14} {:>7} ms  {}",
                o.verdict.label(),
                o.millis,
                binding(inst)
            );
            if let Some(m) = reason(&o.verdict) {
                s += &format!("  ({})", m.lines().next().unwrap_or(""));
            }
            s.push('\n');
            match &o.verdict {
                // One counterexample per rule keeps the output readable; a
                // rule that claims to hold shows its first refutation.
                Verdict::Refuted(c) if !shown_cex => {
                    s += &indent(&c.render(), "    ");
                    shown_cex = true;
                }
                Verdict::EncodingBug(m) => s += &indent(m, "      "),
                _ => {}
            }
        }
    }
    s += summary;
    s.push('\n');
    s
}

fn indent(text: &str, by: &str) -> String {
    text.lines().map(|l| format!("{by}{l}\n")).collect()
}

fn render_json(
    a: &Args,
    rows: &[Row],
    work: &[(usize, Instance)],
    outs: &[Outcome],
    total: Duration,
    summary: &str,
) -> serde_json::Value {
    let rules: Vec<_> = rows
        .iter()
        .map(|(r, idx, status, sum)| {
            let insts: Vec<_> = idx
                .iter()
                .map(|&i| {
                    let (inst, o) = (&work[i].1, &outs[i]);
                    let cex = match &o.verdict {
                        Verdict::Refuted(c) => json!({
                            "text": c.render(),
                            "inputs": c.inputs.iter().map(|x| json!({
                                "name": x.name,
                                "type": x.ty.to_string(),
                                "shape": x.shape,
                                "location": x.location,
                                "bits": x.bits.as_ref().map(|b| b.to_hex()).unwrap_or_else(|e| e.clone()),
                            })).collect::<Vec<_>>(),
                            "memory": c.memory.iter().map(|(s, addr, b)| json!({"addrspace": s, "address": format!("0x{addr:x}"), "byte": b})).collect::<Vec<_>>(),
                            "written": c.written.as_ref().map(|w| w.to_hex()),
                            "left": c.lhs,
                            "right": c.rhs,
                            "differences": c.differences,
                            "first_difference": c.first_difference,
                            "context": c.context,
                        }),
                        _ => serde_json::Value::Null,
                    };
                    json!({
                        "binding": binding(inst),
                        "verdict": o.verdict.label(),
                        "millis": o.millis as u64,
                        "reason": reason(&o.verdict),
                        "counterexample": cex,
                    })
                })
                .collect();
            json!({
                "name": r.name,
                "origin": r.origin.to_string(),
                "relation": match r.relation { Relation::Equivalent => "equivalent", Relation::ReadOnly => "read-only" },
                "expect": if r.expect_refuted() { "refuted" } else { "holds" },
                "status": status.label(),
                "summary": sum,
                "instances": insts,
            })
        })
        .collect();
    json!({
        "widths": a.widths,
        "timeout_ms": a.timeout,
        "strict": a.strict,
        "total_seconds": total.as_secs_f64(),
        "summary": summary,
        "rules": rules,
    })
}

fn write_reports(
    dir: &Path,
    json: &serde_json::Value,
    rows: &[Row],
    outs: &[Outcome],
    summary: &str,
) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    std::fs::write(
        dir.join("proofs.json"),
        serde_json::to_string_pretty(json).unwrap_or_default() + "\n",
    )?;
    let mut md = String::from("# Proofs of the rule library\n\nGenerated by `diopter prove`; see `reports/proofs.json` for every instance.\n\n");
    md += &format!(
        "{summary}\n\n| rule | expect | status | instances | slowest |\n|---|---|---|---|---|\n"
    );
    for (r, idx, status, sum) in rows {
        let slowest = idx.iter().map(|&i| outs[i].millis).max().unwrap_or(0);
        md += &format!(
            "| `{}` | {} | {} | {} | {} ms |\n",
            r.name,
            if r.expect_refuted() {
                "refuted"
            } else {
                "holds"
            },
            status.label(),
            sum,
            slowest
        );
    }
    std::fs::write(dir.join("proofs.md"), md)
}
