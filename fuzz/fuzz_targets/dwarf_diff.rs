//! The reference interpreter against the DWARF oracle (the case lowered to
//! DWARF 5 and evaluated by gimli) and against the same bytes evaluated by
//! the DWARF-extension evaluator (`dwarf::ext`, oracle `dwarf-ext`) on
//! generated cases; the input drives the generator through `arbitrary`. A disagreement is written as a case file
//! under `fuzz/artifacts/dwarf_diff/` (or `$DIOPTER_CASE_DIR`) and the run
//! stops with the command that replays it. Every 65536 cases the lowering
//! rate so far is printed to stderr.

#![no_main]

use libfuzzer_sys::fuzz_target;
use std::path::PathBuf;
use std::sync::atomic::Ordering;

fn case_dir() -> PathBuf {
    std::env::var_os("DIOPTER_CASE_DIR").map_or_else(
        || PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/artifacts/dwarf_diff")),
        PathBuf::from,
    )
}

fuzz_target!(
    init: {
        // Generated types are confirmed by the check_eval target and the
        // tests; here that would cost as much as generating.
        diopter_gen::expr::CROSS_CHECK.store(false, Ordering::Relaxed);
    },
    |data: &[u8]| {
        if let Err(m) = diopter_dwarf::fuzz_dwarf_diff(data, Some(&case_dir())) {
            panic!("{m}");
        }
    }
);
