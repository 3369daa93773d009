//! `diopter prove --transforms`: proves the transformations' local rewrites
//! (`corpus/transforms/*.rules`, see `diopter_transforms::schemas`) and
//! writes `reports/transforms.md` and `reports/transforms.json`.
//!
//! It shares `diopter prove`'s options (widths, timeout, jobs, --rule,
//! --strict, --no-report, --report-dir); its rules are not the simplifier's
//! and its piece rules are instantiated per piece-width tuple.

use crate::prove_cmd::Args;
use diopter_rules::{self as rules, render_located};
use diopter_smt::prove::ProveConfig;
use diopter_transforms::schemas::{
    as_claimed, instances, prove_all, report_json, report_markdown, RULES_DIR,
};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Mutex;
use std::time::Instant;

pub fn run(a: &Args) -> ExitCode {
    let paths: Vec<PathBuf> = if a.paths.is_empty() {
        vec![PathBuf::from(RULES_DIR)]
    } else {
        a.paths.clone()
    };
    let mut rules = match rules::load_rule_files(&paths) {
        Ok(r) => r,
        Err(d) => {
            eprint!("{}", render_located(&d));
            return ExitCode::from(2);
        }
    };
    if !a.rule.is_empty() {
        rules.retain(|r| a.rule.iter().any(|f| r.name.contains(f.as_str())));
    }
    let widths = crate::prove_cmd::base_widths(a);
    let work = instances(&rules, &widths);
    let jobs = a
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    eprintln!(
        "proving {} instances of {} transformation rules (widths {:?}, timeout {} ms, {jobs} jobs)",
        work.len(),
        rules.len(),
        widths,
        a.timeout
    );
    let start = Instant::now();
    let last = Mutex::new(Instant::now());
    let outs = prove_all(
        &work,
        &ProveConfig {
            timeout_ms: a.timeout,
            split_first: true,
            deadline: None,
            values_first: false,
        },
        jobs,
        &|done, total| {
            let mut l = last.lock().expect("not poisoned");
            if l.elapsed().as_secs() >= 5 || done == total {
                eprintln!(
                    "  {done}/{total} instances, {:.1} s",
                    start.elapsed().as_secs_f64()
                );
                *l = Instant::now();
            }
        },
    );
    let md = report_markdown(&rules, &work, &outs, &widths, a.timeout);
    let mut failed = false;
    for (k, r) in rules.iter().enumerate() {
        let mine: Vec<_> = (0..work.len())
            .filter(|&i| work[i].rule == k)
            .map(|i| &outs[i])
            .collect();
        let claimed = as_claimed(r, &mine);
        failed |= claimed == Some(false) || (claimed.is_none() && a.strict);
        let proved = mine
            .iter()
            .filter(|o| o.all.verdict.label() == "proved")
            .count();
        println!(
            "{} {}: {proved}/{} instances proved",
            match claimed {
                Some(true) => "ok",
                Some(false) => "FAIL",
                None => "unknown",
            },
            r.name,
            mine.len()
        );
        for (i, o) in (0..work.len()).filter(|&i| work[i].rule == k).zip(&mine) {
            let again = o.without_memory.as_ref().map_or(String::new(), |w| {
                format!(
                    "; without memory shapes: {} {} ms",
                    w.verdict.label(),
                    w.millis
                )
            });
            println!(
                "    {:<14} {:>7} ms  {}{again}",
                o.all.verdict.label(),
                o.all.millis,
                work[i].label
            );
        }
    }
    println!(
        "{} instances in {:.1} s",
        work.len(),
        start.elapsed().as_secs_f64()
    );
    if !a.no_report {
        let report_dir = a
            .report_dir
            .clone()
            .unwrap_or_else(|| std::path::PathBuf::from("reports"));
        let json = report_json(&rules, &work, &outs, &widths, a.timeout);
        let written = std::fs::create_dir_all(&report_dir)
            .and_then(|()| std::fs::write(report_dir.join("transforms.md"), &md))
            .and_then(|()| {
                std::fs::write(
                    report_dir.join("transforms.json"),
                    serde_json::to_string_pretty(&json).unwrap_or_default() + "\n",
                )
            });
        if let Err(e) = written {
            eprintln!(
                "warning: writing the reports in {}: {e}",
                report_dir.display()
            );
        }
    }
    if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
