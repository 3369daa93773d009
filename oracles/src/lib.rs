//! Everything diopter checks against the reference semantics (fast evaluator,
//! simplifier, prover, DWARF lowering) lives here as it arrives.

pub mod diff;
pub mod dwarf;
pub mod fast;
pub mod gen;
pub mod lifetimes_naive;
pub mod prove;
pub mod rules;
pub mod simplify;
pub mod smt;
pub mod transform;
