//! `diopter validate` against the reference interpreter: AMD-style updates
//! (salvage of add/sub/mul/shl/lshr/ashr by a constant, address-space-cast
//! folding, SROA's split of an operand into two new ones), correct and
//! deliberately wrong, applied to generated
//! expressions; the validator's verdict must agree with what the reference
//! interpreter sees in random contexts (`diopter_harness::targets::validate_diff`).

#![no_main]

use diopter_harness::fuzz;

libfuzzer_sys::fuzz_target!(init: fuzz::init(), |data: &[u8]| fuzz::validate_diff(data));
