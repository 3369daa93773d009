//! The simplifier against the reference interpreter: a generated case (the
//! input drives the generator through `arbitrary`) and the same case with
//! its expression simplified by the rule library (`corpus/rules`, the
//! files the prover proves, plus the generated folding rules) must be
//! equivalent by DESIGN.md's relation. A disagreement is written as a case
//! file under `fuzz/artifacts/simplify_diff/` (or `$DIOPTER_CASE_DIR`),
//! with the simplified expression and the rules applied as comments.

#![no_main]

use diopter_harness::fuzz;

libfuzzer_sys::fuzz_target!(init: fuzz::init(), |data: &[u8]| fuzz::simplify_diff(data));
