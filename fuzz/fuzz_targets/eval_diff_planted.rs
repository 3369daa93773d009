//! A test aid, not a real target: `eval_diff` with a bug planted into the
//! fast evaluator (`diopter_harness::minimize::plant`; `$DIOPTER_PLANT`,
//! default `add-off-by-one`). It exists to make real libFuzzer artifacts of
//! a known disagreement, on which `diopter minimize --bytes` is measured
//! against `cargo fuzz tmin` (`reports/minimizer.sh`, `reports/minimizer.md`).
//! `$DIOPTER_MAX_OPS` raises the generator's cap on operations (default
//! 64) so that artifacts of about 100 operations come up; replay those
//! with `diopter minimize --bytes --max-ops N`.

#![no_main]

use diopter_harness::fuzz;

libfuzzer_sys::fuzz_target!(init: fuzz::init(), |data: &[u8]| fuzz::eval_diff_planted(data));
