//! The DWARF engines as oracles: [`Dwarf`] (the case lowered to DWARF 5,
//! the bytes evaluated by gimli) and [`DwarfExt`] (lowered with AMD's
//! extensions, evaluated by `diopter_dwarf::ext`). Their comparison with
//! the reference, NaN payloads told apart, is the debugger oracles'
//! baseline (`diopter_debuggers::baseline`), re-exported here.

pub use diopter_debuggers::baseline::{compare, compare_with, observation_of, DwarfVerdict};

use diopter_diff::Oracle;
use diopter_dwarf::{evaluate, ext, lower, lower_ext};
use diopter_semantics::case::Case;
use diopter_semantics::interp::{ErrorKind, EvalError, Outcome};

/// The DWARF oracle: lower the case, evaluate the bytes with gimli.
#[derive(Default)]
pub struct Dwarf;

impl Oracle for Dwarf {
    fn name(&self) -> &str {
        "dwarf"
    }
    fn eval(&self, case: &Case) -> Outcome {
        match lower(&case.bare, &case.types, &case.ctx) {
            Ok(l) => evaluate(&l, &case.ctx),
            // `not_applicable` keeps the driver from getting here.
            Err(e) => Err(EvalError {
                kind: ErrorKind::ResourceLimit,
                op_index: usize::MAX,
                message: format!("not lowerable: {e}"),
            }),
        }
    }
    fn not_applicable(&self, case: &Case) -> Option<String> {
        lower(&case.bare, &case.types, &case.ctx)
            .err()
            .map(|e| format!("not lowerable: {e}"))
    }
    fn exact_locations(&self) -> bool {
        false
    }
    fn nan_payload_unspecified(&self, case: &Case) -> bool {
        lower(&case.bare, &case.types, &case.ctx).is_ok_and(|l| l.computed_float_result)
    }
}

/// The DWARF oracle with this evaluator in place of gimli's: lower the case
/// with AMD's extensions ([`lower_ext`]), evaluate the bytes with
/// [`ext::evaluate_lowered`]. Replay names it `dwarf-ext`.
#[derive(Default)]
pub struct DwarfExt;

impl Oracle for DwarfExt {
    fn name(&self) -> &str {
        "dwarf-ext"
    }
    fn eval(&self, case: &Case) -> Outcome {
        match lower_ext(&case.bare, &case.types, &case.ctx) {
            Ok(l) => ext::evaluate_lowered(&l, &case.ctx),
            Err(e) => Err(EvalError {
                kind: ErrorKind::ResourceLimit,
                op_index: usize::MAX,
                message: format!("not lowerable: {e}"),
            }),
        }
    }
    fn not_applicable(&self, case: &Case) -> Option<String> {
        lower_ext(&case.bare, &case.types, &case.ctx)
            .err()
            .map(|e| format!("not lowerable: {e}"))
    }
    fn exact_locations(&self) -> bool {
        false
    }
    fn nan_payload_unspecified(&self, case: &Case) -> bool {
        lower_ext(&case.bare, &case.types, &case.ctx).is_ok_and(|l| l.computed_float_result)
    }
}
