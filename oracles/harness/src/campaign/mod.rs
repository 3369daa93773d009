//! The in-process differential campaign (the default job's, `diopter
//! run`): a time-bounded loop over generated cases
//! (`gen::Case::from_seed`, the seeds drawn from one `--seed`, so a run is
//! reproducible up to where the clock stops it) through the reference and
//! every other oracle of `registry::all_oracles()`, each pair compared on its
//! own (one oracle that cannot evaluate a case must not hide what the
//! others say). It counts verdicts per oracle, catches oracle panics as
//! findings, and for each new failure minimizes it, names it by its
//! [`minimize::Signature`] and writes the case file and the minimized case
//! file (atomically: a temporary file, then a rename). With a simplifier
//! ([`Config::simplifier`]) each case is also compared with itself
//! simplified, as the `simplify_diff` fuzz target does; with
//! [`Config::smt_every`], every so many cases also go through the prover's
//! SMT encoding with the context's values (`diopter_smt::concrete`), so
//! that the encoding is fuzzed against the reference too. It needs nothing
//! beyond this crate: no cargo-fuzz, no child processes.
//!
//! Memory is bounded by construction, so that an 8-hour run holds what a
//! 1-minute one does: the time series are thinned to [`MAX_SAMPLES`]
//! points, at most [`MAX_FINDINGS`] distinct findings are kept (later new
//! signatures are only counted), and the table of raw failures seen is
//! capped likewise. The resident set size is sampled with the counters and
//! reported at the start, the end and its peak.

use crate::minimize::{self, Failure, Options, Signature};
use diopter_diff::{self as diff, Oracle};
use diopter_gen::{Case, GenConfig};
use diopter_report::write_atomic;
use diopter_rules::simplify::check::{simplify_diff, step_lines, write_case};
use diopter_rules::simplify::Simplifier;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The most points kept of one time series. Plots need a few hundred; an
/// 8-hour run sampled every second would otherwise keep 28,800.
pub const MAX_SAMPLES: usize = 1024;

/// The most distinct findings kept in memory (and written). A real run has
/// a handful; thousands mean one bug with a signature that varies (say, a
/// panic message with a number in it), and keeping every one would let
/// memory grow with the run's length.
pub const MAX_FINDINGS: usize = 256;

/// What to run.
pub struct Config {
    pub time: Duration,
    pub seed: u64,
    /// Where `findings/` goes.
    pub out_dir: PathBuf,
    /// Cap on the minimizer's time per finding.
    pub minimize_time: Duration,
    /// Cap on the number of cases (for tests; `None`: until the time is up).
    pub max_cases: Option<u64>,
    pub gen: GenConfig,
    /// Set (by a Ctrl-C handler) to stop the run early; the counters so
    /// far are returned as for a run that ran out of time.
    pub stop: Option<Arc<AtomicBool>>,
    /// When given, every case is also simplified with it and
    /// `reference(e)` compared with `reference(simplify(e))` (verdicts
    /// under the name `simplify`; a disagreement or a simplifier panic is
    /// a [`SimplifyFinding`]).
    pub simplifier: Option<Arc<Simplifier>>,
    /// When given (N), every Nth case is also evaluated by the SMT encoding
    /// on the context's concrete values and compared with the reference
    /// (verdicts under the name `smt`; a disagreement or a panic is a
    /// finding in [`Stats::smt_findings`], replayed by `diopter replay
    /// --smt FILE`). Z3 only simplifies numerals here (no solver, so no
    /// solver timeout), but it is slower than the evaluators, hence N. Not
    /// bounded in memory: on some cases the encoding exhausts it
    /// (`fuzz/regressions/smt/encoding-memory-blowup.case`), so `diopter
    /// run` leaves it off unless asked.
    pub smt_every: Option<u64>,
}

/// A case the simplifier got wrong (or panicked on). Not minimized: the
/// minimizer's candidates are judged by an oracle pair, and the
/// simplifier is not an evaluator but a rewrite checked by the reference.
#[derive(Clone, Debug)]
pub struct SimplifyFinding {
    /// The case file (the original expression, the simplified one and the
    /// rules applied as comments), or `None` when writing it failed.
    pub case_path: Option<PathBuf>,
    pub line: String,
    /// The verdict, or the panic.
    pub what: String,
    pub at: f64,
}

/// One deduplicated failure.
#[derive(Clone, Debug)]
pub struct Finding {
    pub signature: Signature,
    pub failure: Failure,
    /// The case as found, and minimized.
    pub case_path: PathBuf,
    pub min_path: PathBuf,
    pub min_line: String,
    pub ops: usize,
    pub min_ops: usize,
    /// How many cases fell under this signature.
    pub hits: u64,
    /// Seconds into the run when it was first seen.
    pub at: f64,
}

/// A sample of the counters over time.
#[derive(Clone, Copy, Debug)]
pub struct Sample {
    pub seconds: f64,
    pub cases: u64,
    pub findings: usize,
    /// Resident set size (KiB), where /proc tells.
    pub rss_kib: Option<u64>,
}

/// The counters.
#[derive(Clone, Debug, Default)]
pub struct Stats {
    pub cases: u64,
    /// Per compared oracle, per verdict label.
    pub verdicts: BTreeMap<String, BTreeMap<String, u64>>,
    pub findings: Vec<Finding>,
    pub samples: Vec<Sample>,
    pub elapsed: f64,
    /// Resident set size (KiB) at the start and the end, where /proc tells.
    pub rss_start_kib: Option<u64>,
    pub rss_end_kib: Option<u64>,
    /// Oracles that took part.
    pub oracles: Vec<String>,
    /// Files that could not be written.
    pub write_errors: Vec<String>,
    /// Failures not minimized because one of the same oracle and class was
    /// seen before (see `run`).
    pub repeats: u64,
    /// The largest resident set size sampled (KiB).
    pub rss_max_kib: Option<u64>,
    /// New signatures not kept because [`MAX_FINDINGS`] were.
    pub findings_dropped: u64,
    /// Whether the run was stopped early (`Config::stop`).
    pub stopped: bool,
    /// The simplifier's failures (`Config::simplifier`), at most
    /// [`MAX_FINDINGS`]; later ones are counted in `findings_dropped`.
    pub simplify_findings: Vec<SimplifyFinding>,
    /// The SMT encoding's failures (`Config::smt_every`), in the same form
    /// and bound as the simplifier's.
    pub smt_findings: Vec<SimplifyFinding>,
}

impl Stats {
    /// Every finding: the oracles', the simplifier's and the encoding's.
    pub fn finding_count(&self) -> usize {
        self.findings.len() + self.simplify_findings.len() + self.smt_findings.len()
    }
}

/// Thins a time series kept in `v` when it holds more than `cap` points:
/// every other point goes (the first and the last stay), so the points
/// left are about evenly spread over the whole run. Returns whether it
/// thinned; the caller then doubles its sampling period so that new points
/// come as densely as the old ones now lie.
pub fn thin<T>(v: &mut Vec<T>, cap: usize) -> bool {
    if v.len() <= cap.max(2) {
        return false;
    }
    let last = v.len() - 1;
    let mut i = 0;
    v.retain(|_| {
        let keep = i % 2 == 0 || i == last;
        i += 1;
        keep
    });
    true
}

/// The resident set size of this process in KiB (Linux `/proc`).
pub fn rss_kib() -> Option<u64> {
    status_rss(&std::fs::read_to_string("/proc/self/status").ok()?)
}

/// `VmRSS` of a `/proc/PID/status` text, in KiB.
fn status_rss(status: &str) -> Option<u64> {
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
}

/// The summed resident set size (KiB) of every process in process group
/// `pgid` (a fuzzer and its fork-mode workers); `None` where /proc does not
/// tell or the group is gone.
pub fn group_rss_kib(pgid: u32) -> Option<u64> {
    let mut total = None;
    for e in std::fs::read_dir("/proc").ok()?.flatten() {
        let name = e.file_name();
        let Some(pid) = name
            .to_str()
            .filter(|n| n.bytes().all(|b| b.is_ascii_digit()))
        else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
            continue;
        };
        // Fields after the command (which may hold spaces, hence the last
        // ')'): state, ppid, pgrp.
        let Some(pgrp) = stat
            .rsplit_once(')')
            .and_then(|(_, rest)| rest.split_whitespace().nth(2)?.parse::<u32>().ok())
        else {
            continue;
        };
        if pgrp != pgid {
            continue;
        }
        if let Some(kib) = std::fs::read_to_string(format!("/proc/{pid}/status"))
            .ok()
            .and_then(|s| status_rss(&s))
        {
            *total.get_or_insert(0) += kib;
        }
    }
    total
}

/// A short stable name for a signature (file names).
pub fn signature_id(s: &Signature) -> String {
    // FNV-1a: stable across runs and Rust versions, unlike DefaultHasher.
    let mut h: u64 = 0xcbf29ce484222325;
    for b in s.to_string().bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x100000001b3);
    }
    format!("{h:016x}")
}

/// What [`record`] made of a case.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Recorded {
    /// The case does not fail (an artifact that does not reproduce).
    NoFailure,
    /// It fails like the finding of this index in the list.
    Known(usize),
    /// A new finding, now last in the list.
    New,
    /// A new signature, not kept: [`MAX_FINDINGS`] are.
    Full,
}

/// The most write errors kept (a full disk would otherwise add one per
/// finding for the rest of the run).
const MAX_WRITE_ERRORS: usize = 32;

/// Handles one failing case: minimizes it, dedups by signature, writes the
/// files of a new finding.
pub fn record(
    case: &Case,
    oracles: &[&dyn Oracle],
    findings: &mut Vec<Finding>,
    dir: &Path,
    minimize_time: Duration,
    at: f64,
    write_errors: &mut Vec<String>,
) -> Recorded {
    let opts = Options {
        time_limit: Some(minimize_time),
    };
    let Some((failure, m)) = minimize::minimize_failure(case, oracles, &opts) else {
        return Recorded::NoFailure;
    };
    let Some(signature) = minimize::signature(&m.case, oracles) else {
        return Recorded::NoFailure;
    };
    if let Some(i) = findings.iter().position(|f| f.signature == signature) {
        findings[i].hits += 1;
        return Recorded::Known(i);
    }
    if findings.len() >= MAX_FINDINGS {
        return Recorded::Full;
    }
    let id = signature_id(&signature);
    let names: Vec<&str> = oracles.iter().map(|o| o.name()).collect();
    let case_path = dir.join(format!("{id}.case"));
    let min_path = dir.join(format!("{id}.min.case"));
    for (path, c) in [(&case_path, case), (&min_path, &m.case)] {
        // A file of the same signature from an earlier run (or an earlier
        // replay in `diopter campaign`) stays: the first case found is kept.
        if path.exists() {
            continue;
        }
        let v = minimize::guarded_run(c, oracles).ok();
        let mut text = format!("# signature: {signature}\n");
        text.push_str(&diff::case_file_text(c, &names, v.as_ref()));
        if let Err(e) = write_atomic(path, &text) {
            if write_errors.len() < MAX_WRITE_ERRORS {
                write_errors.push(format!("{}: {e}", path.display()));
            }
        }
    }
    findings.push(Finding {
        signature,
        failure,
        case_path,
        min_path,
        min_line: m.case.expr_line(),
        ops: case.bare.expr.ops.len(),
        min_ops: m.case.bare.expr.ops.len(),
        hits: 1,
        at,
    });
    Recorded::New
}

/// The most raw failures (oracle and class, or panic message) remembered
/// for skipping repeats; past it every failure is minimized (slower, never
/// wrong: the signature still deduplicates).
const MAX_RAW_SEEN: usize = 4096;

/// Runs the campaign with `oracles` (the reference first; each other one is
/// compared with it on its own). `tick` is called about ten times a second
/// with the counters so far (for a progress bar).
///
/// An oracle panic is caught (`minimize::guarded_run`) and counted as the
/// verdict `PANIC`, then minimized and recorded like a disagreement: it is a
/// finding, and the run goes on. No oracle here calls Z3 (the prover runs
/// in `diopter prove`, with its own per-query timeout), so a solver timeout
/// cannot stall this loop.
pub fn run(cfg: &Config, oracles: &[&dyn Oracle], tick: &mut dyn FnMut(&Stats)) -> Stats {
    let start = Instant::now();
    let mut stats = Stats {
        rss_start_kib: rss_kib(),
        oracles: oracles
            .iter()
            .map(|o| o.name().to_string())
            .chain(cfg.simplifier.as_ref().map(|_| "simplify".to_string()))
            .chain(cfg.smt_every.map(|_| "smt".to_string()))
            .collect(),
        ..Stats::default()
    };
    stats.rss_max_kib = stats.rss_start_kib;
    let findings_dir = cfg.out_dir.join("findings");
    let mut seeds = diopter_gen::entropy::SplitMix(cfg.seed);
    let mut last_tick = Instant::now();
    let mut last_sample = f64::NEG_INFINITY;
    // Doubles each time the samples are thinned (see `thin`).
    let mut sample_period = 1.0f64;
    // How often each raw failure (oracle and class, before minimizing) was
    // seen: a repeat is most likely a known finding, and minimizing is what
    // costs; every 16th repeat is still minimized to catch new causes that
    // fail in the same class.
    let mut raw_seen: BTreeMap<Failure, u64> = BTreeMap::new();
    let stopped = || cfg.stop.as_ref().is_some_and(|s| s.load(Ordering::Relaxed));
    minimize::quiet_panics(|| loop {
        let elapsed = start.elapsed();
        if elapsed >= cfg.time || cfg.max_cases.is_some_and(|m| stats.cases >= m) {
            break;
        }
        if stopped() {
            stats.stopped = true;
            break;
        }
        let seed = diopter_gen::entropy::Entropy::bits64(&mut seeds);
        let case = Case::from_seed(seed, &cfg.gen);
        stats.cases += 1;
        for other in &oracles[1..] {
            let pair: [&dyn Oracle; 2] = [oracles[0], *other];
            let label = match minimize::guarded_run(&case, &pair) {
                Ok(v) => v.label().to_string(),
                Err(_) => "PANIC".to_string(),
            };
            *stats
                .verdicts
                .entry(other.name().to_string())
                .or_default()
                .entry(label.clone())
                .or_default() += 1;
            if label == "DISAGREE" || label == "PANIC" {
                let Some(f) = minimize::failure(&case, &pair) else {
                    continue;
                };
                let n = if raw_seen.len() < MAX_RAW_SEEN || raw_seen.contains_key(&f) {
                    let n = raw_seen.entry(f).or_default();
                    *n += 1;
                    *n
                } else {
                    1
                };
                if n > 1 && !n.is_multiple_of(16) {
                    stats.repeats += 1;
                    continue;
                }
                let at = start.elapsed().as_secs_f64();
                let r = record(
                    &case,
                    &pair,
                    &mut stats.findings,
                    &findings_dir,
                    cfg.minimize_time,
                    at,
                    &mut stats.write_errors,
                );
                if r == Recorded::Full {
                    stats.findings_dropped += 1;
                }
            }
        }
        if let Some(simplifier) = &cfg.simplifier {
            let at = start.elapsed().as_secs_f64();
            check_simplifier(simplifier, &case, &findings_dir, at, &mut stats);
        }
        if let Some(n) = cfg.smt_every {
            if n > 0 && stats.cases.is_multiple_of(n) {
                let at = start.elapsed().as_secs_f64();
                check_smt(&case, &findings_dir, at, &mut stats);
            }
        }
        let secs = start.elapsed().as_secs_f64();
        if secs - last_sample >= sample_period {
            last_sample = secs;
            let rss = rss_kib();
            stats.rss_max_kib = stats.rss_max_kib.max(rss);
            stats.samples.push(Sample {
                seconds: secs,
                cases: stats.cases,
                findings: stats.finding_count(),
                rss_kib: rss,
            });
            if thin(&mut stats.samples, MAX_SAMPLES) {
                sample_period *= 2.0;
            }
        }
        if last_tick.elapsed() >= Duration::from_millis(100) {
            last_tick = Instant::now();
            stats.elapsed = secs;
            tick(&stats);
        }
    });
    stats.elapsed = start.elapsed().as_secs_f64();
    stats.rss_end_kib = rss_kib();
    stats.rss_max_kib = stats.rss_max_kib.max(stats.rss_end_kib);
    stats.samples.push(Sample {
        seconds: stats.elapsed,
        cases: stats.cases,
        findings: stats.finding_count(),
        rss_kib: stats.rss_end_kib,
    });
    stats
}

/// `reference(case)` against `reference(simplify(case))`: counts the
/// verdict under `simplify` and records a disagreement or a panic.
fn check_simplifier(
    simplifier: &Simplifier,
    case: &Case,
    findings_dir: &Path,
    at: f64,
    stats: &mut Stats,
) {
    let verdict = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        simplify_diff(simplifier, case)
    }));
    let label = match &verdict {
        Ok((v, _, _)) => v.label().to_string(),
        Err(_) => "PANIC".to_string(),
    };
    *stats
        .verdicts
        .entry("simplify".to_string())
        .or_default()
        .entry(label.clone())
        .or_default() += 1;
    if label != "DISAGREE" && label != "PANIC" {
        return;
    }
    if stats.simplify_findings.len() >= MAX_FINDINGS {
        stats.findings_dropped += 1;
        return;
    }
    let (case_path, what) = match verdict {
        Ok((v, simple, steps)) => {
            // The case file the `simplify_diff` fuzz target would write.
            let path = write_case(case, &simple, &step_lines(&steps), findings_dir).ok();
            (path, v.to_string())
        }
        Err(p) => {
            let text = format!(
                "# the simplifier panicked on this case\n{}",
                diff::case_file_text(case, &["reference"], None)
            );
            let path = findings_dir.join(format!("simplify-panic-{:016x}.case", fnv(&text)));
            let written = std::fs::create_dir_all(findings_dir)
                .and_then(|()| write_atomic(&path, &text))
                .is_ok();
            let m = p
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            (written.then_some(path), format!("simplifier panicked: {m}"))
        }
    };
    stats.simplify_findings.push(SimplifyFinding {
        case_path,
        line: case.expr_line(),
        what,
        at,
    });
}

/// The SMT encoding on `case`'s concrete values against the reference:
/// counts the verdict under `smt` and records a disagreement or a panic
/// with a case file that `diopter replay --smt` replays.
fn check_smt(case: &Case, findings_dir: &Path, at: f64, stats: &mut Stats) {
    use diopter_smt::concrete::{compare_with_reference, Comparison};
    let cmp = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        compare_with_reference(&case.bare, &case.types, &case.ctx)
    }));
    let (label, what) = match &cmp {
        Ok(Comparison::Agree) => ("AGREE", None),
        Ok(Comparison::Skipped(_) | Comparison::Unsupported(_)) => ("SKIPPED", None),
        Ok(Comparison::Disagree(lines)) => (
            "DISAGREE",
            Some(format!("the encoding differs: {}", lines.join("; "))),
        ),
        Err(p) => {
            let m = p
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            ("PANIC", Some(format!("the encoding panicked: {m}")))
        }
    };
    *stats
        .verdicts
        .entry("smt".to_string())
        .or_default()
        .entry(label.to_string())
        .or_default() += 1;
    let Some(what) = what else { return };
    if stats.smt_findings.len() >= MAX_FINDINGS {
        stats.findings_dropped += 1;
        return;
    }
    let comments: String = what.lines().map(|l| format!("# {l}\n")).collect();
    let text = format!(
        "# the SMT encoding against the reference: diopter replay --smt FILE\n{comments}{}",
        diff::case_file_text(case, &["reference"], None)
    );
    let path = findings_dir.join(format!("smt-{:016x}.case", fnv(&text)));
    let written = std::fs::create_dir_all(findings_dir)
        .and_then(|()| write_atomic(&path, &text))
        .is_ok();
    stats.smt_findings.push(SimplifyFinding {
        case_path: written.then_some(path),
        line: case.expr_line(),
        what,
        at,
    });
}

/// FNV-1a of `text`: names a finding's file after its contents.
fn fnv(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    })
}

/// The verdicts counted, as `Verdict` labels in a fixed order.
pub const LABELS: [&str; 6] = [
    "AGREE",
    "BOTH-ERROR",
    "INCONSISTENT-CONTEXT",
    "SKIPPED",
    "DISAGREE",
    "PANIC",
];

/// `stats` as JSON.
pub fn stats_json(cfg: &Config, stats: &Stats) -> String {
    use std::fmt::Write;
    // Hand-written JSON: this crate has no serde, and the shape is flat.
    let esc = |s: &str| {
        s.replace('\\', "\\\\")
            .replace('"', "\\\"")
            .replace('\n', "\\n")
    };
    let mut s = String::new();
    let _ = write!(
        s,
        "{{\n  \"seed\": {},\n  \"time_limit_s\": {},\n  \"elapsed_s\": {:.3},\n  \"cases\": {},\n  \"cases_per_s\": {:.1},\n",
        cfg.seed,
        cfg.time.as_secs_f64(),
        stats.elapsed,
        stats.cases,
        stats.cases as f64 / stats.elapsed.max(1e-9)
    );
    let opt = |v: Option<u64>| v.map_or("null".to_string(), |v| v.to_string());
    let _ = writeln!(
        s,
        "  \"rss_start_kib\": {},\n  \"rss_end_kib\": {},\n  \"rss_max_kib\": {},",
        opt(stats.rss_start_kib),
        opt(stats.rss_end_kib),
        opt(stats.rss_max_kib)
    );
    let _ = writeln!(
        s,
        "  \"stopped_early\": {},\n  \"findings_dropped\": {},",
        stats.stopped, stats.findings_dropped
    );
    let _ = writeln!(
        s,
        "  \"oracles\": [{}],",
        stats
            .oracles
            .iter()
            .map(|o| format!("\"{}\"", esc(o)))
            .collect::<Vec<_>>()
            .join(", ")
    );
    s.push_str("  \"verdicts\": {");
    let per: Vec<String> = stats
        .verdicts
        .iter()
        .map(|(o, m)| {
            let inner: Vec<String> = m.iter().map(|(l, n)| format!("\"{l}\": {n}")).collect();
            format!("\"{}\": {{{}}}", esc(o), inner.join(", "))
        })
        .collect();
    s.push_str(&per.join(", "));
    s.push_str("},\n  \"findings\": [");
    let fs: Vec<String> = stats
        .findings
        .iter()
        .map(|f| {
            format!(
                "\n    {{\"signature\": \"{}\", \"hits\": {}, \"first_seen_s\": {:.3}, \"ops\": {}, \"min_ops\": {}, \"case\": \"{}\", \"minimized\": \"{}\", \"expression\": \"{}\", \"replay\": \"{}\"}}",
                esc(&f.signature.to_string()),
                f.hits,
                f.at,
                f.ops,
                f.min_ops,
                esc(&f.case_path.display().to_string()),
                esc(&f.min_path.display().to_string()),
                esc(&f.min_line),
                esc(&diff::repro_command(&f.min_path)),
            )
        })
        .collect();
    s.push_str(&fs.join(","));
    // The simplifier's and the encoding's findings, in one form.
    let checked = |fs: &[SimplifyFinding]| -> String {
        fs.iter()
            .map(|f| {
                let case = f.case_path.as_ref().map_or("null".to_string(), |p| {
                    format!("\"{}\"", esc(&p.display().to_string()))
                });
                format!(
                    "\n    {{\"first_seen_s\": {:.3}, \"expression\": \"{}\", \"what\": \"{}\", \"case\": {case}}}",
                    f.at,
                    esc(&f.line),
                    esc(&f.what),
                )
            })
            .collect::<Vec<_>>()
            .join(",")
    };
    s.push_str("\n  ],\n  \"simplify_findings\": [");
    s.push_str(&checked(&stats.simplify_findings));
    s.push_str("\n  ],\n  \"smt_findings\": [");
    s.push_str(&checked(&stats.smt_findings));
    s.push_str("\n  ],\n  \"samples_columns\": [\"seconds\", \"cases\", \"findings\", \"rss_kib\"],\n  \"samples\": [");
    let ss: Vec<String> = stats
        .samples
        .iter()
        .map(|x| {
            format!(
                "[{:.2}, {}, {}, {}]",
                x.seconds,
                x.cases,
                x.findings,
                opt(x.rss_kib)
            )
        })
        .collect();
    s.push_str(&ss.join(", "));
    let _ = write!(s, "],\n  \"repeats_not_minimized\": {},", stats.repeats);
    s.push_str("\n  \"write_errors\": [");
    s.push_str(
        &stats
            .write_errors
            .iter()
            .map(|e| format!("\"{}\"", esc(e)))
            .collect::<Vec<_>>()
            .join(", "),
    );
    s.push_str("]\n}\n");
    s
}

/// `stats` as the Markdown summary.
pub fn summary_md(cfg: &Config, stats: &Stats, title: &str) -> String {
    use std::fmt::Write;
    let mut s = String::new();
    let _ = writeln!(s, "# {title}\n");
    let _ = writeln!(
        s,
        "Generated by diopter; do not edit. Seed {} (rerun with `--seed {}`), {:.1} s, \
         {} cases ({:.0}/s), oracles: {}.\n",
        cfg.seed,
        cfg.seed,
        stats.elapsed,
        stats.cases,
        stats.cases as f64 / stats.elapsed.max(1e-9),
        stats.oracles.join(", ")
    );
    if stats.stopped {
        let _ = writeln!(s, "Stopped early (Ctrl-C): the counts are those so far.\n");
    }
    if let (Some(a), Some(b)) = (stats.rss_start_kib, stats.rss_end_kib) {
        let _ = writeln!(
            s,
            "Resident memory: {a} KiB at the start, {b} KiB at the end, {} KiB at most.\n",
            stats.rss_max_kib.unwrap_or(b)
        );
    }
    let _ = writeln!(s, "## Verdicts (reference against each oracle)\n");
    let _ = writeln!(s, "| oracle | {} |", LABELS.join(" | "));
    let _ = writeln!(s, "|---|{}", "---:|".repeat(LABELS.len()));
    for (o, m) in &stats.verdicts {
        let cells: Vec<String> = LABELS
            .iter()
            .map(|l| m.get(*l).copied().unwrap_or(0).to_string())
            .collect();
        let _ = writeln!(s, "| {o} | {} |", cells.join(" | "));
    }
    if stats.verdicts.contains_key("simplify") {
        let _ = writeln!(
            s,
            "\nThe `simplify` row compares the reference on each case with the \
             reference on the same case simplified by the rule library \
             (DESIGN.md's equivalence); SKIPPED there means no rule applied."
        );
    }
    if stats.verdicts.contains_key("smt") {
        let _ = writeln!(
            s,
            "\nThe `smt` row compares the reference with the prover's SMT \
             encoding evaluated on the same context's values (every \
             {}th case); SKIPPED there means the encoding does not model the \
             case (x86_fp80, an inconsistent context, a resource limit).",
            cfg.smt_every.unwrap_or(0)
        );
    }
    let _ = writeln!(s, "\n## Findings\n");
    for (who, fs, replay) in [
        ("The simplifier", &stats.simplify_findings, "replay"),
        ("The SMT encoding", &stats.smt_findings, "replay --smt"),
    ] {
        if fs.is_empty() {
            continue;
        }
        let _ = writeln!(s, "{who} (not minimized):\n");
        for f in fs {
            let _ = writeln!(
                s,
                "- {:.1} s: `{}`: {}; {}",
                f.at,
                f.line.replace('`', "'"),
                f.what.lines().next().unwrap_or(""),
                f.case_path.as_ref().map_or_else(
                    || "(the case file could not be written)".to_string(),
                    |p| format!("`{}`", diff::repro_command(p).replacen("replay", replay, 1))
                )
            );
        }
        let _ = writeln!(s);
    }
    if stats.finding_count() == 0 {
        let _ = writeln!(
            s,
            "None: no oracle disagreed with the reference and none panicked."
        );
    } else if !stats.findings.is_empty() {
        let _ = writeln!(
            s,
            "| signature | hits | first seen | ops → minimized | replay |"
        );
        let _ = writeln!(s, "|---|---:|---:|---|---|");
        for f in &stats.findings {
            let _ = writeln!(
                s,
                "| `{}` | {} | {:.1} s | {} → {} `{}` | `{}` |",
                f.signature,
                f.hits,
                f.at,
                f.ops,
                f.min_ops,
                f.min_line.replace('|', "\\|"),
                diff::repro_command(&f.min_path)
            );
        }
    }
    if stats.findings_dropped > 0 {
        let _ = writeln!(
            s,
            "\n{} more failures had signatures of their own and were not kept \
             (at most {MAX_FINDINGS} findings are): most likely one bug whose \
             signature varies.",
            stats.findings_dropped
        );
    }
    if !stats.write_errors.is_empty() {
        let _ = writeln!(s, "\n## Files that could not be written\n");
        for e in &stats.write_errors {
            let _ = writeln!(s, "- {e}");
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thinning_halves_and_keeps_both_ends() {
        let mut v: Vec<u32> = (0..10).collect();
        assert!(!thin(&mut v, 10), "at the cap: left alone");
        v.push(10);
        assert!(thin(&mut v, 10));
        assert_eq!(v, vec![0, 2, 4, 6, 8, 10]);
        // The last point stays even when its index is odd.
        let mut w: Vec<u32> = (0..12).collect();
        assert!(thin(&mut w, 10));
        assert_eq!(w, vec![0, 2, 4, 6, 8, 10, 11]);
    }

    /// However long the run, the samples stay under the cap (the campaign
    /// thins and doubles its period the same way).
    #[test]
    fn a_long_series_stays_bounded() {
        let (mut v, mut period, mut last) = (Vec::new(), 1u64, None::<u64>);
        for t in 0..100_000u64 {
            if last.is_none_or(|l| t - l >= period) {
                last = Some(t);
                v.push(t);
                if thin(&mut v, 64) {
                    period *= 2;
                }
            }
        }
        assert!(v.len() <= 65, "{}", v.len());
        assert_eq!(v[0], 0);
        assert!(*v.last().unwrap() > 90_000);
    }

    #[test]
    fn rss_is_read_from_proc() {
        let own = rss_kib().expect("Linux /proc");
        assert!(own > 0);
        // Its own group holds at least this process.
        let pgid = std::fs::read_to_string("/proc/self/stat")
            .ok()
            .and_then(|s| {
                s.rsplit_once(')')?
                    .1
                    .split_whitespace()
                    .nth(2)?
                    .parse()
                    .ok()
            })
            .expect("a process group");
        assert!(group_rss_kib(pgid).is_some_and(|k| k > 0));
    }
}
