//! `diopter upstream`: upstream LLVM under test. `campaign` feeds modules
//! through debugify and each of `opt`'s passes and validates every record
//! (`diopter_tv::upstream::campaign`), reduces each finding with
//! `llvm-reduce` and writes the report; `interesting` is the test
//! `llvm-reduce` runs.

use crate::{out, outln, Format};
use diopter_smt::prove::ProveConfig;
use diopter_tv::upstream::campaign::{self, Config, Progress};
use diopter_tv::upstream::opt_loop::Opt;
use diopter_tv::upstream::reduce::{self, Reducer, Reduction};
use diopter_tv::upstream::report;
use diopter_tv::upstream::tools::{self, Limits, Tool};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

pub const UPSTREAM_HELP: &str = "\
CAMPAIGN
  diopter upstream campaign [--minutes M] [--pass P]... [--inputs DIR]...

  Each module (llvm-stress output, diopter's own integer-function generator,
  and every .ll file under --inputs) is stripped of its debug information and
  debugified (`opt -passes=debugify`: a variable for every instruction
  result), then run through each pass alone (`opt -S -passes=P`), and every
  matched pair of debug records is validated as `diopter validate BEFORE.ll
  AFTER.ll` validates it. A refuted record whose operands all resolve to
  values both files share is a FINDING; findings are deduplicated by pass
  and cause. A refutation that holds once a narrow operand's upper register
  bits (zeros or sign copies) or the generic type's signedness is fixed is
  one mistake of that READING: its cause is the reading and the DW_OPs of
  the after-record that can see it (DW_OP_shr, div, mod, the comparisons).
  Any other cause is each record's DW_OPs and the opcodes and flags each
  side was derived through, as sets (names, widths, constants and an
  icmp's predicate left out; DW_OP_lt/le/gt/ge count as one, as do eq/ne).
  Each
  one's debugified input kept under OUT/findings/ID/src.ll and reduced by
  llvm-reduce with diopter as the interestingness test (the same cause must
  remain). A refutation that rests
  on an operand with no known relation between the files is counted as
  inconclusive, never as a finding. `opt` crashing or running past
  --opt-timeout on a pass is reported as such.

  Output: a progress bar on stderr, the per-pass table and the findings
  (text or --format json); OUT/upstream.{md,json}, rewritten every 30 s
  while the campaign runs and after each reduction (a killed run keeps its
  findings); with --report also reports/upstream.{md,json}.

  Exit status: 0 no finding; 1 some finding (or an opt crash); 2 bad
  arguments, or opt/llvm-stress/llvm-reduce missing (the message names the
  Debian package: apt-get install -y llvm-19).

  Reductions: one per distinct cause, --reduce-jobs at a time, each at
  most --reduce-limit seconds: the finding's function is first cut out of
  its module (llvm-extract, kept only if the cause survives), then
  llvm-reduce runs; one cut short by the limit keeps its best reproducer so
  far (marked in the report). A reduced.ll per finding beside its src.ll.

REDUCE
  diopter upstream reduce RUN_DIR [--again | --unfinished] [--recheck] [--reduce-jobs N] [--reduce-limit S]

  Resumes a run's reductions from its report alone (RUN_DIR/upstream.json,
  written at every checkpoint): each distinct cause not yet reduced (with
  --again, every one; with --unfinished, also those the limit cut short)
  is reduced as above, and the report rewritten after each, naming the
  resuming command. For a campaign killed or cut short while reducing, or
  reduced with a smaller limit. With --recheck, every finding's input is
  first run through its pass and validated again by this diopter: a
  finding it no longer refutes is marked `no longer refuted` (a diopter
  false positive fixed since the run; listed apart, never reduced), a cause
  whose first finding is gone passes to its first finding still refuted,
  and a reduction that no longer reproduces its cause is made again (a
  reduction guided by the older test may keep only what it wrongly
  refuted). Exit status: 0 every
  distinct cause reduced, 1 some not, 2 not a run directory or a tool
  missing.

  Replay one finding:  diopter validate --passes P OUT/findings/ID/src.ll
  (the file already carries debugify's records; add --debugify to start
  from a file without them).
";

#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    pub what: What,
}

#[derive(clap::Subcommand)]
pub enum What {
    /// Fuzz opt's passes: debugify, run each pass, validate every record, reduce each finding.
    Campaign(CampaignArgs),
    /// Resume a run's reductions: reduce each finding in RUN_DIR/upstream.json not yet reduced.
    Reduce(crate::upstream_reduce_cmd::ReduceArgs),
    /// llvm-reduce's test: exit 0 when PASS on FILE still gives a refutation of CAUSE-ID.
    #[command(hide = true)]
    Interesting(InterestingArgs),
}

#[derive(clap::Args)]
pub struct CampaignArgs {
    /// How long to run, in minutes (0.05 to 10080).
    #[arg(long, default_value_t = 5.0, value_parser = minutes)]
    pub minutes: f64,
    /// Stop after this many modules, even with time left.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=10_000_000))]
    pub modules: Option<u64>,
    /// A pass pipeline to run (opt -passes= syntax); may be repeated. Default: 24 passes that rewrite or delete instructions.
    #[arg(long = "pass", value_name = "PIPELINE")]
    pub passes: Vec<String>,
    /// A directory (searched for .ll files) or an .ll file to take modules from; may be repeated.
    #[arg(long, value_name = "PATH")]
    pub inputs: Vec<PathBuf>,
    /// No llvm-stress modules.
    #[arg(long)]
    pub no_stress: bool,
    /// No modules from diopter's own generator.
    #[arg(long)]
    pub no_irgen: bool,
    /// The first seed of llvm-stress and the generator.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads (1 to 64). Workers overlap their `opt` runs; Z3
    /// queries and forks take turns (libz3's fork handler is not safe
    /// against a query running in another thread).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..=64))]
    pub jobs: u64,
    /// One Z3 query's timeout, in milliseconds (1 to 600000).
    #[arg(long, default_value_t = 2_000, value_parser = clap::value_parser!(u32).range(1..=600_000))]
    pub timeout: u32,
    /// One opt run's time limit, in seconds (1 to 3600).
    #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub opt_timeout: u64,
    /// Reduce no finding.
    #[arg(long)]
    pub no_reduce: bool,
    /// Reductions run at once (1 to 64; default: --jobs). Each is its own
    /// llvm-reduce process, so this may exceed --jobs safely.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=64))]
    pub reduce_jobs: Option<u64>,
    /// One reduction's time limit, in seconds (10 to 86400).
    #[arg(long, default_value_t = 600, value_parser = clap::value_parser!(u64).range(10..=86_400))]
    pub reduce_limit: u64,
    #[arg(long, value_name = "PATH")]
    pub opt: Option<PathBuf>,
    #[arg(long = "llvm-stress", value_name = "PATH")]
    pub llvm_stress: Option<PathBuf>,
    #[arg(long = "llvm-reduce", value_name = "PATH")]
    pub llvm_reduce: Option<PathBuf>,
    /// Cuts a finding's function out before llvm-reduce (optional: without it the whole module is reduced).
    #[arg(long = "llvm-extract", value_name = "PATH")]
    pub llvm_extract: Option<PathBuf>,
    /// The run directory (default target/upstream/SEED-TIME, printed at the end).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Also write reports/upstream.{md,json}.
    #[arg(long)]
    pub report: bool,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

fn minutes(s: &str) -> Result<f64, String> {
    let m: f64 = s
        .parse()
        .map_err(|_| format!("`{s}` is not a number of minutes"))?;
    if (0.05..=10_080.0).contains(&m) {
        Ok(m)
    } else {
        Err(format!("{m} minutes is outside 0.05..=10080"))
    }
}

#[derive(clap::Args)]
pub struct InterestingArgs {
    #[arg(long)]
    pub pass: String,
    #[arg(long = "cause-id")]
    pub cause_id: String,
    #[arg(long)]
    pub opt: Option<PathBuf>,
    #[arg(long, default_value_t = 2_000, value_parser = clap::value_parser!(u32).range(1..=600_000))]
    pub timeout: u32,
    pub file: PathBuf,
}

pub fn run(a: &Args) -> ExitCode {
    crate::run_std(|o, e| match &a.what {
        What::Campaign(c) => run_campaign(c, o, e),
        What::Reduce(r) => crate::upstream_reduce_cmd::run_reduce(r, o, e),
        What::Interesting(i) => interesting(i),
    })
}

fn interesting(a: &InterestingArgs) -> u8 {
    match reduce::interesting(&a.file, &a.pass, &a.cause_id, a.opt.as_deref(), a.timeout) {
        Ok(true) => 0,
        Ok(false) => 1,
        Err(_) => 2,
    }
}

/// The progress bar, and the run directory's report rewritten at each
/// checkpoint (reductions pending), so that a killed campaign leaves its
/// findings listed.
struct Live<'a> {
    bar: indicatif::ProgressBar,
    header: report::RunFiles<'a>,
}

impl Live<'_> {
    /// The run directory's report, every reduction still pending.
    fn write(&self, so_far: &campaign::Outcome) {
        let pending: Vec<Reduction> = so_far
            .findings
            .iter()
            .map(|_| Err("reduction pending".into()))
            .collect();
        self.header.write(so_far, &pending);
    }
}

impl Progress for Live<'_> {
    fn module_done(&self, modules: usize, findings: usize, elapsed: Duration) {
        self.bar
            .set_position(elapsed.as_secs().min(self.bar.length().unwrap_or(u64::MAX)));
        self.bar
            .set_message(format!("{modules} modules, {findings} findings"));
    }

    fn checkpoint(&self, so_far: &campaign::Outcome) {
        self.write(so_far);
    }
}

fn run_campaign(a: &CampaignArgs, w: &mut dyn std::io::Write, e: &mut dyn std::io::Write) -> u8 {
    let opt_tool = match tools::locate(Tool::Opt, a.opt.as_deref()) {
        Ok(t) => t,
        Err(err) => {
            outln!(e, "diopter upstream: {err}");
            return 2;
        }
    };
    let stress = if a.no_stress {
        None
    } else {
        match tools::locate(Tool::Stress, a.llvm_stress.as_deref()) {
            Ok(t) => Some(t),
            Err(err) => {
                outln!(e, "diopter upstream: {err} (or pass --no-stress)");
                return 2;
            }
        }
    };
    let reducer_tool = if a.no_reduce {
        None
    } else {
        match tools::locate(Tool::Reduce, a.llvm_reduce.as_deref()) {
            Ok(t) => Some(t),
            Err(err) => {
                outln!(e, "diopter upstream: {err} (or pass --no-reduce)");
                return 2;
            }
        }
    };
    let mut files = Vec::new();
    for p in &a.inputs {
        if let Err(err) = campaign::collect_ll(p, &mut files) {
            outln!(e, "diopter upstream: --inputs {}: {err}", p.display());
            return 2;
        }
    }
    if a.no_stress && a.no_irgen && files.is_empty() {
        outln!(e, "diopter upstream: no modules to test: --no-stress and --no-irgen leave only --inputs, and it gave no .ll file");
        return 2;
    }
    let passes = match campaign::pipelines(&a.passes) {
        Ok(p) => p,
        Err(err) => {
            outln!(e, "diopter upstream: {err}");
            return 2;
        }
    };
    let stamp = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let out_dir = a
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("target/upstream/{}-{stamp}", a.seed)));
    let opt = Opt {
        tool: opt_tool,
        limits: Limits {
            time: Duration::from_secs(a.opt_timeout),
            memory_mb: 4096,
        },
    };
    let duration = Duration::from_secs_f64(a.minutes * 60.0);
    let cfg = Config {
        opt: opt.clone(),
        stress,
        irgen: !a.no_irgen,
        files,
        passes,
        duration,
        max_modules: a.modules.map(|m| m as usize),
        seed: a.seed,
        jobs: a.jobs as usize,
        prove: ProveConfig {
            timeout_ms: a.timeout,
            ..ProveConfig::default()
        },
        out_dir: out_dir.clone(),
    };
    let stop = Arc::new(AtomicBool::new(false));
    {
        let stop = stop.clone();
        let _ = ctrlc::set_handler(move || stop.store(true, std::sync::atomic::Ordering::Relaxed));
    }
    let bar = indicatif::ProgressBar::new(duration.as_secs().max(1));
    bar.set_style(
        indicatif::ProgressStyle::with_template("{elapsed_precise} [{bar:30}] {msg}")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    let known = report::parse_known(crate::upstream_reduce_cmd::KNOWN_ISSUES);
    let command = format!(
        "diopter upstream campaign {}",
        std::env::args().skip(3).collect::<Vec<_>>().join(" ")
    );
    let opt_version = format!("opt {}", opt.tool.version);
    let live = Live {
        bar: bar.clone(),
        header: report::RunFiles {
            dir: &out_dir,
            known: &known,
            command: command.trim(),
            reduce_command: None,
            opt_version: &opt_version,
        },
    };
    outln!(
        e,
        "run directory: {} (its upstream.md is rewritten every {} s)",
        out_dir.display(),
        campaign::CHECKPOINT.as_secs()
    );
    let outcome = campaign::run(&cfg, &stop, &live);
    bar.finish_and_clear();
    // The campaign's figures are written before any reduction starts, so
    // that a reduction cut short (or the process killed) loses no finding.
    live.write(&outcome);
    let reduced = match &reducer_tool {
        None => outcome
            .findings
            .iter()
            .map(|_| Err("--no-reduce".to_string()))
            .collect(),
        Some(t) => {
            let extract = tools::locate(Tool::Extract, a.llvm_extract.as_deref()).ok();
            let r = Reducer::new(t.clone(), extract, opt.clone(), a.reduce_limit, a.timeout);
            let jobs = a.reduce_jobs.unwrap_or(a.jobs) as usize;
            crate::upstream_reduce_cmd::reduce_findings(
                &r,
                &outcome,
                Vec::new(),
                jobs,
                &live.header,
                e,
            )
        }
    };
    let (md, js) = live.header.write(&outcome, &reduced);
    if a.report {
        let _ = std::fs::write("reports/upstream.md", &md);
        let _ = std::fs::write("reports/upstream.json", &js);
    }
    match a.format {
        Format::Json => outln!(w, "{js}"),
        Format::Text => out!(w, "{md}"),
    }
    outln!(e, "run directory: {}", out_dir.display());
    u8::from(
        !outcome.findings.is_empty()
            || outcome
                .opt_problems
                .iter()
                .any(|p| p.class == "opt-crashed"),
    )
}
