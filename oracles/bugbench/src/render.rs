//! `reports/bugbench.md` and `.json` from a [`Bench`].

use crate::drive::Bench;
use crate::RunResult;
use std::collections::BTreeMap;
use std::fmt::Write;

/// The median of `v` (the mean of the middle two for an even count);
/// `f64::INFINITY` stands for a miss.
pub fn median(v: &mut [f64]) -> Option<f64> {
    if v.is_empty() {
        return None;
    }
    v.sort_by(f64::total_cmp);
    let n = v.len();
    Some(if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    })
}

fn secs(x: Option<f64>) -> String {
    match x {
        Some(x) if x.is_finite() => format!("{x:.1} s"),
        Some(_) => "∞".into(),
        None => "—".into(),
    }
}

/// Per search, per fault: its runs.
fn grouped(b: &Bench) -> BTreeMap<&str, BTreeMap<&str, Vec<&RunResult>>> {
    let mut g: BTreeMap<&str, BTreeMap<&str, Vec<&RunResult>>> = BTreeMap::new();
    for r in &b.runs {
        g.entry(&r.search)
            .or_default()
            .entry(&r.fault)
            .or_default()
            .push(r);
    }
    g
}

/// The headline figures of one search.
pub struct Summary {
    pub faults: usize,
    /// Faults found with at least one seed, with a majority of seeds, with every seed.
    pub found_any: usize,
    pub found_majority: usize,
    pub found_all: usize,
    /// Runs found / runs.
    pub runs_found: usize,
    pub runs: usize,
    /// Median time to detection over every run (a miss counts as
    /// infinitely long), and over the runs that found.
    pub median_all: Option<f64>,
    pub median_found: Option<f64>,
    pub worst_found: Option<f64>,
}

pub fn summary(b: &Bench, search: &str) -> Summary {
    let g = grouped(b);
    let empty = BTreeMap::new();
    let by = g.get(search).unwrap_or(&empty);
    let mut s = Summary {
        faults: by.len(),
        found_any: 0,
        found_majority: 0,
        found_all: 0,
        runs_found: 0,
        runs: 0,
        median_all: None,
        median_found: None,
        worst_found: None,
    };
    let mut all = Vec::new();
    let mut found = Vec::new();
    for runs in by.values() {
        let k = runs.iter().filter(|r| r.found).count();
        s.found_any += usize::from(k > 0);
        s.found_majority += usize::from(2 * k > runs.len());
        s.found_all += usize::from(k == runs.len());
        s.runs_found += k;
        s.runs += runs.len();
        for r in runs.iter() {
            let t = if r.found {
                r.seconds.unwrap_or(0.0)
            } else {
                f64::INFINITY
            };
            all.push(t);
            if r.found {
                found.push(t);
            }
        }
    }
    s.median_all = median(&mut all);
    s.worst_found = found.iter().copied().reduce(f64::max);
    s.median_found = median(&mut found);
    s
}

/// The Markdown report.
pub fn markdown(b: &Bench, command: &str) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "# Bug-finding benchmark\n");
    let _ = writeln!(
        s,
        "{} planted faults (`faults/src/catalogue.rs`: realistic one-line mistakes written from \
         reading the engines' code, each behind `planted!(\"name\")`, compiled in only with \
         `--cfg diopter_faults`; `tests/faults.rs` checks that a normal build carries none), \
         each searched for with seeds {:?}. Regenerate with:\n\n```sh\n{command}\n```\n",
        b.faults.len(),
        b.seeds
    );
    let _ = writeln!(
        s,
        "Run on commit `{}`: {:.0} s wall, {} runs at a time on this 2-core machine (load at the end: {}). \
         Times are wall-clock seconds from a search's start to its first finding (the minimizer's \
         time after it is not counted), measured while other runs shared the machine.\n",
        b.commit,
        b.wall_seconds,
        b.jobs,
        b.load.trim()
    );
    let _ = writeln!(s, "## The searches\n");
    let _ = writeln!(
        s,
        "- **campaign**: the default job's in-process campaign (`diopter run`: every oracle \
         against the reference, the simplifier, the read-back and validation checks), limit {:.0} s, \
         stopped at its first finding. Cases are generated cases drawn by then; \"minimized\" is \
         the minimizer's shrinking of an oracle finding (operations before → after).",
        b.campaign_limit
    );
    if b.searches.iter().any(|x| x == "proptest") {
        let _ = writeln!(
            s,
            "- **proptest**: the workspace's property-test files ({}) one after another with the \
             fault active and `PROPTEST_RNG_SEED` set to the seed, limit {:.0} s, stopped at the first \
             failing test; proptest shrinks what it finds itself (no case count is available).",
            crate::drive::PROPTEST_FILES
                .iter()
                .map(|(_, t)| format!("`{t}`"))
                .collect::<Vec<_>>()
                .join(", "),
            b.proptest_limit
        );
    }
    let _ = writeln!(
        s,
        "- **not run this time**: the cargo-fuzz targets as a search (the driver does not \
         drive libFuzzer yet); see the closing note of issue #32.\n"
    );
    let _ = writeln!(s, "## Control\n");
    for c in &b.control {
        let _ = writeln!(
            s,
            "- no fault active, {} seed {}: {} in {:.0} s{}",
            c.search,
            c.seed,
            if c.found {
                format!(
                    "**found something** ({}: {}): the detections below are not to be trusted",
                    c.caught_by.as_deref().unwrap_or("?"),
                    c.what.as_deref().unwrap_or("")
                )
            } else {
                "nothing found".into()
            },
            c.elapsed,
            c.error
                .as_ref()
                .map_or(String::new(), |e| format!(" (run failed: {e})"))
        );
    }
    let _ = writeln!(s, "\n## Summary\n");
    let _ = writeln!(
        s,
        "| search | faults | found (any seed) | found (most seeds) | found (every seed) | runs found | median time, misses as ∞ | median time of detections | worst detection |"
    );
    let _ = writeln!(s, "|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    for search in &b.searches {
        let m = summary(b, search);
        let pct = |k: usize| {
            if m.faults == 0 {
                "—".to_string()
            } else {
                format!("{k} ({:.0} %)", 100.0 * k as f64 / m.faults as f64)
            }
        };
        let _ = writeln!(
            s,
            "| {search} | {} | {} | {} | {} | {}/{} | {} | {} | {} |",
            m.faults,
            pct(m.found_any),
            pct(m.found_majority),
            pct(m.found_all),
            m.runs_found,
            m.runs,
            secs(m.median_all),
            secs(m.median_found),
            secs(m.worst_found)
        );
    }
    let g = grouped(b);
    for search in &b.searches {
        let Some(by) = g.get(search.as_str()) else {
            continue;
        };
        let _ = writeln!(s, "\n## {search}: each fault\n");
        let _ = writeln!(
            s,
            "| component | fault | found | median time | worst time | median cases | caught by | minimized (ops) |"
        );
        let _ = writeln!(s, "|---|---|---:|---:|---:|---:|---|---|");
        for f in &b.faults {
            let Some(runs) = by.get(f.name.as_str()) else {
                continue;
            };
            let hits: Vec<&&RunResult> = runs.iter().filter(|r| r.found).collect();
            let mut times: Vec<f64> = hits.iter().filter_map(|r| r.seconds).collect();
            let worst = times.iter().copied().reduce(f64::max);
            let mut cases: Vec<f64> = hits
                .iter()
                .filter_map(|r| r.cases.map(|c| c as f64))
                .collect();
            let mut who: BTreeMap<&str, usize> = BTreeMap::new();
            for r in &hits {
                *who.entry(r.caught_by.as_deref().unwrap_or("?"))
                    .or_default() += 1;
            }
            let who: Vec<String> = who.iter().map(|(k, n)| format!("{k} ×{n}")).collect();
            let mins: Vec<String> = hits
                .iter()
                .filter_map(|r| r.minimized)
                .map(|(a, b)| format!("{a}→{b}"))
                .collect();
            let found = format!("{}/{}", hits.len(), runs.len());
            let errors = runs.iter().filter(|r| r.error.is_some()).count();
            let _ = writeln!(
                s,
                "| {} | `{}` | {}{} | {} | {} | {} | {} | {} |",
                f.component,
                f.name,
                found,
                if errors > 0 {
                    format!(" ({errors} runs failed)")
                } else {
                    String::new()
                },
                secs(median(&mut times)),
                secs(worst),
                median(&mut cases).map_or("—".into(), |c| format!("{c:.0}")),
                if who.is_empty() {
                    "—".into()
                } else {
                    who.join(", ")
                },
                if mins.is_empty() {
                    "—".into()
                } else {
                    mins.join(" ")
                }
            );
        }
        let misses: Vec<&crate::FaultInfo> = b
            .faults
            .iter()
            .filter(|f| {
                by.get(f.name.as_str())
                    .is_some_and(|r| r.iter().all(|r| !r.found))
            })
            .collect();
        if !misses.is_empty() {
            let _ = writeln!(s, "\nNot found by {search}, and why:\n");
            for f in misses {
                let runs = &by[f.name.as_str()];
                let reached = runs.iter().filter(|r| r.reached == Some(true)).count();
                let why = if reached == 0 {
                    "its site was never executed: the search does not reach this code".to_string()
                } else {
                    format!(
                        "its site was executed ({reached} of {} runs) but no oracle or check saw a difference",
                        runs.len()
                    )
                };
                let _ = writeln!(s, "- `{}` ({}): {why}.", f.name, f.mistake);
            }
        }
    }
    let _ = writeln!(s, "\n## The faults\n");
    let _ = writeln!(s, "| component | fault | site | mistake |");
    let _ = writeln!(s, "|---|---|---|---|");
    for f in &b.faults {
        let _ = writeln!(
            s,
            "| {} | `{}` | `{}` | {} |",
            f.component, f.name, f.site, f.mistake
        );
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{FaultInfo, RunResult};

    fn run(fault: &str, seed: u64, at: Option<f64>) -> RunResult {
        RunResult {
            fault: fault.into(),
            search: "campaign".into(),
            seed,
            found: at.is_some(),
            seconds: at,
            cases: at.map(|_| 10),
            caught_by: at.map(|_| "fast".into()),
            what: None,
            minimized: None,
            reached: Some(true),
            elapsed: at.unwrap_or(60.0),
            limit: 60.0,
            error: None,
        }
    }

    #[test]
    fn medians_count_misses_as_infinite() {
        assert_eq!(median(&mut []), None);
        assert_eq!(median(&mut [3.0, 1.0, 2.0]), Some(2.0));
        assert_eq!(median(&mut [4.0, 1.0, 2.0, 3.0]), Some(2.5));
        assert_eq!(
            median(&mut [1.0, f64::INFINITY, f64::INFINITY]),
            Some(f64::INFINITY)
        );
        let fault = |n: &str| FaultInfo {
            name: n.into(),
            component: "fast".into(),
            site: String::new(),
            mistake: String::new(),
        };
        let b = Bench {
            faults: vec![fault("a"), fault("b")],
            // a: found by 2 of 3 seeds; b: by none.
            runs: vec![
                run("a", 1, Some(1.0)),
                run("a", 2, Some(3.0)),
                run("a", 3, None),
                run("b", 1, None),
                run("b", 2, None),
                run("b", 3, None),
            ],
            control: vec![],
            seeds: vec![1, 2, 3],
            campaign_limit: 60.0,
            proptest_limit: 0.0,
            searches: vec!["campaign".into()],
            jobs: 1,
            wall_seconds: 0.0,
            load: String::new(),
            commit: String::new(),
            command: String::new(),
        };
        let s = summary(&b, "campaign");
        assert_eq!(
            (s.faults, s.found_any, s.found_majority, s.found_all),
            (2, 1, 1, 0)
        );
        assert_eq!((s.runs_found, s.runs), (2, 6));
        assert_eq!(s.median_all, Some(f64::INFINITY));
        assert_eq!(s.median_found, Some(2.0));
        assert_eq!(s.worst_found, Some(3.0));
        let md = markdown(&b, "cmd");
        assert!(
            md.contains("| campaign | 2 | 1 (50 %) | 1 (50 %) | 0 (0 %) | 2/6 |"),
            "{md}"
        );
        assert!(
            md.contains("`b` (): its site was executed (3 of 3 runs)"),
            "{md}"
        );
    }
}
