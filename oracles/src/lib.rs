//! Everything diopter checks against the reference semantics (fast evaluator,
//! simplifier, prover, DWARF lowering) lives here as it arrives.

pub mod campaign;
pub mod diff;
pub mod dwarf;
pub mod fast;
pub mod gen;
pub mod lifetimes_naive;
pub mod minimize;
pub mod prove;
pub mod report;
pub mod rules;
pub mod simplify;
pub mod smt;
pub mod transform;
pub mod transform_rules;
