//! The pass-fuzzing campaign: modules from `llvm-stress`, from diopter's
//! own generator (`irgen`) and from collected `.ll` files are debugified
//! once, run through each pass by `opt`, and every record validated. A
//! refutation that rests only on values both files share is a finding,
//! deduplicated by pass and cause, its debugified input kept for
//! reduction; a refutation that rests on an operand with no known relation
//! is counted as inconclusive, never as a finding. A pass that crashes or
//! hangs in `opt` is a finding of its own kind.

use super::irgen;
use super::opt_loop::{Opt, StepError};
use super::tools::{self, Limits, Located};
use crate::files::{self, FileVerdicts, Kind, RecordVerdict};
use crate::reading::Reading;
use diopter_semantics::diag::Source;
use diopter_smt::prove::ProveConfig;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The passes a campaign runs by default: those that rewrite or delete
/// instructions and so must salvage or drop the debug values on them.
pub const DEFAULT_PASSES: &[&str] = &[
    "instcombine",
    "instsimplify",
    "bdce",
    "correlated-propagation",
    "simplifycfg",
    "dce",
    "adce",
    "early-cse",
    "gvn",
    "sroa",
    "mem2reg",
    "reassociate",
    "licm",
    "loop-rotate",
    "indvars",
    "sccp",
    "jump-threading",
    "dse",
    "aggressive-instcombine",
    "loop-instsimplify",
    "div-rem-pairs",
    "consthoist",
    "newgvn",
    "ipsccp",
    "function-attrs,instcombine",
];

/// A `--pass` that is no pipeline in `opt -passes=` syntax.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("--pass `{0}`: a pipeline in opt -passes= syntax, without spaces")]
pub struct BadPipeline(pub String);

/// The pipelines to run: `given`, or [`DEFAULT_PASSES`] when none is;
/// `Err` names one that is not in `opt -passes=` syntax.
pub fn pipelines(given: &[String]) -> Result<Vec<String>, BadPipeline> {
    let passes: Vec<String> = if given.is_empty() {
        DEFAULT_PASSES.iter().map(|s| s.to_string()).collect()
    } else {
        given.to_vec()
    };
    match passes
        .iter()
        .find(|p| p.trim().is_empty() || p.contains(char::is_whitespace))
    {
        Some(bad) => Err(BadPipeline(bad.clone())),
        None => Ok(passes),
    }
}

/// Where a campaign's modules come from.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "source", rename_all = "kebab-case")]
pub enum Origin {
    Stress {
        seed: u64,
        size: usize,
    },
    Irgen {
        seed: u64,
        functions: usize,
        size: usize,
    },
    File {
        path: String,
    },
}

impl Origin {
    pub fn label(&self) -> String {
        match self {
            Origin::Stress { seed, size } => format!("llvm-stress --seed={seed} --size={size}"),
            Origin::Irgen { seed, .. } => format!("irgen seed {seed}"),
            Origin::File { path } => path.clone(),
        }
    }
}

/// What a campaign reads and how long it runs.
#[derive(Clone, Debug)]
pub struct Config {
    pub opt: Opt,
    /// `llvm-stress`, when its modules are wanted.
    pub stress: Option<Located>,
    pub irgen: bool,
    /// Collected `.ll` files.
    pub files: Vec<PathBuf>,
    pub passes: Vec<String>,
    pub duration: Duration,
    /// Stop after this many modules even if time is left.
    pub max_modules: Option<usize>,
    pub seed: u64,
    pub jobs: usize,
    pub prove: ProveConfig,
    /// Findings' inputs are written here (`findings/<id>/`).
    pub out_dir: PathBuf,
}

/// Per-pass figures.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct PassStats {
    pub modules: usize,
    pub functions: usize,
    pub records: usize,
    pub verdicts: BTreeMap<Kind, usize>,
    /// Refutations that rest on an operand with no known relation.
    pub inconclusive: usize,
    pub coverage_losses: usize,
    /// `opt-failed`, `opt-crashed`, `opt-timeout`, `bad-input` (a result
    /// diopter could not read).
    pub errors: BTreeMap<String, usize>,
    pub opt_ms: u64,
    pub validate_ms: u64,
}

/// One refutation kept for reduction and the report.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Finding {
    pub id: String,
    pub pass: String,
    pub cause: String,
    pub origin: Origin,
    pub record: RecordVerdict,
    /// The debugified module the pass ran on.
    pub input: String,
    /// How many refuted records had this pass and cause.
    pub occurrences: usize,
    /// The first finding of the same cause in another pass (the cause
    /// without its pass): salvage code is shared between passes
    /// (`salvageDebugInfo`), so that one is reduced and checked, and this
    /// one points to it.
    pub same_as: Option<String>,
    /// Set by a recheck (`recheck`): the diopter that rechecked the run no
    /// longer gives this refutation on the finding's input, a diopter false
    /// positive fixed since the run. Not a cause, never reduced.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub no_longer_refuted: bool,
}

/// A cause without its pass.
pub fn passless(cause: &str) -> &str {
    cause.split_once(" | ").map_or(cause, |(_, rest)| rest)
}

/// A pass that crashed or hung in `opt`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct OptProblem {
    pub pass: String,
    pub class: String,
    pub message: String,
    pub origin: Origin,
    /// Not in the report's JSON, so empty for a run read back from it.
    #[serde(default)]
    pub input: String,
}

/// What a campaign found.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Outcome {
    pub modules: usize,
    pub functions: usize,
    /// Modules whose debugify step failed (`opt` refused the input).
    pub unusable_inputs: usize,
    pub passes: BTreeMap<String, PassStats>,
    pub findings: Vec<Finding>,
    pub opt_problems: Vec<OptProblem>,
    pub elapsed_ms: u64,
    /// Set when the campaign was interrupted.
    pub interrupted: bool,
}

impl Outcome {
    /// Functions through `opt` and validation per minute (each function
    /// counted once per pass).
    pub fn functions_per_minute(&self) -> f64 {
        let f: usize = self.passes.values().map(|p| p.functions).sum();
        if self.elapsed_ms == 0 {
            0.0
        } else {
            f as f64 * 60_000.0 / self.elapsed_ms as f64
        }
    }
}

/// The cause of a refutation, for deduplication: the pass; the `DW_OP`s of
/// each record; and, for each side, the instructions its operands were
/// derived through, by opcode and flags (and `icmp` predicate), as sets.
/// Names, numbers, types and how often an operation occurs are left out, so
/// that one mistake (a salvage of `sdiv` as `DW_OP_div`, a flag the pass
/// relied on) is one finding however often and in whatever chain of
/// instructions it fires. (Keying on the whole expressions made every
/// llvm-stress function a cause of its own: 580 in one hour.)
pub fn cause(pass: &str, r: &RecordVerdict) -> String {
    use std::collections::BTreeSet;
    fn dw_ops(text: &str) -> String {
        let ops: BTreeSet<&str> = text
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .filter(|w| w.starts_with("DW_OP_"))
            .map(comparison_class)
            .collect();
        ops.into_iter().collect::<Vec<_>>().join(" ")
    }
    const FLAGS: &[&str] = &["nuw", "nsw", "exact", "disjoint", "nneg"];
    // `before i32 %v4: derived: ... from `%v4 = sext i16 %v2 to i32``.
    if let Some(reading) = r.reading {
        // One mistake under the errata reading, whatever the derivations:
        // the after-record's operations that can see it name it.
        let ops: BTreeSet<&str> = sensitive_ops(&r.after.text)
            .into_iter()
            .map(comparison_class)
            .collect();
        return format!(
            "{pass} | refuted only under the reading of the {} | after record [{}]",
            reading.label(),
            ops.into_iter().collect::<Vec<_>>().join(" ")
        );
    }
    let mut sides: [BTreeSet<String>; 2] = [BTreeSet::new(), BTreeSet::new()];
    // Values defined alike in both files (`same value`) are not where the
    // two sides part.
    for o in r.operands.iter().filter(|o| !o.contains(": same value: ")) {
        let side = usize::from(o.starts_with("after"));
        for def in o.split("from `").skip(1) {
            let Some((_, rhs)) = def.split_once(" = ") else {
                continue;
            };
            let mut words = rhs.split_whitespace();
            let Some(opcode) = words.next() else {
                continue;
            };
            // An `icmp`'s predicate is left out: a pass that inverts or
            // swaps a comparison in place makes one mistake whichever
            // predicate it started from.
            let mut key = opcode.to_string();
            for w in words {
                if FLAGS.contains(&w) {
                    key.push(' ');
                    key.push_str(w);
                } else {
                    break;
                }
            }
            sides[side].insert(key);
        }
    }
    let set = |s: &BTreeSet<String>| s.iter().cloned().collect::<Vec<_>>().join(", ");
    format!(
        "{pass} | before record [{}] over [{}] | after record [{}] over [{}]",
        dw_ops(&r.before.text),
        set(&sides[0]),
        dw_ops(&r.after.text),
        set(&sides[1]),
    )
}

/// The `DW_OP`s of a record's text (as a set) that can see a narrow
/// operand's upper bits or the generic signedness.
pub fn sensitive_ops(text: &str) -> Vec<&'static str> {
    const SENSITIVE: &[&str] = &[
        "DW_OP_shr",
        "DW_OP_shra",
        "DW_OP_div",
        "DW_OP_mod",
        "DW_OP_lt",
        "DW_OP_le",
        "DW_OP_gt",
        "DW_OP_ge",
        "DW_OP_eq",
        "DW_OP_ne",
    ];
    let words: std::collections::BTreeSet<&str> = text
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .collect();
    SENSITIVE
        .iter()
        .copied()
        .filter(|o| words.contains(o))
        .collect()
}

/// The four ordered comparisons are one operation for deduplication (the
/// salvage of `icmp` picks among them by predicate, one mistake); so are
/// `eq` and `ne`.
fn comparison_class(op: &str) -> &str {
    match op {
        "DW_OP_lt" | "DW_OP_le" | "DW_OP_gt" | "DW_OP_ge" => "DW_OP_lt/le/gt/ge",
        "DW_OP_eq" | "DW_OP_ne" => "DW_OP_eq/ne",
        o => o,
    }
}

/// Whether a refutation says nothing about the pass: it rests on an
/// operand with no known relation, or only on what a register holds above a
/// value narrower than the variable (debugify's `i1` in an 8-bit variable,
/// read from a register on one side and from another register or a
/// constant on the other) with no operation of the after-record computing
/// on those bits. (When only the before-record has such bits, a salvage
/// that agrees with them fixed is a refinement, `reading::settle`.)
pub fn inconclusive(r: &RecordVerdict) -> bool {
    r.assumes_unknown
        || (r.reading == Some(Reading::UpperBits) && sensitive_ops(&r.after.text).is_empty())
}

/// A short stable id for a cause (FNV-1a, hex).
pub fn cause_id(cause: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in cause.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{h:016x}")
}

fn stress_module(tool: &Located, seed: u64, size: usize) -> Result<String, String> {
    let out = tools::run(
        Command::new(&tool.path).args([format!("--seed={seed}"), format!("--size={size}")]),
        None,
        Limits {
            time: Duration::from_secs(30),
            memory_mb: 2048,
        },
    )
    .map_err(|e| e.to_string())?;
    if !out.status_ok {
        return Err(out.stderr_tail());
    }
    // llvm-stress writes bitcode unless asked otherwise on some versions;
    // its text form starts with `; ModuleID`.
    Ok(out.stdout)
}

/// The `k`-th module of the campaign: sources taken in turn.
fn module_for(cfg: &Config, k: usize) -> Option<(Origin, Result<String, String>)> {
    let mut kinds: Vec<u8> = Vec::new();
    if cfg.stress.is_some() {
        kinds.push(0);
    }
    if cfg.irgen {
        kinds.push(1);
    }
    if !cfg.files.is_empty() {
        kinds.push(2);
    }
    if kinds.is_empty() {
        return None;
    }
    let round = k / kinds.len();
    let seed = cfg.seed.wrapping_add(round as u64);
    Some(match kinds[k % kinds.len()] {
        0 => {
            let size = 20 + (seed % 4) as usize * 15;
            let tool = cfg.stress.as_ref().expect("checked");
            (
                Origin::Stress { seed, size },
                stress_module(tool, seed, size),
            )
        }
        1 => {
            let (functions, size) = (4, 8 + (seed % 3) as usize * 6);
            (
                Origin::Irgen {
                    seed,
                    functions,
                    size,
                },
                Ok(irgen::module(seed, functions, size)),
            )
        }
        _ => {
            let p = &cfg.files[round % cfg.files.len()];
            let text = crate_read(p);
            (
                Origin::File {
                    path: p.display().to_string(),
                },
                text,
            )
        }
    })
}

/// Most bytes of a collected `.ll` file the campaign reads.
const MAX_INPUT_BYTES: u64 = 4 << 20;

fn crate_read(p: &Path) -> Result<String, String> {
    let len = std::fs::metadata(p).map_err(|e| e.to_string())?.len();
    if len > MAX_INPUT_BYTES {
        return Err(format!(
            "{} is {len} bytes, over the {MAX_INPUT_BYTES}-byte limit",
            p.display()
        ));
    }
    std::fs::read_to_string(p).map_err(|e| e.to_string())
}

/// Progress of a running campaign, for a progress bar.
pub trait Progress: Sync {
    fn module_done(&self, modules: usize, findings: usize, elapsed: Duration);
    /// The figures so far, every [`CHECKPOINT`] or so, so that a campaign
    /// killed before its end leaves its findings written.
    fn checkpoint(&self, _so_far: &Outcome) {}
}

/// How often [`Progress::checkpoint`] is called.
pub const CHECKPOINT: Duration = Duration::from_secs(30);

/// No progress output.
pub struct Quiet;

impl Progress for Quiet {
    fn module_done(&self, _: usize, _: usize, _: Duration) {}
}

fn count_functions(text: &str) -> usize {
    text.lines().filter(|l| l.starts_with("define ")).count()
}

struct Shared {
    outcome: Mutex<Outcome>,
    by_cause: Mutex<BTreeMap<String, usize>>,
}

fn record_pass(
    sh: &Shared,
    cfg: &Config,
    pass: &str,
    origin: &Origin,
    input: &str,
    res: Result<(FileVerdicts, Duration, Duration), StepError>,
    functions: usize,
) {
    let mut o = sh.outcome.lock().expect("not poisoned");
    let st = o.passes.entry(pass.to_string()).or_default();
    st.modules += 1;
    st.functions += functions;
    match res {
        Err(e) => {
            *st.errors.entry(e.class().to_string()).or_default() += 1;
            if matches!(e.class(), "opt-crashed" | "opt-timeout") {
                o.opt_problems.push(OptProblem {
                    pass: pass.to_string(),
                    class: e.class().to_string(),
                    message: e.to_string(),
                    origin: origin.clone(),
                    input: input.to_string(),
                });
            }
        }
        Ok((v, topt, tval)) => {
            st.opt_ms += topt.as_millis() as u64;
            st.validate_ms += tval.as_millis() as u64;
            st.records += v.records.len();
            st.coverage_losses += v.coverage_losses.len();
            for r in &v.records {
                *st.verdicts.entry(r.verdict).or_default() += 1;
            }
            let mut new = Vec::new();
            for r in v.records.iter().filter(|r| r.verdict == Kind::Refuted) {
                if inconclusive(r) {
                    st.inconclusive += 1;
                    continue;
                }
                new.push(r.clone());
            }
            let mut by = sh.by_cause.lock().expect("not poisoned");
            for r in new {
                let c = cause(pass, &r);
                match by.get(&c) {
                    Some(&i) => o.findings[i].occurrences += 1,
                    None => {
                        let id = format!(
                            "{}-{}",
                            pass.replace([',', '<', '>', ';'], "_"),
                            &cause_id(&c)[..8]
                        );
                        let dir = cfg.out_dir.join("findings").join(&id);
                        let _ = std::fs::create_dir_all(&dir);
                        let _ = std::fs::write(dir.join("src.ll"), input);
                        let same_as = o
                            .findings
                            .iter()
                            .find(|f| f.same_as.is_none() && passless(&f.cause) == passless(&c))
                            .map(|f| f.id.clone());
                        by.insert(c.clone(), o.findings.len());
                        o.findings.push(Finding {
                            same_as,
                            id,
                            pass: pass.to_string(),
                            cause: c,
                            origin: origin.clone(),
                            record: r,
                            input: dir.join("src.ll").display().to_string(),
                            occurrences: 1,
                            no_longer_refuted: false,
                        });
                    }
                }
            }
        }
    }
}

/// Runs the campaign until its time is up, its module budget is spent or
/// `stop` is set.
pub fn run(cfg: &Config, stop: &AtomicBool, progress: &dyn Progress) -> Outcome {
    let start = Instant::now();
    let deadline = start + cfg.duration;
    let next = AtomicUsize::new(0);
    let sh = Shared {
        outcome: Mutex::new(Outcome::default()),
        by_cause: Mutex::new(BTreeMap::new()),
    };
    let _ = std::fs::create_dir_all(&cfg.out_dir);
    let last_checkpoint = Mutex::new(start);
    let checkpoint = || {
        let snapshot = {
            let mut last = last_checkpoint.lock().expect("not poisoned");
            if last.elapsed() >= CHECKPOINT {
                *last = Instant::now();
                let mut o = sh.outcome.lock().expect("not poisoned").clone();
                o.elapsed_ms = start.elapsed().as_millis() as u64;
                o.interrupted = true;
                Some(o)
            } else {
                None
            }
        };
        if let Some(o) = snapshot {
            progress.checkpoint(&o);
        }
    };
    let worker = || loop {
        if stop.load(Ordering::Relaxed) || Instant::now() >= deadline {
            break;
        }
        let k = next.fetch_add(1, Ordering::Relaxed);
        if cfg.max_modules.is_some_and(|m| k >= m) {
            break;
        }
        let Some((origin, text)) = module_for(cfg, k) else {
            break;
        };
        let debugified = text.and_then(|t| cfg.opt.debugify(&t).map_err(|e| e.to_string()));
        let Ok(input) = debugified else {
            sh.outcome.lock().expect("not poisoned").unusable_inputs += 1;
            continue;
        };
        let functions = count_functions(&input);
        for pass in &cfg.passes {
            if stop.load(Ordering::Relaxed) || Instant::now() >= deadline {
                break;
            }
            let t0 = Instant::now();
            let res = cfg.opt.passes(&input, pass).and_then(|after| {
                let topt = t0.elapsed();
                let t1 = Instant::now();
                let b = Source::new(format!("{} (before {pass})", origin.label()), input.clone());
                let a = Source::new(format!("{} (after {pass})", origin.label()), after);
                let mut cfgp = cfg.prove.clone();
                // A query never outlives the campaign by more than its timeout.
                cfgp.deadline = Some(deadline);
                let _one = tools::z3_or_fork();
                files::validate_texts(&b, &a, None, &cfgp)
                    .map(|v| (v, topt, t1.elapsed()))
                    .map_err(StepError::Unreadable)
            });
            record_pass(&sh, cfg, pass, &origin, &input, res, functions);
            // After each pass, not each module: one large module through 25
            // passes can take many minutes, and a killed run keeps what it
            // found up to its last checkpoint.
            checkpoint();
        }
        let (modules, findings) = {
            let mut o = sh.outcome.lock().expect("not poisoned");
            o.modules += 1;
            o.functions += functions;
            (o.modules, o.findings.len())
        };
        progress.module_done(modules, findings, start.elapsed());
        checkpoint();
    };
    std::thread::scope(|s| {
        for _ in 0..cfg.jobs.max(1) {
            s.spawn(worker);
        }
    });
    let mut o = sh.outcome.into_inner().expect("not poisoned");
    o.elapsed_ms = start.elapsed().as_millis() as u64;
    o.interrupted = stop.load(Ordering::Relaxed);
    o
}

/// Every `.ll` file under `p` (or `p` itself), sorted.
pub fn collect_ll(p: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    if p.is_dir() {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(p)?.flatten().map(|e| e.path()).collect();
        entries.sort();
        for e in entries {
            collect_ll(&e, out)?;
        }
    } else if p.extension().is_some_and(|e| e == "ll") {
        out.push(p.to_path_buf());
    } else if !p.exists() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::NotFound,
            "no such file or directory",
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::files::{Kind, RecordAt};

    fn verdict(after: &str, before_from: &str, after_from: &str) -> RecordVerdict {
        let at = |text: &str| RecordAt {
            line: 1,
            kind: "value".into(),
            text: text.into(),
        };
        RecordVerdict {
            function: "f".into(),
            variable: "1".into(),
            before: at("#dbg_value(i32 %v4, !15, !DIExpression(), !34)"),
            after: at(after),
            verdict: Kind::Refuted,
            detail: String::new(),
            counterexample: None,
            operands: vec![
                format!("before i32 %v4: derived: DIOpArg(0, i32) from `{before_from}`"),
                format!("after i32 %a: derived: DIOpArg(0, i32) from `{after_from}`"),
            ],
            assumes_unknown: false,
            reading: None,
            before_expr: String::new(),
            after_expr: String::new(),
            millis: 0,
        }
    }

    #[test]
    fn one_mistake_is_one_cause_whatever_the_names_widths_and_constants() {
        let a = cause(
            "dce",
            &verdict(
                "#dbg_value(i64 %a0, !19, !DIExpression(DW_OP_constu, 5, DW_OP_div, DW_OP_stack_value), !43)",
                "%v7 = sdiv exact i64 %a0, -5",
                "%a = zext nneg i32 %x to i64",
            ),
        );
        let b = cause(
            "dce",
            &verdict(
                "#dbg_value(i32 %q, !7, !DIExpression(DW_OP_constu, 3, DW_OP_div, DW_OP_stack_value), !9)",
                "%w = sdiv exact i32 %q, 3",
                "%b = zext nneg i8 %y to i32",
            ),
        );
        assert_eq!(a, b);
        assert_eq!(
            a,
            "dce | before record [] over [sdiv exact] | after record \
             [DW_OP_constu DW_OP_div DW_OP_stack_value] over [zext nneg]"
        );
        // Another opcode, another flag, another pass: another cause.
        let c = |pass: &str, from: &str| {
            cause(
                pass,
                &verdict(
                    "#dbg_value(i32 %q, !7, !DIExpression(DW_OP_constu, 3, DW_OP_div, DW_OP_stack_value), !9)",
                    from,
                    "%b = zext nneg i8 %y to i32",
                ),
            )
        };
        assert_ne!(a, c("dce", "%w = udiv exact i32 %q, 3"));
        // An icmp's predicate, and which ordered comparison, are left out.
        let cmp = |pred: &str, op: &str| {
            cause(
                "instcombine",
                &verdict(
                    &format!("#dbg_value(i32 %q, !7, !DIExpression(DW_OP_constu, 3, {op}, DW_OP_stack_value), !9)"),
                    &format!("%w = icmp {pred} i32 %q, 3"),
                    "%b = zext nneg i8 %y to i32",
                ),
            )
        };
        assert_eq!(cmp("slt", "DW_OP_lt"), cmp("ugt", "DW_OP_gt"));
        assert_ne!(cmp("slt", "DW_OP_lt"), cmp("eq", "DW_OP_eq"));
        assert_eq!(cmp("eq", "DW_OP_eq"), cmp("ne", "DW_OP_ne"));
        assert_ne!(a, c("dce", "%w = sdiv i32 %q, 3"));
        assert_ne!(a, c("gvn", "%w = sdiv exact i32 %q, 3"));
    }

    #[test]
    fn register_contents_alone_are_inconclusive_and_a_cause_has_a_passless_part() {
        // An i1 in an 8-bit variable read from two registers: only the bits
        // above the value differ, and no operation computes on them.
        let mut v = verdict(
            "#dbg_value(i1 %v9, !7, !DIExpression(), !9)",
            "%v17 = xor i1 %v9, true",
            "%v9 = icmp ule i64 %v0, %a1",
        );
        v.reading = Some(Reading::UpperBits);
        assert!(inconclusive(&v));
        // A register against a constant (InstCombine folding an assumed
        // compare to `true`, run8's 9a5656ef): the same.
        let mut k = v.clone();
        k.after.text = "#dbg_value(i1 true, !7, !DIExpression(), !9)".into();
        assert!(inconclusive(&k));
        // The same reading through a DW_OP_shr is a salvage's mistake.
        v.after.text =
            "#dbg_value(i32 %c, !7, !DIExpression(DW_OP_constu, 3, DW_OP_shr, DW_OP_stack_value), !9)"
                .into();
        assert!(!inconclusive(&v));
        // Wrong under every reading: never inconclusive unless it rests on
        // an unknown operand.
        v.reading = None;
        assert!(!inconclusive(&v));
        v.assumes_unknown = true;
        assert!(inconclusive(&v));
        assert_eq!(
            passless("dce | refuted only under x | after record [DW_OP_shr]"),
            "refuted only under x | after record [DW_OP_shr]"
        );
    }

    #[test]
    fn a_refutation_under_a_reading_is_keyed_on_the_reading_and_the_ops_that_see_it() {
        let with = |after: &str, from: &str, reading| {
            let mut v = verdict(after, from, "%b = zext nneg i8 %y to i32");
            v.reading = reading;
            v
        };
        let shr = "#dbg_value(i32 %c, !7, !DIExpression(DW_OP_constu, 3, DW_OP_shr, DW_OP_stack_value), !9)";
        let shr_plus = "#dbg_value(i16 %d, !8, !DIExpression(DW_OP_constu, 9, DW_OP_shr, DW_OP_plus_uconst, 1, DW_OP_stack_value), !9)";
        let a = cause(
            "instcombine",
            &with(shr, "%s = lshr i32 %c, 3", Some(Reading::UpperBits)),
        );
        // Other derivations and harmless operations around the same `shr`.
        let b = cause(
            "instcombine",
            &with(shr_plus, "%s = add nuw i16 %d, 1", Some(Reading::UpperBits)),
        );
        assert_eq!(a, b);
        assert_eq!(
            a,
            "instcombine | refuted only under the reading of the upper bits of a narrow operand \
             | after record [DW_OP_shr]"
        );
        // Another reading, another pass, or none: another cause.
        assert_ne!(
            a,
            cause(
                "instcombine",
                &with(shr, "%s = lshr i32 %c, 3", Some(Reading::Signedness))
            )
        );
        assert_ne!(
            a,
            cause(
                "sroa",
                &with(shr, "%s = lshr i32 %c, 3", Some(Reading::UpperBits))
            )
        );
        assert_ne!(
            a,
            cause("instcombine", &with(shr, "%s = lshr i32 %c, 3", None))
        );
    }
}
