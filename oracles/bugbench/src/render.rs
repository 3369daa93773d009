//! `reports/bugbench.md` and `.json` from a [`Bench`].

use crate::drive::Bench;
use crate::fuzz::Build;
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

/// `items` joined by `sep`, or `empty` when there are none.
fn or_else(items: Vec<String>, sep: &str, empty: &str) -> String {
    if items.is_empty() {
        empty.to_string()
    } else {
        items.join(sep)
    }
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

/// Per fault, per seed: the first detection among `searches` (their runs
/// taken as if run side by side): `Some(seconds)` or `None` (a miss).
/// Faults none of the searches ran are left out.
pub fn detections(b: &Bench, searches: &[&str]) -> BTreeMap<String, BTreeMap<u64, Option<f64>>> {
    let mut d: BTreeMap<String, BTreeMap<u64, Option<f64>>> = BTreeMap::new();
    for r in b
        .runs
        .iter()
        .filter(|r| searches.contains(&r.search.as_str()))
    {
        let slot = d
            .entry(r.fault.clone())
            .or_default()
            .entry(r.seed)
            .or_insert(None);
        if r.found {
            let t = r.seconds.unwrap_or(0.0);
            *slot = Some(slot.map_or(t, |old: f64| old.min(t)));
        }
    }
    d
}

/// The headline figures of `searches` taken together (one search, or
/// every fuzz target as if run side by side).
pub fn summary_of(b: &Bench, searches: &[&str]) -> Summary {
    let d = detections(b, searches);
    let mut s = Summary {
        faults: d.len(),
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
    for seeds in d.values() {
        let k = seeds.values().filter(|t| t.is_some()).count();
        s.found_any += usize::from(k > 0);
        s.found_majority += usize::from(2 * k > seeds.len());
        s.found_all += usize::from(k == seeds.len());
        s.runs_found += k;
        s.runs += seeds.len();
        for t in seeds.values() {
            all.push(t.unwrap_or(f64::INFINITY));
            found.extend(*t);
        }
    }
    s.median_all = median(&mut all);
    s.worst_found = found.iter().copied().reduce(f64::max);
    s.median_found = median(&mut found);
    s
}

/// The headline figures of one search.
pub fn summary(b: &Bench, search: &str) -> Summary {
    summary_of(b, &[search])
}

/// One line of headline figures (the README's, through `bugbench.json`'s
/// `summary`): how many faults some search finds, and the default job's
/// campaign's share and times.
pub fn headline(b: &Bench) -> String {
    let all: Vec<&str> = b.searches.iter().map(String::as_str).collect();
    let any = summary_of(b, &all);
    let mut line = format!(
        "{} planted faults, {} found by some search ({} with every seed)",
        b.faults.len(),
        any.found_any,
        any.found_all
    );
    if b.searches.iter().any(|s| s == "campaign") {
        let c = summary(b, "campaign");
        let pct = |k: usize| 100.0 * k as f64 / c.faults.max(1) as f64;
        line.push_str(&format!(
            "; the default job's campaign ({:.0} s) finds {} with every seed ({:.0} %), {} with some, \
             median time to detection {} (misses as never), worst detection {}",
            b.campaign_limit,
            c.found_all,
            pct(c.found_all),
            c.found_any,
            secs(c.median_all),
            secs(c.worst_found)
        ));
    }
    line
}

/// The fuzz-target searches of `b` with the campaign's builds (the
/// traced builds of [`tracing_section`] are a comparison, not a search
/// the campaign makes).
fn fuzz_searches(b: &Bench) -> Vec<&str> {
    b.searches
        .iter()
        .map(String::as_str)
        .filter(|s| matches!(crate::fuzz::build_of(s), Some((_, Build::Campaign))))
        .collect()
}

fn summary_row(s: &mut String, label: &str, m: &Summary) {
    let pct = |k: usize| {
        if m.faults == 0 {
            "—".to_string()
        } else {
            format!("{k} ({:.0} %)", 100.0 * k as f64 / m.faults as f64)
        }
    };
    let _ = writeln!(
        s,
        "| {label} | {} | {} | {} | {} | {}/{} | {} | {} | {} |",
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
             fault active, `PROPTEST_RNG_SEED` set to the seed and failure persistence off (the \
             committed regressions neither replayed nor written), limit {:.0} s, stopped at the first \
             failing test; proptest shrinks what it finds itself (no case count is available).",
            crate::drive::PROPTEST_FILES
                .iter()
                .map(|(_, t)| format!("`{t}`"))
                .collect::<Vec<_>>()
                .join(", "),
            b.proptest_limit
        );
    }
    if fuzz_searches(b).is_empty() {
        let _ = writeln!(
            s,
            "- **not run this time**: the cargo-fuzz targets (`--searches fuzz`).\n"
        );
    } else {
        let _ = writeln!(
            s,
            "- **fuzz:TARGET**: one cargo-fuzz target ({}), built with the faults as `diopter campaign` \
             builds it and run with its libFuzzer flags (`-timeout`, `-rss_limit_mb`, the dictionary for \
             the text targets, the committed seed corpus) and `-seed`, one process, limit {:.0} s, stopped \
             by its first crash, timeout or out-of-memory input. Cases are libFuzzer's executions; \
             \"minimized\" is `diopter minimize` on the case file the differential targets write. Each \
             target first runs a control per seed: a fault whose site that control never passed is \
             skipped for that target and seed (libFuzzer is deterministic for a seed until the site \
             changes something, so the run would replay the control) and counts as a miss.\n",
            fuzz_searches(b)
                .iter()
                .map(|t| format!("`{}`", crate::fuzz::target_of(t).unwrap_or(t)))
                .collect::<Vec<_>>()
                .join(", "),
            b.fuzz_limit
        );
    }
    let _ = writeln!(s, "## Control\n");
    let fuzz_controls = b
        .control
        .iter()
        .filter(|c| crate::fuzz::target_of(&c.search).is_some());
    let (nf, nf_found) = fuzz_controls.fold((0, 0), |(n, k), c| (n + 1, k + usize::from(c.found)));
    if nf > 0 {
        let _ = writeln!(
            s,
            "- no fault active, the fuzz targets, every seed: {nf} runs, {}",
            if nf_found == 0 {
                "nothing found".to_string()
            } else {
                format!("**{nf_found} found something** (below): those detections are not to be trusted")
            }
        );
    }
    for c in &b.control {
        if crate::fuzz::target_of(&c.search).is_some() && !c.found && c.error.is_none() {
            continue;
        }
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
    let fuzz = fuzz_searches(b);
    for search in &b.searches {
        summary_row(&mut s, search, &summary(b, search));
    }
    if !fuzz.is_empty() {
        summary_row(
            &mut s,
            "**cargo fuzz, every target side by side**",
            &summary_of(b, &fuzz),
        );
    }
    if b.searches.len() > 1 {
        let all: Vec<&str> = b.searches.iter().map(String::as_str).collect();
        summary_row(&mut s, "**any search**", &summary_of(b, &all));
    }
    let _ = writeln!(
        s,
        "\nA row of several searches takes, for each fault and seed, the first detection among them, \
         as if they ran side by side; skipped fuzz runs count as misses."
    );
    let g = grouped(b);
    for search in &b.searches {
        if crate::fuzz::target_of(search).is_some() {
            continue;
        }
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
                or_else(who, ", ", "—"),
                or_else(mins, " ", "—")
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
    if !fuzz.is_empty() {
        fuzz_section(&mut s, b, &fuzz);
    }
    tracing_section(&mut s, b);
    every_fault_section(&mut s, b);
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

/// The targets searched both with the campaign's build and with
/// comparison tracing (`fuzz-trace-cmp:TARGET`): per target and build, what
/// was found and how fast, then per fault; the campaign's build of a
/// target should be the one that finds faster, whatever its exec/s.
fn tracing_section(s: &mut String, b: &Bench) {
    let pairs: Vec<(&str, String, String)> = b
        .searches
        .iter()
        .filter_map(|x| match crate::fuzz::build_of(x) {
            Some((t, Build::TraceCmp)) => {
                let campaign = Build::Campaign.search(t);
                b.searches
                    .contains(&campaign)
                    .then(|| (t, campaign, x.clone()))
            }
            _ => None,
        })
        .collect();
    if pairs.is_empty() {
        return;
    }
    let _ = writeln!(s, "\n## Comparison tracing: which build finds faster\n");
    let _ = writeln!(
        s,
        "Each target searched twice with the same seeds, limit and flags: `fuzz:TARGET` built as \
         `diopter campaign` builds it (without comparison tracing for {}), `fuzz-trace-cmp:TARGET` \
         built with it (cargo fuzz's default). Times are wall-clock seconds to the first finding; \
         \"control executions\" are what the control run (no fault) of each seed executed in the \
         limit, the build's speed on this machine at that time.\n",
        crate::fuzz::NO_TRACE_COMPARES
            .iter()
            .map(|t| format!("`{t}`"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let _ = writeln!(
        s,
        "| target | build | comparison tracing | found (any seed) | runs found | median time, misses as ∞ | median time of detections | median executions to detection | control executions (median) |"
    );
    let _ = writeln!(s, "|---|---|---|---:|---:|---:|---:|---:|---:|");
    for (t, campaign, traced) in &pairs {
        for search in [campaign, traced] {
            let m = summary(b, search);
            let hits: Vec<&RunResult> = b
                .runs
                .iter()
                .filter(|r| &r.search == search && r.found)
                .collect();
            let mut cases: Vec<f64> = hits
                .iter()
                .filter_map(|r| r.cases.map(|c| c as f64))
                .collect();
            let mut ctl: Vec<f64> = b
                .control
                .iter()
                .filter(|c| &c.search == search)
                .filter_map(|c| c.cases.map(|c| c as f64))
                .collect();
            let how = crate::fuzz::build_of(search).map_or(Build::Campaign, |x| x.1);
            let _ = writeln!(
                s,
                "| `{t}` | {} | {} | {} | {}/{} | {} | {} | {} | {} |",
                if how == Build::Campaign {
                    "campaign's"
                } else {
                    "traced"
                },
                if how.traces(t) { "on" } else { "off" },
                m.found_any,
                m.runs_found,
                m.runs,
                secs(m.median_all),
                secs(m.median_found),
                median(&mut cases).map_or("—".into(), |c| format!("{c:.0}")),
                median(&mut ctl).map_or("—".into(), |c| format!("{c:.0}")),
            );
        }
    }
    let _ = writeln!(
        s,
        "\nPer fault found by either build: seeds that found it, median time (misses as ∞).\n"
    );
    let mut head = "| fault |".to_string();
    let mut rule = "|---|".to_string();
    for (t, _, _) in &pairs {
        head.push_str(&format!(" `{t}` campaign's | `{t}` traced |"));
        rule.push_str("---:|---:|");
    }
    let _ = writeln!(s, "{head}\n{rule}");
    let cells: Vec<_> = pairs
        .iter()
        .flat_map(|(_, c, t)| [detections(b, &[c.as_str()]), detections(b, &[t.as_str()])])
        .collect();
    for f in &b.faults {
        let found = |d: &BTreeMap<String, BTreeMap<u64, Option<f64>>>| {
            d.get(&f.name)
                .is_some_and(|seeds| seeds.values().any(Option::is_some))
        };
        if !cells.iter().any(found) {
            continue;
        }
        let mut row = format!("| `{}` |", f.name);
        for d in &cells {
            let Some(seeds) = d.get(&f.name) else {
                row.push_str(" — |");
                continue;
            };
            let k = seeds.values().filter(|t| t.is_some()).count();
            let mut times: Vec<f64> = seeds.values().map(|t| t.unwrap_or(f64::INFINITY)).collect();
            row.push_str(&format!(
                " {k}/{} {} |",
                seeds.len(),
                secs(median(&mut times))
            ));
        }
        let _ = writeln!(s, "{row}");
    }
}

/// The fuzz targets' table: per fault, which targets found it and how fast.
fn fuzz_section(s: &mut String, b: &Bench, fuzz: &[&str]) {
    let _ = writeln!(s, "\n## cargo fuzz: each fault\n");
    let _ = writeln!(
        s,
        "Per target: seeds that found it / seeds run (skipped runs not counted as run), median time, \
         median executions. \"Controls passed its site\": the targets whose control run passed the \
         fault's site with at least one seed.\n"
    );
    let _ = writeln!(
        s,
        "| component | fault | found (any target) | median time (any target) | found by | controls passed its site | minimized (ops) |"
    );
    let _ = writeln!(s, "|---|---|---:|---:|---|---|---|");
    let d = detections(b, fuzz);
    let name = |search: &str| {
        search
            .strip_prefix(crate::fuzz::SEARCH_PREFIX)
            .unwrap_or(search)
            .to_string()
    };
    for f in &b.faults {
        let Some(seeds) = d.get(&f.name) else {
            continue;
        };
        let k = seeds.values().filter(|t| t.is_some()).count();
        let mut times: Vec<f64> = seeds.values().map(|t| t.unwrap_or(f64::INFINITY)).collect();
        let mut by = Vec::new();
        let mut mins = Vec::new();
        for search in fuzz {
            let runs: Vec<&RunResult> = b
                .runs
                .iter()
                .filter(|r| r.fault == f.name && r.search == *search && r.skipped.is_none())
                .collect();
            let hits: Vec<&&RunResult> = runs.iter().filter(|r| r.found).collect();
            if hits.is_empty() {
                continue;
            }
            let mut t: Vec<f64> = hits.iter().filter_map(|r| r.seconds).collect();
            let mut c: Vec<f64> = hits
                .iter()
                .filter_map(|r| r.cases.map(|c| c as f64))
                .collect();
            by.push(format!(
                "{} {}/{} {} ({} execs)",
                name(search),
                hits.len(),
                runs.len(),
                secs(median(&mut t)),
                median(&mut c).map_or("?".into(), |c| format!("{c:.0}"))
            ));
            mins.extend(
                hits.iter()
                    .filter_map(|r| r.minimized)
                    .map(|(x, y)| format!("{x}→{y}")),
            );
        }
        let reached: Vec<String> = fuzz
            .iter()
            .filter(|search| {
                b.control
                    .iter()
                    .any(|c| c.search == **search && c.sites.contains(&f.name))
            })
            .map(|search| name(search))
            .collect();
        let _ = writeln!(
            s,
            "| {} | `{}` | {k}/{} | {} | {} | {} | {} |",
            f.component,
            f.name,
            seeds.len(),
            secs(median(&mut times)),
            or_else(by, "; ", "—"),
            or_else(reached, ", ", "none"),
            or_else(mins, " ", "—")
        );
    }
}

/// Every fault's best search: the figure the benchmark is judged by.
fn every_fault_section(s: &mut String, b: &Bench) {
    if b.searches.len() < 2 {
        return;
    }
    let fuzz = fuzz_searches(b);
    let mut groups: Vec<(String, Vec<&str>)> = b
        .searches
        .iter()
        .filter(|x| crate::fuzz::target_of(x).is_none())
        .map(|x| (x.clone(), vec![x.as_str()]))
        .collect();
    if !fuzz.is_empty() {
        groups.push(("cargo fuzz".into(), fuzz.clone()));
    }
    let ds: Vec<_> = groups.iter().map(|(_, g)| detections(b, g)).collect();
    let _ = writeln!(s, "\n## Every fault: found by some search?\n");
    let mut head = "| fault |".to_string();
    let mut rule = "|---|".to_string();
    for (label, _) in &groups {
        head.push_str(&format!(" {label} |"));
        rule.push_str("---:|");
    }
    let _ = writeln!(s, "{head} fastest |\n{rule}---|");
    let mut unfound = Vec::new();
    for f in &b.faults {
        let mut row = format!("| `{}` |", f.name);
        let mut best: Option<(f64, &str)> = None;
        for ((label, _), d) in groups.iter().zip(&ds) {
            match d.get(&f.name) {
                None => row.push_str(" — |"),
                Some(seeds) => {
                    let k = seeds.values().filter(|t| t.is_some()).count();
                    let mut t: Vec<f64> =
                        seeds.values().map(|t| t.unwrap_or(f64::INFINITY)).collect();
                    let m = median(&mut t).unwrap_or(f64::INFINITY);
                    row.push_str(&format!(" {k}/{} |", seeds.len()));
                    if k > 0 && best.is_none_or(|(bt, _)| m < bt) {
                        best = Some((m, label));
                    }
                }
            }
        }
        match best {
            Some((t, label)) => row.push_str(&format!(" {label}, median {} |", secs(Some(t)))),
            None => {
                row.push_str(" **none** |");
                unfound.push(f.name.as_str());
            }
        }
        let _ = writeln!(s, "{row}");
    }
    let _ = writeln!(
        s,
        "\n{} of {} faults found by at least one search{}.",
        b.faults.len() - unfound.len(),
        b.faults.len(),
        if unfound.is_empty() {
            String::new()
        } else {
            format!(
                "; not found: {}",
                unfound
                    .iter()
                    .map(|n| format!("`{n}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        }
    );
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
            skipped: None,
            sites: Vec::new(),
        }
    }

    /// A benchmark of the fuzz searches `searches` over one fault, `a`.
    fn one_fault_bench(runs: Vec<RunResult>, searches: &[&str], seeds: Vec<u64>) -> Bench {
        Bench {
            faults: vec![FaultInfo {
                name: "a".into(),
                component: "fast".into(),
                site: String::new(),
                mistake: String::new(),
            }],
            runs,
            control: vec![],
            seeds,
            campaign_limit: 0.0,
            proptest_limit: 0.0,
            fuzz_limit: 60.0,
            searches: searches.iter().map(|x| x.to_string()).collect(),
            jobs: 1,
            wall_seconds: 0.0,
            load: String::new(),
            commit: String::new(),
            command: String::new(),
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
            fuzz_limit: 0.0,
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

    /// Two fuzz targets side by side: a fault's detection with a seed is
    /// the earlier of the two; a skipped run is a miss.
    #[test]
    fn fuzz_targets_combine_side_by_side() {
        let fz = |fault: &str, t: &str, seed: u64, at: Option<f64>| {
            let mut r = run(fault, seed, at);
            r.search = format!("fuzz:{t}");
            r
        };
        let mut skipped = fz("a", "check_eval", 2, None);
        skipped.skipped = Some("control".into());
        let b = one_fault_bench(
            vec![
                fz("a", "eval_diff", 1, Some(5.0)),
                fz("a", "check_eval", 1, Some(2.0)),
                fz("a", "eval_diff", 2, None),
                skipped,
                fz("a", "eval_diff", 3, Some(7.0)),
                fz("a", "check_eval", 3, None),
            ],
            &["fuzz:eval_diff", "fuzz:check_eval"],
            vec![1, 2, 3],
        );
        let both = summary_of(&b, &["fuzz:eval_diff", "fuzz:check_eval"]);
        // Seeds 1 and 3 found (at 2 s and 7 s), seed 2 missed.
        assert_eq!((both.runs_found, both.runs), (2, 3));
        assert_eq!(both.median_all, Some(7.0));
        assert_eq!(both.worst_found, Some(7.0));
        let one = summary(&b, "fuzz:check_eval");
        assert_eq!(
            (one.runs_found, one.runs, one.median_all),
            (1, 3, Some(f64::INFINITY))
        );
        let md = markdown(&b, "cmd");
        assert!(md.contains("| **cargo fuzz, every target side by side** | 1 | 1 (100 %) | 1 (100 %) | 0 (0 %) | 2/3 |"), "{md}");
        // check_eval: 1 of the 2 runs made (the skipped one is not counted).
        assert!(
            md.contains("eval_diff 2/3 6.0 s (10 execs); check_eval 1/2 2.0 s"),
            "{md}"
        );
        assert!(
            md.contains("1 of 1 faults found by at least one search"),
            "{md}"
        );
    }

    /// A target searched with both builds: the traced one gets its own row
    /// in the comparison, and stays out of the campaign's side-by-side row.
    #[test]
    fn traced_builds_are_compared_not_combined() {
        let fz = |search: &str, seed: u64, at: Option<f64>| {
            let mut r = run("a", seed, at);
            r.search = search.into();
            r
        };
        let mut control = fz("fuzz-trace-cmp:eval_diff", 1, None);
        control.fault = "none".into();
        control.cases = Some(500);
        let mut b = one_fault_bench(
            vec![
                fz("fuzz:eval_diff", 1, Some(4.0)),
                fz("fuzz:eval_diff", 2, None),
                fz("fuzz-trace-cmp:eval_diff", 1, Some(1.0)),
                fz("fuzz-trace-cmp:eval_diff", 2, Some(3.0)),
            ],
            &["fuzz:eval_diff", "fuzz-trace-cmp:eval_diff"],
            vec![1, 2],
        );
        b.control = vec![control];
        let md = markdown(&b, "cmd");
        assert!(
            md.contains("## Comparison tracing: which build finds faster"),
            "{md}"
        );
        assert!(
            md.contains("| `eval_diff` | campaign's | off | 1 | 1/2 | ∞ | 4.0 s | 10 | — |"),
            "{md}"
        );
        assert!(
            md.contains("| `eval_diff` | traced | on | 1 | 2/2 | 2.0 s | 2.0 s | 10 | 500 |"),
            "{md}"
        );
        assert!(md.contains("| `a` | 1/2 ∞ | 2/2 2.0 s |"), "{md}");
        // The side-by-side row is the campaign's build alone.
        assert!(md.contains("| **cargo fuzz, every target side by side** | 1 | 1 (100 %) | 0 (0 %) | 0 (0 %) | 1/2 | ∞ |"), "{md}");
    }
}
