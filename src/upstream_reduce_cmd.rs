//! `diopter upstream reduce`: a campaign's reductions resumed from its
//! run directory's report (`diopter_tv::upstream::report::read_run`), and
//! the reduction loop with its progress bar that `diopter upstream
//! campaign` shares.

use crate::{outln, Format};
use diopter_tv::upstream::campaign;
use diopter_tv::upstream::opt_loop::Opt;
use diopter_tv::upstream::recheck;
use diopter_tv::upstream::reduce::{self, Reducer, Reduction};
use diopter_tv::upstream::report;
use diopter_tv::upstream::tools::{self, Limits, Tool};
use std::path::PathBuf;

/// Public upstream issues a finding may match (`report::parse_known`).
pub(crate) const KNOWN_ISSUES: &str = include_str!("../corpus/upstream/known-issues.tsv");

#[derive(clap::Args)]
pub struct ReduceArgs {
    /// A campaign's run directory (its upstream.json and findings/).
    pub run_dir: PathBuf,
    /// Reduce again the findings whose reduction the time limit cut short.
    #[arg(long, conflicts_with = "again")]
    pub unfinished: bool,
    /// Reduce every finding again, reduced or not.
    #[arg(long)]
    pub again: bool,
    /// Reductions run at once (1 to 64).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..=64))]
    pub reduce_jobs: u64,
    /// One reduction's time limit, in seconds (10 to 86400).
    #[arg(long, default_value_t = 600, value_parser = clap::value_parser!(u64).range(10..=86_400))]
    pub reduce_limit: u64,
    /// One Z3 query's timeout inside the test, in milliseconds (1 to 600000).
    #[arg(long, default_value_t = 2_000, value_parser = clap::value_parser!(u32).range(1..=600_000))]
    pub timeout: u32,
    #[arg(long, value_name = "PATH")]
    pub opt: Option<PathBuf>,
    #[arg(long = "llvm-reduce", value_name = "PATH")]
    pub llvm_reduce: Option<PathBuf>,
    #[arg(long = "llvm-extract", value_name = "PATH")]
    pub llvm_extract: Option<PathBuf>,
    /// First judge every finding's input again with this diopter: a finding
    /// it no longer refutes is marked so (a false positive fixed since the
    /// run) and is no cause; a cause whose first finding is gone passes to
    /// its first finding still refuted; a kept reduction that no longer
    /// reproduces its cause is made again.
    #[arg(long)]
    pub recheck: bool,
    /// Findings rechecked at once (1 to 64).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..=64))]
    pub jobs: u64,
    /// Also write reports/upstream.{md,json}.
    #[arg(long)]
    pub report: bool,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

/// Reduces the findings whose `prior` slot is empty, rewriting the run's
/// report after each one.
pub(crate) fn reduce_findings(
    r: &Reducer,
    outcome: &campaign::Outcome,
    prior: Vec<Option<Reduction>>,
    jobs: usize,
    header: &report::RunFiles,
    e: &mut dyn std::io::Write,
) -> Vec<Reduction> {
    let todo = (0..outcome.findings.len())
        .filter(|&i| {
            prior.get(i).is_none_or(|p| p.is_none()) && reduce::leads(&outcome.findings[i])
        })
        .count();
    if todo > 0 {
        outln!(
            e,
            "reducing {todo} findings, {jobs} at a time, at most {} s each ...",
            r.limit.as_secs()
        );
    }
    let bar = indicatif::ProgressBar::new(todo as u64);
    bar.set_style(
        indicatif::ProgressStyle::with_template("{elapsed_precise} [{bar:30}] {pos}/{len} reduced")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    let one = |f: &campaign::Finding| {
        let red = r.reduce_finding(f, header.dir);
        if reduce::leads(f) {
            bar.inc(1);
        }
        red
    };
    let done = |so_far: &[Reduction]| {
        header.write(outcome, so_far);
    };
    let out = reduce::reduce_all(&outcome.findings, prior, jobs, &one, &done);
    bar.finish_and_clear();
    out
}

pub(crate) fn run_reduce(
    a: &ReduceArgs,
    w: &mut dyn std::io::Write,
    e: &mut dyn std::io::Write,
) -> u8 {
    let report::ReadRun {
        mut outcome,
        mut prior,
        command,
        opt_version,
    } = match report::read_run(
        &a.run_dir,
        if a.again {
            report::Keep::None
        } else if a.unfinished {
            report::Keep::Complete
        } else {
            report::Keep::All
        },
    ) {
        Ok(r) => r,
        Err(err) => {
            outln!(e, "diopter upstream reduce: {err}");
            return 2;
        }
    };
    let located = tools::locate(Tool::Opt, a.opt.as_deref())
        .and_then(|o| Ok((o, tools::locate(Tool::Reduce, a.llvm_reduce.as_deref())?)));
    let (opt_tool, reduce_tool) = match located {
        Ok(t) => t,
        Err(err) => {
            outln!(e, "diopter upstream reduce: {err}");
            return 2;
        }
    };
    let extract = tools::locate(Tool::Extract, a.llvm_extract.as_deref()).ok();
    let opt = Opt {
        tool: opt_tool,
        limits: Limits::default(),
    };
    if a.recheck {
        let cfg = diopter_smt::prove::ProveConfig {
            timeout_ms: a.timeout,
            ..Default::default()
        };
        outln!(
            e,
            "rechecking {} findings, {} at a time ...",
            outcome.findings.len(),
            a.jobs
        );
        let bar = indicatif::ProgressBar::new(outcome.findings.len() as u64);
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "{elapsed_precise} [{bar:30}] {pos}/{len} rechecked",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        let got = recheck::recheck(
            &mut outcome.findings,
            &mut prior,
            &opt,
            &cfg,
            a.jobs as usize,
            &|| bar.inc(1),
        );
        bar.finish_and_clear();
        outln!(
            e,
            "rechecked {}: {} no longer refuted, {} causes passed to another finding, {} reductions to make again, {} could not be checked",
            got.findings,
            got.gone.len(),
            got.moved.len(),
            got.dropped.len(),
            got.errors.len()
        );
        for (id, why) in &got.errors {
            outln!(e, "  {id}: {why}");
        }
    }
    let r = Reducer::new(reduce_tool, extract, opt, a.reduce_limit, a.timeout);
    let known = report::parse_known(KNOWN_ISSUES);
    let reduce_command = format!(
        "diopter upstream reduce {}",
        std::env::args().skip(3).collect::<Vec<_>>().join(" ")
    );
    let header = report::RunFiles {
        dir: &a.run_dir,
        known: &known,
        command: &command,
        reduce_command: Some(reduce_command.trim()),
        opt_version: &opt_version,
    };
    let reduced = reduce_findings(&r, &outcome, prior, a.reduce_jobs as usize, &header, e);
    let (md, js) = header.write(&outcome, &reduced);
    if a.report {
        let _ = std::fs::write("reports/upstream.md", &md);
        let _ = std::fs::write("reports/upstream.json", &js);
    }
    let (ok, firsts) = reduce::reduced_causes(&outcome.findings, &reduced);
    match a.format {
        Format::Json => outln!(w, "{js}"),
        Format::Text => outln!(
            w,
            "{ok} of {firsts} distinct causes reduced; report: {}",
            a.run_dir.join("upstream.md").display()
        ),
    }
    u8::from(ok < firsts)
}
