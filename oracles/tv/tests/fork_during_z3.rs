//! A campaign's workers fork `opt` while another worker asks Z3: with
//! libz3's fork handler (see `tools::z3_or_fork`) that corrupted the heap.
//! Here one thread validates a pair that needs Z3 queries with a time limit,
//! over and over, holding the lock as the campaign's workers and reductions
//! do, while another forks children through `tools::run`; the two must
//! take turns without deadlock and every verdict must stay the same. (The
//! race itself is rare: the campaign met it after ten minutes, and this
//! test's few seconds did not meet it even without the lock, so it pins
//! the protocol, not the crash.)

use diopter_semantics::diag::Source;
use diopter_smt::prove::ProveConfig;
use diopter_tv::files::validate_texts;
use diopter_tv::upstream::tools::{self, Limits};
use std::process::Command;
use std::sync::atomic::{AtomicBool, Ordering};

const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/upstream/");

#[test]
fn forking_while_another_thread_asks_z3_leaves_the_process_whole() {
    let read = |f: &str| std::fs::read_to_string(format!("{ROOT}{f}")).expect(f);
    let before = Source::new("before", read("bdce-dead-operand.before.ll"));
    let after = Source::new("after", read("bdce-dead-operand.after.ll"));
    let cfg = ProveConfig {
        timeout_ms: 200,
        ..ProveConfig::default()
    };
    let verdicts = |cfg: &ProveConfig| {
        let _one = tools::z3_or_fork();
        let v = validate_texts(&before, &after, None, cfg).expect("both files read");
        v.records.iter().map(|r| r.verdict).collect::<Vec<_>>()
    };
    let first = verdicts(&cfg);
    assert!(first.len() >= 3, "{first:?}");
    let done = AtomicBool::new(false);
    std::thread::scope(|s| {
        let forks = s.spawn(|| {
            let mut n = 0u32;
            while !done.load(Ordering::Relaxed) || n < 50 {
                let out = tools::run(&mut Command::new("true"), None, Limits::default())
                    .expect("`true` runs");
                assert!(out.status_ok);
                n += 1;
            }
            n
        });
        for round in 0..20 {
            assert_eq!(verdicts(&cfg), first, "round {round}");
        }
        done.store(true, Ordering::Relaxed);
        assert!(forks.join().expect("the forking thread") >= 50);
    });
}
