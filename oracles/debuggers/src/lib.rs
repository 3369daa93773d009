//! Real debuggers as oracles: GDB and LLDB evaluate diopter's lowered
//! DWARF 5 in a live process, beside gimli and the reference interpreter.
//!
//! A batch of cases becomes one small program ([`elf`], [`link`]): every
//! case is a variable of one function, its location the case's lowered
//! expression (some as location lists), its registers set by the runtime
//! before a stop and its memory pages mapped at their own addresses
//! ([`prepare`]; generated cases are first moved where a process can map
//! them, [`fit`]). Each debugger runs once per batch with a script that
//! prints every variable's bytes or error ([`drive`]); each answer is
//! classified against the reference's read of the same case ([`compare`]),
//! beside gimli's evaluation of the same bytes ([`baseline`]).
//!
//! What the oracle cannot ask a debugger about (results that are not whole
//! bytes, registers without a value, implicit pointers, AMD's extensions,
//! memory outside the mappable range) is not applicable, with the reason,
//! and counted apart.

pub mod baseline;
pub mod batch;
pub mod compare;
pub mod drive;
pub mod elf;
pub mod fit;
pub mod link;
pub mod prepare;
pub mod tools;

pub use batch::{CaseResult, Options, Timing};
pub use compare::Class;
pub use drive::{Answer, Debugger};
pub use prepare::{prepare, Prepared};
pub use tools::Tools;
