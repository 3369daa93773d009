//! `diopter validate` against the reference interpreter: AMD-style updates
//! (salvage of add/sub/mul/shl/lshr/ashr by a constant, address-space-cast
//! folding, SROA's split of an operand into two new ones), correct and
//! deliberately wrong, applied to generated
//! expressions; the validator's verdict must agree with what the reference
//! interpreter sees in random contexts (`diopter_harness::targets::validate_diff`).

#![no_main]

use libfuzzer_sys::fuzz_target;
use std::sync::atomic::Ordering;

fuzz_target!(
    init: {
        diopter_gen::expr::CROSS_CHECK.store(false, Ordering::Relaxed);
    },
    |data: &[u8]| {
        if let Err(m) = diopter_harness::targets::validate_diff(data) {
            panic!("{m}");
        }
    }
);
