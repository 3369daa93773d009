//! Upstream LLVM under test: `opt` in the loop (`opt_loop`), a pass-fuzzing
//! campaign over generated and collected IR (`campaign`, `irgen`), the
//! reduction of each refutation with `llvm-reduce` (`reduce`) and the report
//! (`report`). Everything here drives LLVM's own programs, found on PATH or
//! named by the user (`tools`).

pub mod campaign;
pub mod irgen;
pub mod opt_loop;
pub mod reduce;
pub mod report;
pub mod tools;
