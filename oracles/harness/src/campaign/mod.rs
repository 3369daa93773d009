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
//! that the encoding is fuzzed against the reference too; [`Config::checks`]
//! add checks that are not oracle pairs ([`checks`]: the case read back
//! from its case file, an update of it validated). It needs nothing
//! beyond this crate: no cargo-fuzz, no child processes.
//!
//! An unattended run must survive an oracle that never returns: the cases
//! run on a worker thread watched by the calling thread, and a case past
//! [`Config::case_timeout`] is a [`Hang`] finding with its case file; the
//! stuck worker is left behind and a new one goes on (see [`run`]).
//!
//! Memory is bounded by construction, so that an 8-hour run holds what a
//! 1-minute one does: the time series are thinned to [`MAX_SAMPLES`]
//! points, at most [`MAX_FINDINGS`] distinct findings are kept (later new
//! signatures are only counted), and the table of raw failures seen is
//! capped likewise. The resident set size is sampled with the counters and
//! reported at the start, the end and its peak.

pub mod checks;

use crate::minimize::{self, Failure, Options, Signature};
use diopter_diff::{self as diff, Oracle};
use diopter_empirical::simplify::{simplify_diff, step_lines, write_case};
use diopter_gen::Generate;
use diopter_gen::{Case, GenConfig};
use diopter_report::write_atomic;
use diopter_rules::simplify::Simplifier;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex, MutexGuard};
use std::thread::JoinHandle;
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
#[derive(Clone)]
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
    /// solver timeout), but it is slower than the evaluators, hence N. Its
    /// memory is bounded by `diopter_smt::concrete::WORK_BUDGET` (a case
    /// above it is SKIPPED; `fuzz/regressions/smt/encoding-memory-blowup.case`
    /// once took more than 4 GB), but not its time: a few generated cases
    /// (i4096 offsets and the like) take more than 10 s and are hangs, so
    /// `diopter run` leaves it off unless asked.
    pub smt_every: Option<u64>,
    /// How long one case may run (each oracle on it, the simplifier, the
    /// encoding) before it is a [`Hang`]; a minimization gets
    /// `minimize_time` more. [`DEFAULT_CASE_TIMEOUT`] in `diopter run`.
    pub case_timeout: Duration,
    /// Further checks of each case beside the oracle pairs (print and read
    /// back, translation validation, ...), each on every `every`-th case;
    /// their failures are [`Stats::check_findings`].
    pub checks: Vec<CaseCheck>,
}

/// A check of a generated case that is not an oracle pair: `check` gets
/// the case and its seed, and says what is wrong (`Err`), or nothing. It
/// runs under the case's time limit and a panic in it is a finding too.
#[derive(Clone)]
pub struct CaseCheck {
    /// The verdict row and the findings' name.
    pub name: &'static str,
    /// Every how many cases it runs (1: every case).
    pub every: u64,
    pub check: CheckFn,
}

/// A [`CaseCheck`]'s body: the case and its seed; `Err`: what is wrong.
pub type CheckFn = Arc<dyn Fn(&Case, u64) -> Result<(), String> + Send + Sync>;

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
    /// The failures of [`Config::checks`], in the simplifier's form: the
    /// check's name starts `what`.
    pub check_findings: Vec<SimplifyFinding>,
    /// When the first finding of any kind was recorded: seconds into the
    /// run and the number of cases drawn by then.
    pub first_finding: Option<(f64, u64)>,
    /// Cases that went past [`Config::case_timeout`], at most
    /// [`MAX_FINDINGS`]; later ones are counted in `findings_dropped`.
    pub hangs: Vec<Hang>,
    /// Workers given up on that were still running their case when the run
    /// ended (each holds a thread, and a CPU if it spins).
    pub stuck_workers: usize,
    /// Why the run stopped before its time or case count, when it gave up
    /// (too many stuck workers; no thread could be started).
    pub gave_up: Option<String>,
}

impl Stats {
    /// Every finding: the oracles', the simplifier's, the encoding's and
    /// the hangs.
    pub fn finding_count(&self) -> usize {
        self.findings.len()
            + self.simplify_findings.len()
            + self.smt_findings.len()
            + self.check_findings.len()
            + self.hangs.len()
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

/// A failing case minimized and named: `None` when it does not fail (or
/// its minimized form no longer does).
fn minimize_and_sign(
    case: &Case,
    oracles: &[&dyn Oracle],
    minimize_time: Duration,
) -> Option<(Failure, Case, Signature)> {
    let opts = Options {
        time_limit: Some(minimize_time),
    };
    let (failure, m) = minimize::minimize_failure(case, oracles, &opts)?;
    let signature = minimize::signature(&m.case, oracles)?;
    Some((failure, m.case, signature))
}

/// Writes a new finding's case file and minimized case file (each with its
/// verdict, so the oracles run once more) and gives the finding.
#[allow(clippy::too_many_arguments)]
fn write_finding(
    case: &Case,
    min: Case,
    oracles: &[&dyn Oracle],
    failure: Failure,
    signature: Signature,
    dir: &Path,
    at: f64,
    write_errors: &mut Vec<String>,
) -> Finding {
    let id = signature_id(&signature);
    let names: Vec<&str> = oracles.iter().map(|o| o.name()).collect();
    let case_path = dir.join(format!("{id}.case"));
    let min_path = dir.join(format!("{id}.min.case"));
    for (path, c) in [(&case_path, case), (&min_path, &min)] {
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
    Finding {
        signature,
        failure,
        case_path,
        min_path,
        min_line: min.expr_line(),
        ops: case.bare.expr.ops.len(),
        min_ops: min.bare.expr.ops.len(),
        hits: 1,
        at,
    }
}

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
    let Some((failure, min, signature)) = minimize_and_sign(case, oracles, minimize_time) else {
        return Recorded::NoFailure;
    };
    if let Some(i) = findings.iter().position(|f| f.signature == signature) {
        findings[i].hits += 1;
        return Recorded::Known(i);
    }
    if findings.len() >= MAX_FINDINGS {
        return Recorded::Full;
    }
    findings.push(write_finding(
        case,
        min,
        oracles,
        failure,
        signature,
        dir,
        at,
        write_errors,
    ));
    Recorded::New
}

/// The most raw failures (oracle and class, or panic message) remembered
/// for skipping repeats; past it every failure is minimized (slower, never
/// wrong: the signature still deduplicates).
const MAX_RAW_SEEN: usize = 4096;

/// What a worker was doing when its heartbeat was last set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// `Case::from_seed`: the generator itself.
    Generating,
    /// An oracle (or the simplifier, or the SMT encoding) on the case.
    Evaluating,
    /// Minimizing a failure of the case (and writing its case files).
    Minimizing,
}

impl std::fmt::Display for Phase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Phase::Generating => "generating",
            Phase::Evaluating => "evaluating",
            Phase::Minimizing => "minimizing",
        })
    }
}

/// A case on which the campaign's worker went past its time limit
/// ([`Config::case_timeout`]): a finding of its own, since an oracle that
/// does not terminate is a bug. The worker is left behind (see [`run`]).
#[derive(Clone, Debug)]
pub struct Hang {
    /// The case's number in the run (1-based) and its seed: the case is
    /// `Case::from_seed(seed, &cfg.gen)`.
    pub case: u64,
    pub seed: u64,
    /// What was running: an oracle's name, `simplify` or `smt`; `None`
    /// while the case was being generated.
    pub oracle: Option<String>,
    pub phase: Phase,
    /// How long the case had run when the watchdog gave up on it (s).
    pub waited: f64,
    /// The case file (with the replay command in its comments), or `None`
    /// when it could not be written (or the generator was what hung).
    pub case_path: Option<PathBuf>,
    /// The expression, when the case could be generated.
    pub line: Option<String>,
    /// Seconds into the run when the watchdog gave up.
    pub at: f64,
}

impl Hang {
    /// The command that replays its case file (and hangs the same way).
    pub fn replay(&self) -> Option<String> {
        let p = self.case_path.as_ref()?;
        let cmd = diff::repro_command(p);
        Some(if self.oracle.as_deref() == Some("smt") {
            cmd.replacen("replay", "replay --smt", 1)
        } else {
            cmd
        })
    }
}

/// The most workers left stuck at once before [`run`] gives up: each keeps
/// a thread (and, if it spins, a CPU) until its case ends, possibly never.
pub const MAX_STUCK_WORKERS: usize = 4;

/// The default of [`Config::case_timeout`].
pub const DEFAULT_CASE_TIMEOUT: Duration = Duration::from_secs(10);

/// The stack of a worker thread: more than a main thread's 8 MiB, since the
/// cases ran on the main thread before there was a watchdog, and the
/// evaluators and the minimizer recurse over expression trees. Only the
/// pages touched are resident.
const WORKER_STACK: usize = 32 << 20;

/// Makes a campaign's oracles, the reference first. [`run`] calls it on
/// each worker thread, so that oracles need not be `Send` or `Sync`: a
/// worker left stuck in one keeps its own.
pub type MakeOracles = Arc<dyn Fn() -> Vec<Box<dyn Oracle>> + Send + Sync>;

/// What the worker publishes for the watchdog: the case it is on, and
/// until when it may run.
#[derive(Clone)]
struct Beat {
    case: u64,
    seed: u64,
    oracle: Option<Arc<str>>,
    phase: Phase,
    since: Instant,
    /// `None` between cases (bookkeeping only, nothing that can hang).
    deadline: Option<Instant>,
}

/// The run's state, shared by the watchdog and its current worker.
struct Shared {
    stats: Stats,
    /// The seed stream: a new worker goes on where the stuck one left it,
    /// so that the cases of a run do not depend on its hangs.
    seeds: diopter_gen::entropy::SplitMix,
    /// How often each raw failure (oracle and class, before minimizing) was
    /// seen: a repeat is most likely a known finding, and minimizing is
    /// what costs; every 16th repeat is still minimized to catch new causes
    /// that fail in the same class.
    raw_seen: BTreeMap<Failure, u64>,
}

/// Locks `m` even when a panicking thread poisoned it (the counters stay
/// meaningful: every update is a few increments and pushes).
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// One worker thread's handles on the shared state.
struct Worker {
    cfg: Arc<Config>,
    shared: Arc<Mutex<Shared>>,
    beat: Arc<Mutex<Beat>>,
    /// Set by the watchdog (holding `shared`) when it gives up on this
    /// worker: from then on the worker changes nothing, and it ends as soon
    /// as it gets back control.
    retired: Arc<AtomicBool>,
    start: Instant,
}

/// The watchdog's side of a worker.
struct WorkerHandle {
    handle: JoinHandle<()>,
    beat: Arc<Mutex<Beat>>,
    retired: Arc<AtomicBool>,
    /// Disconnected when the worker's thread ends, however it ends.
    done: mpsc::Receiver<()>,
}

impl Worker {
    /// The shared state, or `None` once this worker is retired.
    fn lock(&self) -> Option<MutexGuard<'_, Shared>> {
        let g = lock(&self.shared);
        (!self.retired.load(Ordering::SeqCst)).then_some(g)
    }

    fn beat(&self, f: impl FnOnce(&mut Beat)) {
        f(&mut lock(&self.beat));
    }

    fn stopped(&self) -> bool {
        self.cfg
            .stop
            .as_ref()
            .is_some_and(|s| s.load(Ordering::Relaxed))
    }

    /// The case loop. Oracles run with no lock held, so that a stuck one
    /// never blocks the watchdog; every count is added under the lock,
    /// after checking that this worker was not given up on meanwhile.
    fn work(&self, make: &MakeOracles) {
        let owned = make();
        let oracles: Vec<&dyn Oracle> = owned.iter().map(|o| o.as_ref()).collect();
        let names: Vec<Arc<str>> = oracles.iter().map(|o| Arc::from(o.name())).collect();
        let (simplify, smt): (Arc<str>, Arc<str>) = (Arc::from("simplify"), Arc::from("smt"));
        let cfg = &self.cfg;
        let timeout = cfg.case_timeout;
        let findings_dir = cfg.out_dir.join("findings");
        loop {
            let (index, seed) = {
                let Some(mut g) = self.lock() else { return };
                if self.start.elapsed() >= cfg.time
                    || cfg.max_cases.is_some_and(|m| g.stats.cases >= m)
                {
                    return;
                }
                if self.stopped() {
                    g.stats.stopped = true;
                    return;
                }
                let seed = diopter_gen::entropy::Entropy::bits64(&mut g.seeds);
                g.stats.cases += 1;
                (g.stats.cases, seed)
            };
            let now = Instant::now();
            self.beat(|b| {
                *b = Beat {
                    case: index,
                    seed,
                    oracle: None,
                    phase: Phase::Generating,
                    since: now,
                    deadline: Some(now + timeout),
                }
            });
            let case = Case::from_seed(seed, &cfg.gen);
            for (other, name) in oracles.iter().zip(&names).skip(1) {
                self.beat(|b| {
                    b.oracle = Some(name.clone());
                    b.phase = Phase::Evaluating;
                });
                let pair: [&dyn Oracle; 2] = [oracles[0], *other];
                let label = match minimize::guarded_run(&case, &pair) {
                    Ok(v) => v.label(),
                    Err(_) => "PANIC",
                };
                let raw = if label == "DISAGREE" || label == "PANIC" {
                    minimize::failure(&case, &pair)
                } else {
                    None
                };
                let minimize_it = {
                    let Some(mut g) = self.lock() else { return };
                    count(&mut g.stats, name, label);
                    raw.is_some_and(|f| {
                        let n = if g.raw_seen.len() < MAX_RAW_SEEN || g.raw_seen.contains_key(&f) {
                            let n = g.raw_seen.entry(f).or_default();
                            *n += 1;
                            *n
                        } else {
                            1
                        };
                        let repeat = n > 1 && !n.is_multiple_of(16);
                        g.stats.repeats += u64::from(repeat);
                        !repeat
                    })
                };
                if minimize_it {
                    // The minimizer stops itself at `minimize_time` between
                    // candidates: only a candidate that hangs goes past this.
                    let t = Instant::now();
                    self.beat(|b| {
                        b.phase = Phase::Minimizing;
                        b.deadline = Some(t + cfg.minimize_time + timeout);
                    });
                    let at = self.start.elapsed().as_secs_f64();
                    if !self.record(&case, &pair, at, &findings_dir) {
                        return;
                    }
                    // The rest of the case gets a fresh limit.
                    let t = Instant::now();
                    self.beat(|b| {
                        b.phase = Phase::Evaluating;
                        b.deadline = Some(t + timeout);
                    });
                }
            }
            if let Some(simplifier) = &cfg.simplifier {
                self.beat(|b| {
                    b.oracle = Some(simplify.clone());
                    b.phase = Phase::Evaluating;
                });
                let at = self.start.elapsed().as_secs_f64();
                if !self.check_simplifier(simplifier, &case, &findings_dir, at) {
                    return;
                }
            }
            if let Some(n) = cfg.smt_every {
                if n > 0 && index.is_multiple_of(n) {
                    self.beat(|b| {
                        b.oracle = Some(smt.clone());
                        b.phase = Phase::Evaluating;
                    });
                    let at = self.start.elapsed().as_secs_f64();
                    if !self.check_smt(&case, &findings_dir, at) {
                        return;
                    }
                }
            }
            for check in &cfg.checks {
                if check.every > 0 && index.is_multiple_of(check.every) {
                    self.beat(|b| {
                        b.oracle = Some(Arc::from(check.name));
                        b.phase = Phase::Evaluating;
                    });
                    let at = self.start.elapsed().as_secs_f64();
                    if !self.run_check(check, &case, seed, &findings_dir, at) {
                        return;
                    }
                }
            }
            self.beat(|b| b.deadline = None);
        }
    }

    /// One [`CaseCheck`] on `case`: counts the verdict under its name and
    /// records a failure or a panic with the case file (its comments say
    /// what failed). `false`: this worker was retired meanwhile.
    fn run_check(
        &self,
        check: &CaseCheck,
        case: &Case,
        seed: u64,
        findings_dir: &Path,
        at: f64,
    ) -> bool {
        let r =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| (check.check)(case, seed)));
        let what = match r {
            Ok(Ok(())) => None,
            Ok(Err(m)) => Some(format!("{}: {m}", check.name)),
            Err(p) => Some(format!(
                "{} panicked: {}",
                check.name,
                panic_text(p.as_ref())
            )),
        };
        let label = if what.is_some() { "DISAGREE" } else { "AGREE" };
        let kind = FailureKind {
            row: check.name,
            list: |s| &mut s.check_findings,
            header: format!(
                "# the campaign's check `{}` failed on this case (seed {seed:#018x})",
                check.name
            ),
            prefix: check.name,
        };
        self.record_failure(&kind, label, what, case, findings_dir, at)
    }

    /// [`record`] with the lock held only around the bookkeeping. `false`:
    /// this worker was retired meanwhile.
    fn record(&self, case: &Case, pair: &[&dyn Oracle], at: f64, dir: &Path) -> bool {
        let Some((failure, min, signature)) = minimize_and_sign(case, pair, self.cfg.minimize_time)
        else {
            return true;
        };
        {
            let Some(mut g) = self.lock() else {
                return false;
            };
            let s = &mut g.stats;
            if let Some(f) = s.findings.iter_mut().find(|f| f.signature == signature) {
                f.hits += 1;
                return true;
            }
            if s.findings.len() >= MAX_FINDINGS {
                s.findings_dropped += 1;
                return true;
            }
        }
        let mut errors = Vec::new();
        let f = write_finding(case, min, pair, failure, signature, dir, at, &mut errors);
        let Some(mut g) = self.lock() else {
            return false;
        };
        push_errors(&mut g.stats, errors);
        note_first(&mut g.stats, f.at);
        g.stats.findings.push(f);
        true
    }

    /// `reference(case)` against `reference(simplify(case))`: counts the
    /// verdict under `simplify` and records a disagreement or a panic.
    /// `false`: this worker was retired meanwhile.
    fn check_simplifier(
        &self,
        simplifier: &Simplifier,
        case: &Case,
        findings_dir: &Path,
        at: f64,
    ) -> bool {
        let verdict = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            simplify_diff(simplifier, case)
        }));
        let label = match &verdict {
            Ok((v, _, _)) => v.label(),
            Err(_) => "PANIC",
        };
        {
            let Some(mut g) = self.lock() else {
                return false;
            };
            count(&mut g.stats, "simplify", label);
            if label != "DISAGREE" && label != "PANIC" {
                return true;
            }
            if g.stats.simplify_findings.len() >= MAX_FINDINGS {
                g.stats.findings_dropped += 1;
                return true;
            }
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
                (
                    written.then_some(path),
                    format!("simplifier panicked: {}", panic_text(p.as_ref())),
                )
            }
        };
        let Some(mut g) = self.lock() else {
            return false;
        };
        note_first(&mut g.stats, at);
        g.stats.simplify_findings.push(SimplifyFinding {
            case_path,
            line: case.expr_line(),
            what,
            at,
        });
        true
    }

    /// The SMT encoding on `case`'s concrete values against the reference:
    /// counts the verdict under `smt` and records a disagreement or a panic
    /// with a case file that `diopter replay --smt` replays. `false`: this
    /// worker was retired meanwhile.
    fn check_smt(&self, case: &Case, findings_dir: &Path, at: f64) -> bool {
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
            Err(p) => (
                "PANIC",
                Some(format!("the encoding panicked: {}", panic_text(p.as_ref()))),
            ),
        };
        let kind = FailureKind {
            row: "smt",
            list: |s| &mut s.smt_findings,
            header: "# the SMT encoding against the reference: diopter replay --smt FILE".into(),
            prefix: "smt",
        };
        self.record_failure(&kind, label, what, case, findings_dir, at)
    }

    /// Counts `label` in `kind`'s row and records a failure (`what`) in its
    /// list, at most [`MAX_FINDINGS`], with a case file: `kind.header`, the
    /// failure as comments, then the case. `false`: this worker was retired
    /// meanwhile.
    fn record_failure(
        &self,
        kind: &FailureKind,
        label: &str,
        what: Option<String>,
        case: &Case,
        findings_dir: &Path,
        at: f64,
    ) -> bool {
        {
            let Some(mut g) = self.lock() else {
                return false;
            };
            count(&mut g.stats, kind.row, label);
            if what.is_none() {
                return true;
            }
            if (kind.list)(&mut g.stats).len() >= MAX_FINDINGS {
                g.stats.findings_dropped += 1;
                return true;
            }
        }
        let Some(what) = what else { return true };
        let comments: String = what.lines().map(|l| format!("# {l}\n")).collect();
        let text = format!(
            "{}\n{comments}{}",
            kind.header,
            diff::case_file_text(case, &["reference"], None)
        );
        let path = findings_dir.join(format!("{}-{:016x}.case", kind.prefix, fnv(&text)));
        let written = std::fs::create_dir_all(findings_dir)
            .and_then(|()| write_atomic(&path, &text))
            .is_ok();
        let Some(mut g) = self.lock() else {
            return false;
        };
        note_first(&mut g.stats, at);
        (kind.list)(&mut g.stats).push(SimplifyFinding {
            case_path: written.then_some(path),
            line: case.expr_line(),
            what,
            at,
        });
        true
    }
}

/// Where [`Worker::record_failure`] counts and keeps a kind of failure
/// that is not an oracle pair's (the SMT encoding's, a check's).
struct FailureKind {
    /// The verdict row.
    row: &'static str,
    list: fn(&mut Stats) -> &mut Vec<SimplifyFinding>,
    /// The case file's first line(s).
    header: String,
    /// The case file's name before its hash.
    prefix: &'static str,
}

/// Records when the first finding came (see [`Stats::first_finding`]).
fn note_first(stats: &mut Stats, at: f64) {
    if stats.first_finding.is_none() {
        stats.first_finding = Some((at, stats.cases));
    }
}

/// Counts one verdict of `row`.
fn count(stats: &mut Stats, row: &str, label: &str) {
    *stats
        .verdicts
        .entry(row.to_string())
        .or_default()
        .entry(label.to_string())
        .or_default() += 1;
}

fn push_errors(stats: &mut Stats, errors: Vec<String>) {
    for e in errors {
        if stats.write_errors.len() < MAX_WRITE_ERRORS {
            stats.write_errors.push(e);
        }
    }
}

/// A panic's message.
fn panic_text(p: &(dyn std::any::Any + Send)) -> String {
    p.downcast_ref::<String>()
        .cloned()
        .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_default()
}

/// Starts a worker thread on `shared` (which holds where the seeds are).
fn spawn_worker(
    cfg: &Arc<Config>,
    make: &MakeOracles,
    shared: &Arc<Mutex<Shared>>,
    start: Instant,
    n: usize,
) -> std::io::Result<WorkerHandle> {
    let now = Instant::now();
    let beat = Arc::new(Mutex::new(Beat {
        case: 0,
        seed: 0,
        oracle: None,
        phase: Phase::Generating,
        since: now,
        deadline: None,
    }));
    let retired = Arc::new(AtomicBool::new(false));
    let (tx, done) = mpsc::channel::<()>();
    let w = Worker {
        cfg: cfg.clone(),
        shared: shared.clone(),
        beat: beat.clone(),
        retired: retired.clone(),
        start,
    };
    let make = make.clone();
    let handle = std::thread::Builder::new()
        .name(format!("campaign-worker-{n}"))
        .stack_size(WORKER_STACK)
        .spawn(move || {
            // Dropped when the thread ends, panic or not: the watchdog's
            // `done` then disconnects.
            let _done = tx;
            w.work(&make);
        })?;
    Ok(WorkerHandle {
        handle,
        beat,
        retired,
        done,
    })
}

/// Records the hang of the case in `beat`: a verdict `HANG` in the row of
/// what was evaluating it, and a [`Hang`] with a case file regenerated from the
/// seed (unless the generator was what hung: it would hang here too).
fn record_hang(cfg: &Config, beat: &Beat, stats: &mut Stats, at: f64) {
    let oracle = beat.oracle.as_deref().map(str::to_string);
    // While minimizing, the case's verdict is already counted.
    if let (Some(o), Phase::Evaluating) = (&oracle, beat.phase) {
        count(stats, o, "HANG");
    }
    if stats.hangs.len() >= MAX_FINDINGS {
        stats.findings_dropped += 1;
        return;
    }
    let waited = beat.since.elapsed().as_secs_f64();
    let (case_path, line) = if beat.phase == Phase::Generating {
        (None, None)
    } else {
        let case = Case::from_seed(beat.seed, &cfg.gen);
        let reference = stats.oracles.first().map_or("reference", |s| s.as_str());
        let who = oracle.as_deref().unwrap_or("?");
        let names: Vec<&str> = match who {
            "simplify" | "smt" => vec![reference],
            o if cfg.checks.iter().any(|c| c.name == o) => vec![reference],
            o => vec![reference, o],
        };
        let replay = match who {
            "smt" => "diopter replay --smt FILE",
            "simplify" => "diopter simplify (the simplifier on this expression)",
            _ => "diopter replay FILE",
        };
        let text = format!(
            "# hang: `{who}` did not finish {} case {} (seed {}) within {:.1} s\n\
             # (diopter run's watchdog, --case-timeout); {replay} hangs the same way\n{}",
            beat.phase,
            beat.case,
            beat.seed,
            waited,
            diff::case_file_text(&case, &names, None)
        );
        let path = cfg
            .out_dir
            .join("findings")
            .join(format!("hang-{:016x}.case", beat.seed));
        let written = std::fs::create_dir_all(path.parent().unwrap_or(Path::new(".")))
            .and_then(|()| write_atomic(&path, &text));
        if let Err(e) = &written {
            push_errors(stats, vec![format!("{}: {e}", path.display())]);
        }
        (written.is_ok().then_some(path), Some(case.expr_line()))
    };
    note_first(stats, at);
    stats.hangs.push(Hang {
        case: beat.case,
        seed: beat.seed,
        oracle,
        phase: beat.phase,
        waited,
        case_path,
        line,
        at,
    });
}

/// Runs the campaign with the oracles `make_oracles` makes (the reference
/// first; each other one is compared with it on its own). `tick` is called
/// about ten times a second with the counters so far (for a progress bar).
///
/// An oracle panic is caught (`minimize::guarded_run`) and counted as the
/// verdict `PANIC`, then minimized and recorded like a disagreement: it is a
/// finding, and the run goes on. No oracle here calls Z3 (the prover runs
/// in `diopter prove`, with its own per-query timeout), so a solver timeout
/// cannot stall this loop.
///
/// An oracle that does not terminate is a finding too. The cases run on a
/// worker thread that publishes a heartbeat (the case, its seed, what runs
/// and until when); this thread is the watchdog. A case gets
/// [`Config::case_timeout`] for its evaluation, and a minimization of one of
/// its failures `minimize_time` more. Past that the watchdog records a
/// [`Hang`] (its case file regenerated from the seed), gives the worker up
/// and starts a new one on the next case. A thread cannot be killed: the
/// worker given up keeps its thread, and its CPU if it spins, until its case
/// ends, when it notices it was given up and ends without counting anything.
/// With [`MAX_STUCK_WORKERS`] still stuck the run stops
/// ([`Stats::gave_up`]), so that the threads and CPU it holds stay bounded.
/// The seeds do not depend on the hangs: a run is as reproducible as
/// before. A Ctrl-C ([`Config::stop`]) is seen between cases, so it waits
/// for the case running to end or to time out.
pub fn run(cfg: &Config, make_oracles: MakeOracles, tick: &mut dyn FnMut(&Stats)) -> Stats {
    let start = Instant::now();
    let cfg = Arc::new(cfg.clone());
    let mut stats = Stats {
        rss_start_kib: rss_kib(),
        ..Stats::default()
    };
    stats.rss_max_kib = stats.rss_start_kib;
    let shared = Arc::new(Mutex::new(Shared {
        stats,
        seeds: diopter_gen::entropy::SplitMix(cfg.seed),
        raw_seen: BTreeMap::new(),
    }));
    // The oracles' names, for the report and for hang case files, from a
    // set made here: the workers make their own.
    lock(&shared).stats.oracles = make_oracles()
        .iter()
        .map(|o| o.name().to_string())
        .chain(cfg.simplifier.as_ref().map(|_| "simplify".to_string()))
        .chain(cfg.smt_every.map(|_| "smt".to_string()))
        .chain(cfg.checks.iter().map(|c| c.name.to_string()))
        .collect();
    // Often enough to see a short limit (tests use 200 ms) in time; the
    // channel wakes the watchdog at once when the worker ends.
    let poll = (cfg.case_timeout / 4).clamp(Duration::from_millis(5), Duration::from_millis(100));
    let mut last_tick = Instant::now();
    let mut last_sample = f64::NEG_INFINITY;
    // Doubles each time the samples are thinned (see `thin`).
    let mut sample_period = 1.0f64;
    let mut stuck: Vec<JoinHandle<()>> = Vec::new();
    let mut spawned = 0usize;
    let mut spawn = |shared: &Arc<Mutex<Shared>>| {
        spawned += 1;
        spawn_worker(&cfg, &make_oracles, shared, start, spawned)
    };
    let mut worker = match spawn(&shared) {
        Ok(w) => Some(w),
        Err(e) => {
            lock(&shared).stats.gave_up = Some(format!("no worker thread: {e}"));
            None
        }
    };
    minimize::quiet_panics(|| {
        while let Some(w) = worker.take() {
            match w.done.recv_timeout(poll) {
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                // The worker ended (the time is up, the case count reached,
                // a Ctrl-C seen): a panic in it is a bug of this loop, not of
                // an oracle (those are caught), so it goes on up.
                _ => {
                    if let Err(p) = w.handle.join() {
                        std::panic::resume_unwind(p);
                    }
                    break;
                }
            }
            let secs = start.elapsed().as_secs_f64();
            let sample = secs - last_sample >= sample_period;
            let tick_now = last_tick.elapsed() >= Duration::from_millis(100);
            if sample || tick_now {
                let mut g = lock(&shared);
                let s = &mut g.stats;
                if sample {
                    last_sample = secs;
                    let rss = rss_kib();
                    s.rss_max_kib = s.rss_max_kib.max(rss);
                    s.samples.push(Sample {
                        seconds: secs,
                        cases: s.cases,
                        findings: s.finding_count(),
                        rss_kib: rss,
                    });
                    if thin(&mut s.samples, MAX_SAMPLES) {
                        sample_period *= 2.0;
                    }
                }
                if tick_now {
                    last_tick = Instant::now();
                    s.elapsed = secs;
                    tick(s);
                }
            }
            let beat = lock(&w.beat).clone();
            if beat.deadline.is_none_or(|d| Instant::now() <= d) {
                worker = Some(w);
                continue;
            }
            // Given up: retired under the lock, so that nothing it does
            // from now on counts.
            let mut g = lock(&shared);
            w.retired.store(true, Ordering::SeqCst);
            record_hang(&cfg, &beat, &mut g.stats, secs);
            // Dropping a handle detaches its thread.
            stuck.push(w.handle);
            stuck.retain(|h| !h.is_finished());
            if stuck.len() >= MAX_STUCK_WORKERS {
                g.stats.gave_up = Some(format!(
                    "{} workers are stuck on cases past the {:.1} s limit \
                     (at most {MAX_STUCK_WORKERS} are left running): the run stops here",
                    stuck.len(),
                    cfg.case_timeout.as_secs_f64()
                ));
                break;
            }
            drop(g);
            // The new worker goes on from the next case (or ends at once
            // when the time is up or a Ctrl-C came).
            match spawn(&shared) {
                Ok(w) => worker = Some(w),
                Err(e) => lock(&shared).stats.gave_up = Some(format!("no worker thread: {e}")),
            }
        }
    });
    let mut stats = std::mem::take(&mut lock(&shared).stats);
    stats.stuck_workers = stuck.iter().filter(|h| !h.is_finished()).count();
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
        "  \"case_timeout_s\": {},\n  \"stuck_workers\": {},\n  \"gave_up\": {},",
        cfg.case_timeout.as_secs_f64(),
        stats.stuck_workers,
        stats
            .gave_up
            .as_ref()
            .map_or("null".to_string(), |g| format!("\"{}\"", esc(g)))
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
    s.push_str("\n  ],\n  \"check_findings\": [");
    s.push_str(&checked(&stats.check_findings));
    s.push_str("\n  ],\n  \"hangs\": [");
    let str_or_null = |v: Option<&str>| v.map_or("null".to_string(), |v| format!("\"{}\"", esc(v)));
    let hs: Vec<String> = stats
        .hangs
        .iter()
        .map(|h| {
            format!(
                "\n    {{\"case\": {}, \"seed\": {}, \"oracle\": {}, \"phase\": \"{}\", \"waited_s\": {:.3}, \"first_seen_s\": {:.3}, \"expression\": {}, \"case_file\": {}, \"replay\": {}}}",
                h.case,
                h.seed,
                str_or_null(h.oracle.as_deref()),
                h.phase,
                h.waited,
                h.at,
                str_or_null(h.line.as_deref()),
                str_or_null(h.case_path.as_ref().map(|p| p.display().to_string()).as_deref()),
                str_or_null(h.replay().as_deref()),
            )
        })
        .collect();
    s.push_str(&hs.join(","));
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
    if let Some(why) = &stats.gave_up {
        let _ = writeln!(s, "Stopped early: {why}.\n");
    }
    if let (Some(a), Some(b)) = (stats.rss_start_kib, stats.rss_end_kib) {
        let _ = writeln!(
            s,
            "Resident memory: {a} KiB at the start, {b} KiB at the end, {} KiB at most.\n",
            stats.rss_max_kib.unwrap_or(b)
        );
    }
    let _ = writeln!(s, "## Verdicts (reference against each oracle)\n");
    // HANG only when some case hung: most runs have none.
    let mut labels = LABELS.to_vec();
    if stats.verdicts.values().any(|m| m.contains_key("HANG")) {
        labels.push("HANG");
    }
    let _ = writeln!(s, "| oracle | {} |", labels.join(" | "));
    let _ = writeln!(s, "|---|{}", "---:|".repeat(labels.len()));
    for (o, m) in &stats.verdicts {
        let cells: Vec<String> = labels
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
             case (an inconsistent context, a resource limit, or \
             more work than its budget, `diopter_smt::concrete::WORK_BUDGET`).",
            cfg.smt_every.unwrap_or(0)
        );
    }
    let _ = writeln!(s, "\n## Findings\n");
    for (who, fs, replay) in [
        ("The simplifier", &stats.simplify_findings, "replay"),
        ("The SMT encoding", &stats.smt_findings, "replay --smt"),
        ("The other checks", &stats.check_findings, "replay"),
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
    if !stats.hangs.is_empty() {
        let _ = writeln!(
            s,
            "Hangs: cases past the {:.1} s limit (`--case-timeout`); each \
             replay hangs the same way:\n",
            cfg.case_timeout.as_secs_f64()
        );
        for h in &stats.hangs {
            let _ = writeln!(
                s,
                "- {:.1} s: case {} (seed {}): {} {} for {:.1} s{}; {}",
                h.at,
                h.case,
                h.seed,
                h.oracle
                    .as_deref()
                    .map_or("the generator".to_string(), |o| format!("`{o}`")),
                h.phase,
                h.waited,
                h.line
                    .as_ref()
                    .map_or(String::new(), |l| format!(" on `{}`", l.replace('`', "'"))),
                h.replay()
                    .map_or_else(|| "(no case file)".to_string(), |r| format!("`{r}`"))
            );
        }
        if stats.stuck_workers > 0 {
            let _ = writeln!(
                s,
                "\n{} of the workers given up on were still running at the end \
                 (a thread cannot be killed; each holds a CPU if it spins).",
                stats.stuck_workers
            );
        }
        let _ = writeln!(s);
    }
    if stats.finding_count() == 0 {
        let _ = writeln!(
            s,
            "None: no oracle disagreed with the reference, none panicked and none hung."
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
