//! The whole benchmark as one call ([`bench`]): build the faults binaries,
//! read the catalogue, run the controls and every (fault, search, seed),
//! and add to an earlier result if asked, each run kept in a journal as it
//! ends ([`crate::journal`]); [`write`] writes `bugbench.md`
//! and `.json`, [`merge_files`] merges earlier results.

use crate::drive::{self, Bench, Plan};
use crate::journal::{self, Done, Journal};
use crate::{fuzz, render, FaultInfo, RunResult};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// What to run (the command line's options).
#[derive(Clone, Debug)]
pub struct Options {
    pub root: PathBuf,
    pub seeds: u64,
    pub campaign_limit: f64,
    pub proptest_limit: f64,
    pub fuzz_limit: f64,
    /// `campaign`, `proptest`, `fuzz` (every target), `fuzz:TARGET`, or
    /// the same with comparison tracing: `fuzz-trace-cmp[:TARGET]`.
    pub searches: Vec<String>,
    /// Only these faults (empty: all).
    pub faults: Vec<String>,
    pub jobs: usize,
    pub add_to: Option<PathBuf>,
    /// An earlier run's journal ([`crate::journal`]) to go on from: its
    /// finished runs are kept, and this run appends to it. Give the same
    /// options as the run that wrote it.
    pub resume: Option<PathBuf>,
    /// The command line that regenerates the report.
    pub command: String,
}

pub use crate::error::Error;

/// The searches `names` stand for: `fuzz` is every fuzz target.
pub fn expand_searches(names: &[String]) -> Result<Vec<String>, Error> {
    let mut out: Vec<String> = Vec::new();
    let mut add = |s: String| {
        if !out.contains(&s) {
            out.push(s);
        }
    };
    for n in names {
        match n.as_str() {
            "campaign" | "proptest" => add(n.clone()),
            "fuzz" => fuzz::TARGETS
                .iter()
                .for_each(|t| add(fuzz::Build::Campaign.search(t))),
            "fuzz-trace-cmp" => fuzz::TARGETS
                .iter()
                .for_each(|t| add(fuzz::Build::TraceCmp.search(t))),
            _ if fuzz::target_of(n).is_some() => add(n.clone()),
            _ => {
                return Err(Error::Usage(format!(
                    "unknown search `{n}` (campaign, proptest, fuzz, fuzz-trace-cmp, or fuzz:TARGET or fuzz-trace-cmp:TARGET with TARGET one of {})",
                    fuzz::TARGETS.join(", ")
                )))
            }
        }
    }
    Ok(out)
}

/// One line of progress for a finished run.
pub fn describe(r: &RunResult) -> String {
    let what = match (&r.error, &r.skipped, r.found) {
        (Some(e), _, _) => format!("run failed: {e}"),
        (None, Some(_), _) => "skipped (its control never passed the site)".into(),
        (None, None, true) => format!(
            "found in {:.1} s by {}",
            r.seconds.unwrap_or(0.0),
            r.caught_by.as_deref().unwrap_or("?")
        ),
        (None, None, false) => format!("not found in {:.0} s", r.elapsed),
    };
    format!("{} {} seed {}: {what}", r.fault, r.search, r.seed)
}

/// Runs the benchmark; `say` hears of each step. A control run in the
/// result that found something makes its detections untrustworthy (the
/// caller says so).
pub fn bench(o: &Options, say: &(dyn Fn(&str) + Sync)) -> Result<Bench, Error> {
    let searches = expand_searches(&o.searches)?;
    if o.seeds == 0 || o.jobs == 0 {
        return Err(Error::Usage("--seeds and --jobs must be at least 1".into()));
    }
    let earlier: Option<Bench> = o.add_to.as_deref().map(read).transpose()?;
    let start = Instant::now();
    // Absolute: cargo fuzz builds from fuzz/, the fuzzers run in their
    // run directories.
    let root = std::path::absolute(&o.root).unwrap_or_else(|_| o.root.clone());
    let o = &Options { root, ..o.clone() };
    let plan = Plan {
        root: o.root.clone(),
        seeds: (1..=o.seeds).collect(),
        campaign_limit: Duration::from_secs_f64(o.campaign_limit.max(1.0)),
        proptest_limit: Duration::from_secs_f64(o.proptest_limit.max(1.0)),
        fuzz_limit: Duration::from_secs_f64(o.fuzz_limit.max(1.0)),
        searches: searches.clone(),
        jobs: o.jobs,
        // A directory of this run's own: two benchmarks in one checkout
        // must not delete each other's seeds and findings.
        work: o.root.join("target").join("bugbench-runs").join(format!(
            "{}-{}",
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_secs()),
            std::process::id()
        )),
    };
    let done = match &o.resume {
        Some(p) => journal::read(p)?,
        None => Done::default(),
    };
    let journal_path = o
        .resume
        .clone()
        .unwrap_or_else(|| plan.work.join("journal.jsonl"));
    let journal = Journal::open(&journal_path)
        .map_err(|e| Error::Usage(format!("{}: {e}", journal_path.display())))?;
    say(&format!(
        "journal: {} (if this run dies, go on with --resume {0} and the same options)",
        journal.path().display()
    ));
    if o.resume.is_some() {
        say(&format!(
            "resuming: {} control and {} runs finished earlier",
            done.controls.len(),
            done.runs.len()
        ));
    }
    // A journal that cannot be written loses nothing measured: the report
    // is still written at the end.
    let keep = |r: &RunResult, control: bool| {
        let w = if control {
            journal.control(r)
        } else {
            journal.run(r)
        };
        if let Err(e) = w {
            say(&format!("journal: {}: {e}", journal.path().display()));
        }
    };
    let mut built = drive::build(
        &o.root,
        searches.iter().any(|s| s == "proptest"),
        &mut |m| say(m),
    )?;
    let targets: Vec<(&str, fuzz::Build)> =
        searches.iter().filter_map(|s| fuzz::build_of(s)).collect();
    if !targets.is_empty() {
        built.fuzzers = Some(fuzz::build(&o.root, &targets, &plan.work, &mut |m| say(m))?);
    }
    let mut faults: Vec<FaultInfo> = drive::catalogue(&built.diopter)?;
    if !o.faults.is_empty() {
        if let Some(bad) = o
            .faults
            .iter()
            .find(|n| !faults.iter().any(|f| &f.name == *n))
        {
            return Err(Error::Usage(format!("no planted fault is named `{bad}`")));
        }
        faults.retain(|f| o.faults.contains(&f.name));
    }
    say("control: each search with no fault active (each fuzz target with every seed)");
    let control = drive::controls(&plan, &built, &done, &|k, n, r| {
        keep(r, true);
        say(&format!("control [{k}/{n}] {}", describe(r)))
    });
    let total = faults.len() * plan.seeds.len() * plan.searches.len();
    say(&format!("{total} runs, {} at a time", plan.jobs));
    let runs = drive::run_all(&plan, &built, &faults, &control, &done, &|k, n, r| {
        keep(r, false);
        say(&format!("[{k}/{n}] {}", describe(r)))
    });
    let commit = std::process::Command::new("git")
        .current_dir(&o.root)
        .args(["rev-parse", "--short", "HEAD"])
        .output()
        .map(|out| String::from_utf8_lossy(&out.stdout).trim().to_string())
        .unwrap_or_default();
    let mut bench = Bench {
        faults,
        runs,
        control,
        seeds: plan.seeds.clone(),
        campaign_limit: plan.campaign_limit.as_secs_f64(),
        proptest_limit: plan.proptest_limit.as_secs_f64(),
        fuzz_limit: plan.fuzz_limit.as_secs_f64(),
        searches,
        jobs: plan.jobs,
        wall_seconds: start.elapsed().as_secs_f64(),
        load: std::fs::read_to_string("/proc/loadavg").unwrap_or_default(),
        commit,
        command: o.command.clone(),
    };
    if let Some(old) = earlier {
        bench = drive::merge(old, bench);
    }
    Ok(bench)
}

/// A benchmark result read from its JSON file.
pub fn read(path: &std::path::Path) -> Result<Bench, Error> {
    std::fs::read_to_string(path)
        .map_err(|e| e.to_string())
        .and_then(|t| serde_json::from_str(&t).map_err(|e| e.to_string()))
        .map_err(|e| Error::Usage(format!("{}: {e}", path.display())))
}

/// The results of `files` merged in order ([`drive::merge`]).
pub fn merge_files(files: &[PathBuf]) -> Result<Bench, Error> {
    let mut benches = files.iter().map(|f| read(f));
    let first = benches
        .next()
        .ok_or_else(|| Error::Usage("no files to merge".into()))??;
    benches.try_fold(first, |acc, b| Ok(drive::merge(acc, b?)))
}

/// Writes `bugbench.md` and `bugbench.json` of `bench` into `dir`.
pub fn write(bench: &Bench, dir: &std::path::Path) -> Result<Vec<PathBuf>, Error> {
    let md = render::markdown(bench, &bench.command);
    let mut value = serde_json::to_value(bench)?;
    // The headline, for the README's figures (`diopter report`), which
    // read the JSON without this crate's types.
    value["summary"] = serde_json::Value::String(render::headline(bench));
    let json = serde_json::to_string_pretty(&value)?;
    let mut written = Vec::new();
    for (name, text) in [("bugbench.md", md), ("bugbench.json", json)] {
        let p = dir.join(name);
        if let Err(source) = diopter_report::write_atomic(&p, &text) {
            return Err(Error::Io { path: p, source });
        }
        written.push(p);
    }
    Ok(written)
}
