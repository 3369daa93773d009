//! gimli's DWARF against the reference, the baseline of the debugger
//! oracles: [`compare`] lowers a case to DWARF 5, evaluates the bytes with
//! gimli (or, [`compare_with`], another lowering and evaluator: AMD's
//! extensions and `diopter_dwarf::ext`) and classifies the outcome against
//! the reference's by DESIGN.md's equivalence, with NaN payloads told apart
//! (`diopter_dwarf`'s module doc says why they may differ). The `dwarf_diff`
//! fuzz target and [`crate::prepare`] both judge by it.

use diopter_diff::{self as diff, Observation, Reference, Verdict};
use diopter_dwarf::{evaluate, lower, LowerFn, Lowered, NotLowerable};
use diopter_semantics::case::{write_pattern, Case};
use diopter_semantics::context::Context;
use diopter_semantics::interp::{self, ErrorKind, Outcome};

/// How the DWARF oracle relates to the reference on one case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DwarfVerdict {
    /// Same type, bits read and write effect (or the same error class at the
    /// same operation).
    Agree,
    BothError {
        kind: ErrorKind,
        op_index: usize,
    },
    /// The only difference: both read a NaN of the result's float type, with
    /// different payloads (`diopter_dwarf`'s module doc says why).
    NanPayload,
    /// The reference says the context is inconsistent; never agreement.
    Inconsistent,
    /// The reference hit a resource limit.
    Skipped(String),
    NotLowerable(NotLowerable),
    Disagree(Vec<String>),
}

impl DwarfVerdict {
    pub fn label(&self) -> &'static str {
        match self {
            DwarfVerdict::Agree => "agree",
            DwarfVerdict::BothError { .. } => "both-error",
            DwarfVerdict::NanPayload => "nan-payload",
            DwarfVerdict::Inconsistent => "inconsistent-context",
            DwarfVerdict::Skipped(_) => "skipped",
            DwarfVerdict::NotLowerable(_) => "not-lowerable",
            DwarfVerdict::Disagree(_) => "DISAGREE",
        }
    }
}

/// Runs the reference and the DWARF oracle on `case` and classifies.
pub fn compare(case: &Case) -> DwarfVerdict {
    compare_with(case, lower, evaluate)
}

/// [`compare`] with another lowering and evaluator of the lowered bytes:
/// gimli's ([`lower`], [`evaluate`]), or the extension evaluator's
/// ([`lower_ext`], [`ext::evaluate_lowered`]).
pub fn compare_with(
    case: &Case,
    lower: LowerFn,
    eval: fn(&Lowered, &Context) -> Outcome,
) -> DwarfVerdict {
    let lowered = match lower(&case.bare, &case.types, &case.ctx) {
        Ok(l) => l,
        Err(e) => return DwarfVerdict::NotLowerable(e),
    };
    let reference = diff::observe(case, &Reference);
    let outcome = eval(&lowered, &case.ctx);
    let dwarf = observation_of(case, outcome);
    match diff::classify(&[reference.clone(), dwarf.clone()]) {
        Verdict::Agree => DwarfVerdict::Agree,
        Verdict::BothError { kind, op_index } => DwarfVerdict::BothError { kind, op_index },
        Verdict::InconsistentContext { .. } => DwarfVerdict::Inconsistent,
        Verdict::Skipped { reason } => DwarfVerdict::Skipped(reason),
        Verdict::Disagree { details } => {
            // Two NaNs with different payloads, both refusing writes.
            let nan = lowered.computed_float_result
                && match (&reference.outcome, &reference.read, &dwarf.read) {
                    (Ok(r), Some(Ok(a)), Some(Ok(b))) => {
                        diff::is_nan(&r.ty, a)
                            && diff::is_nan(&r.ty, b)
                            && matches!(
                                (&reference.write, &dwarf.write),
                                (Some(Err(x)), Some(Err(y))) if x.kind == y.kind
                            )
                    }
                    _ => false,
                };
            if nan {
                DwarfVerdict::NanPayload
            } else {
                DwarfVerdict::Disagree(details)
            }
        }
    }
}

/// The DWARF oracle's observation of an outcome (reads and writes through
/// the reference's location code).
pub fn observation_of(case: &Case, outcome: Outcome) -> Observation {
    let (read, write) = match &outcome {
        Ok(r) => {
            let read = interp::read_value(&case.ctx, r);
            let mut after = case.ctx.clone();
            let write = interp::write_value(&mut after, r, &write_pattern(r.bits)).map(|()| after);
            (Some(read), Some(write))
        }
        Err(_) => (None, None),
    };
    Observation {
        oracle: "dwarf".into(),
        outcome,
        read,
        write,
        exact_location: false,
        // `compare` tells NaN payload differences apart itself.
        any_nan: false,
    }
}
