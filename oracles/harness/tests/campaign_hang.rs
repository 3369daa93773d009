//! The in-process campaign's watchdog (`Config::case_timeout`): an oracle
//! that does not return on a case makes a hang finding with a case file
//! that parses back to that case, and the run goes on to its last case; too
//! many stuck workers stop the run; a Ctrl-C still stops it; and with no
//! hang the verdicts are exactly those of evaluating the same seeds one by
//! one, without a watchdog.

use diopter_diff::{self as diff, Oracle, Reference};
use diopter_gen::entropy::{Entropy, SplitMix};
use diopter_gen::Generate;
use diopter_gen::{Case, GenConfig};
use diopter_harness::adapters::Fast;
use diopter_harness::campaign::{self, Config, MakeOracles, Phase, MAX_STUCK_WORKERS};
use diopter_harness::minimize;
use diopter_harness::minimize::plant::{Plant, Planted};
use diopter_semantics::interp::Outcome;
use std::cell::Cell;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The reference, but asleep for an hour (for a test, forever) on the case
/// whose expression is `line` (on every case when `None`).
struct Sleepy {
    line: Option<String>,
}

impl Oracle for Sleepy {
    fn name(&self) -> &str {
        "sleepy"
    }
    fn eval(&self, case: &Case) -> Outcome {
        if self.line.as_ref().is_none_or(|l| *l == case.expr_line()) {
            std::thread::sleep(Duration::from_secs(3600));
        }
        Reference.eval(case)
    }
}

fn sleepy(line: Option<String>) -> MakeOracles {
    Arc::new(move || {
        vec![
            Box::new(Reference) as Box<dyn Oracle>,
            Box::new(Sleepy { line: line.clone() }),
        ]
    })
}

fn config(dir: &Path, seed: u64, cases: u64, timeout: Duration) -> Config {
    let _ = std::fs::remove_dir_all(dir);
    Config {
        // The case count (or the watchdog) ends the run, not the clock.
        time: Duration::from_secs(3600),
        seed,
        out_dir: dir.to_path_buf(),
        minimize_time: Duration::from_secs(10),
        max_cases: Some(cases),
        gen: GenConfig::default(),
        stop: None,
        simplifier: None,
        smt_every: None,
        case_timeout: timeout,
        checks: Vec::new(),
    }
}

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("diopter-hang-{name}-{}", std::process::id()))
}

/// The seeds a run with `seed` gives its cases, in order.
fn case_seeds(seed: u64, n: usize) -> Vec<u64> {
    let mut s = SplitMix(seed);
    (0..n).map(|_| s.bits64()).collect()
}

#[test]
fn a_case_that_hangs_is_a_finding_and_the_run_goes_on() {
    let dir = temp("one");
    // Long enough that no other case (unoptimized, on a busy machine) goes
    // past it.
    let cfg = config(&dir, 7, 40, Duration::from_secs(1));
    // The first case from the 5th on whose expression no other case of the
    // run has: exactly one case hangs.
    let seeds = case_seeds(7, 40);
    let lines: Vec<String> = seeds
        .iter()
        .map(|&s| Case::from_seed(s, &cfg.gen).expr_line())
        .collect();
    let i = (4..40)
        .find(|&i| lines.iter().filter(|l| **l == lines[i]).count() == 1)
        .expect("some case has an expression of its own");
    let t = Instant::now();
    let stats = campaign::run(&cfg, sleepy(Some(lines[i].clone())), &mut |_| {});
    assert!(t.elapsed() < Duration::from_secs(60), "{:?}", t.elapsed());
    assert_eq!(stats.cases, 40, "the run went on after the hang");
    assert_eq!(stats.hangs.len(), 1, "{:#?}", stats.hangs);
    assert_eq!(stats.finding_count(), 1);
    assert_eq!(stats.gave_up, None);
    assert_eq!(stats.stuck_workers, 1, "the sleeper is still asleep");
    let h = &stats.hangs[0];
    assert_eq!(h.case, i as u64 + 1);
    assert_eq!(h.seed, seeds[i]);
    assert_eq!(h.oracle.as_deref(), Some("sleepy"));
    assert_eq!(h.phase, Phase::Evaluating);
    assert!(h.waited >= 1.0, "{}", h.waited);
    assert_eq!(h.line.as_deref(), Some(lines[i].as_str()));
    // The case file parses back to the case that hung, and says so.
    let path = h.case_path.as_ref().expect("the case file was written");
    assert!(path.starts_with(dir.join("findings")), "{}", path.display());
    let text = std::fs::read_to_string(path).expect("the case file");
    assert!(
        text.starts_with("# hang: `sleepy` did not finish evaluating case"),
        "{text}"
    );
    assert!(text.contains("# oracles: reference, sleepy"), "{text}");
    let case = diff::read_case_file(&text).expect("the case file parses");
    assert_eq!(case.expr_line(), lines[i]);
    assert_eq!(
        h.replay().as_deref(),
        Some(diff::repro_command(path).as_str())
    );
    // Every other case was compared; the one that hung counts as HANG.
    let v = &stats.verdicts["sleepy"];
    assert_eq!(v.get("HANG"), Some(&1), "{v:?}");
    assert_eq!(v.values().sum::<u64>(), 40, "{v:?}");
    // The reports show it.
    let md = campaign::summary_md(&cfg, &stats, "t");
    assert!(md.contains("| HANG |"), "{md}");
    assert!(md.contains("Hangs: cases past the 1.0 s limit"), "{md}");
    assert!(md.contains(&diff::repro_command(path)), "{md}");
    assert!(!md.contains("None: no oracle"), "{md}");
    let json = campaign::stats_json(&cfg, &stats);
    assert!(
        json.contains(&format!("\"seed\": {}, \"oracle\": \"sleepy\"", seeds[i])),
        "{json}"
    );
    assert!(json.contains("\"stuck_workers\": 1"), "{json}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Fast with a planted panic that, once it has seen the case whose
/// expression is `line`, sleeps on any other: on the minimizer's
/// candidates, a hang while minimizing (the worker that hangs goes no
/// further; the next one makes its own oracle, which has seen nothing).
struct SlowToMinimize {
    inner: Planted,
    line: String,
    seen: Cell<bool>,
}

impl Oracle for SlowToMinimize {
    fn name(&self) -> &str {
        "slow-to-minimize"
    }
    fn eval(&self, case: &Case) -> Outcome {
        if case.expr_line() == self.line {
            self.seen.set(true);
        } else if self.seen.get() {
            std::thread::sleep(Duration::from_secs(3600));
        }
        self.inner.eval(case)
    }
}

#[test]
fn a_hang_while_minimizing_is_a_hang_of_the_minimizer() {
    let dir = temp("min");
    let mut cfg = config(&dir, 5, 400, Duration::from_secs(1));
    cfg.minimize_time = Duration::from_secs(1);
    let planted = || Planted::new(Box::new(Fast::default()), Plant::PanicOnMul);
    // The run's first failing case: the first of its kind, so it is
    // minimized (a repeat would only be counted).
    let (i, line) = minimize::quiet_panics(|| {
        case_seeds(5, 400)
            .into_iter()
            .enumerate()
            .find_map(|(i, s)| {
                let case = Case::from_seed(s, &cfg.gen);
                let failing = minimize::failure(&case, &[&Reference, &planted()]).is_some();
                failing.then(|| (i, case.expr_line()))
            })
    })
    .expect("the plant shows on some case");
    let make: MakeOracles = Arc::new(move || {
        vec![
            Box::new(Reference) as Box<dyn Oracle>,
            Box::new(SlowToMinimize {
                inner: planted(),
                line: line.clone(),
                seen: Cell::new(false),
            }),
        ]
    });
    let t = Instant::now();
    let stats = campaign::run(&cfg, make, &mut |_| {});
    assert!(t.elapsed() < Duration::from_secs(120), "{:?}", t.elapsed());
    assert_eq!(stats.cases, 400, "the run went on");
    let h = stats.hangs.first().expect("a hang");
    assert_eq!(h.case, i as u64 + 1);
    assert_eq!(h.phase, Phase::Minimizing);
    assert_eq!(h.oracle.as_deref(), Some("slow-to-minimize"));
    assert!(
        h.waited >= 2.0,
        "a case's second and the minimizer's: {}",
        h.waited
    );
    assert!(h.case_path.as_ref().is_some_and(|p| p.is_file()));
    // Its verdict was counted before the minimizer hung.
    let v = &stats.verdicts["slow-to-minimize"];
    assert_eq!(v.get("HANG"), None, "{v:?}");
    assert_eq!(v.values().sum::<u64>(), 400, "{v:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn too_many_stuck_workers_stop_the_run() {
    let dir = temp("cap");
    let cfg = config(&dir, 3, 1000, Duration::from_millis(100));
    let t = Instant::now();
    let stats = campaign::run(&cfg, sleepy(None), &mut |_| {});
    assert!(t.elapsed() < Duration::from_secs(30), "{:?}", t.elapsed());
    assert_eq!(stats.hangs.len(), MAX_STUCK_WORKERS);
    assert_eq!(stats.cases, MAX_STUCK_WORKERS as u64);
    assert_eq!(stats.stuck_workers, MAX_STUCK_WORKERS);
    let why = stats.gave_up.as_deref().expect("the run gave up");
    assert!(why.contains("workers are stuck"), "{why}");
    // Each hang is its own case, in order, each with its file.
    let seeds = case_seeds(3, MAX_STUCK_WORKERS);
    for (k, h) in stats.hangs.iter().enumerate() {
        assert_eq!((h.case, h.seed), (k as u64 + 1, seeds[k]));
        assert!(h.case_path.as_ref().is_some_and(|p| p.is_file()));
    }
    let md = campaign::summary_md(&cfg, &stats, "t");
    assert!(md.contains("Stopped early: 4 workers are stuck"), "{md}");
    let json = campaign::stats_json(&cfg, &stats);
    assert!(
        json.contains("\"gave_up\": \"4 workers are stuck"),
        "{json}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A Ctrl-C while a case hangs: the hang is recorded when its time is up,
/// and the run stops there instead of going on.
#[test]
fn a_ctrl_c_during_a_hang_still_stops_the_run() {
    let dir = temp("stop");
    let mut cfg = config(&dir, 5, 1000, Duration::from_millis(500));
    let stop = Arc::new(AtomicBool::new(false));
    cfg.stop = Some(stop.clone());
    let s = stop.clone();
    std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(200));
        s.store(true, std::sync::atomic::Ordering::SeqCst);
    });
    let t = Instant::now();
    let stats = campaign::run(&cfg, sleepy(None), &mut |_| {});
    assert!(t.elapsed() < Duration::from_secs(10), "{:?}", t.elapsed());
    assert!(stats.stopped);
    assert_eq!(stats.cases, 1);
    assert_eq!(stats.hangs.len(), 1);
    assert_eq!(stats.gave_up, None);
    let _ = std::fs::remove_dir_all(&dir);
}

/// With no hang the watchdog changes nothing: the verdicts are those of
/// the same seeds evaluated one by one on this thread, whatever the limit.
#[test]
fn without_a_hang_the_verdicts_are_those_of_a_plain_loop() {
    let n = 300usize;
    let make: MakeOracles = Arc::new(|| {
        vec![
            Box::new(Reference) as Box<dyn Oracle>,
            Box::new(Fast::default()),
        ]
    });
    let gen = GenConfig::default();
    let mut want: BTreeMap<String, u64> = BTreeMap::new();
    for s in case_seeds(11, n) {
        let case = Case::from_seed(s, &gen);
        let label = diff::run_case(&case, &[&Reference, &Fast::default()]).label();
        *want.entry(label.to_string()).or_default() += 1;
    }
    for (name, timeout) in [
        ("short", Duration::from_secs(1)),
        ("long", Duration::from_secs(10)),
    ] {
        let dir = temp(name);
        let cfg = config(&dir, 11, n as u64, timeout);
        let mut ticks = 0;
        let stats = campaign::run(&cfg, make.clone(), &mut |_| ticks += 1);
        assert_eq!(stats.cases, n as u64);
        assert!(stats.hangs.is_empty(), "{:#?}", stats.hangs);
        assert_eq!((stats.stuck_workers, stats.gave_up.as_deref()), (0, None));
        assert_eq!(stats.verdicts["fast"], want, "limit {timeout:?}");
        assert_eq!(stats.oracles, ["reference", "fast"]);
        let md = campaign::summary_md(&cfg, &stats, "t");
        assert!(!md.contains("HANG") && !md.contains("Hangs:"), "{md}");
        assert!(campaign::stats_json(&cfg, &stats).contains("\"hangs\": [\n  ]"));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
