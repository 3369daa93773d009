//! Any UTF-8 text as a classic `!DIExpression(DW_OP_...)`: read, print,
//! read back, translate into DIOps, check and evaluate (the body:
//! `diopter_harness::classic_target`).

#![no_main]

use diopter_harness::classic_target;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Err(m) = classic_target::classic_roundtrip(data) {
        panic!("{m}");
    }
});
