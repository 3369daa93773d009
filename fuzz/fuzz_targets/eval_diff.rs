//! The reference interpreter against the fast evaluator on generated cases
//! (the input drives the generator through `arbitrary`). A disagreement is
//! written as a case file under `fuzz/artifacts/eval_diff/` (or
//! `$DIOPTER_CASE_DIR`) and the run stops with the command that replays it.

#![no_main]

use diopter_fast::Fast;
use diopter_harness::targets;
use libfuzzer_sys::fuzz_target;
use std::path::PathBuf;
use std::sync::atomic::Ordering;

thread_local! {
    // One fast evaluator per thread: its scratch buffers are reused.
    static FAST: Fast = Fast::default();
}

fn case_dir() -> PathBuf {
    std::env::var_os("DIOPTER_CASE_DIR").map_or_else(
        || PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/artifacts/eval_diff")),
        PathBuf::from,
    )
}

fuzz_target!(
    init: {
        // Generated types are confirmed by the check_eval target and the
        // tests; here that would cost as much as generating.
        diopter_gen::expr::CROSS_CHECK.store(false, Ordering::Relaxed);
    },
    |data: &[u8]| {
        FAST.with(|fast| {
            if let Err(m) = targets::eval_diff(data, fast, Some(&case_dir())) {
                panic!("{m}");
            }
        });
    }
);
