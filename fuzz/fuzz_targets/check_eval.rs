//! The checker is sound: whatever `check_bare` accepts (generated, wild or
//! parsed from the input's text) evaluates in the reference without an
//! `IllFormed` error, and every generated expression is accepted.

#![no_main]

use diopter_harness::fuzz;

libfuzzer_sys::fuzz_target!(|data: &[u8]| fuzz::check_eval(data));
