//! The whole CLI never panics: one command line of `check`, `eval`,
//! `lower`, `simplify`, `locations`, `replay` or `specs`, run in this
//! process through the code the binary runs (parsing through printing, text
//! and JSON), on raw text or generated cases. `diopter::fuzz_cli` says how
//! the input reads and what a finding is.

#![no_main]

use diopter_harness::fuzz;

libfuzzer_sys::fuzz_target!(|data: &[u8]| fuzz::found(diopter::fuzz_cli::fuzz_one(data)));
