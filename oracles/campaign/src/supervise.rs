//! The fuzzers as child processes: where each target is built and found,
//! its build, each fuzzer binary run in libFuzzer's fork mode in a process
//! group of its own, its stats lines read as it goes, and the group
//! stopped at the end.

use crate::error::Error;
use crate::Config;
use diopter_harness::campaign as camp;
use std::collections::BTreeMap;
use std::ffi::OsString;
use std::io::{BufRead, BufReader, Write};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The targets built without comparison tracing unless `--trace-compares`
/// (see there): the planted-fault benchmark finds the same faults, in as
/// many runs or more and with a lower median time, in these builds (`diopter bugbench --searches fuzz:T,fuzz-trace-cmp:T`,
/// reports/bugbench.md), besides their twice the executions per second.
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
pub const INPUT_TIMEOUT_S: u64 = 30;
/// The fuzzers' memory limit per worker: an input past it is an `oom-`
/// artifact, a finding.
pub const FUZZER_RSS_LIMIT_MB: u64 = 2048;
/// The most bytes of one fuzzer's output kept in its log file; past it the
/// rest is read (the pipe must not fill) and dropped.
const LOG_LIMIT_BYTES: u64 = 16 << 20;
/// How long a fuzzer gets to stop after SIGTERM before SIGKILL.
const TERM_GRACE: Duration = Duration::from_secs(5);

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

/// The fuzzer binary `cargo fuzz build -s none TARGET` makes.
fn fuzzer_bin(target_dir: &Path, target: &str) -> PathBuf {
    target_dir
        .join("x86_64-unknown-linux-gnu/release")
        .join(target)
}

/// Where the fuzzers are built, keep their corpora and write. Absolute
/// paths: `cargo fuzz build` runs in fuzz/, where a relative --target-dir
/// would name another directory than the one the fuzzer binaries are then
/// started from.
pub struct Places {
    pub root: PathBuf,
    pub fuzz_dir: PathBuf,
    pub target_dir: PathBuf,
    /// The campaign directory, absolute, for the fuzzers (the report keeps
    /// it as given, so that its replay commands work from a clone).
    pub abs_dir: PathBuf,
    /// `--trace-compares`: every target in `target_dir`.
    pub trace_all: bool,
}

impl Places {
    pub fn new(cfg: &Config) -> Places {
        let root = std::path::absolute(&cfg.root).unwrap_or_else(|_| cfg.root.clone());
        let target_dir = if cfg.fuzz_target_dir.is_absolute() {
            cfg.fuzz_target_dir.clone()
        } else {
            root.join(&cfg.fuzz_target_dir)
        };
        Places {
            fuzz_dir: root.join("fuzz"),
            target_dir,
            abs_dir: std::path::absolute(&cfg.dir).unwrap_or_else(|_| cfg.dir.clone()),
            trace_all: cfg.trace_compares,
            root,
        }
    }

    /// A target's fuzzer binary.
    pub fn bin(&self, target: &str) -> PathBuf {
        fuzzer_bin(&build_dir(&self.target_dir, target, self.trace_all), target)
    }

    /// A target's working corpus: cargo-fuzz's (fuzz/corpus/TARGET, which
    /// .gitignore keeps out of the repository but for the seeds), not the
    /// report's: it grows to thousands of files.
    pub fn corpus(&self, target: &str) -> PathBuf {
        self.fuzz_dir.join("corpus").join(target)
    }

    /// The environment a target's fuzzer binary reads: the plant, and
    /// where its body writes case files.
    pub fn envs(&self, target: &str, plant: &str) -> [(&'static str, OsString); 2] {
        [
            ("DIOPTER_PLANT", plant.into()),
            (
                "DIOPTER_CASE_DIR",
                self.abs_dir
                    .join("artifacts")
                    .join(format!("{target}-cases"))
                    .into(),
            ),
        ]
    }
}

/// `cargo fuzz build -s none` of each target; cargo writes to the
/// terminal this process has.
pub fn build(places: &Places, targets: &[String]) -> Result<(), Error> {
    for t in targets {
        let dir = build_dir(&places.target_dir, t, places.trace_all);
        let mut cmd = Command::new("cargo");
        cmd.args(["fuzz", "build", "-s", "none", t, "--target-dir"])
            .arg(&dir)
            .current_dir(&places.fuzz_dir);
        if dir != places.target_dir {
            cmd.arg("--no-trace-compares");
        }
        if !cmd.status().is_ok_and(|s| s.success()) {
            return Err(Error::Build { target: t.clone() });
        }
    }
    Ok(())
}

/// The running fuzzers.
pub struct Fuzzers {
    children: Vec<(String, Child)>,
    /// Per target: (executions, coverage), the latest libFuzzer reported.
    latest: Arc<Mutex<BTreeMap<String, (u64, u64)>>>,
}

impl Fuzzers {
    /// Starts each target's fuzzer for `remaining` seconds (none when
    /// none remain), each in its own process group: so that stopping one
    /// stops its fork-mode workers too, and a Ctrl-C at the terminal
    /// reaches the driver only, which then stops them.
    pub fn start(
        places: &Places,
        cfg: &Config,
        targets: &[String],
        seed: u64,
        remaining: f64,
    ) -> Result<Fuzzers, Error> {
        let n_targets = targets.len().max(1);
        let latest: Arc<Mutex<BTreeMap<String, (u64, u64)>>> = Arc::default();
        let mut children: Vec<(String, Child)> = Vec::new();
        for (i, t) in targets.iter().enumerate() {
            if remaining <= 0.0 {
                break;
            }
            // The jobs split over the targets, the first ones taking the rest.
            let per = cfg.jobs / n_targets + usize::from(i < cfg.jobs % n_targets);
            let bin = places.bin(t);
            let art = places.abs_dir.join("artifacts").join(t);
            let work = places.corpus(t);
            let _ = std::fs::create_dir_all(&art);
            let _ = std::fs::create_dir_all(&work);
            let mut cmd = Command::new(&bin);
            cmd.arg(&work);
            // The planted target also reads eval_diff's corpus (its inputs
            // are read alike).
            let seeds = places.corpus("eval_diff");
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
                .arg(format!("-seed={seed}"))
                .arg(format!("-artifact_prefix={}/", art.display()))
                .args(&cfg.fuzzer_args)
                .envs(places.envs(t, &cfg.plant))
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .process_group(0);
            if t != "eval_diff" && t != "eval_diff_planted" {
                cmd.arg(format!(
                    "-dict={}",
                    places.fuzz_dir.join("dict/diop.dict").display()
                ));
            }
            match cmd.spawn() {
                Ok(mut c) => {
                    if let Some(err) = c.stderr.take() {
                        let log = std::fs::OpenOptions::new()
                            .create(true)
                            .append(true)
                            .open(places.abs_dir.join("artifacts").join(format!("{t}.log")))
                            .ok();
                        let latest = latest.clone();
                        let name = t.clone();
                        std::thread::spawn(move || drain(err, name, log, latest));
                    }
                    children.push((t.clone(), c));
                }
                Err(e) => return Err(Error::Start { bin, source: e }),
            }
        }
        Ok(Fuzzers { children, latest })
    }

    /// Per target: (executions, coverage), the latest its fuzzer reported.
    pub fn latest(&self) -> BTreeMap<String, (u64, u64)> {
        self.latest.lock().map(|l| l.clone()).unwrap_or_default()
    }

    /// The executions of all the fuzzers, as last reported.
    pub fn executions(&self) -> u64 {
        self.latest
            .lock()
            .map(|l| l.values().map(|v| v.0).sum())
            .unwrap_or(0)
    }

    /// The summed RSS (KiB) of the fuzzers still running, `None` where
    /// /proc does not tell.
    pub fn rss_kib(&self) -> Option<u64> {
        self.children
            .iter()
            .filter_map(|(_, c)| camp::group_rss_kib(c.id()))
            .fold(None, |acc, k| Some(acc.unwrap_or(0) + k))
    }

    /// Whether every fuzzer has exited.
    pub fn all_done(&mut self) -> bool {
        self.children
            .iter_mut()
            .all(|(_, c)| c.try_wait().ok().flatten().is_some())
    }

    /// Stops what still runs, by process group (the fork-mode workers too).
    pub fn stop(&mut self) {
        for (_, c) in &mut self.children {
            stop_group(c);
        }
    }
}

/// Stops a child and its process group (a fuzzer and its fork-mode
/// workers, a merge and its passes): SIGTERM, then SIGKILL if it is still
/// there after `TERM_GRACE` (a fork-mode parent goes on starting jobs
/// after SIGTERM).
pub fn stop_group(c: &mut Child) {
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
}
