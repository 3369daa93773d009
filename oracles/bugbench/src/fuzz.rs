//! The cargo-fuzz search: each fuzz target of `fuzz/`, built with the
//! planted faults the way `diopter campaign` builds it (`cargo fuzz build
//! -s none`: debug assertions, comparison tracing off for the
//! generator-driven targets) and run with the campaign's libFuzzer flags
//! (`-timeout`, `-rss_limit_mb`, the dictionary for the targets that read
//! text, the committed seed corpus), one fuzzer process per run, stopped by
//! its first crash, timeout or out-of-memory input, or by its limit.
//!
//! A fuzzer's run is deterministic for a given `-seed` until the fault's
//! site is first executed (the site returns `false` until then, as in a
//! run with no fault), so the control run of a target and seed tells
//! which sites that run passes: a (fault, target, seed) whose control
//! never passed the fault's site within the same limit is recorded as
//! skipped, not run (it would replay the control and find nothing, up to
//! the executions a less loaded machine fits into the same seconds).

use crate::error::Error;
use crate::process::{failed_run, faults_env, run_limited};
use crate::RunResult;
pub use diopter_campaign::supervise::NO_TRACE_COMPARES;
use diopter_campaign::supervise::{build_dir, FUZZER_RSS_LIMIT_MB, INPUT_TIMEOUT_S};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// The fuzz targets searched (every target of `fuzz/fuzz_targets/` but
/// `eval_diff_planted`, a test aid with a bug of its own).
pub const TARGETS: [&str; 10] = [
    "eval_diff",
    "dwarf_diff",
    "simplify_diff",
    "validate_diff",
    "check_eval",
    "parse_roundtrip",
    "classic_roundtrip",
    "lifetimes_diff",
    "transform_diff",
    "cli",
];

/// The prefix of a search that runs one fuzz target with the campaign's
/// settings: `fuzz:eval_diff`.
pub const SEARCH_PREFIX: &str = "fuzz:";
/// The prefix of a search that runs one fuzz target built with comparison
/// tracing whatever the campaign does (`fuzz-trace-cmp:eval_diff`): the
/// other side of the question which build finds bugs faster.
pub const TRACE_CMP_PREFIX: &str = "fuzz-trace-cmp:";

/// How a fuzz target is built for a search.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Build {
    /// As `diopter campaign` builds it: without comparison tracing for the
    /// targets of [`NO_TRACE_COMPARES`], with it for the others.
    Campaign,
    /// With comparison tracing (cargo fuzz's default) for every target.
    TraceCmp,
}

impl Build {
    /// The search that runs `target` built this way.
    pub fn search(self, target: &str) -> String {
        match self {
            Build::Campaign => format!("{SEARCH_PREFIX}{target}"),
            Build::TraceCmp => format!("{TRACE_CMP_PREFIX}{target}"),
        }
    }

    /// Whether `target` built this way has comparison tracing.
    pub fn traces(self, target: &str) -> bool {
        self == Build::TraceCmp || !NO_TRACE_COMPARES.contains(&target)
    }
}

/// The fuzz target a search names and how it is built, if it names one.
pub fn build_of(search: &str) -> Option<(&str, Build)> {
    let (t, b) = match search.strip_prefix(SEARCH_PREFIX) {
        Some(t) => (t, Build::Campaign),
        None => (search.strip_prefix(TRACE_CMP_PREFIX)?, Build::TraceCmp),
    };
    TARGETS.contains(&t).then_some((t, b))
}

/// The fuzz target a search names, if it names one.
pub fn target_of(search: &str) -> Option<&str> {
    build_of(search).map(|(t, _)| t)
}

/// The fuzzer binaries built with the faults, and the seed corpora.
pub struct Fuzzers {
    /// (target name, build) → fuzzer binary.
    pub bins: BTreeMap<(String, Build), PathBuf>,
    /// Target name → a copy of its committed seed corpus.
    pub seeds: BTreeMap<String, PathBuf>,
    /// libFuzzer's dictionary for the text-reading targets.
    pub dict: PathBuf,
}

/// Builds `targets` (each with its [`Build`]) with the faults under
/// `ROOT/target/bugbench-fuzz` (and `-notrace` beside it for the builds
/// without comparison tracing, as the campaign splits them), and copies
/// each target's committed seeds (`git ls-files fuzz/corpus/TARGET`: the
/// working corpus there also holds what earlier local campaigns added,
/// which a fresh clone does not have) under `work/seeds/`.
pub fn build(
    root: &Path,
    targets: &[(&str, Build)],
    work: &Path,
    log: &mut dyn FnMut(&str),
) -> Result<Fuzzers, Error> {
    let base = root.join("target").join("bugbench-fuzz");
    let mut fz = Fuzzers {
        bins: BTreeMap::new(),
        seeds: BTreeMap::new(),
        dict: root.join("fuzz/dict/diop.dict"),
    };
    for &(t, how) in targets {
        let traces = how.traces(t);
        let dir = build_dir(&base, t, traces);
        log(&format!(
            "building fuzz target {t} with the planted faults ({})",
            dir.display()
        ));
        let mut cmd = Command::new("cargo");
        cmd.args(["fuzz", "build", "-s", "none", t, "--target-dir"])
            .arg(&dir)
            .current_dir(root.join("fuzz"));
        if !traces {
            cmd.arg("--no-trace-compares");
        }
        // cargo-fuzz adds its own flags to these.
        faults_env(&mut cmd);
        let st = cmd.status().map_err(Error::CargoFuzz)?;
        if !st.success() {
            return Err(Error::FuzzTargetFailed(t.to_string()));
        }
        let bin = dir.join("x86_64-unknown-linux-gnu/release").join(t);
        if !bin.is_file() {
            return Err(Error::NoFuzzer(bin));
        }
        fz.bins.insert((t.to_string(), how), bin);
        fz.seeds
            .insert(t.to_string(), copy_seeds(root, t, &work.join("seeds"))?);
    }
    Ok(fz)
}

/// The committed seeds of `target` copied to `dest/TARGET`.
fn copy_seeds(root: &Path, target: &str, dest: &Path) -> Result<PathBuf, Error> {
    let rel = format!("fuzz/corpus/{target}");
    let out = Command::new("git")
        .current_dir(root)
        .args(["ls-files", "-z", "--", &rel])
        .output();
    let to = dest.join(target);
    let _ = std::fs::remove_dir_all(&to);
    if let Err(source) = std::fs::create_dir_all(&to) {
        return Err(Error::Io { path: to, source });
    }
    let files: Vec<PathBuf> = match out {
        Ok(o) if o.status.success() => o
            .stdout
            .split(|&b| b == 0)
            .filter(|p| !p.is_empty())
            .map(|p| root.join(String::from_utf8_lossy(p).as_ref()))
            .collect(),
        // Not a git checkout: whatever the directory holds.
        _ => std::fs::read_dir(root.join(&rel))
            .map(|d| d.flatten().map(|e| e.path()).collect())
            .unwrap_or_default(),
    };
    for f in files {
        if let Some(name) = f.file_name() {
            let _ = std::fs::copy(&f, to.join(name));
        }
    }
    Ok(to)
}

/// What a fuzzer's stderr says of its end: (kind of finding, first line of
/// the panic message or libFuzzer's error), or `None` when it ended without
/// one.
pub fn parse_finding(stderr: &str) -> Option<(String, String)> {
    let kind = stderr.lines().find_map(|l| {
        let rest = l.split("ERROR: libFuzzer: ").nth(1)?;
        Some(match rest.split_whitespace().next()? {
            "deadly" => "crash",
            "timeout" => "timeout",
            "out-of-memory" => "oom",
            other => other,
        })
    })?;
    // A Rust panic prints its message on the line after `panicked at`.
    let mut lines = stderr.lines();
    let mut what = String::new();
    while let Some(l) = lines.next() {
        if l.contains("panicked at") {
            what = lines.next().unwrap_or("").trim().to_string();
            break;
        }
    }
    if what.is_empty() {
        what = stderr
            .lines()
            .find(|l| l.contains("ERROR: libFuzzer"))
            .unwrap_or("")
            .trim()
            .to_string();
    }
    Some((kind.to_string(), what))
}

/// Executions a fuzzer reports: its final stats line
/// (`stat::number_of_executed_units: N`), else its last `#N` status line.
pub fn parse_execs(stderr: &str) -> Option<u64> {
    let stat = stderr.lines().find_map(|l| {
        l.strip_prefix("stat::number_of_executed_units:")?
            .trim()
            .parse()
            .ok()
    });
    stat.or_else(|| {
        stderr.lines().rev().find_map(|l| {
            let rest = l.strip_prefix('#')?;
            rest.split(|c: char| !c.is_ascii_digit())
                .next()?
                .parse()
                .ok()
        })
    })
}

/// One run of `target`'s fuzzer, built as `how` says, with `fault` active
/// (`None`: the control) and `-seed=seed`, for at most `limit`, in a
/// directory under `work`. A control's `sites` are every fault site it
/// passed.
pub fn run(
    work: &Path,
    limit: Duration,
    fz: &Fuzzers,
    diopter: &Path,
    (target, how): (&str, Build),
    fault: Option<&str>,
    seed: u64,
) -> RunResult {
    let name = fault.unwrap_or("none");
    let search = how.search(target);
    let (Some(bin), Some(seeds)) = (
        fz.bins.get(&(target.to_string(), how)),
        fz.seeds.get(target),
    ) else {
        return failed_run(
            name,
            &search,
            seed,
            limit.as_secs_f64(),
            format!("fuzz target {target} was not built"),
        );
    };
    let dir = crate::worker::run_dir(work, name, &search.replace(':', "-"), seed);
    let _ = std::fs::remove_dir_all(&dir);
    let (corpus, artifacts, cases) = (dir.join("corpus"), dir.join("artifacts"), dir.join("cases"));
    for d in [&corpus, &artifacts, &cases] {
        let _ = std::fs::create_dir_all(d);
    }
    let reached_file = dir.join("reached");
    let mut cmd = Command::new(bin);
    cmd.arg(&corpus)
        .arg(seeds)
        .arg(format!("-max_total_time={}", limit.as_secs().max(1)))
        .arg(format!("-timeout={INPUT_TIMEOUT_S}"))
        .arg(format!("-rss_limit_mb={FUZZER_RSS_LIMIT_MB}"))
        .arg(format!("-seed={seed}"))
        .arg(format!("-artifact_prefix={}/", artifacts.display()))
        .arg("-print_final_stats=1")
        .current_dir(&dir)
        .env("DIOPTER_FAULT", fault.unwrap_or(""))
        .env("DIOPTER_FAULT_REACHED", &reached_file)
        .env("DIOPTER_CASE_DIR", &cases);
    if !NO_TRACE_COMPARES.contains(&target) {
        cmd.arg(format!("-dict={}", fz.dict.display()));
    }
    let start = Instant::now();
    // libFuzzer stops itself at -max_total_time; an input hung past
    // -timeout is a finding, so a run ends by then plus a little.
    let (_, err, _, killed) = run_limited(cmd, limit + Duration::from_secs(INPUT_TIMEOUT_S + 30));
    let elapsed = start.elapsed().as_secs_f64();
    let _ = std::fs::write(dir.join("fuzzer.log"), &err);
    let mut r = failed_run(name, &search, seed, limit.as_secs_f64(), String::new());
    r.error = None;
    r.elapsed = elapsed;
    r.cases = parse_execs(&err);
    let sites: Vec<String> = std::fs::read_to_string(&reached_file)
        .map(|t| t.lines().map(str::to_string).collect())
        .unwrap_or_default();
    if let Some(f) = fault {
        r.reached = Some(sites.iter().any(|s| s == f));
    }
    r.sites = sites;
    if killed {
        r.error = Some("the fuzzer did not stop within its limit plus the input timeout".into());
        return r;
    }
    if let Some((kind, what)) = parse_finding(&err) {
        r.found = true;
        r.seconds = Some(elapsed);
        r.caught_by = Some(format!("{target} ({kind})"));
        r.what = Some(what);
        r.minimized = minimize_case(diopter, &cases, fault);
    } else if !err.contains("Done ") {
        // Neither a finding nor libFuzzer's normal end (`Done N runs in
        // T second(s)`): the fuzzer could not run (a full disk made 23 runs
        // end at once without a word), which is not a miss.
        r.error = Some(format!(
            "the fuzzer ended without a finding and without its normal end: {}",
            err.lines().last().unwrap_or("no output")
        ));
    } else {
        r.cases = r.cases.or(Some(0));
    }
    r
}

/// The minimizer on the case file a target wrote for its finding (the
/// differential targets write one), with the fault active: operations
/// before and after, `None` where there is no case file or the minimizer
/// could not shrink a failing case.
fn minimize_case(diopter: &Path, cases: &Path, fault: Option<&str>) -> Option<(usize, usize)> {
    let case = std::fs::read_dir(cases)
        .ok()?
        .flatten()
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|x| x == "case"))?;
    let ops = |p: &Path| {
        let text = std::fs::read_to_string(p).ok()?;
        diopter_diff::read_case_file(&text)
            .ok()
            .map(|c| c.bare.expr.ops.len())
    };
    let before = ops(&case)?;
    let min = case.with_extension("min.case");
    let mut cmd = Command::new(diopter);
    cmd.arg("minimize")
        .arg(&case)
        .args(["--time-limit", "20", "-o"])
        .arg(&min)
        .env("DIOPTER_FAULT", fault.unwrap_or(""));
    let (_, _, ok, _) = run_limited(cmd, Duration::from_secs(60));
    if !ok {
        return None;
    }
    Some((before, ops(&min)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn libfuzzer_output_is_read() {
        let crash = "#2\tINITED cov: 10 ft: 11 corp: 1/1b exec/s: 0 rss: 30Mb\n\
                     #1024\tpulse  cov: 12 ft: 13 corp: 2/3b lim: 4 exec/s: 512 rss: 31Mb\n\
                     \n\
                     thread '<unnamed>' panicked at oracles/harness/src/fuzz.rs:50:9:\n\
                     the fast evaluator disagrees with the reference: value\n\
                     ==123== ERROR: libFuzzer: deadly signal\n\
                     stat::number_of_executed_units: 1500\n";
        assert_eq!(
            parse_finding(crash),
            Some((
                "crash".into(),
                "the fast evaluator disagrees with the reference: value".into()
            ))
        );
        assert_eq!(parse_execs(crash), Some(1500));
        let timeout = "#5\tNEW cov: 1\n==9== ERROR: libFuzzer: timeout after 30 seconds\n";
        assert_eq!(
            parse_finding(timeout).map(|f| f.0),
            Some("timeout".to_string())
        );
        assert_eq!(parse_execs(timeout), Some(5));
        let clean = "#4096\tpulse cov: 1\nDone 5000 runs in 61 second(s)\n";
        assert_eq!(parse_finding(clean), None);
        assert_eq!(parse_execs(clean), Some(4096));
        assert_eq!(target_of("fuzz:eval_diff"), Some("eval_diff"));
        assert_eq!(target_of("fuzz:nope"), None);
        assert_eq!(
            build_of("fuzz-trace-cmp:dwarf_diff"),
            Some(("dwarf_diff", Build::TraceCmp))
        );
        assert_eq!(
            build_of("fuzz:dwarf_diff"),
            Some(("dwarf_diff", Build::Campaign))
        );
        assert_eq!(Build::TraceCmp.search("cli"), "fuzz-trace-cmp:cli");
        assert!(!Build::Campaign.traces("eval_diff") && Build::Campaign.traces("cli"));
        assert!(Build::TraceCmp.traces("eval_diff"));
        assert_eq!(target_of("campaign"), None);
    }
}
