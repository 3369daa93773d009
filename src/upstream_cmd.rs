//! `diopter upstream`: upstream LLVM under test. `campaign` feeds modules
//! through debugify and each of `opt`'s passes and validates every record
//! (`diopter_tv::upstream::campaign`), reduces each finding with
//! `llvm-reduce` and writes the report; `interesting` is the test
//! `llvm-reduce` runs.

use crate::{out, outln, Format};
use diopter_smt::prove::ProveConfig;
use diopter_tv::upstream::campaign::{self, Config, Progress};
use diopter_tv::upstream::opt_loop::Opt;
use diopter_tv::upstream::reduce::{self, Reducer};
use diopter_tv::upstream::report::{self, ReportInput};
use diopter_tv::upstream::tools::{self, Limits, Tool};
use std::path::{Path, PathBuf};
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
    /// Worker threads (1 to 64).
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
    /// The run directory (default target/upstream/SEED-TIME, printed at the end).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Also write reports/upstream.{md,json}.
    #[arg(long)]
    pub report: bool,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

/// A finding's reduction and the reduced text, or why there is none.
type Reduction = Result<(reduce::Reduced, String), String>;

/// Public upstream issues a finding may match (`report::parse_known`).
const KNOWN_ISSUES: &str = include_str!("../corpus/upstream/known-issues.tsv");

/// Writes OUT/upstream.{md,json}; returns them.
fn write_run(
    out_dir: &Path,
    outcome: &campaign::Outcome,
    reduced: &[Reduction],
    known: &[report::KnownIssue],
    command: &str,
    opt_version: &str,
) -> (String, String) {
    let input = ReportInput {
        outcome,
        reduced,
        known,
        command,
        opt_version,
    };
    let md = report::markdown(&input);
    let js = serde_json::to_string_pretty(&report::json(&input)).unwrap_or_default();
    let _ = std::fs::create_dir_all(out_dir);
    let _ = std::fs::write(out_dir.join("upstream.md"), &md);
    let _ = std::fs::write(out_dir.join("upstream.json"), &js);
    (md, js)
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
        What::Interesting(i) => interesting(i),
    })
}

fn interesting(a: &InterestingArgs) -> u8 {
    let Ok(tool) = tools::locate(Tool::Opt, a.opt.as_deref()) else {
        return 2;
    };
    let opt = Opt {
        tool,
        limits: Limits {
            time: Duration::from_secs(60),
            memory_mb: 4096,
        },
    };
    let Ok(text) = std::fs::read_to_string(&a.file) else {
        return 2;
    };
    let cfg = ProveConfig {
        timeout_ms: a.timeout,
        ..ProveConfig::default()
    };
    match reduce::matching(&opt, &text, &a.pass, &a.cause_id, &cfg) {
        Ok(v) if !v.is_empty() => 0,
        _ => 1,
    }
}

/// Every `.ll` file under `p` (or `p` itself), sorted.
fn collect_ll(p: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    if p.is_dir() {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(p)?.flatten().map(|e| e.path()).collect();
        entries.sort();
        for e in entries {
            collect_ll(&e, out)?;
        }
    } else if p.extension().is_some_and(|e| e == "ll") {
        out.push(p.to_path_buf());
    } else if !p.exists() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::NotFound,
            "no such file or directory",
        ));
    }
    Ok(())
}

/// The progress bar, and the run directory's report rewritten at each
/// checkpoint (reductions pending), so that a killed campaign leaves its
/// findings listed.
struct Live<'a> {
    bar: indicatif::ProgressBar,
    out_dir: &'a Path,
    known: &'a [report::KnownIssue],
    command: &'a str,
    opt_version: &'a str,
}

impl Live<'_> {
    /// The run directory's report, every reduction still pending.
    fn write(&self, so_far: &campaign::Outcome) {
        let pending: Vec<Reduction> = so_far
            .findings
            .iter()
            .map(|_| Err("reduction pending".into()))
            .collect();
        write_run(
            self.out_dir,
            so_far,
            &pending,
            self.known,
            self.command,
            self.opt_version,
        );
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
        if let Err(err) = collect_ll(p, &mut files) {
            outln!(e, "diopter upstream: --inputs {}: {err}", p.display());
            return 2;
        }
    }
    if a.no_stress && a.no_irgen && files.is_empty() {
        outln!(e, "diopter upstream: no modules to test: --no-stress and --no-irgen leave only --inputs, and it gave no .ll file");
        return 2;
    }
    let passes: Vec<String> = if a.passes.is_empty() {
        campaign::DEFAULT_PASSES
            .iter()
            .map(|s| s.to_string())
            .collect()
    } else {
        a.passes.clone()
    };
    if let Some(bad) = passes
        .iter()
        .find(|p| p.trim().is_empty() || p.contains(char::is_whitespace))
    {
        outln!(
            e,
            "diopter upstream: --pass `{bad}`: a pipeline in opt -passes= syntax, without spaces"
        );
        return 2;
    }
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
    let known = report::parse_known(KNOWN_ISSUES);
    let command = format!(
        "diopter upstream campaign {}",
        std::env::args().skip(3).collect::<Vec<_>>().join(" ")
    );
    let opt_version = format!("opt {}", opt.tool.version);
    let live = Live {
        bar: bar.clone(),
        out_dir: &out_dir,
        known: &known,
        command: command.trim(),
        opt_version: &opt_version,
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
    let exe = std::env::current_exe().unwrap_or_else(|_| PathBuf::from("diopter"));
    let reduce_one = |f: &campaign::Finding| -> Reduction {
        let Some(t) = &reducer_tool else {
            return Err("--no-reduce".into());
        };
        if let Some(first) = &f.same_as {
            return Err(format!(
                "the same cause as {first} (another pass), which is reduced instead"
            ));
        }
        let r = Reducer {
            llvm_reduce: t.clone(),
            diopter: exe.clone(),
            opt: opt.clone(),
            limit: Duration::from_secs(a.reduce_limit),
            timeout_ms: a.timeout,
        };
        let dir = out_dir.join("findings").join(&f.id);
        let cid = campaign::cause_id(&f.cause);
        let out = dir.join("reduced.ll");
        r.reduce(Path::new(&f.input), &f.pass, &cid, &out)
            .and_then(|rd| {
                std::fs::read_to_string(&out)
                    .map(|t| (rd, t))
                    .map_err(|err| err.to_string())
            })
    };
    // Reductions run --jobs at a time: each is one llvm-reduce process
    // calling diopter on every candidate.
    let slots: Vec<std::sync::Mutex<Option<Reduction>>> = outcome
        .findings
        .iter()
        .map(|_| std::sync::Mutex::new(None))
        .collect();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let writing = std::sync::Mutex::new(());
    let reduce_jobs = a.reduce_jobs.unwrap_or(a.jobs).max(1);
    if !outcome.findings.is_empty() && reducer_tool.is_some() {
        outln!(
            e,
            "reducing {} findings, {} at a time ...",
            outcome.findings.len(),
            reduce_jobs
        );
    }
    std::thread::scope(|s| {
        for _ in 0..reduce_jobs {
            s.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(f) = outcome.findings.get(i) else {
                    break;
                };
                let r = reduce_one(f);
                *slots[i].lock().expect("not poisoned") = Some(r);
                // Each finished reduction is written at once.
                let _one = writing.lock().unwrap_or_else(|p| p.into_inner());
                let so_far: Vec<Reduction> = slots
                    .iter()
                    .map(|m| {
                        m.lock()
                            .ok()
                            .and_then(|g| g.clone())
                            .unwrap_or_else(|| Err("reduction pending".into()))
                    })
                    .collect();
                write_run(
                    &out_dir,
                    &outcome,
                    &so_far,
                    &known,
                    command.trim(),
                    &opt_version,
                );
            });
        }
    });
    let reduced: Vec<Reduction> = slots
        .into_iter()
        .map(|m| {
            m.into_inner()
                .ok()
                .flatten()
                .unwrap_or_else(|| Err("not reduced".into()))
        })
        .collect();
    let (md, js) = write_run(
        &out_dir,
        &outcome,
        &reduced,
        &known,
        command.trim(),
        &opt_version,
    );
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
