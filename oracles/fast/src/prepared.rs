//! A context prepared once for many evaluations.
//!
//! A debugger stops, and evaluates many expressions in the context of that
//! stop; a fuzz loop or a benchmark evaluates many expressions in one
//! context. [`Compiled::run`] converts the context's locations to compact
//! form as an expression names them, looks up pointer sizes and searches the
//! memory map, once per run: for a short expression that is a quarter of the
//! run. A [`PreparedContext`] does all of that once: every location of the
//! context (`arg 0` to `arg 7`, the referrer, the object) in compact form in
//! arenas of its own, the seed's hash, the pointer sizes of address spaces 0
//! to 7 and, for each of them, the lowest and highest address the memory map
//! gives a byte for. [`Compiled::run_prepared`] then runs on those arenas,
//! borrowed: the run's own entries follow them (`exec::Arena`), so that the
//! context's locations are found where the lazy path would have put them.
//!
//! The run is the same code as [`Compiled::run`]'s, on the same compact
//! forms: only where the context's data comes from differs. A context with
//! an offset beyond `i128` (which the lazy path meets only if the
//! expression names that location) is not prepared: its runs take the lazy
//! path, which handles it.

use super::compile::Compiled;
use super::exec::{AddrC, CtxInfo, Machine, PartC, RunState, Sgl, Stop};
use diopter_semantics::context::Context;
use std::fmt;

/// A context with its locations in compact form (see the module
/// documentation); borrow it for as many [`Compiled::run_prepared`] as
/// the context stays unchanged.
pub struct PreparedContext<'c> {
    pub(crate) ctx: &'c Context,
    /// The per-context state a run starts from: the loaded locations'
    /// ranges (all of them loaded), the seed's hash, the pointer sizes.
    pub(crate) info: CtxInfo,
    /// The memory map's span per address space 0..8 (`None`: no byte).
    pub(crate) spans: [Option<(u128, u128)>; 8],
    pub(crate) singles: Vec<Sgl<'c, i128>>,
    pub(crate) parts: Vec<PartC<'c, i128>>,
    pub(crate) addrs: Vec<AddrC<'c, i128>>,
    pub(crate) words: Vec<u64>,
    /// An offset of the context does not fit an `i128`: runs take the lazy
    /// path.
    pub(crate) lazy: bool,
}

/// The program a context is loaded with: loading reads nothing of it.
static NO_PROGRAM: Compiled = Compiled::EMPTY;

impl<'c> PreparedContext<'c> {
    /// Loads every location of `ctx` and looks up what runs look up.
    pub fn new(ctx: &'c Context) -> PreparedContext<'c> {
        let mut run = RunState::default();
        let mut m: Machine<'c, '_, i128> = Machine::new(&NO_PROGRAM, ctx, &mut run);
        let lazy = m.load_all().is_err();
        for a in 0..8 {
            m.pointer_bits(a);
        }
        let (singles, parts, addrs, words) = (m.singles.own, m.parts.own, m.addrs.own, m.words);
        let mem = &ctx.state.memory;
        let spans = std::array::from_fn(|a| {
            if mem.is_empty() {
                None
            } else {
                mem.span_u128(a as u32)
            }
        });
        PreparedContext {
            ctx,
            info: run.info,
            spans,
            singles,
            parts,
            addrs,
            words,
            lazy,
        }
    }

    /// The context it was prepared from.
    pub fn context(&self) -> &'c Context {
        self.ctx
    }
}

impl fmt::Debug for PreparedContext<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PreparedContext")
            .field("singles", &self.singles.len())
            .field("parts", &self.parts.len())
            .field("addrs", &self.addrs.len())
            .field("words", &self.words.len())
            .field("lazy", &self.lazy)
            .finish()
    }
}

impl Machine<'_, '_, i128> {
    /// Loads the locations of the context that have a slot.
    fn load_all(&mut self) -> Result<(), Stop> {
        let ctx = self.ctx;
        for (&n, l) in ctx.args.range(..8) {
            self.load_slot(n as usize, l)?;
        }
        if let Some(l) = &ctx.referrer {
            self.load_slot(super::exec::REFERRER, l)?;
        }
        if let Some(l) = &ctx.object {
            self.load_slot(super::exec::OBJECT, l)?;
        }
        Ok(())
    }
}
