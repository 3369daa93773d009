//! The reference interpreter against the DWARF oracle (the case lowered to
//! DWARF 5 and evaluated by gimli) and against the same bytes evaluated by
//! the DWARF-extension evaluator (`dwarf::ext`, oracle `dwarf-ext`) on
//! generated cases; the input drives the generator through `arbitrary`. A disagreement is written as a case file
//! under `fuzz/artifacts/dwarf_diff/` (or `$DIOPTER_CASE_DIR`) and the run
//! stops with the command that replays it. Every 65536 cases the lowering
//! rate so far is printed to stderr.

#![no_main]

use diopter_harness::fuzz;

libfuzzer_sys::fuzz_target!(init: fuzz::init(), |data: &[u8]| fuzz::dwarf_diff(data));
