//! `diopter campaign`: an overnight fuzzing campaign. Builds the cargo-fuzz
//! targets, runs each fuzzer binary in libFuzzer's fork mode as a child
//! process (crashes do not stop it), reads their stats lines for the plots,
//! watches the artifacts they write, replays each artifact through the
//! target's body (`diopter_harness::targets`, `diopter_gen::Case::from_bytes`), deduplicates by
//! signature, minimizes, and keeps everything under
//! `reports/campaigns/<timestamp>/`: `summary.md`, `findings/`,
//! `stats.json`, `state.json` and SVG plots.
//!
//! Every file is written atomically (temporary file, rename) and the state
//! is saved every few seconds and after each finding, so after `kill -9`
//! rerunning with `--dir` of the same directory resumes: an artifact is
//! deleted once handled (the first of each signature is kept under
//! `findings/`), so the artifacts left (written by the fuzzers before the
//! kill) are the ones to handle, and the remaining time is what was left.
//! Ctrl-C stops the fuzzers and writes the report as at the end.
//!
//! The driver's memory does not grow with the run's length: the time
//! series are thinned to `campaign::MAX_SAMPLES` rows, the fuzzers' output
//! is streamed to log files (only the latest counters are kept), handled
//! artifacts are deleted rather than remembered, repeats of a known raw
//! failure are counted without minimizing, and at most
//! `campaign::MAX_FINDINGS` findings are kept. Artifacts that libFuzzer
//! saved for a timeout, an out-of-memory input or a leak are findings by
//! their kind and are not replayed in this process (a replay would hang or
//! exhaust the driver); a panic while replaying a crash is a finding too.
//!
//! At the end each target's working corpus is minimized (`merge_corpus`:
//! libFuzzer's `-merge=1`, as `cargo fuzz cmin`), so that a night's corpus
//! does not slow the next night's start with inputs that add nothing; the
//! summary gives its size before and after. `--no-cmin` skips it.

use crate::report_cmd;
use crate::run_cmd::{clock_seed, parse_duration, stop_flag, utc_stamp};
use diopter_diff::{self as diff, Oracle, Reference};
use diopter_fast::Fast;
use diopter_gen::{Case, GenConfig};
use diopter_harness::campaign::{self as camp, Recorded};
use diopter_harness::minimize::plant::{Plant, Planted};
use diopter_harness::minimize::{self, Signature};
use diopter_harness::targets;
use diopter_report::write_atomic;
use indicatif::{ProgressBar, ProgressStyle};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitCode, Stdio};
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

pub const CAMPAIGN_HELP: &str = "\
WHAT IT DOES
  cargo fuzz build -s none TARGET... (the fuzz/ workspace), then runs each
  target's fuzzer binary with -fork=N -ignore_crashes=1 (crashes become
  artifacts, the run goes on), seeded from fuzz/corpus/TARGET. Every new
  artifact is replayed in the driver: eval_diff and dwarf_diff inputs through
  their oracle pairs (reference vs fast; reference vs dwarf, then vs
  dwarf-ext), minimized (diopter minimize) and deduplicated by signature
  (oracle, first failing operation, classes of difference); every other
  target's through its fuzz target's body, deduplicated by the failure's
  first message line (numbers masked). An artifact that does not reproduce is kept
  too, marked so. Nothing is ever lost: files are written atomically.
  Timeouts (-timeout=30 per input), out-of-memory inputs (-rss_limit_mb=2048)
  and leaks are findings by their kind, not replayed in the driver.
  --jobs is the number of fuzzing workers in all, at least one per target.
  Ctrl-C stops the fuzzers and writes the report (a second one quits).
  At the end (time up or Ctrl-C) each target's working corpus
  fuzz/corpus/TARGET is minimized: the fuzzer binary's -merge=1 (what
  `cargo fuzz cmin` does) keeps the inputs that add coverage, and the
  seed-* files; summary.md and stats.json give the size before and after.
  A merge that fails, takes over 20 minutes or is stopped by Ctrl-C leaves
  the corpus as it was and is reported, not fatal. --no-cmin skips it.

OUTPUT (--dir, default reports/campaigns/<UTC timestamp>)
  summary.md  findings with replay commands, verdict of each target, plots
  findings/   per finding: the artifact, the case file, the minimized case file
  stats.json  executions, coverage, findings and memory (RSS of the driver
              and of the fuzzers) over time; RSS at start and end
  state.json  what resuming needs (rerun with the same --dir after a kill)
  artifacts/  libFuzzer's artifacts not yet handled; the fuzzers' logs and
              the corpus merges' (TARGET-cmin.log)
  execs.svg, coverage.svg, findings.svg, memory.svg

EXIT STATUS
  0 the campaign ran for its time (or until Ctrl-C) and its report was
  written, with or without findings (summary.md lists them); 1 the report
  or its statistics could not be written; 2 bad arguments (--time,
  --hours, --jobs fewer than the targets, an unknown plant) or a target
  that could not be built or started (the message says which).

EXAMPLES
  diopter campaign --hours 8 --jobs 3
  diopter campaign --time 5m --jobs 2 --targets eval_diff,check_eval
  diopter campaign --dir reports/campaigns/20261122-0100 --time 8h   (resume)";

#[derive(clap::Args, Clone)]
pub struct Args {
    /// How long: `300`, `5m`, `8h`.
    #[arg(long, value_name = "DURATION", default_value = "8h")]
    pub time: String,
    /// How long, in hours (`--hours 8` is `--time 8h`; fractions allowed).
    #[arg(long, value_name = "H", conflicts_with = "time")]
    pub hours: Option<f64>,
    /// Fuzzing workers in all (split over the targets; at least one each;
    /// at most 256).
    #[arg(long, value_name = "N", default_value_t = 3,
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=256))]
    pub jobs: usize,
    /// Targets to run (comma-separated).
    #[arg(
        long,
        value_name = "LIST",
        value_delimiter = ',',
        default_value = "eval_diff,check_eval,parse_roundtrip"
    )]
    pub targets: Vec<String>,
    /// The campaign directory (resumed when it holds a state.json).
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
    /// libFuzzer's -seed (default: from the clock; recorded in state.json).
    #[arg(long)]
    pub seed: Option<u64>,
    /// cargo's target directory for the fuzz build.
    #[arg(long, value_name = "DIR", default_value = "fuzz/target")]
    pub fuzz_target_dir: PathBuf,
    /// For eval_diff_planted: the bug planted (test aid).
    #[arg(long, value_name = "BUG", default_value = "add-off-by-one")]
    pub plant: String,
    /// Do not minimize the corpora at the end. By default each target's
    /// working corpus (fuzz/corpus/TARGET) is merged into a minimal one with
    /// the same coverage (libFuzzer's -merge=1, as `cargo fuzz cmin`), and
    /// summary.md and stats.json give its size before and after.
    #[arg(long)]
    pub no_cmin: bool,
    /// An extra libFuzzer flag for every fuzzer (repeatable), e.g.
    /// `--fuzzer-arg=-entropic=0` or `--fuzzer-arg=-use_value_profile=1`.
    /// None by default: measured on eval_diff (reports/libfuzzer-settings.md,
    /// from reports/libfuzzer-settings.sh), neither changed the coverage
    /// reached in 5 minutes, and value profiling cost a third of the
    /// executions.
    #[arg(long = "fuzzer-arg", value_name = "FLAG", allow_hyphen_values = true)]
    pub fuzzer_args: Vec<String>,
    /// Build every target with libFuzzer's comparison tracing. By default
    /// the targets whose input only drives the case generator
    /// (NO_TRACE_COMPARES: eval_diff, dwarf_diff, simplify_diff,
    /// validate_diff) are built without it (`cargo fuzz build
    /// --no-trace-compares`, in DIR-notrace beside --fuzz-target-dir): on
    /// eval_diff that ran 1.7 times the executions per second and reached
    /// more coverage at every point of a 5-minute run
    /// (reports/libfuzzer-settings.md), since the generator compares no
    /// input bytes with constants for the tracing to solve.
    #[arg(long)]
    pub trace_compares: bool,
}

/// The targets built without comparison tracing unless `--trace-compares`
/// (see there).
pub const NO_TRACE_COMPARES: [&str; 5] = [
    "eval_diff",
    "eval_diff_planted",
    "dwarf_diff",
    "simplify_diff",
    "validate_diff",
];

/// Where a target is built: `target_dir`, or beside it with `-notrace`
/// for the targets built without comparison tracing (other RUSTFLAGS, so
/// another target directory, lest each build undo the other).
pub fn build_dir(target_dir: &Path, target: &str, trace_all: bool) -> PathBuf {
    if trace_all || !NO_TRACE_COMPARES.contains(&target) {
        return target_dir.to_path_buf();
    }
    let mut name = target_dir.file_name().unwrap_or_default().to_os_string();
    name.push("-notrace");
    target_dir.with_file_name(name)
}

/// Per-input time limit of the fuzzers (libFuzzer's default, 1200 s, would
/// let one slow input hold a worker for 20 minutes).
const INPUT_TIMEOUT_S: u64 = 30;
/// The fuzzers' memory limit per worker: an input past it is an `oom-`
/// artifact, a finding.
const FUZZER_RSS_LIMIT_MB: u64 = 2048;
/// The most bytes of one fuzzer's output kept in its log file; past it the
/// rest is read (the pipe must not fill) and dropped.
const LOG_LIMIT_BYTES: u64 = 16 << 20;
/// Cap on the minimizer's time per artifact.
const MINIMIZE_TIME: Duration = Duration::from_secs(30);
/// Every this many repeats of a known raw failure one is minimized again
/// (a new cause may fail in the same class).
const REMINIMIZE_EVERY: u64 = 16;
/// The most raw failures remembered for skipping repeats.
const MAX_RAW_SEEN: usize = 4096;

/// What resuming needs.
#[derive(Serialize, Deserialize, Default)]
#[serde(default)]
struct State {
    seed: u64,
    targets: Vec<String>,
    /// Seconds fuzzed before this process.
    elapsed: f64,
    /// Artifacts handled (each deleted once handled).
    handled: u64,
    /// Artifacts whose raw failure was seen before, counted as a hit of its
    /// finding without minimizing.
    repeats: u64,
    findings: Vec<FindingRec>,
    /// New signatures not kept because `camp::MAX_FINDINGS` were.
    findings_dropped: u64,
    samples: Vec<Row>,
    /// Seconds between samples; doubles each time `samples` is thinned.
    sample_period_s: f64,
    /// (seconds, findings)
    finding_times: Vec<(f64, usize)>,
    /// The driver's resident set size when the campaign started (the first
    /// process, when resumed) and when this process started.
    rss_start_kib: Option<u64>,
    rss_process_start_kib: Option<u64>,
    /// The largest sampled RSS of the driver and of the fuzzers (all their
    /// processes together).
    rss_max_kib: Option<u64>,
    fuzzers_rss_max_kib: Option<u64>,
    /// Whether a Ctrl-C stopped this process's part early.
    stopped: bool,
    /// The corpus merges at the end of this process's part (`--no-cmin`:
    /// none, and `corpus_merge_skipped`).
    corpus_merge: Vec<CorpusMerge>,
    corpus_merge_skipped: bool,
}

/// One sample of the counters.
#[derive(Serialize, Deserialize, Clone)]
struct Row {
    seconds: f64,
    /// Per target: (executions, coverage), the latest libFuzzer reported.
    targets: BTreeMap<String, (u64, u64)>,
    /// RSS (KiB) of the driver and of the fuzzers.
    rss_kib: Option<u64>,
    fuzzers_rss_kib: Option<u64>,
}

#[derive(Serialize, Deserialize, Clone)]
struct FindingRec {
    target: String,
    signature: String,
    hits: u64,
    first_seen_s: f64,
    artifact: String,
    case: Option<String>,
    minimized: Option<String>,
    expression: Option<String>,
    min_ops: Option<usize>,
    ops: Option<usize>,
    replay: String,
    reproduced: bool,
}

/// Parses a libFuzzer stats line: `#1234 ... cov: 567 ... exec/s: 89`
/// (also fork mode's `#1234: cov: ...`). (executions, coverage)
pub fn parse_stats_line(line: &str) -> Option<(u64, u64)> {
    let rest = line.strip_prefix('#')?;
    let n: u64 = rest
        .split(|c: char| !c.is_ascii_digit())
        .next()?
        .parse()
        .ok()?;
    let mut words = line.split_whitespace();
    let mut cov = None;
    while let Some(w) = words.next() {
        if w == "cov:" {
            cov = words.next().and_then(|c| c.parse().ok());
        }
    }
    Some((n, cov?))
}

fn fail(msg: String) -> ExitCode {
    eprintln!("diopter campaign: {msg}");
    ExitCode::from(2)
}

/// What libFuzzer saved an artifact for, by its file name's prefix.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArtifactKind {
    /// `crash-`: the target failed (a panic or abort); replayed here.
    Crash,
    /// `timeout-`, `oom-`, `leak-`, `slow-unit-`: not replayed here (the
    /// replay would hang or exhaust the driver); a finding by its kind.
    Resource(&'static str),
}

/// The kind of an artifact file name.
pub fn artifact_kind(name: &str) -> ArtifactKind {
    for kind in ["timeout", "oom", "leak", "slow-unit"] {
        if name.starts_with(&format!("{kind}-")) {
            return ArtifactKind::Resource(kind);
        }
    }
    ArtifactKind::Crash
}

/// A replayed artifact.
struct Replayed {
    /// The raw failure, before minimizing: repeats are skipped by it.
    raw: String,
    signature: String,
    finding: Option<camp::Finding>,
}

/// The oracles a differential target compares with the reference, one
/// pair at a time, so that its failures are minimized and deduplicated by
/// [`Signature`] (oracle, first failing operation, classes of difference):
/// eval_diff the fast evaluator, eval_diff_planted the same with `plant`,
/// dwarf_diff the gimli-based DWARF oracle and the extension evaluator (its
/// body compares both on the same case). `None` for the other targets.
fn diff_oracles(target: &str, plant: Plant) -> Option<Vec<Box<dyn Oracle>>> {
    match target {
        "eval_diff" => Some(vec![Box::new(Fast::default())]),
        "eval_diff_planted" => Some(vec![Box::new(Planted::new(
            Box::new(Fast::default()),
            plant,
        ))]),
        "dwarf_diff" => Some(vec![
            Box::new(diopter_dwarf::Dwarf),
            Box::new(diopter_dwarf::ext::DwarfExt),
        ]),
        _ => None,
    }
}

/// The first of the target's oracle pairs that fails on `case`.
fn failing_pair(
    target: &str,
    case: &Case,
    plant: Plant,
) -> Option<(Box<dyn Oracle>, minimize::Failure)> {
    diff_oracles(target, plant)?
        .into_iter()
        .find_map(|o| minimize::failure(case, &[&Reference, o.as_ref()]).map(|f| (o, f)))
}

/// A failing artifact's raw failure (cheap: no minimizing) and, when an
/// oracle pair of a differential target shows it, the case and the
/// oracle that disagrees with the reference; `None` when it does not fail.
/// The raw failure is the oracle and class for a pair, else (the other
/// targets, and a differential target whose body fails for another reason)
/// the body's message.
type Failing = (String, Option<(Case, Box<dyn Oracle>)>);

fn failure_of(target: &str, data: &[u8], plant: Plant) -> Option<Failing> {
    if diff_oracles(target, plant).is_some() {
        let case = Case::from_bytes(data, &GenConfig::default());
        if let Some((o, f)) = failing_pair(target, &case, plant) {
            return Some((format!("{target}: {f:?}"), Some((case, o))));
        }
        if target != "dwarf_diff" {
            return None;
        }
    }
    other_target_failure(target, data).map(|raw| (raw, None))
}

/// [`failure_of`]'s raw failure alone: what repeats are skipped by.
fn raw_failure(target: &str, data: &[u8], plant: Plant) -> Option<String> {
    failure_of(target, data, plant).map(|(raw, _)| raw)
}

/// The rule library the simplify_diff target loads (corpus/rules of the
/// checkout), loaded once; `None` when it does not load.
fn simplifier() -> Option<&'static diopter_rules::simplify::Simplifier> {
    use diopter_rules::simplify::Simplifier;
    static S: std::sync::OnceLock<Option<Simplifier>> = std::sync::OnceLock::new();
    S.get_or_init(|| Simplifier::load(&[report_cmd::root().join("corpus/rules")]).ok())
        .as_ref()
}

/// A target's body run in process on the artifact (what the fuzz target
/// runs, without its case files): its failure's first message line, with
/// the numbers (which vary from case to case) masked. Public for
/// `examples/target_inputs.rs`, which times slow inputs with it.
pub fn other_target_failure(target: &str, data: &[u8]) -> Option<String> {
    let r = std::panic::catch_unwind(|| match target {
        "check_eval" => targets::check_eval(data),
        "parse_roundtrip" => targets::parse_roundtrip(data),
        "validate_diff" => targets::validate_diff(data),
        "classic_roundtrip" => diopter_harness::classic_target::classic_roundtrip(data),
        "dwarf_diff" => diopter_dwarf::fuzz_dwarf_diff(data, None),
        "lifetimes_diff" => diopter_lifetimes::lifetimes_diff(data),
        "transform_diff" => diopter_transforms::transform_diff(data),
        "cli" => crate::fuzz_cli::fuzz_one(data),
        "simplify_diff" => {
            let Some(s) = simplifier() else {
                return Err("simplify_diff: corpus/rules does not load".to_string());
            };
            // As the target's `Case::arbitrary`, which never fails.
            let case = Case::from_bytes(data, &GenConfig::default());
            diopter_rules::simplify::check::fuzz_simplify_diff(s, &case, None)
        }
        _ => Err(format!("target `{target}`: not replayable in process")),
    });
    let msg = match r {
        Ok(Ok(())) => return None,
        Ok(Err(m)) => m,
        Err(p) => p
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_else(|| "panic".into()),
    };
    let first = msg.lines().next().unwrap_or("").to_string();
    let sig: String = first
        .chars()
        .map(|c| if c.is_ascii_digit() { '#' } else { c })
        .take(120)
        .collect();
    Some(format!("{target}: {sig}"))
}

/// Replays one crash artifact and, for the differential targets, minimizes
/// it; `None`: it does not fail (not reproduced).
fn replay(
    target: &str,
    data: &[u8],
    plant: Plant,
    findings_dir: &Path,
    at: f64,
) -> Option<Replayed> {
    let (raw, pair) = failure_of(target, data, plant)?;
    match pair {
        // Other targets, and a dwarf_diff failure that no oracle pair shows
        // (its body failed otherwise): kept under the message.
        None => Some(Replayed {
            signature: raw.clone(),
            raw,
            finding: None,
        }),
        Some((case, other)) => {
            let oracles: [&dyn Oracle; 2] = [&Reference, other.as_ref()];
            let mut fs = Vec::new();
            let mut errs = Vec::new();
            let r = camp::record(
                &case,
                &oracles,
                &mut fs,
                findings_dir,
                MINIMIZE_TIME,
                at,
                &mut errs,
            );
            if r != Recorded::New {
                return None;
            }
            let f = fs.pop()?;
            Some(Replayed {
                raw,
                signature: f.signature.to_string(),
                finding: Some(f),
            })
        }
    }
}

/// The summed RSS (KiB) of the fuzzers still running, `None` where /proc
/// does not tell.
fn fuzzers_rss(children: &[(String, Child)]) -> Option<u64> {
    children
        .iter()
        .filter_map(|(_, c)| camp::group_rss_kib(c.id()))
        .fold(None, |acc, k| Some(acc.unwrap_or(0) + k))
}

/// How long a fuzzer gets to stop after SIGTERM before SIGKILL.
const TERM_GRACE: Duration = Duration::from_secs(5);

/// Stops a fuzzer and its fork-mode workers (its process group): SIGTERM,
/// then SIGKILL if it is still there after `TERM_GRACE` (a fork-mode parent
/// goes on starting jobs after SIGTERM).
fn stop_group(c: &mut Child) {
    if c.try_wait().ok().flatten().is_some() {
        return;
    }
    let group = format!("-{}", c.id());
    // `--`: without it `kill` reads `-PGID` as an option.
    let _ = Command::new("kill")
        .args(["-s", "TERM", "--", &group])
        .status();
    let deadline = Instant::now() + TERM_GRACE;
    while Instant::now() < deadline {
        if c.try_wait().ok().flatten().is_some() {
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    // The workers too, even when the parent has gone.
    let _ = Command::new("kill")
        .args(["-s", "KILL", "--", &group])
        .stderr(Stdio::null())
        .status();
    let _ = c.wait();
}

/// Reads a fuzzer's stderr to its end: each line to `log` (up to
/// `LOG_LIMIT_BYTES`), stats lines into `latest`. Nothing else is kept.
fn drain(
    err: impl std::io::Read,
    target: String,
    log: Option<std::fs::File>,
    latest: Arc<Mutex<BTreeMap<String, (u64, u64)>>>,
) {
    let mut log = log.map(std::io::BufWriter::new);
    let mut written = 0u64;
    for line in BufReader::new(err).lines().map_while(Result::ok) {
        if let Some((n, cov)) = parse_stats_line(&line) {
            if let Ok(mut l) = latest.lock() {
                l.insert(target.clone(), (n, cov));
            }
        }
        if let Some(f) = log.as_mut() {
            if written < LOG_LIMIT_BYTES {
                written += line.len() as u64 + 1;
                let _ = writeln!(f, "{line}");
            }
        }
    }
    if let Some(mut f) = log {
        let _ = f.flush();
    }
}

/// Draws one SVG line chart: `series` is (name, points).
fn plot(
    path: &Path,
    title: &str,
    ylabel: &str,
    series: &[(String, Vec<(f64, f64)>)],
) -> Result<(), String> {
    use plotters::prelude::*;
    let xmax = series
        .iter()
        .flat_map(|(_, p)| p.iter().map(|q| q.0))
        .fold(1.0f64, f64::max);
    let ymax = series
        .iter()
        .flat_map(|(_, p)| p.iter().map(|q| q.1))
        .fold(1.0f64, f64::max)
        * 1.05;
    let root = SVGBackend::new(path, (800, 400)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| e.to_string())?;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 20))
        .margin(12)
        .x_label_area_size(35)
        .y_label_area_size(70)
        .build_cartesian_2d(0f64..xmax, 0f64..ymax)
        .map_err(|e| e.to_string())?;
    chart
        .configure_mesh()
        .x_desc("seconds")
        .y_desc(ylabel)
        .draw()
        .map_err(|e| e.to_string())?;
    let colors = [RED, BLUE, GREEN, MAGENTA, CYAN, BLACK];
    for (i, (name, pts)) in series.iter().enumerate() {
        let c = colors[i % colors.len()];
        chart
            .draw_series(LineSeries::new(pts.iter().copied(), &c))
            .map_err(|e| e.to_string())?
            .label(name.clone())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], c));
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()
        .map_err(|e| e.to_string())?;
    root.present().map_err(|e| e.to_string())
}

/// How long one target's corpus merge may take before it is stopped (the
/// corpus is then left as it was).
const MERGE_TIME_LIMIT: Duration = Duration::from_secs(20 * 60);

/// The fuzzer binary `cargo fuzz build -s none TARGET` makes.
fn fuzzer_bin(target_dir: &Path, target: &str) -> PathBuf {
    target_dir
        .join("x86_64-unknown-linux-gnu/release")
        .join(target)
}

/// The regular files of a corpus directory: (files, bytes). A directory
/// that cannot be read counts as empty.
pub fn corpus_size(dir: &Path) -> (u64, u64) {
    let mut n = (0, 0);
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        if let Ok(m) = e.metadata() {
            if m.is_file() {
                n.0 += 1;
                n.1 += m.len();
            }
        }
    }
    n
}

/// What minimizing one target's corpus did, for the summary.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[serde(default)]
pub struct CorpusMerge {
    pub target: String,
    pub files_before: u64,
    pub bytes_before: u64,
    /// `None` when the corpus was left as it was (see `error`).
    pub files_after: Option<u64>,
    pub bytes_after: Option<u64>,
    pub seconds: f64,
    /// Why the corpus was left as it was, or what went wrong replacing it.
    pub error: Option<String>,
}

/// The file names in `dir` (regular files only).
fn file_names(dir: &Path) -> std::io::Result<Vec<std::ffi::OsString>> {
    let mut v = Vec::new();
    for e in std::fs::read_dir(dir)? {
        let e = e?;
        if e.metadata()?.is_file() {
            v.push(e.file_name());
        }
    }
    Ok(v)
}

/// Whether a corpus file is one of the seeds kept in git (`fuzz/seed.sh`
/// names them so): never removed by a merge.
fn is_seed(name: &std::ffi::OsStr) -> bool {
    name.to_string_lossy().starts_with("seed-")
}

/// Minimizes `corpus` with the fuzzer binary's `-merge=1 NEW OLD` (what
/// `cargo fuzz cmin` does): NEW starts with the corpus's seed files, so
/// that they stay under their names, and gets the other inputs that add
/// coverage. The merge works in `scratch` (cleared first, removed after;
/// its log goes beside it) and the corpus is touched only once it has
/// succeeded: the new files go in, then the files left out are removed, so
/// that a kill at any point leaves a superset of the minimized corpus. A
/// merge past `limit`, or interrupted by `stop` turning on, is stopped (its
/// process group) and the corpus is left as it was.
pub fn merge_corpus(
    bin: &Path,
    target: &str,
    corpus: &Path,
    scratch: &Path,
    envs: &[(&str, std::ffi::OsString)],
    limit: Duration,
    stop: &std::sync::atomic::AtomicBool,
) -> CorpusMerge {
    let start = Instant::now();
    let (files_before, bytes_before) = corpus_size(corpus);
    let mut m = CorpusMerge {
        target: target.to_string(),
        files_before,
        bytes_before,
        ..CorpusMerge::default()
    };
    let result = merge_into(bin, corpus, scratch, envs, limit, stop);
    let _ = std::fs::remove_dir_all(scratch);
    match result {
        Ok(()) => {
            let (f, b) = corpus_size(corpus);
            m.files_after = Some(f);
            m.bytes_after = Some(b);
        }
        Err(e) => m.error = Some(e),
    }
    m.seconds = start.elapsed().as_secs_f64();
    m
}

fn merge_into(
    bin: &Path,
    corpus: &Path,
    scratch: &Path,
    envs: &[(&str, std::ffi::OsString)],
    limit: Duration,
    stop: &std::sync::atomic::AtomicBool,
) -> Result<(), String> {
    let io = |what: &str, p: &Path, e: std::io::Error| format!("{what} {}: {e}", p.display());
    if !corpus.is_dir() {
        return Err(format!("no corpus directory {}", corpus.display()));
    }
    if !bin.is_file() {
        return Err(format!("no fuzzer binary {}", bin.display()));
    }
    let new = scratch.join("merged");
    let artifacts = scratch.join("artifacts");
    let _ = std::fs::remove_dir_all(scratch);
    for d in [&new, &artifacts] {
        std::fs::create_dir_all(d).map_err(|e| io("creating", d, e))?;
    }
    let old_names = file_names(corpus).map_err(|e| io("reading", corpus, e))?;
    for n in old_names.iter().filter(|n| is_seed(n)) {
        std::fs::copy(corpus.join(n), new.join(n))
            .map_err(|e| io("copying", &corpus.join(n), e))?;
    }
    let log_path = scratch.with_extension("log");
    let log = std::fs::File::create(&log_path).map_err(|e| io("creating", &log_path, e))?;
    let log2 = log.try_clone().map_err(|e| io("opening", &log_path, e))?;
    let mut cmd = Command::new(bin);
    cmd.arg("-merge=1")
        .arg(format!("-timeout={INPUT_TIMEOUT_S}"))
        .arg(format!("-rss_limit_mb={FUZZER_RSS_LIMIT_MB}"))
        .arg(format!("-artifact_prefix={}/", artifacts.display()))
        .arg(&new)
        .arg(corpus)
        .stdin(Stdio::null())
        .stdout(log)
        .stderr(log2)
        // Its own group, as the fuzzers: the merge runs its inner passes
        // as children, and stopping it must stop them too.
        .process_group(0);
    for (k, v) in envs {
        cmd.env(k, v);
    }
    let was_stopped = stop.load(Ordering::Relaxed);
    let start = Instant::now();
    let mut child = cmd
        .spawn()
        .map_err(|e| format!("starting {}: {e}", bin.display()))?;
    let status = loop {
        match child.try_wait() {
            Ok(Some(s)) => break s,
            Ok(None) => {}
            Err(e) => {
                stop_group(&mut child);
                return Err(format!("waiting for the merge: {e}"));
            }
        }
        if start.elapsed() > limit {
            stop_group(&mut child);
            return Err(format!(
                "the merge did not finish within {} s (log: {})",
                limit.as_secs(),
                log_path.display()
            ));
        }
        if !was_stopped && stop.load(Ordering::Relaxed) {
            stop_group(&mut child);
            return Err("interrupted by Ctrl-C".into());
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    if !status.success() {
        return Err(format!(
            "the merge failed ({status}; log: {})",
            log_path.display()
        ));
    }
    let kept = file_names(&new).map_err(|e| io("reading", &new, e))?;
    if kept.is_empty() && !old_names.is_empty() {
        return Err(format!(
            "the merge kept no file of {} (log: {})",
            old_names.len(),
            log_path.display()
        ));
    }
    // In first, then out: never fewer inputs than the minimized corpus.
    for n in &kept {
        let to = corpus.join(n);
        if !to.exists() {
            let from = new.join(n);
            if std::fs::rename(&from, &to).is_err() {
                std::fs::copy(&from, &to).map_err(|e| io("copying", &from, e))?;
            }
        }
    }
    let kept: std::collections::BTreeSet<_> = kept.into_iter().collect();
    for n in old_names
        .iter()
        .filter(|n| !is_seed(n) && !kept.contains(*n))
    {
        let p = corpus.join(n);
        std::fs::remove_file(&p).map_err(|e| io("removing", &p, e))?;
    }
    Ok(())
}

/// Minimizes every target's working corpus (see `merge_corpus`) and prints
/// a line per target.
fn merge_corpora(
    targets: &[String],
    fuzz_dir: &Path,
    target_dir: &Path,
    trace_all: bool,
    abs_dir: &Path,
    plant: &str,
    stop: &std::sync::atomic::AtomicBool,
) -> Vec<CorpusMerge> {
    let mut out = Vec::new();
    let mut interrupted = false;
    for t in targets {
        let corpus = fuzz_dir.join("corpus").join(t);
        let m = if interrupted {
            let (files_before, bytes_before) = corpus_size(&corpus);
            CorpusMerge {
                target: t.clone(),
                files_before,
                bytes_before,
                error: Some("skipped: interrupted by Ctrl-C".into()),
                ..CorpusMerge::default()
            }
        } else {
            let envs = [
                ("DIOPTER_PLANT", plant.into()),
                (
                    "DIOPTER_CASE_DIR",
                    abs_dir.join("artifacts").join(format!("{t}-cases")).into(),
                ),
            ];
            merge_corpus(
                &fuzzer_bin(&build_dir(target_dir, t, trace_all), t),
                t,
                &corpus,
                &abs_dir.join("artifacts").join(format!("{t}-cmin")),
                &envs,
                MERGE_TIME_LIMIT,
                stop,
            )
        };
        interrupted |= m.error.as_deref() == Some("interrupted by Ctrl-C");
        match (&m.error, m.files_after, m.bytes_after) {
            (None, Some(f), Some(b)) => println!(
                "  corpus {t}: {} files, {} -> {f} files, {} ({:.0} s)",
                m.files_before,
                human_bytes(m.bytes_before),
                human_bytes(b),
                m.seconds
            ),
            (e, _, _) => eprintln!(
                "diopter campaign: corpus {t} not minimized: {}",
                e.as_deref().unwrap_or("?")
            ),
        }
        out.push(m);
    }
    out
}

/// `1234567` as `1.2 MiB`.
fn human_bytes(b: u64) -> String {
    if b < 1024 {
        format!("{b} B")
    } else if b < 1 << 20 {
        format!("{:.1} KiB", b as f64 / 1024.0)
    } else {
        format!("{:.1} MiB", b as f64 / f64::from(1u32 << 20))
    }
}

/// The summary's section on the corpus merges.
fn merge_section(st: &State) -> String {
    let mut md = String::from("\n## Corpus minimization\n\n");
    if st.corpus_merge_skipped {
        md.push_str("Skipped (`--no-cmin`): the corpora are as the fuzzers left them.\n");
        return md;
    }
    md.push_str(
        "At the end of the run each target's working corpus (`fuzz/corpus/TARGET`) is \
         minimized with libFuzzer's `-merge=1` (the inputs that add no coverage go; the \
         `seed-*` files stay); a failed merge leaves the corpus as it was.\n\n\
         | target | before | after | time | result |\n|---|---:|---:|---:|---|\n",
    );
    for m in &st.corpus_merge {
        let after = match (m.files_after, m.bytes_after) {
            (Some(f), Some(b)) => format!("{f} files, {}", human_bytes(b)),
            _ => "—".into(),
        };
        md.push_str(&format!(
            "| {} | {} files, {} | {after} | {:.0} s | {} |\n",
            m.target,
            m.files_before,
            human_bytes(m.bytes_before),
            m.seconds,
            m.error
                .as_deref()
                .map_or("minimized".to_string(), |e| format!(
                    "not minimized: {}",
                    e.replace('|', "\\|")
                )),
        ));
    }
    md
}

fn save_state(dir: &Path, st: &State) {
    if let Ok(t) = serde_json::to_string_pretty(st) {
        let _ = write_atomic(&dir.join("state.json"), &t);
    }
}

/// Writes summary.md, stats.json and the plots.
fn write_outputs(dir: &Path, st: &State, rss_end: Option<u64>, time: f64) -> Vec<String> {
    let mut errors = Vec::new();
    type Series = Vec<(String, Vec<(f64, f64)>)>;
    let mut execs: BTreeMap<&str, Vec<(f64, f64)>> = BTreeMap::new();
    let mut covs: BTreeMap<&str, Vec<(f64, f64)>> = BTreeMap::new();
    let (mut driver_mem, mut fuzzer_mem) = (Vec::new(), Vec::new());
    for r in &st.samples {
        for (t, (e, c)) in &r.targets {
            execs.entry(t).or_default().push((r.seconds, *e as f64));
            covs.entry(t).or_default().push((r.seconds, *c as f64));
        }
        if let Some(k) = r.rss_kib {
            driver_mem.push((r.seconds, k as f64 / 1024.0));
        }
        if let Some(k) = r.fuzzers_rss_kib {
            fuzzer_mem.push((r.seconds, k as f64 / 1024.0));
        }
    }
    let named = |m: BTreeMap<&str, Vec<(f64, f64)>>| -> Series {
        m.into_iter().map(|(k, v)| (k.to_string(), v)).collect()
    };
    let mut fpts: Vec<(f64, f64)> = vec![(0.0, 0.0)];
    fpts.extend(st.finding_times.iter().map(|(t, n)| (*t, *n as f64)));
    fpts.push((st.elapsed, st.findings.len() as f64));
    let mut mem: Series = vec![("driver".to_string(), driver_mem)];
    if !fuzzer_mem.is_empty() {
        mem.push(("fuzzers (all processes)".to_string(), fuzzer_mem));
    }
    for (file, title, y, s) in [
        (
            "execs.svg",
            "Executions over time",
            "executions",
            named(execs),
        ),
        (
            "coverage.svg",
            "Coverage over time",
            "coverage (edges)",
            named(covs),
        ),
        (
            "findings.svg",
            "Findings over time",
            "distinct findings",
            vec![("findings".to_string(), fpts)],
        ),
        ("memory.svg", "Resident memory over time", "RSS (MiB)", mem),
    ] {
        if let Err(e) = plot(&dir.join(file), title, y, &s) {
            errors.push(format!("{file}: {e}"));
        }
    }
    let last: BTreeMap<&str, (u64, u64)> = st
        .samples
        .iter()
        .flat_map(|r| r.targets.iter().map(|(t, v)| (t.as_str(), *v)))
        .collect();
    let last_fuzzers_rss = st.samples.iter().rev().find_map(|r| r.fuzzers_rss_kib);
    let stats = serde_json::json!({
        "seed": st.seed,
        "targets": st.targets,
        "time_limit_s": time,
        "elapsed_s": st.elapsed,
        "stopped_early": st.stopped,
        "rss_start_kib": st.rss_start_kib,
        "rss_process_start_kib": st.rss_process_start_kib,
        "rss_end_kib": rss_end,
        "rss_max_kib": st.rss_max_kib,
        "fuzzers_rss_last_kib": last_fuzzers_rss,
        "fuzzers_rss_max_kib": st.fuzzers_rss_max_kib,
        "artifacts_handled": st.handled,
        "repeats_not_minimized": st.repeats,
        "findings_dropped": st.findings_dropped,
        "final": last.iter().map(|(t, (e, c))| serde_json::json!({"target": t, "executions": e, "coverage": c})).collect::<Vec<_>>(),
        "findings": st.findings.iter().map(|f| serde_json::json!({
            "target": f.target, "signature": f.signature, "hits": f.hits, "first_seen_s": f.first_seen_s,
            "artifact": f.artifact, "case": f.case, "minimized": f.minimized, "expression": f.expression,
            "ops": f.ops, "min_ops": f.min_ops, "replay": f.replay, "reproduced": f.reproduced,
        })).collect::<Vec<_>>(),
        "corpus_merge": {
            "skipped": st.corpus_merge_skipped,
            "targets": st.corpus_merge,
        },
        "samples": st.samples,
    });
    if let Err(e) = write_atomic(
        &dir.join("stats.json"),
        &serde_json::to_string_pretty(&stats).unwrap_or_default(),
    ) {
        errors.push(format!("stats.json: {e}"));
    }
    let mib = |k: u64| format!("{:.1} MiB", k as f64 / 1024.0);
    let mut md = format!(
        "# Campaign {}\n\nGenerated by `diopter campaign`; do not edit. Targets: {}; libFuzzer seed {}; \
         {:.0} s fuzzed of {:.0} s asked{}.\n\n",
        dir.file_name().map_or(String::new(), |n| n.to_string_lossy().to_string()),
        st.targets.join(", "),
        st.seed,
        st.elapsed,
        time,
        if st.stopped {
            " (stopped by Ctrl-C; rerun with the same --dir to resume)"
        } else {
            ""
        }
    );
    md.push_str("## Memory\n\n");
    if let (Some(a), Some(b)) = (st.rss_start_kib, rss_end) {
        md.push_str(&format!(
            "Resident memory of the driver (which replays and minimizes in process): {} at the start, \
             {} at the end, {} at most.\n",
            mib(a),
            mib(b),
            mib(st.rss_max_kib.unwrap_or(b).max(b))
        ));
    }
    if let (Some(l), Some(m)) = (last_fuzzers_rss, st.fuzzers_rss_max_kib) {
        md.push_str(&format!(
            "The fuzzers (every process of each, fork-mode workers included): {} at the last sample, \
             {} at most (libFuzzer's -rss_limit_mb={FUZZER_RSS_LIMIT_MB} per worker).\n",
            mib(l),
            mib(m)
        ));
    }
    md.push_str(&format!(
        "\n{} artifacts handled; {} repeats of a known failure counted without minimizing.\n\n",
        st.handled, st.repeats
    ));
    md.push_str("| target | executions | coverage |\n|---|---:|---:|\n");
    for (t, (e, c)) in &last {
        md.push_str(&format!("| {t} | {e} | {c} |\n"));
    }
    md.push_str("\n## Findings\n\n");
    if st.findings.is_empty() {
        md.push_str("None.\n");
    } else {
        md.push_str("| target | signature | hits | first seen | minimized | replay |\n|---|---|---:|---:|---|---|\n");
        for f in &st.findings {
            md.push_str(&format!(
                "| {} | `{}`{} | {} | {:.0} s | {} | `{}` |\n",
                f.target,
                f.signature.replace('|', "\\|"),
                if f.reproduced {
                    ""
                } else {
                    " (not reproduced)"
                },
                f.hits,
                f.first_seen_s,
                match (&f.expression, f.ops, f.min_ops) {
                    (Some(e), Some(a), Some(b)) =>
                        format!("{a} → {b} ops: `{}`", e.replace('|', "\\|")),
                    _ => "—".into(),
                },
                f.replay
            ));
        }
    }
    if st.findings_dropped > 0 {
        md.push_str(&format!(
            "\n{} more artifacts had signatures of their own and were not kept (at most {} findings are).\n",
            st.findings_dropped,
            camp::MAX_FINDINGS
        ));
    }
    if st.corpus_merge_skipped || !st.corpus_merge.is_empty() {
        md.push_str(&merge_section(st));
    }
    md.push_str(
        "\n![executions](execs.svg)\n\n![coverage](coverage.svg)\n\n![findings](findings.svg)\n\n![memory](memory.svg)\n",
    );
    if !errors.is_empty() {
        md.push_str("\n## Errors\n\n");
        for e in &errors {
            md.push_str(&format!("- {e}\n"));
        }
    }
    if let Err(e) = write_atomic(&dir.join("summary.md"), &md) {
        errors.push(format!("summary.md: {e}"));
    }
    errors
}

/// Handles one artifact file: replays it (or, for a resource artifact,
/// names it by its kind), counts it under its finding or records a new
/// one, saves the state, then deletes the file.
#[allow(clippy::too_many_arguments)]
fn handle_artifact(
    st: &mut State,
    sig_index: &mut BTreeMap<String, usize>,
    raw_seen: &mut BTreeMap<String, (u64, usize)>,
    dir: &Path,
    target: &str,
    name: &str,
    plant: &str,
    now: f64,
) {
    let findings_dir = dir.join("findings");
    let path = dir.join("artifacts").join(target).join(name);
    let Ok(data) = std::fs::read(&path) else {
        return;
    };
    let plant_bug = Plant::from_name(plant).unwrap_or(Plant::AddOffByOne);
    let kind = artifact_kind(name);
    // A repeat of a raw failure seen before counts under its finding
    // without the minimizer, which is where the time goes.
    let raw = match kind {
        ArtifactKind::Crash => minimize::quiet_panics(|| {
            std::panic::catch_unwind(|| raw_failure(target, &data, plant_bug))
        })
        .unwrap_or_else(|_| Some(format!("{target}: panic while replaying"))),
        ArtifactKind::Resource(k) => Some(format!("{target}: {k}")),
    };
    if let Some((n, i)) = raw.as_ref().and_then(|r| raw_seen.get_mut(r)) {
        *n += 1;
        if !(*n).is_multiple_of(REMINIMIZE_EVERY) {
            st.findings[*i].hits += 1;
            st.repeats += 1;
            st.handled += 1;
            save_state(dir, st);
            let _ = std::fs::remove_file(&path);
            return;
        }
    }
    let replayed = match kind {
        ArtifactKind::Crash => minimize::quiet_panics(|| {
            std::panic::catch_unwind(|| replay(target, &data, plant_bug, &findings_dir, now))
        })
        .unwrap_or_else(|_| {
            let s = format!("{target}: panic while replaying");
            Some(Replayed {
                raw: s.clone(),
                signature: s,
                finding: None,
            })
        }),
        ArtifactKind::Resource(k) => {
            let s = format!("{target}: {k}");
            Some(Replayed {
                raw: s.clone(),
                signature: s,
                finding: None,
            })
        }
    };
    let (sig, raw, f, reproduced) = match replayed {
        Some(r) => (r.signature, Some(r.raw), r.finding, true),
        None => (
            format!("{target}: not reproduced ({name})"),
            None,
            None,
            false,
        ),
    };
    let index = if let Some(&i) = sig_index.get(&sig) {
        st.findings[i].hits += 1;
        Some(i)
    } else if st.findings.len() >= camp::MAX_FINDINGS {
        st.findings_dropped += 1;
        None
    } else {
        // Keep the artifact itself beside the case files.
        let id = camp::signature_id(&Signature {
            oracle: target.to_string(),
            first_op: sig.clone(),
            classes: vec![],
        });
        let kept = findings_dir.join(format!("{id}.{target}.input"));
        let _ = std::fs::write(&kept, &data);
        let replay_cmd = match (&f, kind) {
            (Some(f), _) if target != "eval_diff_planted" => diff::repro_command(&f.min_path),
            (Some(f), _) => format!(
                "cargo run --release -- minimize {} --oracle fast --plant {plant}",
                f.min_path.display(),
            ),
            (None, ArtifactKind::Resource(_)) => format!(
                "cargo fuzz run {target} -s none {} -- -timeout={INPUT_TIMEOUT_S} -rss_limit_mb={FUZZER_RSS_LIMIT_MB}",
                kept.display()
            ),
            (None, ArtifactKind::Crash) => {
                format!("cargo fuzz run {target} -s none {}", kept.display())
            }
        };
        sig_index.insert(sig.clone(), st.findings.len());
        st.findings.push(FindingRec {
            target: target.to_string(),
            signature: sig,
            hits: 1,
            first_seen_s: now,
            artifact: kept.display().to_string(),
            case: f.as_ref().map(|f| f.case_path.display().to_string()),
            minimized: f.as_ref().map(|f| f.min_path.display().to_string()),
            expression: f.as_ref().map(|f| f.min_line.clone()),
            min_ops: f.as_ref().map(|f| f.min_ops),
            ops: f.as_ref().map(|f| f.ops),
            replay: replay_cmd,
            reproduced,
        });
        st.finding_times.push((now, st.findings.len()));
        Some(st.findings.len() - 1)
    };
    if let (Some(r), Some(i)) = (raw, index) {
        if raw_seen.len() < MAX_RAW_SEEN || raw_seen.contains_key(&r) {
            raw_seen.entry(r).or_insert((1, i));
        }
    }
    st.handled += 1;
    // The state first, then the deletion: a kill in between counts this
    // artifact once more on resume, never loses it.
    save_state(dir, st);
    let _ = std::fs::remove_file(&path);
}

/// The campaign's length: `--hours` if given, else `--time`.
fn campaign_time(a: &Args) -> Result<Duration, String> {
    match a.hours {
        Some(h) if h.is_finite() && h > 0.0 && h <= 24.0 * 365.0 => {
            Ok(Duration::from_secs_f64(h * 3600.0))
        }
        Some(h) => Err(format!(
            "--hours {h}: a positive number of hours, at most a year"
        )),
        None => parse_duration(&a.time).map_err(|e| format!("--time {e}")),
    }
}

pub fn run(a: &Args) -> ExitCode {
    let time = match campaign_time(a) {
        Ok(t) => t,
        Err(e) => return fail(e),
    };
    if Plant::from_name(&a.plant).is_none() {
        return fail(format!("unknown plant `{}`", a.plant));
    }
    // Absolute paths: `cargo fuzz build` runs in fuzz/, where a relative
    // --target-dir would name another directory than the one the fuzzer
    // binaries are then started from.
    let root = std::path::absolute(report_cmd::root()).unwrap_or_else(|_| report_cmd::root());
    let dir = a
        .dir
        .clone()
        .unwrap_or_else(|| PathBuf::from("reports/campaigns").join(utc_stamp()));
    // The fuzzers get absolute paths (see `abs_dir`); the report keeps the
    // directory as given, so that its replay commands work from a clone.
    let abs_dir = std::path::absolute(&dir).unwrap_or_else(|_| dir.clone());
    let findings_dir = dir.join("findings");
    let mut st: State = std::fs::read_to_string(dir.join("state.json"))
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or_default();
    let resumed = !st.targets.is_empty();
    let rss_now = camp::rss_kib();
    if !resumed {
        st.seed = a.seed.unwrap_or_else(clock_seed) % (u32::MAX as u64);
        st.targets = a.targets.clone();
        st.rss_start_kib = rss_now;
    }
    st.rss_process_start_kib = rss_now;
    st.rss_max_kib = st.rss_max_kib.max(rss_now);
    st.stopped = false;
    // The merges are this process's: a resumed run merges again at its end.
    st.corpus_merge.clear();
    st.corpus_merge_skipped = a.no_cmin;
    if a.jobs < st.targets.len() {
        return fail(format!(
            "--jobs {} is fewer than the {} targets ({}): each runs at least one worker; \
             give more jobs or fewer --targets",
            a.jobs,
            st.targets.len(),
            st.targets.join(",")
        ));
    }
    if let Err(e) = std::fs::create_dir_all(&findings_dir) {
        return fail(format!("{}: {e}", findings_dir.display()));
    }
    save_state(&dir, &st);
    println!(
        "campaign {} ({}), targets {}, seed {}",
        dir.display(),
        if resumed { "resumed" } else { "new" },
        st.targets.join(","),
        st.seed
    );
    let stop = stop_flag();
    // Build.
    let fuzz_dir = root.join("fuzz");
    let target_dir = if a.fuzz_target_dir.is_absolute() {
        a.fuzz_target_dir.clone()
    } else {
        root.join(&a.fuzz_target_dir)
    };
    for t in &st.targets {
        let dir = build_dir(&target_dir, t, a.trace_compares);
        let mut cmd = Command::new("cargo");
        cmd.args(["fuzz", "build", "-s", "none", t, "--target-dir"])
            .arg(&dir)
            .current_dir(&fuzz_dir);
        if dir != target_dir {
            cmd.arg("--no-trace-compares");
        }
        if !cmd.status().is_ok_and(|s| s.success()) {
            return fail(format!(
                "`cargo fuzz build -s none {t}` failed (is cargo-fuzz installed? `cargo install cargo-fuzz`)"
            ));
        }
    }
    // A Ctrl-C during the build: no fuzzer is started, the report is
    // written as it stands.
    let remaining = if stop.load(Ordering::Relaxed) {
        0.0
    } else {
        time.as_secs_f64() - st.elapsed
    };
    if remaining <= 0.0 && !stop.load(Ordering::Relaxed) {
        println!("nothing left to run ({:.0} s already fuzzed)", st.elapsed);
    }
    // Start the fuzzers, each in its own process group (so that stopping
    // one stops its fork-mode workers too, and a Ctrl-C at the terminal
    // reaches the driver only, which then stops them).
    let n_targets = st.targets.len().max(1);
    let latest: Arc<Mutex<BTreeMap<String, (u64, u64)>>> = Arc::default();
    let mut children: Vec<(String, Child)> = Vec::new();
    for (i, t) in st.targets.clone().into_iter().enumerate() {
        if remaining <= 0.0 {
            break;
        }
        // The jobs split over the targets, the first ones taking the rest.
        let per = a.jobs / n_targets + usize::from(i < a.jobs % n_targets);
        let bin = fuzzer_bin(&build_dir(&target_dir, &t, a.trace_compares), &t);
        let art = abs_dir.join("artifacts").join(&t);
        // The working corpus is cargo-fuzz's (fuzz/corpus/TARGET, which
        // .gitignore keeps out of the repository but for the seeds), not the
        // report's: it grows to thousands of files.
        let work = fuzz_dir.join("corpus").join(&t);
        let _ = std::fs::create_dir_all(&art);
        let _ = std::fs::create_dir_all(&work);
        let mut cmd = Command::new(&bin);
        cmd.arg(&work);
        // The planted target also reads eval_diff's corpus (its inputs are
        // read alike).
        let seeds = fuzz_dir.join("corpus/eval_diff");
        if t == "eval_diff_planted" && seeds.is_dir() {
            cmd.arg(seeds);
        }
        cmd.arg(format!("-max_total_time={}", remaining.ceil() as u64))
            .arg(format!("-fork={per}"))
            .arg("-ignore_crashes=1")
            .arg("-ignore_timeouts=1")
            .arg("-ignore_ooms=1")
            .arg(format!("-timeout={INPUT_TIMEOUT_S}"))
            .arg(format!("-rss_limit_mb={FUZZER_RSS_LIMIT_MB}"))
            .arg(format!("-seed={}", st.seed))
            .arg(format!("-artifact_prefix={}/", art.display()))
            .args(&a.fuzzer_args)
            .env("DIOPTER_PLANT", &a.plant)
            .env(
                "DIOPTER_CASE_DIR",
                abs_dir.join("artifacts").join(format!("{t}-cases")),
            )
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .process_group(0);
        if t != "eval_diff" && t != "eval_diff_planted" {
            cmd.arg(format!(
                "-dict={}",
                fuzz_dir.join("dict/diop.dict").display()
            ));
        }
        match cmd.spawn() {
            Ok(mut c) => {
                if let Some(err) = c.stderr.take() {
                    let log = std::fs::OpenOptions::new()
                        .create(true)
                        .append(true)
                        .open(dir.join("artifacts").join(format!("{t}.log")))
                        .ok();
                    let latest = latest.clone();
                    let name = t.clone();
                    std::thread::spawn(move || drain(err, name, log, latest));
                }
                children.push((t, c));
            }
            Err(e) => return fail(format!("starting {}: {e}", bin.display())),
        }
    }
    let bar = ProgressBar::new(time.as_secs());
    bar.set_style(
        ProgressStyle::with_template("  campaign [{bar:30}] {pos}/{len} s  {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let start = Instant::now();
    let base = st.elapsed;
    let mut last_save = Instant::now();
    let mut last_sample = f64::NEG_INFINITY;
    if st.sample_period_s < 1.0 {
        st.sample_period_s = 1.0;
    }
    let mut sig_index: BTreeMap<String, usize> = st
        .findings
        .iter()
        .enumerate()
        .map(|(i, f)| (f.signature.clone(), i))
        .collect();
    let mut raw_seen: BTreeMap<String, (u64, usize)> = BTreeMap::new();
    'run: loop {
        let now = base + start.elapsed().as_secs_f64();
        st.elapsed = now;
        if now - last_sample >= st.sample_period_s {
            last_sample = now;
            let targets = latest.lock().map(|l| l.clone()).unwrap_or_default();
            let rss = camp::rss_kib();
            let fuzzers = fuzzers_rss(&children);
            st.rss_max_kib = st.rss_max_kib.max(rss);
            st.fuzzers_rss_max_kib = st.fuzzers_rss_max_kib.max(fuzzers);
            st.samples.push(Row {
                seconds: now,
                targets,
                rss_kib: rss,
                fuzzers_rss_kib: fuzzers,
            });
            if camp::thin(&mut st.samples, camp::MAX_SAMPLES) {
                st.sample_period_s *= 2.0;
            }
        }
        // New artifacts (crash-*, timeout-*, oom-*, ...).
        for t in st.targets.clone() {
            let art = dir.join("artifacts").join(&t);
            let mut names: Vec<String> = std::fs::read_dir(&art)
                .into_iter()
                .flatten()
                .flatten()
                .map(|e| e.file_name().to_string_lossy().to_string())
                .filter(|n| !n.starts_with('.'))
                .collect();
            names.sort();
            for n in names {
                if stop.load(Ordering::Relaxed) {
                    break 'run;
                }
                let now = base + start.elapsed().as_secs_f64();
                handle_artifact(
                    &mut st,
                    &mut sig_index,
                    &mut raw_seen,
                    &dir,
                    &t,
                    &n,
                    &a.plant,
                    now,
                );
            }
        }
        bar.set_position(now as u64);
        let execs: u64 = latest
            .lock()
            .map(|l| l.values().map(|v| v.0).sum())
            .unwrap_or(0);
        bar.set_message(format!("{execs} execs, {} findings", st.findings.len()));
        if last_save.elapsed() >= Duration::from_secs(5) {
            save_state(&dir, &st);
            last_save = Instant::now();
        }
        if stop.load(Ordering::Relaxed) {
            break;
        }
        let all_done = children
            .iter_mut()
            .all(|(_, c)| c.try_wait().ok().flatten().is_some());
        if all_done || now >= time.as_secs_f64() + 30.0 {
            break;
        }
        std::thread::sleep(Duration::from_secs(1));
    }
    st.stopped = stop.load(Ordering::Relaxed);
    // Fuzzed time ends here, not after the fuzzers have been stopped.
    let fuzzed = base + start.elapsed().as_secs_f64();
    // Past the deadline, done, or stopped: stop what still runs, by
    // process group (the fork-mode workers too).
    for (_, c) in &mut children {
        stop_group(c);
    }
    bar.finish_and_clear();
    st.elapsed = fuzzed.min(time.as_secs_f64());
    let rss_end = camp::rss_kib();
    st.rss_max_kib = st.rss_max_kib.max(rss_end);
    save_state(&dir, &st);
    let mut errors = write_outputs(&dir, &st, rss_end, time.as_secs_f64());
    if !a.no_cmin {
        // The report above stands if this is interrupted; it is written
        // again with the merges.
        println!(
            "minimizing the corpora (--no-cmin skips this; a Ctrl-C stops it and leaves them as they are)"
        );
        st.corpus_merge = merge_corpora(
            &st.targets,
            &fuzz_dir,
            &target_dir,
            a.trace_compares,
            &abs_dir,
            &a.plant,
            &stop,
        );
        save_state(&dir, &st);
        errors = write_outputs(&dir, &st, rss_end, time.as_secs_f64());
    }
    for e in &errors {
        eprintln!("diopter campaign: {e}");
    }
    println!(
        "{}{} findings; report: {}/summary.md",
        if st.stopped {
            "stopped (resume with the same --dir); "
        } else {
            ""
        },
        st.findings.len(),
        dir.display()
    );
    if errors.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_libfuzzer_stats_lines() {
        assert_eq!(
            parse_stats_line(
                "#4096\tpulse  cov: 1234 ft: 2000 corp: 50/1Kb exec/s: 2048 rss: 60Mb"
            ),
            Some((4096, 1234))
        );
        assert_eq!(
            parse_stats_line(
                "#12345: cov: 777 ft: 900 corp: 10 exec/s: 100 oom/timeout/crash: 0/0/1 time: 5s"
            ),
            Some((12345, 777))
        );
        assert_eq!(parse_stats_line("INFO: Seed: 1"), None);
    }

    #[test]
    fn resource_artifacts_are_not_replayed() {
        assert_eq!(artifact_kind("crash-0123abcd"), ArtifactKind::Crash);
        assert_eq!(
            artifact_kind("timeout-0123abcd"),
            ArtifactKind::Resource("timeout")
        );
        assert_eq!(artifact_kind("oom-99"), ArtifactKind::Resource("oom"));
        assert_eq!(artifact_kind("leak-1"), ArtifactKind::Resource("leak"));
        assert_eq!(
            artifact_kind("slow-unit-1"),
            ArtifactKind::Resource("slow-unit")
        );
    }

    /// A crash artifact whose replay fails is a finding under its first
    /// message line; one that passes is not reproduced.
    #[test]
    fn other_targets_fail_by_their_first_line() {
        assert_eq!(other_target_failure("parse_roundtrip", b""), None);
        let sig = other_target_failure("no_such_target", b"x").expect("fails");
        assert_eq!(
            sig,
            "no_such_target: target `no_such_target`: not replayable in process"
        );
    }

    /// No extra libFuzzer flag unless given (flags that start with `-` are
    /// values here); the generator-driven targets build without comparison
    /// tracing, in a directory of their own, unless --trace-compares.
    #[test]
    fn fuzzer_flags_and_build_dirs() {
        use clap::Parser;
        #[derive(Parser)]
        struct T {
            #[command(flatten)]
            a: Args,
        }
        let t = T::try_parse_from(["campaign"]).unwrap();
        assert!(t.a.fuzzer_args.is_empty());
        assert!(!t.a.trace_compares);
        let t = T::try_parse_from([
            "campaign",
            "--fuzzer-arg",
            "-use_value_profile=1",
            "--fuzzer-arg=-entropic=0",
            "--trace-compares",
        ])
        .unwrap();
        assert_eq!(t.a.fuzzer_args, vec!["-use_value_profile=1", "-entropic=0"]);
        assert!(t.a.trace_compares);
        let d = Path::new("/x/fuzz/target");
        assert_eq!(
            build_dir(d, "eval_diff", false),
            Path::new("/x/fuzz/target-notrace")
        );
        assert_eq!(
            build_dir(d, "dwarf_diff", false),
            Path::new("/x/fuzz/target-notrace")
        );
        assert_eq!(build_dir(d, "eval_diff", true), d);
        assert_eq!(build_dir(d, "parse_roundtrip", false), d);
        assert_eq!(build_dir(d, "cli", false), d);
    }

    /// Every fuzz target of fuzz/fuzz_targets/ is replayed in the driver:
    /// its seeds pass there as in the fuzzer (none is "not replayable"),
    /// and the differential ones go through their oracle pairs.
    #[test]
    fn every_fuzz_target_replays_in_process() {
        let root = report_cmd::root();
        let mut names: Vec<String> = std::fs::read_dir(root.join("fuzz/fuzz_targets"))
            .expect("fuzz/fuzz_targets")
            .filter_map(|e| {
                let n = e.ok()?.file_name().into_string().ok()?;
                n.strip_suffix(".rs").map(str::to_string)
            })
            .collect();
        names.sort();
        assert!(names.len() >= 10, "{names:?}");
        for t in &names {
            // The planted target fails on purpose; its seeds are eval_diff's.
            let seed_dir = if t == "eval_diff_planted" {
                "eval_diff"
            } else {
                t.as_str()
            };
            // Targets without seeds (lifetimes_diff, transform_diff) start
            // from the empty input, as libFuzzer does.
            let seed = std::fs::read(root.join("fuzz/corpus").join(seed_dir).join("seed-000"))
                .unwrap_or_default();
            if t == "eval_diff_planted" {
                assert!(diff_oracles(t, Plant::AddOffByOne).is_some());
                continue;
            }
            assert_eq!(raw_failure(t, &seed, Plant::AddOffByOne), None, "{t}");
            let differential = diff_oracles(t, Plant::AddOffByOne).is_some();
            assert_eq!(differential, t == "eval_diff" || t == "dwarf_diff", "{t}");
        }
    }

    /// A stand-in for a fuzzer binary: a shell script (`body`) that gets
    /// the merge's arguments; `$new` and `$old` are its two directories.
    fn fake_fuzzer(dir: &Path, name: &str, body: &str) -> PathBuf {
        use std::os::unix::fs::PermissionsExt;
        let p = dir.join(name);
        let script = format!(
            "#!/bin/sh\nnew=; old=\nfor a in \"$@\"; do case \"$a\" in -*) ;; *) if [ -z \"$new\" ]; then new=$a; else old=$a; fi;; esac; done\n\
             echo \"$@ plant=$DIOPTER_PLANT\" > \"$ARGS_FILE\"\n{body}\n"
        );
        std::fs::write(&p, script).unwrap();
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
        p
    }

    fn fresh_corpus(dir: &Path) -> PathBuf {
        let c = dir.join("corpus");
        let _ = std::fs::remove_dir_all(&c);
        std::fs::create_dir_all(&c).unwrap();
        for (n, len) in [
            ("seed-1", 3),
            ("keep-a", 10),
            ("drop-b", 20),
            ("drop-c", 30),
        ] {
            std::fs::write(c.join(n), vec![b'x'; len]).unwrap();
        }
        c
    }

    fn names(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = file_names(dir)
            .unwrap()
            .into_iter()
            .map(|n| n.to_string_lossy().to_string())
            .collect();
        v.sort();
        v
    }

    /// The merge with stand-ins for the fuzzer (no cargo-fuzz needed): what
    /// it selects replaces the corpus, the seeds stay, and a merge that
    /// fails, hangs, is interrupted or keeps nothing leaves the corpus as it
    /// was, with the reason. One test, so that the scripts run one by one.
    #[test]
    fn a_corpus_merge_keeps_the_seeds_and_what_the_fuzzer_selects() {
        use std::sync::atomic::AtomicBool;
        let dir = std::env::temp_dir().join(format!("diopter-cmin-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let args_file = dir.join("args");
        let envs = [
            ("ARGS_FILE", args_file.clone().into_os_string()),
            ("DIOPTER_PLANT", "add-off-by-one".into()),
        ];
        let keep = fake_fuzzer(
            &dir,
            "keep",
            "for f in \"$old\"/keep-*; do cp \"$f\" \"$new\"/; done",
        );
        let fails = fake_fuzzer(&dir, "fails", "exit 3");
        let hangs = fake_fuzzer(&dir, "hangs", "sleep 60");
        let empties = fake_fuzzer(&dir, "empties", "rm -f \"$new\"/*");
        let scratch = dir.join("artifacts/t-cmin");
        let never = AtomicBool::new(false);
        let limit = Duration::from_secs(30);

        let corpus = fresh_corpus(&dir);
        assert_eq!(corpus_size(&corpus), (4, 63));
        let m = merge_corpus(&keep, "t", &corpus, &scratch, &envs, limit, &never);
        assert_eq!(m.error, None);
        assert_eq!((m.files_before, m.bytes_before), (4, 63));
        assert_eq!((m.files_after, m.bytes_after), (Some(2), Some(13)));
        assert_eq!(names(&corpus), ["keep-a", "seed-1"]);
        assert!(!scratch.exists(), "the scratch directory is removed");
        let args = std::fs::read_to_string(&args_file).unwrap();
        assert!(args.starts_with("-merge=1 -timeout=30 "), "{args}");
        assert!(
            args.trim_end().ends_with(&format!(
                "{} {} plant=add-off-by-one",
                scratch.join("merged").display(),
                corpus.display()
            )),
            "{args}"
        );
        assert!(scratch.with_extension("log").is_file(), "the merge's log");

        for (bin, want) in [
            (&fails, "the merge failed (exit status: 3"),
            (&empties, "the merge kept no file of 4"),
            (&dir.join("missing"), "no fuzzer binary"),
        ] {
            let corpus = fresh_corpus(&dir);
            let m = merge_corpus(bin, "t", &corpus, &scratch, &envs, limit, &never);
            let e = m.error.expect("an error");
            assert!(e.starts_with(want), "{e}");
            assert_eq!((m.files_after, m.bytes_after), (None, None));
            assert_eq!(corpus_size(&corpus), (4, 63), "left as it was");
        }

        let corpus = fresh_corpus(&dir);
        let t = Instant::now();
        let m = merge_corpus(
            &hangs,
            "t",
            &corpus,
            &scratch,
            &envs,
            Duration::from_secs(1),
            &never,
        );
        assert!(t.elapsed() < Duration::from_secs(20), "{:?}", t.elapsed());
        let e = m.error.expect("an error");
        assert!(e.starts_with("the merge did not finish within 1 s"), "{e}");
        assert_eq!(corpus_size(&corpus), (4, 63));

        let stop = Arc::new(AtomicBool::new(false));
        let s = stop.clone();
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(300));
            s.store(true, Ordering::SeqCst);
        });
        let m = merge_corpus(&hangs, "t", &corpus, &scratch, &envs, limit, &stop);
        assert_eq!(m.error.as_deref(), Some("interrupted by Ctrl-C"));
        assert_eq!(corpus_size(&corpus), (4, 63));
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// summary.md and stats.json give each corpus's size before and after,
    /// or why it was not minimized, or that the merge was skipped.
    #[test]
    fn the_summary_shows_the_corpus_merges() {
        let dir = std::env::temp_dir().join(format!("diopter-cmin-sum-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let mut st = State {
            targets: vec!["parse_roundtrip".into(), "eval_diff".into()],
            corpus_merge: vec![
                CorpusMerge {
                    target: "parse_roundtrip".into(),
                    files_before: 300,
                    bytes_before: 40_000,
                    files_after: Some(120),
                    bytes_after: Some(2048),
                    seconds: 2.0,
                    error: None,
                },
                CorpusMerge {
                    target: "eval_diff".into(),
                    files_before: 5,
                    bytes_before: 100,
                    error: Some("the merge failed (exit status: 1)".into()),
                    ..CorpusMerge::default()
                },
            ],
            ..State::default()
        };
        assert!(write_outputs(&dir, &st, None, 60.0).is_empty());
        let md = std::fs::read_to_string(dir.join("summary.md")).unwrap();
        assert!(md.contains("## Corpus minimization"), "{md}");
        assert!(
            md.contains("| target | before | after | time | result |"),
            "{md}"
        );
        assert!(
            md.contains(
                "| parse_roundtrip | 300 files, 39.1 KiB | 120 files, 2.0 KiB | 2 s | minimized |"
            ),
            "{md}"
        );
        assert!(
            md.contains("| eval_diff | 5 files, 100 B | — | 0 s | not minimized: the merge failed (exit status: 1) |"),
            "{md}"
        );
        let json: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join("stats.json")).unwrap())
                .unwrap();
        let m = &json["corpus_merge"];
        assert_eq!(m["skipped"], false);
        assert_eq!(m["targets"][0]["files_after"], 120);
        assert_eq!(m["targets"][0]["bytes_before"], 40_000);
        assert!(m["targets"][1]["files_after"].is_null());
        assert_eq!(
            m["targets"][1]["error"],
            "the merge failed (exit status: 1)"
        );
        // Resuming reads what was saved.
        let back: State = serde_json::from_str(&serde_json::to_string(&st).unwrap()).unwrap();
        assert_eq!(back.corpus_merge, st.corpus_merge);

        st.corpus_merge.clear();
        st.corpus_merge_skipped = true;
        assert!(write_outputs(&dir, &st, None, 60.0).is_empty());
        let md = std::fs::read_to_string(dir.join("summary.md")).unwrap();
        assert!(md.contains("Skipped (`--no-cmin`)"), "{md}");
        let json: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join("stats.json")).unwrap())
                .unwrap();
        assert_eq!(json["corpus_merge"]["skipped"], true);
        // Neither: no section (the report written before the merges).
        st.corpus_merge_skipped = false;
        assert!(write_outputs(&dir, &st, None, 60.0).is_empty());
        let md = std::fs::read_to_string(dir.join("summary.md")).unwrap();
        assert!(!md.contains("Corpus minimization"), "{md}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn hours_or_time() {
        use clap::Parser;
        #[derive(clap::Parser)]
        struct Cli {
            #[command(flatten)]
            a: Args,
        }
        let parse = |args: &[&str]| {
            Cli::try_parse_from(std::iter::once("campaign").chain(args.iter().copied()))
                .map(|c| campaign_time(&c.a))
        };
        assert_eq!(
            parse(&["--hours", "8"]).unwrap(),
            Ok(Duration::from_secs(8 * 3600))
        );
        assert_eq!(
            parse(&["--hours", "0.5"]).unwrap(),
            Ok(Duration::from_secs(1800))
        );
        assert_eq!(parse(&[]).unwrap(), Ok(Duration::from_secs(8 * 3600)));
        assert_eq!(
            parse(&["--time", "5m"]).unwrap(),
            Ok(Duration::from_secs(300))
        );
        assert!(parse(&["--hours=-1"]).unwrap().is_err());
        assert!(parse(&["--hours", "NaN"]).unwrap().is_err());
        assert!(
            parse(&["--hours", "1", "--time", "5m"]).is_err(),
            "one or the other"
        );
    }

    #[test]
    fn stamps_look_like_dates() {
        let s = utc_stamp();
        assert_eq!(s.len(), 15);
        assert!(s.starts_with("20"));
        assert_eq!(&s[8..9], "-");
    }
}
