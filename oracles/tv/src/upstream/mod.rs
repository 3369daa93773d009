//! Upstream LLVM under test: `opt` in the loop (`opt_loop`), a pass-fuzzing
//! campaign over generated and collected IR (`campaign`, `irgen`), the
//! reduction of each refutation with `llvm-reduce` (`reduce`), the report
//! (`report`) and a finished run judged again by a newer diopter
//! (`recheck`). Everything here drives LLVM's own programs, found on PATH or
//! named by the user (`tools`).

pub mod campaign;
pub mod irgen;
pub mod opt_loop;
pub mod recheck;
pub mod reduce;
pub mod report;
pub mod tools;
