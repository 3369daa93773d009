//! The passes of `diopter transform` keep every variable's location: a random
//! program, a random pass, equivalence at every program instruction in random
//! contexts (`diopter_transforms::transform_diff`).

#![no_main]

use diopter_transforms::transform_diff;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Err(m) = transform_diff(data) {
        panic!("{m}");
    }
});
