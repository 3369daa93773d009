//! The reference interpreter against the fast evaluator on generated cases
//! (the input drives the generator through `arbitrary`). A disagreement is
//! written as a case file under `fuzz/artifacts/eval_diff/` (or
//! `$DIOPTER_CASE_DIR`) and the run stops with the command that replays it.

#![no_main]

use diopter_harness::fuzz;

libfuzzer_sys::fuzz_target!(init: fuzz::init(), |data: &[u8]| fuzz::eval_diff(data));
