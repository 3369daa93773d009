//! Where bounded lifetimes are active: the dataflow against a naive path
//! enumeration on random CFGs with random defs and kills, also through the IR
//! reader and the object-location model
//! (`diopter_harness::cfg_targets::lifetimes_diff`).

#![no_main]

use diopter_harness::fuzz;

libfuzzer_sys::fuzz_target!(|data: &[u8]| fuzz::lifetimes_diff(data));
