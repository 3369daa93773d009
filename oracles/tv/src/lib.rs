//! Translation validation: whether a compiler's update of a debug
//! expression keeps what a debugger shows. It sits beside the prover, not
//! inside the encoding (Alive2's `tv/` beside `smt/`): the Z3 encoding and
//! the rule prover know nothing of passes, pair files or IR files.
//!
//! * [`validate`]: a before/after pair of expressions with its operand
//!   mapping (`diopter validate FILE.map`), decided by the prover;
//! * [`validate_ir`]: two versions of an IR file, each variable's debug
//!   records matched and related through the instructions both files share
//!   (`diopter validate BEFORE.ll AFTER.ll`);
//! * [`poison`]: where a value derived from the IR is poison, as
//!   preconditions of the query;
//! * [`conventions`]: the classic translation's open conventions, free or
//!   fixed;
//! * [`reading`]: which of them a refutation rests on.

pub mod batch;
pub mod callsites;
pub mod conventions;
pub mod files;
pub mod paths;
pub mod poison;
pub mod reading;
pub mod upstream;
pub mod validate;
pub mod validate_ir;
