//! A fast evaluator of DIOp expressions, exact against the reference
//! interpreter (`diopter_semantics::interp`).
//!
//! The reference is written to be read: bit lists, `BigInt` offsets, a
//! `Vec` per operation. Debuggers and fuzz campaigns evaluate millions of
//! expressions, so this module compiles an expression once ([`compile`])
//! into a flat instruction array with every type, width and constant
//! resolved, and runs it many times ([`Compiled::eval`]) on machine words,
//! reusing the buffers of a [`Scratch`]. It is a separate implementation,
//! not a wrapper: it calls neither `interp` nor `location::read`/`write` when
//! evaluating, and it gives exactly the reference's [`Outcome`] — the same
//! `Located` (type, `LocDesc`, size, fragment) or the same `EvalError`
//! (kind, operation index and message) — for every expression and context.
//! The differential tests in `tests/fast_*.rs` hold it to that, through
//! the `Fast` oracle (`diopter_harness::adapters`).
//!
//! * [`compile`] checks the expression (`check::check_expr`) and compiles it;
//!   [`compile_unchecked`] compiles anything, turning what the reference
//!   would reject without looking at the context into a failing instruction
//!   at the same operation, so that even ill-formed expressions evaluate to
//!   the reference's outcome ([`eval_once`] uses it).
//! * Compiling types each operation on small type codes (`typing`), and
//!   falls back on the checker's own typing ([`compile_checked_types`]) for
//!   anything that typing does not vouch for, so that compiling an
//!   expression to evaluate it once costs less than interpreting it.
//! * Values of at most 128 bits are `u128`s; wider ones are runs of `u64`
//!   words in the scratch arena, computed on words (`DIOpDiv`/`DIOpMod` of
//!   integers wider than 4096 bits and wide int/float conversions go
//!   through the reference's `Bits` algebra, and allocate).
//! * Offsets are `i128`. An offset that outgrows it (huge pointers, huge
//!   `DIOpBitOffset` values, huge context offsets) stops the run, which is
//!   then repeated with `BigInt` offsets: the same code, instantiated twice
//!   (`offset`).
//! * Floats: `float` and `double` on the hardware, NaN results and the other
//!   kinds through `rustc_apfloat` (as the reference), on raw encodings.
//! * A context can be prepared once ([`PreparedContext`]: its locations in
//!   compact form, what runs look up in it) for many evaluations
//!   ([`Compiled::run_prepared`]), as a debugger evaluates many expressions
//!   at one stop; [`Compiled::run`] loads what an expression names, per run.
//! * The result is the evaluator's own ([`Compiled::run`] gives an
//!   [`Evaluation`]): the location as the machine left it, the type
//!   borrowed from the program, an error's message kept as its arguments
//!   and written only when asked. Nothing allocates while values stay
//!   within 128 bits (`tests/fast_alloc.rs` counts). [`Compiled::eval`]
//!   converts it to the reference's `Outcome` (that allocates), which is
//!   what the differential oracle compares.
//!
//! The module's parts: `compile` (instruction format), `typing` (the
//! compiler's own typing), `exec` (compact
//! locations, the machine, the conversion to the reference's form), `result`
//! (the compact result), `msg` (messages on demand), `read` (reading bits as
//! `location::read` does), `arith` (lane operations and conversions),
//! `words` (bit helpers), `offset`, `show` (locations in messages),
//! `prepared` (contexts prepared once).

mod arith;
mod compile;
mod exec;
mod failure;
mod msg;
mod offset;
mod prepared;
mod read;
mod result;
mod show;
mod typing;
mod words;

pub use compile::{compile_checked_types, Compiled};
pub use exec::PreparedContext;
pub use result::{EvalFailure, Evaluation, SingleRef, StorageRef, Value};
pub use typing::{compile_typed, compile_unchecked};

use diopter_semantics::ast::Expr;
use diopter_semantics::check::{self, Env};
use diopter_semantics::context::Context;
use diopter_semantics::diag::Diagnostic;
use diopter_semantics::interp::Outcome;
use exec::{Bufs, Ref, RunState};
use num_bigint::BigInt;
use std::fmt;

/// The expression is not well-formed: the checker's diagnostics.
#[derive(Clone, Debug)]
pub struct CompileError {
    pub diagnostics: Vec<Diagnostic>,
}

impl fmt::Display for CompileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, d) in self.diagnostics.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{}", d.message)?;
        }
        Ok(())
    }
}

impl std::error::Error for CompileError {}

/// Compiles a well-formed expression (checked with `check::check_expr`
/// against `env`). Evaluate the result with [`Compiled::eval`] in contexts
/// whose data layout is `env.dl`'s, as the reference would be.
pub fn compile(e: &Expr, env: &Env) -> Result<Compiled, CompileError> {
    check::check_expr(e, env).map_err(|diagnostics| CompileError { diagnostics })?;
    Ok(compile_unchecked(e, env))
}

/// `compile_unchecked(e, env).eval(ctx, ..)`: the reference's `eval(e, env, ctx)`.
pub fn eval_once(e: &Expr, env: &Env, ctx: &Context) -> Outcome {
    compile_unchecked(e, env).eval(ctx, &mut Scratch::default())
}

/// Reusable buffers for [`Compiled::eval`]: keep one per thread and pass it
/// to every evaluation, and evaluations stop allocating once it has grown.
#[derive(Default)]
pub struct Scratch {
    /// The arenas of runs with `i128` offsets, borrowed by each run.
    bufs: Bufs<i128>,
    /// The same for the runs repeated with `BigInt` offsets.
    big: Bufs<BigInt>,
    /// A run's own entity and type references (`exec::Ref`): they borrow
    /// the run's context or program, so the vector is moved into a run that
    /// makes one and back (`Machine::push_ref`).
    refs: Vec<Ref<'static>>,
    /// What a run learns of its context (lent to the machine).
    run: RunState,
}

impl fmt::Debug for Scratch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let b = &self.bufs;
        f.debug_struct("Scratch")
            .field("stack", &b.stack.capacity())
            .field("singles", &b.singles.capacity())
            .field("parts", &b.parts.capacity())
            .field("addrs", &b.addrs.capacity())
            .field("words", &b.words.capacity())
            .field("refs", &self.refs.capacity())
            .finish()
    }
}

impl Scratch {
    pub fn new() -> Scratch {
        Scratch::default()
    }
}

impl Compiled {
    /// Evaluates the expression in `ctx`: the reference's outcome (the
    /// compact result of [`Compiled::run`], converted).
    pub fn eval(&self, ctx: &Context, scratch: &mut Scratch) -> Outcome {
        self.run(ctx, scratch).to_outcome()
    }

    /// [`Compiled::eval`] in a prepared context: the same outcome.
    pub fn eval_prepared(&self, ctx: &PreparedContext<'_>, scratch: &mut Scratch) -> Outcome {
        self.run_prepared(ctx, scratch).to_outcome()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use exec::recycle;

    #[test]
    fn recycling_keeps_the_allocation() {
        let mut v: Vec<Ref<'static>> = Vec::with_capacity(37);
        v.push(Ref::Ent("%x", None));
        let ptr = v.as_ptr() as usize;
        let w: Vec<Ref<'_>> = recycle(v);
        assert_eq!(w.capacity(), 37);
        assert_eq!(w.as_ptr() as usize, ptr);
    }
}
