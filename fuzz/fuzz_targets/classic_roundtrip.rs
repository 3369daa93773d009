//! Any UTF-8 text as a classic `!DIExpression(DW_OP_...)`: read, print,
//! read back, translate into DIOps, check and evaluate (the body:
//! `diopter_harness::classic_target`).

#![no_main]

use diopter_harness::fuzz;

libfuzzer_sys::fuzz_target!(|data: &[u8]| fuzz::classic_roundtrip(data));
