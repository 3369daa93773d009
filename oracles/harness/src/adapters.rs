//! The engines as oracles of the differential framework
//! (`diopter_diff::Oracle`): the fast evaluator, the DWARF oracle (gimli)
//! and the DWARF-extension evaluator. The engines evaluate expressions and
//! know nothing of the framework; these adapters give each the environment
//! the reference builds for a case, and [`dwarf`] holds the comparison of
//! the DWARF oracles with the reference that `dwarf_diff` and the debugger
//! oracles use.

pub mod dwarf;

pub use dwarf::{Dwarf, DwarfExt};

use diopter_diff::Oracle;
use diopter_fast::{compile_unchecked, Compiled, Scratch};
use diopter_semantics::case::Case;
use diopter_semantics::check::BareInputs;
use diopter_semantics::interp::Outcome;
use std::cell::RefCell;

/// The fast evaluator (`compile_unchecked` then `Compiled::eval`), with the
/// environment the reference builds for a one-line expression. Each case's
/// program is compiled into the previous case's buffers
/// (`Compiled::recompile_unchecked`), as the scratch is reused.
#[derive(Default)]
pub struct Fast {
    scratch: RefCell<Scratch>,
    program: RefCell<Option<Compiled>>,
}

impl Oracle for Fast {
    fn name(&self) -> &str {
        "fast"
    }
    fn eval(&self, case: &Case) -> Outcome {
        let inputs = BareInputs::of(&case.bare, &case.ctx.datalayout, &case.types);
        let env = inputs.env(case.bare.expr.dialect, &case.ctx.datalayout, &case.types);
        let mut program = self.program.borrow_mut();
        let compiled = match &mut *program {
            Some(p) => {
                p.recompile_unchecked(&case.bare.expr, &env);
                p
            }
            None => program.insert(compile_unchecked(&case.bare.expr, &env)),
        };
        compiled.eval(&case.ctx, &mut self.scratch.borrow_mut())
    }
}
