//! The checker is sound: whatever `check_bare` accepts (generated, wild or
//! parsed from the input's text) evaluates in the reference without an
//! `IllFormed` error, and every generated expression is accepted.

#![no_main]

use diopter_harness::targets;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Err(m) = targets::check_eval(data) {
        panic!("{m}");
    }
});
