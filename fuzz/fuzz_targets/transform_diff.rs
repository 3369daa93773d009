//! The passes of `diopter transform` keep every variable's location: a random
//! program, a random pass, equivalence at every program instruction in random
//! contexts (`diopter_harness::cfg_targets::transform_diff`).

#![no_main]

use diopter_harness::fuzz;

libfuzzer_sys::fuzz_target!(|data: &[u8]| fuzz::transform_diff(data));
