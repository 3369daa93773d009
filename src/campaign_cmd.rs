//! `diopter campaign`: an overnight fuzzing campaign of the cargo-fuzz
//! targets, resumable, with a report under `reports/campaigns/<timestamp>/`.
//! This file reads the arguments, shows the progress and prints the lines;
//! the campaign itself (the fuzzers, the replay and deduplication of their
//! artifacts, the corpus merges, the report and its plots) is
//! `diopter_campaign`.

use crate::report_cmd;
use crate::run_cmd::{clock_seed, parse_duration, stop_flag, utc_stamp};
use diopter_campaign::replay::{self, Bodies};
use diopter_campaign::report::human_bytes;
use diopter_campaign::{Body, Config, CorpusMerge, Observer, Started};
use indicatif::{ProgressBar, ProgressStyle};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

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

/// Fuzz-target bodies that live in this crate, which the campaign's
/// replay cannot reach from below: the `cli` target runs the command line.
const BODIES: [(&str, Body); 1] = [("cli", crate::fuzz_cli::fuzz_one)];

fn fail(msg: String) -> ExitCode {
    eprintln!("diopter campaign: {msg}");
    ExitCode::from(2)
}

/// A target's body run in process on an input, as the campaign replays a
/// crash: its failure's first message line, numbers masked; `None` when it
/// passes. For `examples/target_inputs.rs`, which times slow inputs with it.
pub fn other_target_failure(target: &str, data: &[u8]) -> Option<String> {
    replay::other_target_failure(&bodies(&report_cmd::root()), target, data)
}

/// Every target's body, the checkout's rule library for simplify_diff.
fn bodies(root: &Path) -> Bodies<'_> {
    Bodies {
        root,
        extra: &BODIES,
    }
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

/// The terminal's side of a campaign: its lines and progress bar.
#[derive(Default)]
struct Shown {
    bar: Option<ProgressBar>,
}

impl Observer for Shown {
    fn started(&mut self, s: &Started<'_>) -> Arc<AtomicBool> {
        println!(
            "campaign {} ({}), targets {}, seed {}",
            s.dir.display(),
            if s.resumed { "resumed" } else { "new" },
            s.targets.join(","),
            s.seed
        );
        stop_flag()
    }

    fn nothing_left(&mut self, fuzzed_s: f64) {
        println!("nothing left to run ({fuzzed_s:.0} s already fuzzed)");
    }

    fn fuzzing(&mut self, length_s: u64) {
        let bar = ProgressBar::new(length_s);
        bar.set_style(
            ProgressStyle::with_template("  campaign [{bar:30}] {pos}/{len} s  {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        self.bar = Some(bar);
    }

    fn tick(&mut self, seconds: u64, executions: u64, findings: usize) {
        if let Some(bar) = &self.bar {
            bar.set_position(seconds);
            bar.set_message(format!("{executions} execs, {findings} findings"));
        }
    }

    fn fuzzing_done(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
    }

    fn merging_corpora(&mut self) {
        println!(
            "minimizing the corpora (--no-cmin skips this; a Ctrl-C stops it and leaves them as they are)"
        );
    }

    fn corpus_merged(&mut self, m: &CorpusMerge) {
        let t = &m.target;
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
    }
}

pub fn run(a: &Args) -> ExitCode {
    let time = match campaign_time(a) {
        Ok(t) => t,
        Err(e) => return fail(e),
    };
    let dir = a
        .dir
        .clone()
        .unwrap_or_else(|| PathBuf::from("reports/campaigns").join(utc_stamp()));
    let cfg = Config {
        root: report_cmd::root(),
        dir: dir.clone(),
        time,
        jobs: a.jobs,
        targets: a.targets.clone(),
        seed: a.seed.unwrap_or_else(clock_seed),
        fuzz_target_dir: a.fuzz_target_dir.clone(),
        plant: a.plant.clone(),
        minimize_corpora: !a.no_cmin,
        fuzzer_args: a.fuzzer_args.clone(),
        trace_compares: a.trace_compares,
        extra_bodies: BODIES.to_vec(),
    };
    let outcome = match diopter_campaign::run(&cfg, &mut Shown::default()) {
        Ok(o) => o,
        Err(e) => return fail(e.to_string()),
    };
    for e in &outcome.errors {
        eprintln!("diopter campaign: {e}");
    }
    println!(
        "{}{} findings; report: {}/summary.md",
        if outcome.stopped {
            "stopped (resume with the same --dir); "
        } else {
            ""
        },
        outcome.findings,
        dir.display()
    );
    if outcome.errors.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use diopter_campaign::supervise::build_dir;
    use diopter_harness::minimize::plant::Plant;

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
        let bodies = bodies(&root);
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
                assert!(replay::diff_oracles(t, Plant::AddOffByOne).is_some());
                continue;
            }
            assert_eq!(
                replay::raw_failure(&bodies, t, &seed, Plant::AddOffByOne),
                None,
                "{t}"
            );
            let differential = replay::diff_oracles(t, Plant::AddOffByOne).is_some();
            assert_eq!(differential, t == "eval_diff" || t == "dwarf_diff", "{t}");
        }
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
