//! The fuzzing machinery that puts the oracles to work against the
//! reference interpreter: the engines as oracles of the differential
//! framework ([`adapters`]: the engines themselves know nothing of it), the
//! oracles by name ([`registry`]), the bodies of the fuzz targets in `fuzz/`
//! ([`targets`]) and what the targets call ([`fuzz`]), the minimizer of failing cases
//! ([`minimize`]) and the in-process campaign with its report
//! ([`campaign`]). The libFuzzer campaign (`diopter campaign`) is the
//! `diopter-campaign` crate, above this one: it replays every fuzz target
//! with the bodies kept here.
//!
//! It checks nothing itself: the verdicts come from `diopter_diff`'s
//! comparison of the oracles' observations (DESIGN.md's equivalence).

pub mod adapters;
pub mod campaign;
pub mod cfg_targets;
pub mod classic_target;
pub mod debuggers;
pub mod fuzz;
pub mod minimize;
pub mod registry;
pub mod targets;
