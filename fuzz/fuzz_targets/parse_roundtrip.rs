//! Any UTF-8 text as an `.expr` file: the parser never panics, every
//! expression it reads prints and parses back to an equal expression, and
//! printing is a fixpoint.

#![no_main]

use diopter_harness::fuzz;

libfuzzer_sys::fuzz_target!(|data: &[u8]| fuzz::parse_roundtrip(data));
