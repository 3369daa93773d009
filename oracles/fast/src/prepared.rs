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
use diopter_semantics::context::{splitmix64, Context};
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
        let space_hash = std::array::from_fn(|a| splitmix64(run.info.seed_hash ^ a as u64));
        PreparedContext {
            ctx,
            info: run.info,
            pages,
            space_hash,
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
    #[inline(always)]
    pub(crate) fn overlay(&self, a: u32, addr: u128, out: &mut [u8]) -> u64 {
        let n = out.len();
        debug_assert!(n <= 64, "at most 64 bytes at a time");
        if n == 0 {
            return 0;
        }
        // At most 64 bytes: within the page holding `addr` and the next
        // one, seen as one window of 128 bytes from `first` (page bases are
        // multiples of 64, so each page is found by its exact base).
        let first = addr & !63;
        let off = (addr - first) as u32;
        let i = self
            .pages
            .partition_point(|p| (p.space, p.base) < (a, first));
        let page =
            |k: usize, base: u128| self.pages.get(k).filter(|p| p.space == a && p.base == base);
        let p0 = page(i, first);
        let p1 = if u64::from(off) + n as u64 > 64 {
            page(i + usize::from(p0.is_some()), first + 64)
        } else {
            None
        };
        let set = u128::from(p0.map_or(0, |p| p.set)) | u128::from(p1.map_or(0, |p| p.set)) << 64;
        let full = u64::MAX >> (64 - n);
        let mut want = (set >> off) as u64 & full;
        let given = want;
        const NONE: [u8; 64] = [0; 64];
        if want == full {
            // Inputs placed in memory are often given whole: a copy or two.
            let (b0, b1) = (p0.map_or(&NONE, |p| p.bytes), p1.map_or(&NONE, |p| p.bytes));
            let k = (64 - off as usize).min(n);
            out[..k].copy_from_slice(&b0[off as usize..off as usize + k]);
            if k < n {
                out[k..].copy_from_slice(&b1[..n - k]);
            }
            return full;
        }
        while want != 0 {
            let j = want.trailing_zeros();
            want &= want - 1;
            let at = off + j;
            let p = if at < 64 { p0 } else { p1 };
            out[j as usize] = p.map_or(0, |p| p.bytes[(at & 63) as usize]);
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

#[cfg(test)]
mod tests {
    use super::*;
    use diopter_semantics::types::DataLayout;
    use num_bigint::BigUint;

    /// The prepared pages give the bytes the memory map gives, for every
    /// read of up to 64 bytes around pages given in part, given whole, on
    /// either side of a page boundary, in neighbouring address spaces, and
    /// near the top of `u64` and `u128`.
    #[test]
    fn prepared_pages_give_the_maps_bytes() {
        let mut ctx = Context::new(DataLayout::default());
        let bases: [u128; 4] = [0x100, 0x1c0, u128::from(u64::MAX) - 70, u128::MAX - 400];
        for (k, &base) in bases.iter().enumerate() {
            for space in [0u32, 1, 5] {
                // Every third byte of 130, then a run of 70 given whole.
                for i in (0..130u128).step_by(3) {
                    ctx.set_byte(space, BigUint::from(base + i), (i as u8) ^ (k as u8));
                }
                let bytes: Vec<u8> = (0..70).map(|i| 0x80 | i as u8).collect();
                ctx.set_memory(space, BigUint::from(base + 140), &bytes);
            }
        }
        let pre = PreparedContext::new(&ctx);
        for &base in &bases {
            for space in [0u32, 1, 2, 5] {
                for start in (0..230u128).step_by(7) {
                    let addr = base - 9 + start;
                    for len in [0usize, 1, 2, 7, 8, 17, 33, 64] {
                        if addr.checked_add(len as u128).is_none() {
                            continue;
                        }
                        let (mut a, mut b) = ([0u8; 64], [0u8; 64]);
                        let ga = pre.overlay(space, addr, &mut a[..len]);
                        let gb = ctx.state.memory.overlay_u128(space, addr, &mut b[..len]);
                        assert_eq!(ga, gb, "space {space} {addr:#x}+{len}");
                        assert_eq!(a, b, "space {space} {addr:#x}+{len}");
                    }
                }
            }
        }
    }
}
