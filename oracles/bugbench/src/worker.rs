//! One search of one planted fault, in this process (which must be a build
//! with `--cfg diopter_faults`): the default job's in-process campaign
//! (the same oracles, checks and simplifier as `diopter run`), stopped at
//! its first finding.

use crate::error::Error;
use crate::RunResult;
use diopter_harness::campaign::{self, checks, Config, Stats};
use diopter_rules::simplify::Simplifier;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// The faults build's catalogue as JSON (an error in a normal build, which
/// has none).
pub fn catalogue_json() -> Result<String, Error> {
    #[cfg(diopter_faults)]
    {
        let faults: Vec<crate::FaultInfo> = diopter_faults::catalogue::FAULTS
            .iter()
            .map(|f| crate::FaultInfo {
                name: f.name.into(),
                component: f.component.into(),
                site: f.site.into(),
                mistake: f.mistake.into(),
            })
            .collect();
        serde_json::to_string(&faults).map_err(Error::Json)
    }
    #[cfg(not(diopter_faults))]
    {
        Err(Error::NotAFaultsBuild)
    }
}

/// Activates `fault` (`None`: none, the control run).
fn activate(fault: Option<&str>) -> Result<(), Error> {
    #[cfg(diopter_faults)]
    {
        diopter_faults::activate(fault).map_err(Error::Fault)
    }
    #[cfg(not(diopter_faults))]
    {
        let _ = fault;
        Err(Error::NotAFaultsBuild)
    }
}

/// Whether this process passed `fault`'s site.
fn reached(fault: &str) -> Option<bool> {
    #[cfg(diopter_faults)]
    {
        Some(diopter_faults::reached().contains(&fault))
    }
    #[cfg(not(diopter_faults))]
    {
        let _ = fault;
        None
    }
}

/// The default job's campaign on `fault` with `seed` for at most `limit`,
/// stopped at the first finding; findings go under `out_dir`. `rules` is
/// the rule library the simplifier loads (`corpus/rules`).
pub fn campaign(
    fault: Option<&str>,
    seed: u64,
    limit: Duration,
    rules: &Path,
    out_dir: &Path,
) -> Result<RunResult, Error> {
    activate(fault)?;
    let simplifier = Simplifier::load(&[rules.to_path_buf()]).map_err(|ds| Error::Rules {
        dir: rules.to_path_buf(),
        count: ds.len(),
    })?;
    let stop = Arc::new(AtomicBool::new(false));
    let cfg = Config {
        time: limit,
        seed,
        out_dir: out_dir.to_path_buf(),
        minimize_time: Duration::from_secs(10),
        max_cases: None,
        gen: diopter_gen::GenConfig::default(),
        stop: Some(stop.clone()),
        simplifier: Some(Arc::new(simplifier)),
        smt_every: None,
        case_timeout: campaign::DEFAULT_CASE_TIMEOUT,
        checks: checks::default_checks(),
    };
    let stats = campaign::run(&cfg, Arc::new(checks::default_oracles), &mut |s| {
        if s.finding_count() > 0 {
            stop.store(true, Ordering::SeqCst);
        }
    });
    let mut r = summarize(&stats, fault.unwrap_or("none"), seed, limit);
    r.reached = fault.and_then(reached);
    Ok(r)
}

/// A finding: seconds, caught by, what, minimized (ops before, after).
type Detection = (f64, String, String, Option<(usize, usize)>);

/// The first finding of a campaign's statistics.
fn summarize(stats: &Stats, fault: &str, seed: u64, limit: Duration) -> RunResult {
    let mut first: Vec<Detection> = Vec::new();
    for f in &stats.findings {
        first.push((
            f.at,
            f.signature.oracle.clone(),
            f.min_line.clone(),
            Some((f.ops, f.min_ops)),
        ));
    }
    for f in &stats.simplify_findings {
        first.push((f.at, "simplify".into(), f.what.clone(), None));
    }
    for f in &stats.smt_findings {
        first.push((f.at, "smt".into(), f.what.clone(), None));
    }
    for f in &stats.check_findings {
        let who = f
            .what
            .split([':', ' '])
            .next()
            .unwrap_or("check")
            .to_string();
        first.push((f.at, who, f.what.clone(), None));
    }
    for h in &stats.hangs {
        first.push((
            h.at,
            format!("hang in {}", h.oracle.as_deref().unwrap_or("?")),
            String::new(),
            None,
        ));
    }
    first.sort_by(|a, b| a.0.total_cmp(&b.0));
    let found = first.first();
    RunResult {
        fault: fault.to_string(),
        search: "campaign".into(),
        seed,
        found: found.is_some(),
        seconds: found.map(|f| f.0),
        cases: found.and(stats.first_finding.map(|(_, c)| c)),
        caught_by: found.map(|f| f.1.clone()),
        what: found.map(|f| f.2.lines().next().unwrap_or("").to_string()),
        minimized: found.and_then(|f| f.3),
        reached: None,
        elapsed: stats.elapsed,
        limit: limit.as_secs_f64(),
        error: None,
        skipped: None,
        sites: Vec::new(),
    }
}

/// A fresh directory for one run's findings under `base`.
pub fn run_dir(base: &Path, fault: &str, search: &str, seed: u64) -> PathBuf {
    base.join(format!("{fault}-{search}-{seed}"))
}
