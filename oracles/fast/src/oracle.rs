//! The fast evaluator as an oracle of the differential framework
//! (`diopter_diff::Oracle`), so that the harness can hold it against the
//! reference interpreter.

use crate::{compile_unchecked, Scratch};
use diopter_diff::Oracle;
use diopter_gen::Case;
use diopter_semantics::check::BareInputs;
use diopter_semantics::interp::Outcome;
use std::cell::RefCell;

/// The fast evaluator (`compile_unchecked` then `Compiled::eval`), with the
/// environment the reference builds for a one-line expression.
#[derive(Default)]
pub struct Fast {
    scratch: RefCell<Scratch>,
}

impl Oracle for Fast {
    fn name(&self) -> &str {
        "fast"
    }
    fn eval(&self, case: &Case) -> Outcome {
        let inputs = BareInputs::of(&case.bare, &case.ctx.datalayout, &case.types);
        let env = inputs.env(case.bare.expr.dialect, &case.ctx.datalayout, &case.types);
        let compiled = compile_unchecked(&case.bare.expr, &env);
        compiled.eval(&case.ctx, &mut self.scratch.borrow_mut())
    }
}
