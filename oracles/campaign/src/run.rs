//! The campaign from start to end: the state loaded or begun, the fuzzers
//! built and started, the loop that samples their counters and handles
//! their artifacts until the time is up, the fuzzers run out or the stop
//! flag is set, then the report, the corpus merges and the report again.

use crate::cmin;
use crate::dedup::Dedup;
use crate::error::Error;
use crate::replay::Bodies;
use crate::report::write_outputs;
use crate::state::{Row, State};
use crate::supervise::{self, Fuzzers, Places};
use crate::{Config, Observer, Outcome, Started};
use diopter_harness::campaign as camp;
use diopter_harness::minimize::plant::Plant;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

/// Runs (or resumes) the campaign `cfg` describes, telling `obs` how it
/// goes. `Err` when it could not start; once the fuzzers have run, the
/// report is written and the [`Outcome`] says what of it could not be.
pub fn run(cfg: &Config, obs: &mut dyn Observer) -> Result<Outcome, Error> {
    if Plant::from_name(&cfg.plant).is_none() {
        return Err(Error::UnknownPlant(cfg.plant.clone()));
    }
    let places = Places::new(cfg);
    let dir = &cfg.dir;
    let time = cfg.time.as_secs_f64();
    let findings_dir = dir.join("findings");
    let mut st = State::load(dir);
    let resumed = !st.targets.is_empty();
    let rss_now = camp::rss_kib();
    if !resumed {
        st.seed = cfg.seed % (u32::MAX as u64);
        st.targets = cfg.targets.clone();
        st.rss_start_kib = rss_now;
    }
    st.rss_process_start_kib = rss_now;
    st.rss_max_kib = st.rss_max_kib.max(rss_now);
    st.stopped = false;
    // The merges are this process's: a resumed run merges again at its end.
    st.corpus_merge.clear();
    st.corpus_merge_skipped = !cfg.minimize_corpora;
    if cfg.jobs < st.targets.len() {
        return Err(Error::TooFewJobs {
            jobs: cfg.jobs,
            targets: st.targets.clone(),
        });
    }
    if let Err(source) = std::fs::create_dir_all(&findings_dir) {
        return Err(Error::CreateDir {
            path: findings_dir,
            source,
        });
    }
    st.save(dir);
    let stop = obs.started(&Started {
        dir,
        resumed,
        targets: &st.targets,
        seed: st.seed,
    });
    supervise::build(&places, &st.targets)?;
    // A stop during the build: no fuzzer is started, the report is written
    // as it stands.
    let remaining = if stop.load(Ordering::Relaxed) {
        0.0
    } else {
        time - st.elapsed
    };
    if remaining <= 0.0 && !stop.load(Ordering::Relaxed) {
        obs.nothing_left(st.elapsed);
    }
    let mut fuzzers = Fuzzers::start(&places, cfg, &st.targets, st.seed, remaining)?;
    obs.fuzzing(cfg.time.as_secs());
    let bodies = Bodies {
        root: &places.root,
        extra: &cfg.extra_bodies,
    };
    let start = Instant::now();
    let base = st.elapsed;
    let mut last_save = Instant::now();
    let mut last_sample = f64::NEG_INFINITY;
    if st.sample_period_s < 1.0 {
        st.sample_period_s = 1.0;
    }
    let mut dedup = Dedup::new(&st);
    'run: loop {
        let now = base + start.elapsed().as_secs_f64();
        st.elapsed = now;
        if now - last_sample >= st.sample_period_s {
            last_sample = now;
            let targets = fuzzers.latest();
            let rss = camp::rss_kib();
            let fuzzers_rss = fuzzers.rss_kib();
            st.rss_max_kib = st.rss_max_kib.max(rss);
            st.fuzzers_rss_max_kib = st.fuzzers_rss_max_kib.max(fuzzers_rss);
            st.samples.push(Row {
                seconds: now,
                targets,
                rss_kib: rss,
                fuzzers_rss_kib: fuzzers_rss,
            });
            if camp::thin(&mut st.samples, camp::MAX_SAMPLES) {
                st.sample_period_s *= 2.0;
            }
        }
        // New artifacts (crash-*, timeout-*, oom-*, ...).
        for t in st.targets.clone() {
            let art = dir.join("artifacts").join(&t);
            let mut names: Vec<String> = std::fs::read_dir(&art)
                .into_iter()
                .flatten()
                .flatten()
                .map(|e| e.file_name().to_string_lossy().to_string())
                .filter(|n| !n.starts_with('.'))
                .collect();
            names.sort();
            for n in names {
                if stop.load(Ordering::Relaxed) {
                    break 'run;
                }
                let now = base + start.elapsed().as_secs_f64();
                dedup.handle(&mut st, &bodies, dir, &t, &n, &cfg.plant, now);
            }
        }
        obs.tick(now as u64, fuzzers.executions(), st.findings.len());
        if last_save.elapsed() >= Duration::from_secs(5) {
            st.save(dir);
            last_save = Instant::now();
        }
        if stop.load(Ordering::Relaxed) {
            break;
        }
        if fuzzers.all_done() || now >= time + 30.0 {
            break;
        }
        std::thread::sleep(Duration::from_secs(1));
    }
    st.stopped = stop.load(Ordering::Relaxed);
    // Fuzzed time ends here, not after the fuzzers have been stopped.
    let fuzzed = base + start.elapsed().as_secs_f64();
    // Past the deadline, done, or stopped: stop what still runs.
    fuzzers.stop();
    obs.fuzzing_done();
    st.elapsed = fuzzed.min(time);
    let rss_end = camp::rss_kib();
    st.rss_max_kib = st.rss_max_kib.max(rss_end);
    st.save(dir);
    let mut errors = write_outputs(dir, &st, rss_end, time);
    if cfg.minimize_corpora {
        // The report above stands if this is interrupted; it is written
        // again with the merges.
        obs.merging_corpora();
        st.corpus_merge = cmin::merge_corpora(&places, &st.targets, &cfg.plant, &stop, &mut |m| {
            obs.corpus_merged(m)
        });
        st.save(dir);
        errors = write_outputs(dir, &st, rss_end, time);
    }
    Ok(Outcome {
        stopped: st.stopped,
        findings: st.findings.len(),
        errors,
    })
}
