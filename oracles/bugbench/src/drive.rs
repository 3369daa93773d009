//! The benchmark's driver (a normal build): builds a `diopter` with the
//! planted faults under `target/bugbench/`, reads its catalogue, checks
//! that with no fault active the searches find nothing (a false alarm
//! would make every detection meaningless), then runs every (fault,
//! search, seed) with a time limit, a few at a time, each in a child
//! process.

use crate::error::Error;
use crate::journal::Done;
use crate::process::{failed_run, faults_env, run_limited};
use crate::{FaultInfo, RunResult};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The property-test files of the workspace (the tests that use
/// `proptest!`): the proptest search runs them in this order, each with
/// the fault active, and stops at the first failure.
pub const PROPTEST_FILES: [(&str, &str); 10] = [
    ("diopter-fast", "fast_random"),
    ("diopter-fast", "fast_typing"),
    ("diopter-harness", "dwarf_ext"),
    ("diopter-dwarf", "ext_wide"),
    ("diopter-rules", "simplify_props"),
    ("diopter-harness", "diff_props"),
    ("diopter-gen", "gen_props"),
    ("diopter-semantics", "robustness"),
    ("diopter-lifetimes", "lifetimes_diff"),
    ("diopter", "cli_never_panics"),
];

/// What to run.
#[derive(Clone, Debug)]
pub struct Plan {
    /// The workspace (where `cargo` builds the faults binary).
    pub root: PathBuf,
    pub seeds: Vec<u64>,
    /// Limit of one campaign run (the default job is 60 s).
    pub campaign_limit: Duration,
    /// Limit of one proptest run (all the files of [`PROPTEST_FILES`]).
    pub proptest_limit: Duration,
    /// Limit of one fuzzer run (one target).
    pub fuzz_limit: Duration,
    pub searches: Vec<String>,
    pub jobs: usize,
    /// Where the runs' findings go.
    pub work: PathBuf,
}

/// The outcome of a benchmark.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Bench {
    pub faults: Vec<FaultInfo>,
    pub runs: Vec<RunResult>,
    /// The control runs (no fault active): each must find nothing.
    pub control: Vec<RunResult>,
    pub seeds: Vec<u64>,
    pub campaign_limit: f64,
    pub proptest_limit: f64,
    #[serde(default)]
    pub fuzz_limit: f64,
    pub searches: Vec<String>,
    pub jobs: usize,
    /// Wall time of the whole benchmark, and the load average at its end.
    pub wall_seconds: f64,
    pub load: String,
    pub commit: String,
    /// The command (or commands, one per line) that made it.
    #[serde(default)]
    pub command: String,
}

/// The faults build of `diopter`, the proptest binaries and the fuzzers.
pub struct Built {
    pub diopter: PathBuf,
    /// (file name, executable) in [`PROPTEST_FILES`] order.
    pub proptests: Vec<(String, PathBuf)>,
    pub fuzzers: Option<crate::fuzz::Fuzzers>,
}

/// Builds the faults binaries under `ROOT/target/bugbench` (release).
pub fn build(root: &Path, proptests: bool, log: &mut dyn FnMut(&str)) -> Result<Built, Error> {
    let target = root.join("target").join("bugbench");
    log("building diopter with the planted faults (target/bugbench, release)");
    let mut cmd = Command::new("cargo");
    cmd.current_dir(root)
        .args(["build", "--release", "--bin", "diopter", "--target-dir"])
        .arg(&target);
    faults_env(&mut cmd);
    let st = cmd.status().map_err(Error::Cargo)?;
    if !st.success() {
        return Err(Error::BuildFailed("the faults binary"));
    }
    let mut built = Built {
        diopter: target.join("release").join("diopter"),
        proptests: Vec::new(),
        fuzzers: None,
    };
    if proptests {
        log("building the property tests with the planted faults");
        let mut cmd = Command::new("cargo");
        cmd.current_dir(root)
            .args([
                "test",
                "--release",
                "--no-run",
                "--message-format=json",
                "--target-dir",
            ])
            .arg(&target);
        for (pkg, test) in PROPTEST_FILES {
            cmd.args(["-p", pkg, "--test", test]);
        }
        faults_env(&mut cmd);
        cmd.stderr(Stdio::inherit());
        let out = cmd.output().map_err(Error::Cargo)?;
        if !out.status.success() {
            return Err(Error::BuildFailed("the property tests"));
        }
        let text = String::from_utf8_lossy(&out.stdout);
        for (_, test) in PROPTEST_FILES {
            let exe = text.lines().find_map(|l| {
                let v: serde_json::Value = serde_json::from_str(l).ok()?;
                let t = v.get("target")?;
                let is_it = t.get("name")?.as_str()? == test
                    && t.get("kind")?.as_array()?.iter().any(|k| k == "test");
                is_it.then(|| v.get("executable")?.as_str().map(PathBuf::from))?
            });
            let exe = exe.ok_or_else(|| Error::NoTestExecutable(test.to_string()))?;
            built.proptests.push((test.to_string(), exe));
        }
    }
    Ok(built)
}

/// The catalogue of the faults binary.
pub fn catalogue(diopter: &Path) -> Result<Vec<FaultInfo>, Error> {
    let out = Command::new(diopter)
        .args(["bugbench", "catalogue"])
        .output()
        .map_err(|source| Error::Io {
            path: diopter.to_path_buf(),
            source,
        })?;
    if !out.status.success() {
        return Err(Error::Catalogue(
            String::from_utf8_lossy(&out.stderr).trim().to_string(),
        ));
    }
    serde_json::from_slice(&out.stdout).map_err(Error::CatalogueJson)
}

/// One campaign run in a child (`diopter bugbench worker`).
pub fn campaign_run(plan: &Plan, built: &Built, fault: Option<&str>, seed: u64) -> RunResult {
    let name = fault.unwrap_or("none");
    let limit = plan.campaign_limit;
    let dir = crate::worker::run_dir(&plan.work, name, "campaign", seed);
    let mut cmd = Command::new(&built.diopter);
    cmd.args(["bugbench", "worker", "--seed", &seed.to_string()])
        .arg("--limit")
        .arg(format!("{}", limit.as_secs_f64()))
        .arg("--rules")
        .arg(plan.root.join("corpus").join("rules"))
        .arg("--out")
        .arg(&dir)
        .env_remove("DIOPTER_FAULT");
    if let Some(f) = fault {
        cmd.args(["--fault", f]);
    }
    // The campaign stops itself at its limit; minimizing a finding and a
    // hung case's watchdog may add a little.
    let (out, err, ok, killed) = run_limited(cmd, limit + Duration::from_secs(120));
    if !ok {
        let why = if killed {
            "the worker did not end within its limit plus 120 s".to_string()
        } else {
            format!("the worker failed: {}", err.lines().last().unwrap_or(""))
        };
        return failed_run(name, "campaign", seed, limit.as_secs_f64(), why);
    }
    serde_json::from_str(out.trim()).unwrap_or_else(|e| {
        failed_run(
            name,
            "campaign",
            seed,
            limit.as_secs_f64(),
            format!("the worker's output does not parse: {e}"),
        )
    })
}

/// The proptest search: the files of [`PROPTEST_FILES`] one after another
/// with the fault active and `PROPTEST_RNG_SEED=seed`, until one fails or
/// the limit is spent, with proptest's failure persistence off (it neither
/// replays nor writes the repository's regressions), from an empty
/// directory (where a test that names its own regressions file, relative,
/// finds none).
pub fn proptest_run(plan: &Plan, built: &Built, fault: Option<&str>, seed: u64) -> RunResult {
    let name = fault.unwrap_or("none");
    let limit = plan.proptest_limit.as_secs_f64();
    let dir = crate::worker::run_dir(&plan.work, name, "proptest", seed);
    let _ = std::fs::create_dir_all(&dir);
    let reached_file = dir.join("reached");
    let _ = std::fs::remove_file(&reached_file);
    let start = Instant::now();
    let mut r = failed_run(name, "proptest", seed, limit, String::new());
    r.error = None;
    for (file, exe) in &built.proptests {
        let left = limit - start.elapsed().as_secs_f64();
        if left <= 0.0 {
            break;
        }
        let mut cmd = Command::new(exe);
        cmd.current_dir(&dir)
            .args(["--test-threads", "1", "-q"])
            .env("PROPTEST_RNG_SEED", seed.to_string())
            // Neither replay the committed regressions (a search must find
            // the fault itself) nor write new ones into the source tree:
            // proptest finds a test's source file by walking up from the
            // working directory, and the run directory is inside the
            // checkout (the first full benchmark left seven entries in
            // dwarf_ext.proptest-regressions).
            .env("PROPTEST_DISABLE_FAILURE_PERSISTENCE", "1")
            .env("DIOPTER_FAULT_REACHED", &reached_file)
            .env("DIOPTER_FAULT", fault.unwrap_or(""));
        let (out, err, ok, killed) = run_limited(cmd, Duration::from_secs_f64(left));
        if killed {
            break;
        }
        if !ok {
            let test = out
                .lines()
                .find_map(|l| l.strip_prefix("---- ")?.strip_suffix(" stdout ----"))
                .unwrap_or("?");
            let what = out
                .lines()
                .chain(err.lines())
                .find(|l| l.contains("panicked at") || l.contains("Test failed"))
                .unwrap_or("")
                .to_string();
            r.found = true;
            r.seconds = Some(start.elapsed().as_secs_f64());
            r.caught_by = Some(format!("{file}::{test}"));
            r.what = Some(what);
            r.minimized = None;
            break;
        }
    }
    r.elapsed = start.elapsed().as_secs_f64();
    if let Some(f) = fault {
        r.reached = Some(
            std::fs::read_to_string(&reached_file)
                .map(|t| t.lines().any(|l| l == f))
                .unwrap_or(false),
        );
    }
    r
}

/// One run of `search` with `fault` (`None`: a control) and `seed`.
pub fn run_one(
    plan: &Plan,
    built: &Built,
    search: &str,
    fault: Option<&str>,
    seed: u64,
) -> RunResult {
    if let Some(t) = crate::fuzz::build_of(search) {
        return match &built.fuzzers {
            Some(fz) => crate::fuzz::run(
                &plan.work,
                plan.fuzz_limit,
                fz,
                &built.diopter,
                t,
                fault,
                seed,
            ),
            None => failed_run(
                fault.unwrap_or("none"),
                search,
                seed,
                plan.fuzz_limit.as_secs_f64(),
                "the fuzz targets were not built".into(),
            ),
        };
    }
    match search {
        "proptest" => proptest_run(plan, built, fault, seed),
        _ => campaign_run(plan, built, fault, seed),
    }
}

/// `f` on every item, `jobs` at a time; `progress(done, total, result)`
/// after each. Results in the items' order.
fn parallel<T: Sync>(
    jobs: usize,
    items: &[T],
    f: &(dyn Fn(&T) -> RunResult + Sync),
    progress: &(dyn Fn(usize, usize, &RunResult) + Sync),
) -> Vec<RunResult> {
    let next = Mutex::new(0usize);
    let done: Mutex<Vec<(usize, RunResult)>> = Mutex::new(Vec::new());
    std::thread::scope(|sc| {
        for _ in 0..jobs.max(1) {
            sc.spawn(|| loop {
                let i = {
                    let Ok(mut n) = next.lock() else { return };
                    *n += 1;
                    *n - 1
                };
                let Some(item) = items.get(i) else { return };
                let r = f(item);
                let Ok(mut d) = done.lock() else { return };
                progress(d.len() + 1, items.len(), &r);
                d.push((i, r));
            });
        }
    });
    let mut done = done.into_inner().unwrap_or_default();
    done.sort_by_key(|(i, _)| *i);
    done.into_iter().map(|(_, r)| r).collect()
}

/// The control runs (no fault active): one per search with the first
/// seed, and for each fuzz target one per seed (they say which fault
/// sites each seed's run passes: see [`crate::fuzz`]).
/// Those `done` holds (an earlier journal) are taken from it.
pub fn controls(
    plan: &Plan,
    built: &Built,
    done: &Done,
    progress: &(dyn Fn(usize, usize, &RunResult) + Sync),
) -> Vec<RunResult> {
    let mut wanted: Vec<(String, u64)> = Vec::new();
    for search in &plan.searches {
        if crate::fuzz::target_of(search).is_some() {
            wanted.extend(plan.seeds.iter().map(|&s| (search.clone(), s)));
        } else {
            wanted.push((search.clone(), plan.seeds.first().copied().unwrap_or(1)));
        }
    }
    let (kept, todo) = split_done(wanted, |(search, seed)| done.control(search, *seed));
    let mut out = parallel(
        plan.jobs,
        &todo,
        &|(search, seed)| run_one(plan, built, search, None, *seed),
        progress,
    );
    out.extend(kept);
    out
}

/// `wanted` split into the results `earlier` finds and the rest.
fn split_done<'a, T>(
    wanted: Vec<T>,
    earlier: impl Fn(&T) -> Option<&'a RunResult>,
) -> (Vec<RunResult>, Vec<T>) {
    let mut kept = Vec::new();
    let mut todo = Vec::new();
    for w in wanted {
        match earlier(&w) {
            Some(r) => kept.push(r.clone()),
            None => todo.push(w),
        }
    }
    (kept, todo)
}

/// A fuzz run that need not be made: its target's control with the same
/// seed never passed the fault's site.
fn skip_reason(controls: &[RunResult], fault: &str, search: &str, seed: u64) -> Option<String> {
    crate::fuzz::target_of(search)?;
    let c = controls
        .iter()
        .find(|c| c.search == search && c.seed == seed && c.error.is_none())?;
    (!c.sites.iter().any(|s| s == fault)).then(|| {
        format!(
            "the control run of this target and seed never passed the fault's site in {:.0} s ({} executions)",
            c.elapsed,
            c.cases.unwrap_or(0)
        )
    })
}

/// Every run of the plan, `plan.jobs` at a time; `progress` after each.
/// Fuzz runs that [`controls`] show cannot reach their fault are recorded
/// as skipped; runs `done` holds (an earlier journal) are taken from it.
pub fn run_all(
    plan: &Plan,
    built: &Built,
    faults: &[FaultInfo],
    controls: &[RunResult],
    done: &Done,
    progress: &(dyn Fn(usize, usize, &RunResult) + Sync),
) -> Vec<RunResult> {
    let mut todo: Vec<(String, String, u64)> = Vec::new();
    let mut skipped = Vec::new();
    for search in &plan.searches {
        for f in faults {
            for &s in &plan.seeds {
                match skip_reason(controls, &f.name, search, s) {
                    Some(why) => {
                        let mut r = failed_run(
                            &f.name,
                            search,
                            s,
                            plan.fuzz_limit.as_secs_f64(),
                            String::new(),
                        );
                        r.error = None;
                        r.reached = Some(false);
                        r.skipped = Some(why);
                        skipped.push(r);
                    }
                    None => todo.push((f.name.clone(), search.clone(), s)),
                }
            }
        }
    }
    let (kept, todo) = split_done(todo, |(fault, search, seed)| done.run(fault, search, *seed));
    let mut runs = parallel(
        plan.jobs,
        &todo,
        &|(fault, search, seed)| run_one(plan, built, search, Some(fault), *seed),
        progress,
    );
    runs.extend(skipped);
    runs.extend(kept);
    runs.sort_by(|a, b| (&a.fault, &a.search, a.seed).cmp(&(&b.fault, &b.search, b.seed)));
    runs
}

/// `new`'s runs added to `old`'s: a run of the same fault, search and seed
/// replaces the earlier one, and so does a control run of the same search
/// and seed; the searches, the other control runs and the commits add up.
pub fn merge(old: Bench, new: Bench) -> Bench {
    let key = |r: &RunResult| (r.fault.clone(), r.search.clone(), r.seed);
    let replaced: std::collections::BTreeSet<_> = new.runs.iter().map(key).collect();
    let mut runs: Vec<RunResult> = old
        .runs
        .into_iter()
        .filter(|r| !replaced.contains(&key(r)))
        .collect();
    runs.extend(new.runs);
    runs.sort_by(|a, b| (&a.fault, &a.search, a.seed).cmp(&(&b.fault, &b.search, b.seed)));
    let ran = |name: &str| new.searches.iter().any(|s| s == name);
    let (ran_campaign, ran_proptest) = (ran("campaign"), ran("proptest"));
    let ran_fuzz = new
        .searches
        .iter()
        .any(|s| crate::fuzz::target_of(s).is_some());
    let mut searches = old.searches;
    for s in new.searches {
        if !searches.contains(&s) {
            searches.push(s);
        }
    }
    // A control run of the same search and seed replaces the earlier one
    // as well: the runs it vouches for are the new ones.
    let ckey = |r: &RunResult| (r.search.clone(), r.seed);
    let new_controls: std::collections::BTreeSet<_> = new.control.iter().map(ckey).collect();
    let mut control: Vec<RunResult> = old
        .control
        .into_iter()
        .filter(|c| !new_controls.contains(&ckey(c)))
        .collect();
    control.extend(new.control);
    let mut seeds = old.seeds;
    for s in new.seeds {
        if !seeds.contains(&s) {
            seeds.push(s);
        }
    }
    let commit = if old.commit == new.commit {
        new.commit
    } else {
        format!("{} then {}", old.commit, new.commit)
    };
    let command = if old.command.is_empty() {
        new.command
    } else {
        format!("{}\n{}", old.command, new.command)
    };
    Bench {
        command,
        faults: if new.faults.len() >= old.faults.len() {
            new.faults
        } else {
            old.faults
        },
        runs,
        control,
        seeds,
        // Each search's limit is that of the run that ran it.
        campaign_limit: if ran_campaign {
            new.campaign_limit
        } else {
            old.campaign_limit
        },
        proptest_limit: if ran_proptest {
            new.proptest_limit
        } else {
            old.proptest_limit
        },
        fuzz_limit: if ran_fuzz {
            new.fuzz_limit
        } else {
            old.fuzz_limit
        },
        searches,
        jobs: new.jobs,
        wall_seconds: old.wall_seconds + new.wall_seconds,
        load: new.load,
        commit,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bench(runs: Vec<RunResult>, control: Vec<RunResult>, commit: &str) -> Bench {
        Bench {
            faults: Vec::new(),
            runs,
            control,
            seeds: vec![1, 2],
            campaign_limit: 60.0,
            proptest_limit: 0.0,
            fuzz_limit: 60.0,
            searches: vec!["campaign".into(), "fuzz:eval_diff".into()],
            jobs: 2,
            wall_seconds: 10.0,
            load: String::new(),
            commit: commit.into(),
            command: String::new(),
        }
    }

    fn run(fault: &str, search: &str, seed: u64, found: bool) -> RunResult {
        let mut r = failed_run(fault, search, seed, 60.0, String::new());
        r.error = None;
        r.found = found;
        r
    }

    #[test]
    fn a_later_run_or_control_of_the_same_key_replaces_the_earlier() {
        let old = bench(
            vec![
                run("a", "campaign", 1, false),
                run("a", "fuzz:eval_diff", 1, true),
            ],
            vec![
                run("none", "campaign", 1, false),
                run("none", "fuzz:eval_diff", 1, true),
            ],
            "old",
        );
        let new = bench(
            vec![run("a", "fuzz:eval_diff", 1, false)],
            vec![run("none", "fuzz:eval_diff", 1, false)],
            "new",
        );
        let m = merge(old, new);
        let found: Vec<(&str, bool)> = m
            .runs
            .iter()
            .map(|r| (r.search.as_str(), r.found))
            .collect();
        assert_eq!(found, [("campaign", false), ("fuzz:eval_diff", false)]);
        let controls: Vec<(&str, bool)> = m
            .control
            .iter()
            .map(|r| (r.search.as_str(), r.found))
            .collect();
        assert_eq!(controls, [("campaign", false), ("fuzz:eval_diff", false)]);
        assert_eq!(m.commit, "old then new");
        assert_eq!(m.wall_seconds, 20.0);
    }
}
