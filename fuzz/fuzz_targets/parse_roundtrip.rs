//! Any UTF-8 text as an `.expr` file: the parser never panics, every
//! expression it reads prints and parses back to an equal expression, and
//! printing is a fixpoint.

#![no_main]

use diopter_harness::targets;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Err(m) = targets::parse_roundtrip(data) {
        panic!("{m}");
    }
});
