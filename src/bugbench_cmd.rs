//! `diopter bugbench`: the bug-finding benchmark's command line; the work
//! is `diopter_bugbench`'s.

use clap::{Args as ClapArgs, Subcommand};
use diopter_bugbench::drive::{self, Bench, Plan};
use diopter_bugbench::{render, worker};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

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
proptest (the workspace's property-test files with the fault).

Examples:
  diopter bugbench                                  # everything: 33 faults x 5 seeds x 2 searches
  diopter bugbench --searches campaign --seeds 1    # a quick look
  diopter bugbench --faults NAME,NAME --seeds 3      # names: reports/bugbench.md

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
    /// Comma-separated: campaign, proptest.
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
}

#[derive(Subcommand, Debug)]
pub enum Inner {
    /// (faults build only) Print the catalogue of planted faults as JSON.
    #[command(hide = true)]
    Catalogue,
    /// Write FILE's bugbench.md again from its bugbench.json (FILE).
    #[command(hide = true)]
    Render { file: PathBuf },
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
    for s in &a.searches {
        if s != "campaign" && s != "proptest" {
            eprintln!("diopter bugbench: unknown search `{s}` (campaign, proptest)");
            return ExitCode::from(2);
        }
    }
    if a.seeds == 0 || a.jobs == 0 {
        eprintln!("diopter bugbench: --seeds and --jobs must be at least 1");
        return ExitCode::from(2);
    }
    let root = crate::report_cmd::root();
    let start = Instant::now();
    let say = |m: &str| eprintln!("bugbench: {m}");
    let built = match drive::build(
        &root,
        a.searches.iter().any(|s| s == "proptest"),
        &mut |m| say(m),
    ) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("diopter bugbench: {e}");
            return ExitCode::from(2);
        }
    };
    let mut faults = match drive::catalogue(&built.diopter) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("diopter bugbench: {e}");
            return ExitCode::from(2);
        }
    };
    if !a.faults.is_empty() {
        if let Some(bad) = a
            .faults
            .iter()
            .find(|n| !faults.iter().any(|f| &f.name == *n))
        {
            eprintln!("diopter bugbench: no planted fault is named `{bad}`");
            return ExitCode::from(2);
        }
        faults.retain(|f| a.faults.contains(&f.name));
    }
    let plan = Plan {
        root: root.clone(),
        seeds: (1..=a.seeds).collect(),
        campaign_limit: Duration::from_secs_f64(a.campaign_limit.max(1.0)),
        proptest_limit: Duration::from_secs_f64(a.proptest_limit.max(1.0)),
        searches: a.searches.clone(),
        jobs: a.jobs,
        work: root.join("target").join("bugbench-runs"),
    };
    let _ = std::fs::remove_dir_all(&plan.work);
    say("control: each search with no fault active");
    let mut control = Vec::new();
    for s in &plan.searches {
        control.push(match s.as_str() {
            "proptest" => drive::proptest_run(&plan, &built, None, 1),
            _ => drive::campaign_run(&plan, &built, None, 1),
        });
    }
    let total_runs = faults.len() * plan.seeds.len() * plan.searches.len();
    say(&format!("{total_runs} runs, {} at a time", plan.jobs));
    let runs = drive::run_all(&plan, &built, &faults, &|k, n, r| {
        eprintln!(
            "bugbench: [{k}/{n}] {} {} seed {}: {}",
            r.fault,
            r.search,
            r.seed,
            match (&r.error, r.found) {
                (Some(e), _) => format!("run failed: {e}"),
                (None, true) => format!(
                    "found in {:.1} s by {}",
                    r.seconds.unwrap_or(0.0),
                    r.caught_by.as_deref().unwrap_or("?")
                ),
                (None, false) => format!("not found in {:.0} s", r.elapsed),
            }
        );
    });
    let commit = std::process::Command::new("git")
        .current_dir(&root)
        .args(["rev-parse", "--short", "HEAD"])
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_default();
    let earlier: Option<Bench> = match &a.add_to {
        None => None,
        Some(p) => match std::fs::read_to_string(p)
            .map_err(|e| e.to_string())
            .and_then(|t| serde_json::from_str(&t).map_err(|e| e.to_string()))
        {
            Ok(b) => Some(b),
            Err(e) => {
                eprintln!("diopter bugbench: {}: {e}", p.display());
                return ExitCode::from(2);
            }
        },
    };
    let mut bench = Bench {
        faults,
        runs,
        control,
        seeds: plan.seeds.clone(),
        campaign_limit: plan.campaign_limit.as_secs_f64(),
        proptest_limit: plan.proptest_limit.as_secs_f64(),
        searches: plan.searches.clone(),
        jobs: plan.jobs,
        wall_seconds: start.elapsed().as_secs_f64(),
        load: std::fs::read_to_string("/proc/loadavg").unwrap_or_default(),
        commit,
        command: String::new(),
    };
    let mut command = format!(
        "cargo run --release -- bugbench --seeds {} --campaign-limit {} --proptest-limit {} --searches {} --jobs {}",
        a.seeds,
        a.campaign_limit,
        a.proptest_limit,
        a.searches.join(","),
        a.jobs
    );
    if !a.faults.is_empty() {
        command.push_str(&format!(" --faults {}", a.faults.join(",")));
    }
    if let Some(p) = &a.add_to {
        command.push_str(&format!(" --add-to {}", p.display()));
    }
    bench.command = command;
    if let Some(old) = earlier {
        bench = drive::merge(old, bench);
    }
    let md = render::markdown(&bench, &bench.command);
    let json = serde_json::to_string_pretty(&bench).unwrap_or_default();
    let mut ok = true;
    for (name, text) in [("bugbench.md", md), ("bugbench.json", json)] {
        let p = a.out_dir.join(name);
        if let Err(e) = diopter_report::write_atomic(&p, &text) {
            eprintln!("diopter bugbench: {}: {e}", p.display());
            ok = false;
        } else {
            say(&format!("wrote {}", p.display()));
        }
    }
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
