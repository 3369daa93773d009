//! `diopter bugbench`: the bug-finding benchmark's command line; the work
//! is `diopter_bugbench`'s.

use clap::{Args as ClapArgs, Subcommand};
use diopter_bugbench::drive::Bench;
use diopter_bugbench::{render, run, worker};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

pub const BUGBENCH_HELP: &str = "\
How fast does diopter find a bug that is there? 33 realistic one-line
mistakes are planted in the engines (faults/src/catalogue.rs), each behind
`planted!(\"name\")` and compiled in only with RUSTFLAGS=\"--cfg diopter_faults\";
this command builds such a diopter under target/bugbench/ (a release build:
minutes the first time), then, for each fault and seed, runs each search with
that one fault switched on ($DIOPTER_FAULT) until its first finding or its
limit, and writes reports/bugbench.md and .json. A control run with no fault
must find nothing.

Searches: campaign (the default job's in-process campaign, as `diopter run`),
proptest (the workspace's property-test files with the fault), fuzz:TARGET
(one cargo-fuzz target, built with the faults as `diopter campaign` builds it,
run with its libFuzzer flags and -seed; needs `cargo install cargo-fuzz`),
fuzz, every fuzz target, and fuzz-trace-cmp:TARGET / fuzz-trace-cmp, the same
built with comparison tracing whatever the campaign does (the report then
compares the two builds of each target searched both ways). Each fuzz target first runs a control per seed; a
fault whose site that control never passed is recorded as skipped for that
target and seed (the run would replay the control: libFuzzer is deterministic
for a seed until the site changes something).

Examples:
  diopter bugbench                                  # 33 faults x 5 seeds: campaign, proptest
  diopter bugbench --searches campaign --seeds 1    # a quick look
  diopter bugbench --searches fuzz --add-to reports/bugbench.json
  diopter bugbench --faults NAME,NAME --seeds 3      # names: reports/bugbench.md
  diopter bugbench --searches fuzz:eval_diff,fuzz-trace-cmp:eval_diff --jobs 1

Each run is appended to a journal (target/bugbench-runs/*/journal.jsonl,
named at the start) as it ends: a benchmark that dies goes on with
--resume JOURNAL and the same options.

Exit: 0 report written, 1 the control run found something or writing failed,
2 bad arguments or the faults build failed.";

#[derive(ClapArgs, Debug)]
pub struct Args {
    #[command(subcommand)]
    pub inner: Option<Inner>,
    /// Seeds per fault and search (1, 2, ... N).
    #[arg(long, default_value_t = 5)]
    pub seeds: u64,
    /// Limit of one campaign run, in seconds (the default job's is 60).
    #[arg(long, default_value_t = 60.0)]
    pub campaign_limit: f64,
    /// Limit of one proptest run (all the property-test files), in seconds.
    #[arg(long, default_value_t = 120.0)]
    pub proptest_limit: f64,
    /// Limit of one fuzzer run (one target), in seconds.
    #[arg(long, default_value_t = 60.0)]
    pub fuzz_limit: f64,
    /// Comma-separated: campaign, proptest, fuzz, fuzz:TARGET,
    /// fuzz-trace-cmp, fuzz-trace-cmp:TARGET.
    #[arg(long, default_value = "campaign,proptest", value_delimiter = ',')]
    pub searches: Vec<String>,
    /// Only these faults (comma-separated names; default all).
    #[arg(long, value_delimiter = ',')]
    pub faults: Vec<String>,
    /// Runs at a time.
    #[arg(long, default_value_t = 2)]
    pub jobs: usize,
    /// Where bugbench.md and bugbench.json go.
    #[arg(long, default_value = "reports")]
    pub out_dir: PathBuf,
    /// Add these runs to an earlier bugbench.json (a run of the same fault,
    /// search and seed replaces the earlier one) instead of starting afresh.
    #[arg(long)]
    pub add_to: Option<PathBuf>,
    /// Go on from a benchmark that died: JOURNAL is the journal.jsonl it
    /// named at its start (each run is appended there as it ends). Its
    /// finished runs are kept, the rest made; give the same options.
    #[arg(long, value_name = "JOURNAL")]
    pub resume: Option<PathBuf>,
}

#[derive(Subcommand, Debug)]
pub enum Inner {
    /// (faults build only) Print the catalogue of planted faults as JSON.
    #[command(hide = true)]
    Catalogue,
    /// Write FILE's bugbench.md again from its bugbench.json (FILE).
    #[command(hide = true)]
    Render { file: PathBuf },
    /// Merge benchmark results (bugbench.json files, in order: a later run
    /// of the same fault, search and seed, or control, replaces an earlier
    /// one) and write bugbench.md and .json into --out-dir.
    #[command(hide = true)]
    Merge {
        #[arg(required = true, num_args = 2..)]
        files: Vec<PathBuf>,
    },
    /// (faults build only) One campaign run with one fault; prints its result as JSON.
    #[command(hide = true)]
    Worker {
        #[arg(long)]
        fault: Option<String>,
        #[arg(long)]
        seed: u64,
        #[arg(long)]
        limit: f64,
        #[arg(long)]
        rules: PathBuf,
        #[arg(long)]
        out: PathBuf,
    },
}

pub fn run(a: &Args) -> ExitCode {
    match &a.inner {
        Some(Inner::Catalogue) => match worker::catalogue_json() {
            Ok(j) => {
                println!("{j}");
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("diopter bugbench: {e}");
                ExitCode::from(2)
            }
        },
        Some(Inner::Worker {
            fault,
            seed,
            limit,
            rules,
            out,
        }) => {
            let limit = Duration::from_secs_f64(limit.max(0.0));
            match worker::campaign(fault.as_deref(), *seed, limit, rules, out) {
                Ok(r) => {
                    println!("{}", serde_json::to_string(&r).unwrap_or_default());
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("diopter bugbench worker: {e}");
                    ExitCode::from(2)
                }
            }
        }
        Some(Inner::Merge { files }) => merge(a, files),
        Some(Inner::Render { file }) => {
            let bench: Bench = match std::fs::read_to_string(file)
                .map_err(|e| e.to_string())
                .and_then(|t| serde_json::from_str(&t).map_err(|e| e.to_string()))
            {
                Ok(b) => b,
                Err(e) => {
                    eprintln!("diopter bugbench render: {}: {e}", file.display());
                    return ExitCode::from(2);
                }
            };
            let md = file.with_extension("md");
            match diopter_report::write_atomic(&md, &render::markdown(&bench, &bench.command)) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("diopter bugbench render: {}: {e}", md.display());
                    ExitCode::from(1)
                }
            }
        }
        None => bench(a),
    }
}

fn bench(a: &Args) -> ExitCode {
    let mut command = format!(
        "cargo run --release -- bugbench --seeds {} --campaign-limit {} --proptest-limit {} --fuzz-limit {} --searches {} --jobs {}",
        a.seeds,
        a.campaign_limit,
        a.proptest_limit,
        a.fuzz_limit,
        a.searches.join(","),
        a.jobs
    );
    if !a.faults.is_empty() {
        command.push_str(&format!(" --faults {}", a.faults.join(",")));
    }
    if let Some(p) = &a.add_to {
        command.push_str(&format!(" --add-to {}", p.display()));
    }
    // A result written elsewhere is merged later: the merge command names
    // the file, so the line that made it must name the directory.
    if a.out_dir != std::path::Path::new("reports") {
        command.push_str(&format!(" --out-dir {}", a.out_dir.display()));
    }
    let opts = run::Options {
        root: crate::report_cmd::root(),
        seeds: a.seeds,
        campaign_limit: a.campaign_limit,
        proptest_limit: a.proptest_limit,
        fuzz_limit: a.fuzz_limit,
        searches: a.searches.clone(),
        faults: a.faults.clone(),
        jobs: a.jobs,
        add_to: a.add_to.clone(),
        resume: a.resume.clone(),
        command,
    };
    let bench = match run::bench(&opts, &|m| eprintln!("bugbench: {m}")) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("diopter bugbench: {e}");
            return ExitCode::from(2);
        }
    };
    let mut ok = match run::write(&bench, &a.out_dir) {
        Ok(paths) => {
            for p in paths {
                eprintln!("bugbench: wrote {}", p.display());
            }
            true
        }
        Err(e) => {
            eprintln!("diopter bugbench: {e}");
            false
        }
    };
    if bench.control.iter().any(|c| c.found) {
        eprintln!("diopter bugbench: a control run with no fault found something");
        ok = false;
    }
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// `bugbench merge FILES`: the results merged in order, with the command
/// that merged them.
fn merge(a: &Args, files: &[PathBuf]) -> ExitCode {
    let mut bench = match run::merge_files(files) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("diopter bugbench merge: {e}");
            return ExitCode::from(2);
        }
    };
    let names: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
    bench.command.push_str(&format!(
        "\ncargo run --release -- bugbench --out-dir {} merge {}",
        a.out_dir.display(),
        names.join(" ")
    ));
    match run::write(&bench, &a.out_dir) {
        Ok(paths) => {
            for p in paths {
                eprintln!("bugbench: wrote {}", p.display());
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("diopter bugbench merge: {e}");
            ExitCode::from(1)
        }
    }
}
