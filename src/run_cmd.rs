//! `diopter run`, also what `diopter` does with no subcommand (so `cargo run
//! --release` on a fresh clone): checks the corpus, proves the rule library,
//! runs a differential campaign in this process over every oracle, and
//! writes what it measured as reports into a run directory under `target/`
//! (printed at the end), so that the committed `reports/` stay as they are
//! unless asked for (`--reports reports`, or `diopter report`); one status
//! line per step, a summary of where to look, and a non-zero exit when a
//! step failed. Needs only the Rust toolchain (and libz3 for the prover,
//! which `.ci/run` installs).

use crate::report_cmd::{self, Step};
use clap::Parser;
use diopter_diff::Oracle;
use diopter_gen::GenConfig;
use diopter_harness::campaign::{self, Config};
use diopter_rules::simplify::Simplifier;
use indicatif::{ProgressBar, ProgressStyle};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

pub const RUN_HELP: &str = "\
STEPS
  1. check     diopter check corpus/ (every expression of the corpus)
  2. prove     diopter prove (the rule library, every width; writes
               proofs.md)
  3. campaign  generated cases through the reference and every oracle
               (fast, dwarf) for --time (default 60 s), and each case against
               itself simplified by corpus/rules; each disagreement or oracle
               panic is minimized and written to findings/ (case file,
               minimized case file; the simplifier's are not minimized);
               a case still running after --case-timeout (default 10 s) is
               a hang, kept as findings/hang-SEED.case, and the run
               goes on (with 4 cases stuck at once it stops);
               campaign.md and .json
  4. reports   diopter report (errata, conformance, benchmarks, index)

WHERE IT WRITES
  Every report goes into the run directory, by default
  target/diopter-run/YYYYMMDD-HHMMSS/ of the checkout (printed at the end;
  --reports DIR chooses another). The committed reports/ are left alone:
  `--reports reports` or `diopter report` regenerates them. The default
  job needs a checkout of diopter (it checks its corpus/ and reads its
  sources for the reports): run it from the checkout.

  --seed makes the campaign's cases reproducible (the same seed gives the
  same sequence of cases; how far it gets depends on the clock).

EXIT STATUS
  0 every step passed; 1 some step failed (a check, a proof, a finding).";

#[derive(clap::Args, Clone)]
pub struct Args {
    /// How long the campaign runs: `90`, `90s`, `5m`, `8h`.
    #[arg(long, value_name = "DURATION", default_value = "60s")]
    pub time: String,
    /// The campaign's seed (default: from the clock; printed).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Where the reports go (default: a new run directory,
    /// target/diopter-run/YYYYMMDD-HHMMSS/ of the checkout; `reports` to
    /// regenerate the committed reports).
    #[arg(long, value_name = "DIR")]
    pub reports: Option<PathBuf>,
    /// Skip the prover.
    #[arg(long)]
    pub no_prove: bool,
    /// Plant a bug into the fast oracle (test aid: see `diopter minimize --help`).
    #[arg(long, value_name = "BUG")]
    pub plant: Option<String>,
    /// Also run the prover's SMT encoding on every Nth case's concrete
    /// values against the reference (the campaign's `smt` row); 0: never.
    /// Off by default: its memory is bounded (a work budget), but some
    /// generated cases take more than the 10 s case timeout in it (3 hangs
    /// in 13,384 cases with N = 1, seed 7), which would fail the default job.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub smt_every: u64,
    /// The campaign's time limit per case, in seconds (`10`, `0.5`, `2m`):
    /// a case still running after it (an oracle, the simplifier or the
    /// encoding that does not return) is a hang finding with its case file,
    /// and the run goes on with the next case. The stuck thread cannot be
    /// killed: it keeps running (and its CPU, if it spins) until the case
    /// ends; with 4 stuck at once the campaign stops. Minimizing a failure
    /// of the case gets 10 s more.
    #[arg(long, value_name = "SECS", default_value = "10")]
    pub case_timeout: String,
    /// Also compare N generated cases in GDB and LLDB (docs/debuggers.md); 0: off.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub debuggers: u64,
}

/// The arguments of a bare `diopter`.
pub fn default_args() -> Args {
    #[derive(Parser)]
    struct P {
        #[command(flatten)]
        a: Args,
    }
    P::parse_from(["run"]).a
}

/// `90`, `90s`, `5m`, `8h`, `1h30m` as a duration.
pub fn parse_duration(s: &str) -> Result<Duration, String> {
    let mut total = 0f64;
    let mut num = String::new();
    let mut any = false;
    for c in s.trim().chars() {
        if c.is_ascii_digit() || c == '.' {
            num.push(c);
            continue;
        }
        let unit = match c {
            's' => 1.0,
            'm' => 60.0,
            'h' => 3600.0,
            _ => return Err(format!("`{s}`: unknown unit `{c}` (use s, m or h)")),
        };
        let n: f64 = num
            .parse()
            .map_err(|_| format!("`{s}`: no number before `{c}`"))?;
        total += n * unit;
        num.clear();
        any = true;
    }
    if !num.is_empty() {
        total += num
            .parse::<f64>()
            .map_err(|_| format!("`{s}`: not a number"))?;
        any = true;
    }
    if !any {
        return Err(format!("`{s}`: not a duration"));
    }
    // `try_`: a number too large for a Duration (or infinite, from a very
    // long digit string) is bad input, not a panic.
    Duration::try_from_secs_f64(total).map_err(|_| format!("`{s}`: too long"))
}

/// The flag a Ctrl-C (SIGINT) sets, the handler installed on first use. A
/// campaign checks it between cases (or, in `diopter campaign`, once a
/// second) and then stops its fuzzers and writes its report as at the end
/// of its time; a second Ctrl-C exits at once (130, the shell's code for
/// SIGINT), for when writing the report is what hangs.
pub fn stop_flag() -> Arc<AtomicBool> {
    static FLAG: OnceLock<Arc<AtomicBool>> = OnceLock::new();
    FLAG.get_or_init(|| {
        let flag = Arc::new(AtomicBool::new(false));
        let f = flag.clone();
        let installed = ctrlc::set_handler(move || {
            if f.swap(true, Ordering::SeqCst) {
                std::process::exit(130);
            }
            eprintln!("\nstopping: writing the report (Ctrl-C again to quit at once)");
        });
        if let Err(e) = installed {
            eprintln!("diopter: no Ctrl-C handler ({e}); Ctrl-C kills without a report");
        }
        flag
    })
    .clone()
}

/// A seed from the clock.
pub fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64)
}

/// Runs the in-process campaign with a progress bar; writes
/// `campaign.md`/`.json` and `findings/` under `dir`.
pub fn campaign(
    dir: &std::path::Path,
    time: Duration,
    seed: u64,
    plant: Option<&str>,
    smt_every: u64,
    case_timeout: Duration,
) -> Step {
    // The plant is checked here, once: the workers make their oracles with
    // it (see `campaign::run`).
    if let Some(p) = plant {
        if let Err(e) = crate::minimize_cmd::oracle_with_plant("fast", Some(p)) {
            return Step {
                name: "campaign".into(),
                ok: false,
                line: e,
            };
        }
    }
    let plant = plant.map(str::to_string);
    let oracles: campaign::MakeOracles = Arc::new(move || {
        let mut owned: Vec<Box<dyn Oracle>> = campaign::checks::default_oracles();
        if let Some(o) = plant
            .as_deref()
            .and_then(|p| crate::minimize_cmd::oracle_with_plant("fast", Some(p)).ok())
        {
            if let Some(slot) = owned.iter_mut().find(|o| o.name() == "fast") {
                *slot = o;
            }
        }
        owned
    });
    // The simplifier is checked too, with the rule library `diopter
    // simplify` uses by default.
    let rules = report_cmd::root().join(crate::library::RULES);
    let simplifier = match Simplifier::load(std::slice::from_ref(&rules)) {
        Ok(s) => Arc::new(s),
        Err(ds) => {
            return Step {
                name: "campaign".into(),
                ok: false,
                line: format!(
                "the rule library {} does not load ({} diagnostics; `diopter simplify` shows them)",
                rules.display(),
                ds.len()
            ),
            }
        }
    };
    let cfg = Config {
        time,
        seed,
        out_dir: dir.to_path_buf(),
        minimize_time: Duration::from_secs(10),
        max_cases: None,
        gen: GenConfig::default(),
        stop: Some(stop_flag()),
        simplifier: Some(simplifier),
        smt_every: (smt_every > 0).then_some(smt_every),
        case_timeout,
        // What `parse_roundtrip` and `validate_diff` check, on these cases
        // (reports/bugbench.md: without them the default job missed the
        // printers', the parsers' and translation validation's faults).
        checks: campaign::checks::default_checks(),
    };
    let bar = ProgressBar::new(time.as_secs().max(1));
    bar.set_style(
        ProgressStyle::with_template("  campaign [{bar:30}] {pos}/{len} s  {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let stats = campaign::run(&cfg, oracles, &mut |s| {
        bar.set_position(s.elapsed as u64);
        bar.set_message(format!("{} cases, {} findings", s.cases, s.finding_count()));
    });
    bar.finish_and_clear();
    let title = "Last in-process campaign (`diopter run`)";
    let mut errors = Vec::new();
    if let Err(e) = diopter_report::write_atomic(
        &dir.join("campaign.md"),
        &campaign::summary_md(&cfg, &stats, title),
    ) {
        errors.push(e.to_string());
    }
    if let Err(e) = diopter_report::write_atomic(
        &dir.join("campaign.json"),
        &campaign::stats_json(&cfg, &stats),
    ) {
        errors.push(e.to_string());
    }
    let ok = stats.finding_count() == 0 && errors.is_empty() && stats.write_errors.is_empty();
    Step {
        name: "campaign".into(),
        ok,
        line: format!(
            "{} cases in {:.0} s{} over {} (seed {seed}): {} findings{}{}",
            stats.cases,
            stats.elapsed,
            if stats.stopped {
                " (stopped by Ctrl-C)"
            } else {
                ""
            },
            stats.oracles.join(", "),
            stats.finding_count(),
            match (stats.hangs.len(), &stats.gave_up) {
                (0, None) => String::new(),
                (n, None) => format!(" ({n} hangs past {:.1} s)", case_timeout.as_secs_f64()),
                (n, Some(why)) => format!(" ({n} hangs; stopped early: {why})"),
            },
            if errors.is_empty() {
                String::new()
            } else {
                format!("; writing failed: {}", errors.join("; "))
            }
        ),
    }
}

pub fn run(a: &Args) -> ExitCode {
    let time = match parse_duration(&a.time) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("diopter run: --time {e}");
            return ExitCode::from(2);
        }
    };
    let case_timeout = match parse_duration(&a.case_timeout) {
        Ok(t) if !t.is_zero() => t,
        Ok(_) => {
            eprintln!("diopter run: --case-timeout must be more than 0");
            return ExitCode::from(2);
        }
        Err(e) => {
            eprintln!("diopter run: --case-timeout {e}");
            return ExitCode::from(2);
        }
    };
    let seed = a.seed.unwrap_or_else(clock_seed);
    let root = report_cmd::root();
    if !root.join("corpus").is_dir() {
        eprintln!(
            "diopter run: no checkout of diopter here or at {} (the default job checks its \
             corpus/ and regenerates its reports): run it from the checkout",
            root.display()
        );
        return ExitCode::from(2);
    }
    let reports = a
        .reports
        .clone()
        .unwrap_or_else(|| root.join("target/diopter-run").join(utc_stamp()));
    let mut steps: Vec<Step> = Vec::new();

    println!("== 1/4 check: diopter check {}/corpus", root.display());
    let check = crate::check_cmd::Args {
        paths: vec![root.join("corpus")],
        exprs: vec![],
        datalayout: None,
        format: crate::Format::Text,
        quiet: true,
    };
    let code = crate::check_cmd::run(&check);
    steps.push(Step {
        name: "check".into(),
        ok: code == ExitCode::SUCCESS,
        line: "diopter check corpus/ (see the lines above)".into(),
    });

    println!(
        "== 2/4 prove: the rule library (writes {}/proofs.md)",
        reports.display()
    );
    if a.no_prove {
        steps.push(Step {
            name: "prove".into(),
            ok: true,
            line: "skipped (--no-prove)".into(),
        });
    } else {
        steps.push(report_cmd::prove(&reports));
    }

    // The Ctrl-C handler goes in before the step is announced: a Ctrl-C
    // from then on stops the campaign and still writes its report.
    stop_flag();
    println!(
        "== 3/4 campaign: {:.0} s over every oracle, seed {seed}",
        time.as_secs_f64()
    );
    steps.push(campaign(
        &reports,
        time,
        seed,
        a.plant.as_deref(),
        a.smt_every,
        case_timeout,
    ));

    let (ok, line) = crate::debuggers_cmd::run_row(a.debuggers, Path::new("target/debuggers-row"));
    println!("== debuggers: {line}");
    steps.push(Step {
        name: "debuggers".into(),
        ok,
        line,
    });

    println!("== 4/4 reports: {}/", reports.display());
    steps.extend(report_cmd::regenerate(&reports));

    println!("\n== summary");
    let mut ok = true;
    for s in &steps {
        println!(
            "  {:<12} {} {}",
            s.name,
            if s.ok { "ok  " } else { "FAIL" },
            s.line
        );
        ok &= s.ok;
    }
    let d = reports.display();
    println!("\nWhere to look (this run's directory: {d}/):");
    println!("  {d}/README.md       the index of every report");
    println!(
        "  {d}/campaign.md     this campaign: verdicts per oracle, findings with replay commands"
    );
    println!("  {d}/findings/       case files (NAME.case) and minimized ones (NAME.min.case)");
    if a.no_prove {
        println!("  {d}/proofs.md       not written (--no-prove)");
    } else {
        println!("  {d}/proofs.md       the rule library's proofs and counterexamples");
    }
    println!("  {d}/errata.md       the spec's errata and every decision with its test");
    println!("  {d}/conformance.md  the corpus: checker verdicts and round trips");
    if a.reports.is_none() {
        println!("The committed reports/ are unchanged; `diopter report` regenerates them.");
    }
    println!(
        "Reproduce this campaign: cargo run --release -- run --seed {seed} --time {}{}{}",
        a.time,
        a.plant
            .as_deref()
            .map_or(String::new(), |p| format!(" --plant {p}")),
        if a.case_timeout == "10" {
            String::new()
        } else {
            format!(" --case-timeout {}", a.case_timeout)
        }
    );
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// UTC `YYYYMMDD-HHMMSS` (no date crate needed: the civil-from-days
/// algorithm of H. Hinnant).
pub fn utc_stamp() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs()) as i64;
    let (days, rem) = (secs.div_euclid(86400), secs.rem_euclid(86400));
    let z = days + 719468;
    let era = z.div_euclid(146097);
    let doe = z - era * 146097;
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}{m:02}{d:02}-{:02}{:02}{:02}",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}
