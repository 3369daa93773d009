//! `diopter campaign`: an overnight fuzzing campaign. Builds the cargo-fuzz
//! targets, runs each fuzzer binary in libFuzzer's fork mode as a child
//! process (crashes do not stop it), reads their stats lines for the plots,
//! watches the artifacts they write, replays each artifact through the
//! target's body (`gen::targets`, `gen::Case::from_bytes`), deduplicates by
//! signature, minimizes, and keeps everything under
//! `reports/campaigns/<timestamp>/`: `summary.md`, `findings/`,
//! `stats.json`, `state.json` and SVG plots.
//!
//! Every file is written atomically (temporary file, rename) and the state
//! is saved every few seconds and after each finding, so after `kill -9`
//! rerunning with `--dir` of the same directory resumes: artifacts already
//! handled are skipped, the others (written by the fuzzers before the
//! kill) are handled, and the remaining time is what was left.

use crate::report_cmd;
use crate::run_cmd::{clock_seed, parse_duration};
use diopter_oracles::campaign::{self as camp, write_atomic, Finding};
use diopter_oracles::diff::{self, Fast, Oracle, Reference};
use diopter_oracles::gen::{targets, Case, GenConfig};
use diopter_oracles::minimize::plant::{Plant, Planted};
use diopter_oracles::minimize::{self, Signature};
use indicatif::{ProgressBar, ProgressStyle};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::io::{BufRead, BufReader};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitCode, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

pub const CAMPAIGN_HELP: &str = "\
WHAT IT DOES
  cargo fuzz build -s none TARGET... (the fuzz/ workspace), then runs each
  target's fuzzer binary with -fork=N -ignore_crashes=1 (crashes become
  artifacts, the run goes on), seeded from fuzz/corpus/TARGET. Every new
  artifact is replayed through the target's body; eval_diff inputs are
  minimized (diopter minimize) and deduplicated by signature (oracle, first
  failing operation, classes of difference); other targets' failures by
  their first message line. An artifact that does not reproduce is kept
  too, marked so. Nothing is ever lost: files are written atomically.

OUTPUT (--dir, default reports/campaigns/<UTC timestamp>)
  summary.md  findings with replay commands, verdict of each target, plots
  findings/   per finding: the artifact, the case file, the minimized case file
  stats.json  executions, coverage and findings over time, RSS at start and end
  state.json  what resuming needs (rerun with the same --dir after a kill)
  execs.svg, coverage.svg, findings.svg

EXAMPLES
  diopter campaign --time 8h --jobs 2
  diopter campaign --time 5m --targets eval_diff,check_eval
  diopter campaign --dir reports/campaigns/20261122-0100 --time 8h   (resume)";

#[derive(clap::Args, Clone)]
pub struct Args {
    /// How long: `300`, `5m`, `8h`.
    #[arg(long, value_name = "DURATION", default_value = "8h")]
    pub time: String,
    /// Fuzzing processes in all (split over the targets).
    #[arg(long, value_name = "N", default_value_t = 2)]
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
}

/// What resuming needs.
#[derive(Serialize, Deserialize, Default)]
struct State {
    seed: u64,
    targets: Vec<String>,
    /// Seconds fuzzed before this process.
    elapsed: f64,
    /// Artifacts handled, by target/file name.
    handled: BTreeSet<String>,
    findings: Vec<FindingRec>,
    /// (seconds, target, executions, coverage)
    samples: Vec<(f64, String, u64, u64)>,
    /// (seconds, findings)
    finding_times: Vec<(f64, usize)>,
    rss_start_kib: Option<u64>,
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

/// UTC `YYYYMMDD-HHMMSS` (no date crate needed: the civil-from-days
/// algorithm of H. Hinnant).
pub fn utc_stamp() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs()) as i64;
    let (days, rem) = (secs.div_euclid(86400), secs.rem_euclid(86400));
    let z = days + 719468;
    let era = z.div_euclid(146097);
    let doe = z - era * 146097;
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}{m:02}{d:02}-{:02}{:02}{:02}",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
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

/// Replays one artifact; `Ok(None)`: it does not fail (not reproduced).
fn replay(
    target: &str,
    data: &[u8],
    plant: Plant,
    findings_dir: &Path,
    at: f64,
) -> Option<(String, Option<Finding>)> {
    match target {
        "eval_diff" | "eval_diff_planted" => {
            let case = Case::from_bytes(data, &GenConfig::default());
            let fast = Fast::default();
            let planted = Planted::new(Box::new(Fast::default()), plant);
            let other: &dyn Oracle = if target == "eval_diff" {
                &fast
            } else {
                &planted
            };
            let oracles: [&dyn Oracle; 2] = [&Reference, other];
            let mut fs: Vec<Finding> = Vec::new();
            let mut errs = Vec::new();
            camp::record(
                &case,
                &oracles,
                &mut fs,
                findings_dir,
                Duration::from_secs(30),
                at,
                &mut errs,
            );
            let f = fs.pop()?;
            Some((f.signature.to_string(), Some(f)))
        }
        _ => {
            let r = std::panic::catch_unwind(|| match target {
                "check_eval" => targets::check_eval(data),
                "parse_roundtrip" => targets::parse_roundtrip(data),
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
            // The first line, without numbers that vary from case to case.
            let sig: String = first
                .chars()
                .map(|c| if c.is_ascii_digit() { '#' } else { c })
                .take(120)
                .collect();
            Some((format!("{target}: {sig}"), None))
        }
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

fn save_state(dir: &Path, st: &State) {
    if let Ok(t) = serde_json::to_string_pretty(st) {
        let _ = write_atomic(&dir.join("state.json"), &t);
    }
}

/// Writes summary.md, stats.json and the plots.
fn write_outputs(dir: &Path, st: &State, rss_end: Option<u64>, time: f64) -> Vec<String> {
    let mut errors = Vec::new();
    type Points = Vec<(f64, f64)>;
    let mut by_target: BTreeMap<&str, (Points, Points)> = BTreeMap::new();
    for (t, target, ex, cov) in &st.samples {
        let e = by_target.entry(target).or_default();
        e.0.push((*t, *ex as f64));
        e.1.push((*t, *cov as f64));
    }
    let execs: Vec<(String, Vec<(f64, f64)>)> = by_target
        .iter()
        .map(|(k, v)| (k.to_string(), v.0.clone()))
        .collect();
    let covs: Vec<(String, Vec<(f64, f64)>)> = by_target
        .iter()
        .map(|(k, v)| (k.to_string(), v.1.clone()))
        .collect();
    let mut fpts: Vec<(f64, f64)> = vec![(0.0, 0.0)];
    fpts.extend(st.finding_times.iter().map(|(t, n)| (*t, *n as f64)));
    fpts.push((st.elapsed, st.findings.len() as f64));
    for (file, title, y, s) in [
        ("execs.svg", "Executions over time", "executions", execs),
        (
            "coverage.svg",
            "Coverage over time",
            "coverage (edges)",
            covs,
        ),
        (
            "findings.svg",
            "Findings over time",
            "distinct findings",
            vec![("findings".to_string(), fpts)],
        ),
    ] {
        if let Err(e) = plot(&dir.join(file), title, y, &s) {
            errors.push(format!("{file}: {e}"));
        }
    }
    let last: BTreeMap<&str, (u64, u64)> = st
        .samples
        .iter()
        .map(|(_, t, e, c)| (t.as_str(), (*e, *c)))
        .collect();
    let stats = serde_json::json!({
        "seed": st.seed,
        "targets": st.targets,
        "time_limit_s": time,
        "elapsed_s": st.elapsed,
        "rss_start_kib": st.rss_start_kib,
        "rss_end_kib": rss_end,
        "final": last.iter().map(|(t, (e, c))| serde_json::json!({"target": t, "executions": e, "coverage": c})).collect::<Vec<_>>(),
        "findings": st.findings.iter().map(|f| serde_json::json!({
            "target": f.target, "signature": f.signature, "hits": f.hits, "first_seen_s": f.first_seen_s,
            "artifact": f.artifact, "case": f.case, "minimized": f.minimized, "expression": f.expression,
            "ops": f.ops, "min_ops": f.min_ops, "replay": f.replay, "reproduced": f.reproduced,
        })).collect::<Vec<_>>(),
        "samples": st.samples,
    });
    if let Err(e) = write_atomic(
        &dir.join("stats.json"),
        &serde_json::to_string_pretty(&stats).unwrap_or_default(),
    ) {
        errors.push(format!("stats.json: {e}"));
    }
    let mut md = format!(
        "# Campaign {}\n\nGenerated by `diopter campaign`; do not edit. Targets: {}; libFuzzer seed {}; \
         {:.0} s fuzzed of {:.0} s asked.\n\n",
        dir.file_name().map_or(String::new(), |n| n.to_string_lossy().to_string()),
        st.targets.join(", "),
        st.seed,
        st.elapsed,
        time
    );
    if let (Some(a), Some(b)) = (st.rss_start_kib, rss_end) {
        md.push_str(&format!(
            "Resident memory of the driver (replaying and minimizing in process): {a} KiB at the start, {b} KiB at the end.\n\n"
        ));
    }
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
    md.push_str(
        "\n![executions](execs.svg)\n\n![coverage](coverage.svg)\n\n![findings](findings.svg)\n",
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

pub fn run(a: &Args) -> ExitCode {
    let time = match parse_duration(&a.time) {
        Ok(t) => t,
        Err(e) => return fail(format!("--time {e}")),
    };
    let Some(plant) = Plant::from_name(&a.plant) else {
        return fail(format!("unknown plant `{}`", a.plant));
    };
    let root = report_cmd::root();
    let dir = a
        .dir
        .clone()
        .unwrap_or_else(|| PathBuf::from("reports/campaigns").join(utc_stamp()));
    let findings_dir = dir.join("findings");
    let mut st: State = std::fs::read_to_string(dir.join("state.json"))
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or_default();
    let resumed = !st.targets.is_empty();
    if !resumed {
        st.seed = a.seed.unwrap_or_else(clock_seed) % (u32::MAX as u64);
        st.targets = a.targets.clone();
        st.rss_start_kib = camp::rss_kib();
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
    // Build.
    let fuzz_dir = root.join("fuzz");
    let target_dir = if a.fuzz_target_dir.is_absolute() {
        a.fuzz_target_dir.clone()
    } else {
        root.join(&a.fuzz_target_dir)
    };
    for t in &st.targets {
        let status = Command::new("cargo")
            .args(["fuzz", "build", "-s", "none", t, "--target-dir"])
            .arg(&target_dir)
            .current_dir(&fuzz_dir)
            .status();
        if !status.is_ok_and(|s| s.success()) {
            return fail(format!(
                "`cargo fuzz build -s none {t}` failed (is cargo-fuzz installed? `cargo install cargo-fuzz`)"
            ));
        }
    }
    let remaining = time.as_secs_f64() - st.elapsed;
    if remaining <= 0.0 {
        println!("nothing left to run ({:.0} s already fuzzed)", st.elapsed);
    }
    // Start the fuzzers, each in its own process group (so that stopping
    // one stops its fork-mode workers too).
    let per = (a.jobs / st.targets.len().max(1)).max(1);
    let (tx, rx) = mpsc::channel::<(String, u64, u64)>();
    let mut children: Vec<(String, Child)> = Vec::new();
    for t in st.targets.clone() {
        if remaining <= 0.0 {
            break;
        }
        let bin = target_dir.join("x86_64-unknown-linux-gnu/release").join(&t);
        let art = dir.join("artifacts").join(&t);
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
            .arg(format!("-seed={}", st.seed))
            .arg(format!("-artifact_prefix={}/", art.display()))
            .env("DIOPTER_PLANT", &a.plant)
            .env(
                "DIOPTER_CASE_DIR",
                dir.join("artifacts").join(format!("{t}-cases")),
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
                    let tx = tx.clone();
                    let name = t.clone();
                    std::thread::spawn(move || {
                        for line in BufReader::new(err).lines().map_while(Result::ok) {
                            if let Some((n, cov)) = parse_stats_line(&line) {
                                let _ = tx.send((name.clone(), n, cov));
                            }
                        }
                    });
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
    let mut latest: BTreeMap<String, (u64, u64)> = BTreeMap::new();
    let mut sig_index: BTreeMap<String, usize> = st
        .findings
        .iter()
        .enumerate()
        .map(|(i, f)| (f.signature.clone(), i))
        .collect();
    loop {
        let now = base + start.elapsed().as_secs_f64();
        st.elapsed = now;
        while let Ok((t, n, cov)) = rx.try_recv() {
            latest.insert(t, (n, cov));
        }
        for (t, (n, cov)) in &latest {
            st.samples.push((now, t.clone(), *n, *cov));
        }
        // New artifacts (crash-*, and anything else libFuzzer keeps).
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
                let key = format!("{t}/{n}");
                if st.handled.contains(&key) {
                    continue;
                }
                let Ok(data) = std::fs::read(art.join(&n)) else {
                    continue;
                };
                let res = minimize::quiet_panics(|| replay(&t, &data, plant, &findings_dir, now));
                let (sig, f, reproduced) = match res {
                    Some((s, f)) => (s, f, true),
                    None => (format!("{t}: not reproduced ({n})"), None, false),
                };
                if let Some(&i) = sig_index.get(&sig) {
                    st.findings[i].hits += 1;
                } else {
                    // Keep the artifact itself beside the case files.
                    let id = camp::signature_id(&Signature {
                        oracle: t.clone(),
                        first_op: sig.clone(),
                        classes: vec![],
                    });
                    let kept = findings_dir.join(format!("{id}.{t}.input"));
                    let _ = std::fs::write(&kept, &data);
                    let replay_cmd = match &f {
                        Some(f) if t == "eval_diff" => diff::repro_command(&f.min_path),
                        Some(f) => format!(
                            "cargo run --release -- minimize {} --oracle fast --plant {}",
                            f.min_path.display(),
                            a.plant
                        ),
                        None => format!("cargo fuzz run {t} -s none {}", kept.display()),
                    };
                    sig_index.insert(sig.clone(), st.findings.len());
                    st.findings.push(FindingRec {
                        target: t.clone(),
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
                }
                st.handled.insert(key);
                save_state(&dir, &st);
            }
        }
        bar.set_position(now as u64);
        let execs: u64 = latest.values().map(|v| v.0).sum();
        bar.set_message(format!("{execs} execs, {} findings", st.findings.len()));
        if last_save.elapsed() >= Duration::from_secs(5) {
            save_state(&dir, &st);
            last_save = Instant::now();
        }
        let all_done = children
            .iter_mut()
            .all(|(_, c)| c.try_wait().ok().flatten().is_some());
        if all_done || now >= time.as_secs_f64() + 30.0 {
            break;
        }
        std::thread::sleep(Duration::from_secs(1));
    }
    // Past the deadline (or done): stop what still runs, by process group.
    for (_, c) in &mut children {
        if c.try_wait().ok().flatten().is_none() {
            let _ = Command::new("kill")
                .args(["-TERM", &format!("-{}", c.id())])
                .status();
            let _ = c.wait();
        }
    }
    bar.finish_and_clear();
    st.elapsed = st.elapsed.min(time.as_secs_f64());
    save_state(&dir, &st);
    let errors = write_outputs(&dir, &st, camp::rss_kib(), time.as_secs_f64());
    for e in &errors {
        eprintln!("diopter campaign: {e}");
    }
    println!(
        "{} findings; report: {}/summary.md",
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
    fn stamps_look_like_dates() {
        let s = utc_stamp();
        assert_eq!(s.len(), 15);
        assert!(s.starts_with("20"));
        assert_eq!(&s[8..9], "-");
    }
}
