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
//! to 7, and the memory map's pages in a sorted vector. [`Compiled::run_prepared`] then runs on those arenas,
//! borrowed: the run's own entries follow them (`exec::Arena`), so that the
//! context's locations are found where the lazy path would have put them.
//!
//! The run is the same code as [`Compiled::run`]'s, on the same compact
//! forms: only where the context's data comes from differs. One kind of
//! program needs no run at all: one that only names a location the context
//! has (`DIOpArg(0)` alone, the commonest expression of real debug
//! information) evaluates to that location as prepared
//! (`PreparedContext::loaded_slot`, `Compiled::just_slot`). A context with
//! an offset beyond `i128` (which the lazy path meets only if the
//! expression names that location) is not prepared: its runs take the lazy
//! path, which handles it.
//!
//! The type itself is defined beside the machine (`exec`), which reads it;
//! this module builds it and answers its memory reads.

use super::compile::{Compiled, Ins};
use super::exec::{
    Bufs, Machine, Page, PreparedContext, RunState, Stop, NOT_LOADED, OBJECT, REFERRER,
};
use diopter_semantics::context::Context;
use diopter_semantics::memory::overlay_page;
use std::fmt;

/// The program a context is loaded with: loading reads nothing of it.
static NO_PROGRAM: Compiled = Compiled::EMPTY;

impl<'c> PreparedContext<'c> {
    /// Loads every location of `ctx` and looks up what runs look up.
    pub fn new(ctx: &'c Context) -> PreparedContext<'c> {
        let mut run = RunState::default();
        let mut bufs = Bufs::default();
        let mut home = Vec::new();
        let mut m: Machine<'c, '_, i128> =
            Machine::new(&NO_PROGRAM, ctx, &mut bufs, &mut home, &mut run, None);
        let lazy = m.load_all().is_err();
        for a in 0..8 {
            m.pointer_bits(a);
        }
        let refs = std::mem::take(&mut m.refs.own);
        let Bufs {
            singles,
            parts,
            addrs,
            words,
            ..
        } = bufs;
        let pages = ctx
            .state
            .memory
            .pages_u128()
            .map(|(space, base, set, bytes)| Page {
                space,
                base,
                set,
                bytes,
            })
            .collect();
        PreparedContext {
            ctx,
            info: run.info,
            pages,
            singles,
            parts,
            addrs,
            words,
            refs,
            lazy,
        }
    }

    /// [`Memory::overlay_u128`](diopter_semantics::memory::Memory::overlay_u128)
    /// on the prepared pages.
    #[inline]
    pub(crate) fn overlay(&self, a: u32, addr: u128, out: &mut [u8]) -> u64 {
        // The first page of the space that ends after `addr`.
        let first = self
            .pages
            .partition_point(|p| (p.space, p.base + 63) < (a, addr));
        let end = addr + out.len() as u128;
        let mut given = 0;
        for p in self.pages[first..]
            .iter()
            .take_while(|p| p.space == a && p.base < end)
        {
            given |= overlay_page(p.base, p.set, p.bytes, addr, out);
        }
        given
    }

    /// The range of the prepared arenas holding the location `ins` pushes,
    /// when `ins` only names a location of the context and the context has
    /// it (what `Machine::step` would push from the same slot).
    #[inline]
    pub(crate) fn loaded_slot(&self, ins: &Ins) -> Option<(u32, u32)> {
        let k = match *ins {
            Ins::Arg(n) if n < 8 => n as usize,
            Ins::Referrer(_) if self.ctx.referrer.is_some() => REFERRER,
            Ins::Object => OBJECT,
            _ => return None,
        };
        let slot = self.info.loaded[k];
        (slot.0 != NOT_LOADED).then_some(slot)
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
            .field("pages", &self.pages.len())
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
