//! Reading bits through compact locations, as `location::read` does.
//!
//! The structure follows the reference step by step, because the *first*
//! failure decides the outcome: a location description reads every single
//! location in order (the first failing one is the error) and only then
//! compares them (the first that differs from #0 makes it `Inconsistent`); a
//! single location checks, in this order, zero bits (nothing to read),
//! undefined storage, implicit-address storage, an entity missing from the
//! context, and the bounds; a composite reads the parts the range overlaps,
//! in order, each through its own location description.
//!
//! One single location in memory, an entity or an implicit value, read in
//! bounds, takes a fast path that returns the `u128` directly. Other reads
//! of at most 128 bits follow the general path's steps on `u128`s
//! (`read_small_at`: single locations compared as numbers, composite parts
//! shifted into place), and wider ones put their bits into regions of the
//! words arena (`read_into`); both check a single location with the same
//! `checked`, so errors have one source.

use super::exec::{fail, Loc, Machine, Sgl, St, Stop, Val, R};
use super::failure::{Msg, Size};
use super::offset::Off;
use super::words::{self, mask128};
use diopter_semantics::interp::ErrorKind;
use num_bigint::{BigInt, BigUint};

/// Whether bits `off..off+n` lie inside a storage of `size` bits.
fn in_bounds<O: Off>(off: &O, n: u64, size: Size) -> bool {
    if off.is_negative() {
        return false;
    }
    let end = off.to_u128().and_then(|o| o.checked_add(u128::from(n)));
    match (end, size) {
        (Some(end), Size::Bits(s)) => end <= s,
        (None, Size::Bits(_)) => false,
        // Memory of at least 2^128 bits holds every end below 2^128.
        (Some(end), Size::Mem(p)) => p + 3 >= 128 || end <= 1u128 << (p + 3),
        (None, Size::Mem(p)) => off.to_bigint() + BigInt::from(n) <= Size::Mem(p).to_bigint(),
    }
}

/// `n` bits (at most 128) of an implicit value or an entity held inline,
/// read in bounds; `None` for every other read.
#[inline(always)]
fn value_read<O: Off>(s: &Sgl<O>, n: u64) -> Option<u128> {
    let (St::Imp(v, w) | St::EntS(_, w, v)) = s.st else {
        return None;
    };
    // Both widths are at most 128 bits here (a value of `w` bits is inline).
    if n > u64::from(w) {
        return None;
    }
    if s.off.is_zero() {
        return Some(v & mask128(n));
    }
    if n == 0 {
        return Some(0);
    }
    let off = s.off.to_u128()?;
    let end = off.checked_add(u128::from(n))?;
    (end <= u128::from(w)).then(|| (v >> off) & mask128(n))
}

/// A whole wide implicit value read at offset 0: its region (regions are
/// never written after they are made, so the value is shared rather than
/// copied). Only for more than 128 bits: a narrower read is a `Val::S`.
#[inline(always)]
fn whole_wide<O: Off>(s: &Sgl<O>, n: u64) -> Option<u64> {
    match s.st {
        St::ImpW(start, w) if w == n && n > 128 && s.off.is_zero() => Some(u64::from(start) * 64),
        _ => None,
    }
}

/// The message of a read of a location description with no single location.
const NO_SINGLE: &str = "the location description has no single location";

impl<'a, 'r, O: Off> Machine<'a, 'r, O> {
    /// Reads `n` bits of `loc`: inline when `n <= 128`, else a fresh region.
    ///
    /// Most reads are of the implicit value the previous operation pushed:
    /// that case is a shift and a mask where the operation runs, and every
    /// other read calls the general reader (which, with its wide and memory
    /// paths, saves and restores more registers than the read costs).
    #[inline(always)]
    pub(crate) fn read_val(&mut self, loc: &Loc<O>, n: u64) -> R<Val> {
        if let Loc::One(s) = loc {
            if let Some(v) = value_read(s, n) {
                return Ok(Val::S(v));
            }
            if let Some(p) = whole_wide(s, n) {
                return Ok(Val::W(p));
            }
        }
        self.read_val_general(loc, n)
    }

    /// [`Machine::read_val`] of the stack entry `depth` below the top,
    /// left on the stack: an inline value is read where it is, without
    /// copying the entry out.
    #[inline(always)]
    pub(crate) fn read_entry(&mut self, depth: usize, n: u64) -> R<Val> {
        let i = self.stack.len() - 1 - depth;
        if let Loc::One(s) = &self.stack[i] {
            if let Some(v) = value_read(s, n) {
                return Ok(Val::S(v));
            }
            if let Some(p) = whole_wide(s, n) {
                return Ok(Val::W(p));
            }
        }
        let l = self.stack[i].clone();
        self.read_val_general(&l, n)
    }

    #[inline(never)]
    fn read_val_general(&mut self, loc: &Loc<O>, n: u64) -> R<Val> {
        if n <= 128 {
            return Ok(Val::S(self.read_small(loc, n)?));
        }
        let d = self.alloc(n);
        self.read_into(loc, 0, n, d)?;
        Ok(Val::W(d))
    }

    fn read_small(&mut self, loc: &Loc<O>, n: u64) -> R<u128> {
        match loc {
            Loc::One(s) => self.read_one_small(s, 0, n),
            many => self.read_small_at(many, 0, n),
        }
    }

    /// `n` bits at `extra` past one single location of memory, an entity or
    /// an implicit value, read in bounds: what [`Machine::read_single_small`]
    /// gives then, without its checks in order. `None` sends the read down
    /// that path (which finds the failure, if there is one).
    #[inline(always)]
    fn fast_read(&mut self, s: &Sgl<O>, extra: u64, n: u64) -> Option<u128> {
        if n == 0 {
            return Some(0);
        }
        let off = s.off.to_u128()?.checked_add(u128::from(extra))?;
        let end = off.checked_add(u128::from(n))?;
        match s.st {
            St::Imp(v, w) | St::EntS(_, w, v) => {
                (end <= u128::from(w)).then(|| (v >> off) & mask128(n))
            }
            St::Mem(a) => {
                let p = self.pointer_bits(a);
                if p + 3 < 128 && end > 1u128 << (p + 3) {
                    return None;
                }
                self.mem_u128(a, off, n)
            }
            _ => None,
        }
    }

    /// `n` (at most 128) bits of memory from bit `off`, if the bytes'
    /// addresses stay below 2^128 (in bounds: the caller checked).
    #[inline(always)]
    fn mem_u128(&mut self, a: u32, off: u128, n: u64) -> Option<u128> {
        let addr = off >> 3;
        let sh = (off & 7) as u32;
        let nbytes = (u64::from(sh) + n).div_ceil(8) as usize;
        addr.checked_add(nbytes as u128)?;
        let mut buf = [0u8; 17];
        self.fetch_bytes(a, addr, &mut buf[..nbytes]);
        let lo = u128::from_le_bytes(buf[..16].try_into().expect("16 bytes"));
        let mut v = lo >> sh;
        if sh > 0 {
            v |= u128::from(buf[16]) << (128 - sh);
        }
        Some(v & mask128(n))
    }

    /// [`Machine::read_into`] of at most 128 bits, as a `u128` rather than
    /// into the words arena: the same reads in the same order, so the same
    /// first failure, and single locations compared as numbers.
    fn read_small_at(&mut self, loc: &Loc<O>, extra: u64, n: u64) -> R<u128> {
        let (start, len) = match loc {
            Loc::One(s) => return self.read_one_small(&s.clone(), extra, n),
            Loc::Many(start, len) => (*start as usize, *len as usize),
        };
        if len == 0 {
            return fail(ErrorKind::ReadUndefined, Msg::Text(NO_SINGLE));
        }
        // Every single location first: the first failure is the outcome;
        // then the first that differs from #0.
        let s = self.singles[start].clone();
        let a = self.read_one_small(&s, extra, n)?;
        let mut differs = None;
        for j in 1..len {
            let s = self.singles[start + j].clone();
            let b = self.read_one_small(&s, extra, n)?;
            if b != a && differs.is_none() {
                differs = Some((j, b));
            }
        }
        match differs {
            None => Ok(a),
            Some((j, b)) => fail(
                ErrorKind::Inconsistent,
                Msg::Inconsistent {
                    first: start as u32,
                    other: (start + j) as u32,
                    j: j as u32,
                    a,
                    b,
                },
            ),
        }
    }

    /// [`Machine::read_single_small`], through [`Machine::fast_read`] where
    /// it can.
    #[inline(always)]
    fn read_one_small(&mut self, s: &Sgl<O>, extra: u64, n: u64) -> R<u128> {
        match self.fast_read(s, extra, n) {
            Some(v) => Ok(v),
            None => self.read_single_small(s, extra, n),
        }
    }

    /// [`Machine::read_single_into`] of at most 128 bits, as a `u128`.
    fn read_single_small(&mut self, s: &Sgl<O>, extra: u64, n: u64) -> R<u128> {
        let Some(off) = self.checked(s, extra, n)? else {
            return Ok(0);
        };
        let small = off.to_u128().unwrap_or(0);
        match s.st {
            St::Imp(v, _) | St::EntS(_, _, v) => return Ok((v >> small) & mask128(n)),
            St::Comp(start, len) => return self.composite_small(start, len, small, n),
            St::Mem(a) => {
                if let Some(v) = off.to_u128().and_then(|o| self.mem_u128(a, o, n)) {
                    return Ok(v);
                }
            }
            _ => {}
        }
        // The other storages (and memory beyond 2^128) through the words.
        let mark = self.words.len();
        let d = self.alloc(n);
        self.single_into(s.st, &off, n, d)?;
        let v = words::get128(self.words, d, n);
        self.words.truncate(mark);
        Ok(v)
    }

    /// [`Machine::composite_into`] of at most 128 bits, as a `u128`.
    fn composite_small(&mut self, start: u32, len: u32, off: u128, n: u64) -> R<u128> {
        let end = off + u128::from(n);
        let mut at: u128 = 0;
        let mut v = 0u128;
        for j in start..start + len {
            let p = self.parts[j as usize].clone();
            let p_end = at + u128::from(p.bits);
            let (lo, hi) = (off.max(at), end.min(p_end));
            if lo < hi {
                let (extra, len) = ((lo - at) as u64, (hi - lo) as u64);
                let x = match &p.loc {
                    Loc::One(s) => self.read_one_small(s, extra, len)?,
                    many => self.read_small_at(many, extra, len)?,
                };
                v |= x << (lo - off);
            }
            at = p_end;
            if at >= end {
                break;
            }
        }
        Ok(v)
    }

    /// Reads `n` bits at `extra` bits past every single location of `loc`
    /// into bit `dst` of the words arena (zero there).
    pub(crate) fn read_into(&mut self, loc: &Loc<O>, extra: u64, n: u64, dst: u64) -> R<()> {
        let (start, len) = match loc {
            Loc::One(s) => return self.read_single_into(&s.clone(), extra, n, dst),
            Loc::Many(start, len) => (*start as usize, *len as usize),
        };
        if len == 0 {
            return fail(ErrorKind::ReadUndefined, Msg::Text(NO_SINGLE));
        }
        // Every single location into its own region, in order: the first
        // failure is the outcome.
        let mark = self.words.len();
        let nw = n.div_ceil(64) as usize;
        for j in 0..len {
            let t = self.alloc(n);
            let s = self.singles[start + j].clone();
            // A failure stops the run: the regions stay, as a message about
            // wide values reads them later.
            self.read_single_into(&s, extra, n, t)?;
        }
        // Then agreement: the first that differs from #0 is reported.
        let differs = (1..len).find(|&j| {
            self.words[mark + j * nw..mark + (j + 1) * nw] != self.words[mark..mark + nw]
        });
        if let Some(j) = differs {
            let region = |j: usize| ((mark + j * nw) * 64) as u64;
            let (first, other, j) = (start as u32, (start + j) as u32, j as u32);
            if n > 128 {
                // The regions stay where the message will read them.
                let (at, stride) = (region(0), (nw * 64) as u64);
                return fail(
                    ErrorKind::Inconsistent,
                    Msg::InconsistentWide {
                        first,
                        other,
                        j,
                        at,
                        stride,
                        n,
                    },
                );
            }
            let m = Msg::Inconsistent {
                first,
                other,
                j,
                a: words::get128(self.words, region(0), n),
                b: words::get128(self.words, region(j as usize), n),
            };
            self.words.truncate(mark);
            return fail(ErrorKind::Inconsistent, m);
        }
        words::copy(self.words, (mark * 64) as u64, dst, n);
        self.words.truncate(mark);
        Ok(())
    }

    fn read_single_into(&mut self, s: &Sgl<O>, extra: u64, n: u64, dst: u64) -> R<()> {
        match self.checked(s, extra, n)? {
            Some(off) => self.single_into(s.st, &off, n, dst),
            None => Ok(()),
        }
    }

    /// What a read of `n` bits at `extra` past `s` fails with before any
    /// bit is read (in the reference's order); else the offset to read at
    /// (`None`: no bits to read).
    #[inline(always)]
    fn checked(&mut self, s: &Sgl<O>, extra: u64, n: u64) -> R<Option<O>> {
        // Reading no bits reads no bit of any storage.
        if n == 0 {
            return Ok(None);
        }
        match s.st {
            St::Undef => return fail(ErrorKind::ReadUndefined, Msg::ReadUndef(n)),
            St::Addr(_) => {
                return fail(
                    ErrorKind::ImplicitAddressRead,
                    Msg::Text("reading the bits of an implicit address (made by DIOpAddrOf; only DIOpDeref may consume it)"),
                )
            }
            St::Ent(r) if self.entity(r).1.is_none() => {
                *self.fault = s.clone();
                return fail(ErrorKind::ReadUndefined, Msg::NotInContext);
            }
            _ => {}
        }
        let off = s.off.add_u64(extra).ok_or(Stop::Bail)?;
        let size = self.size_of(&s.st);
        if !in_bounds(&off, n, size) {
            *self.fault = Sgl { st: s.st, off };
            return fail(ErrorKind::OutOfBounds, Msg::OutOfBounds { n, size });
        }
        Ok(Some(off))
    }

    /// `n` bits of `st` from bit `off`, checked, into bit `dst` of the words.
    fn single_into(&mut self, st: St, off: &O, n: u64, dst: u64) -> R<()> {
        // In bounds of a storage that is not memory: the offset is below its size.
        let small = || off.to_u128().unwrap_or(0);
        match st {
            St::Mem(a) => self.mem_into(a, off, n, dst),
            St::Ent(r) => {
                let b = self.entity(r).1.expect("not in the context: handled above");
                words::put_bits_slice(self.words, dst, b, small() as u64, n);
                Ok(())
            }
            St::EntW(_, start, _) => {
                words::copy(self.words, u64::from(start) * 64 + small() as u64, dst, n);
                Ok(())
            }
            St::Imp(v, _) | St::EntS(_, _, v) => {
                words::put128(self.words, dst, v >> small(), n);
                Ok(())
            }
            St::ImpW(start, _) => {
                words::copy(self.words, u64::from(start) * 64 + small() as u64, dst, n);
                Ok(())
            }
            St::Comp(start, len) => self.composite_into(start, len, small(), n, dst),
            St::Undef | St::Addr(_) => unreachable!("handled above"),
        }
    }

    fn size_of(&mut self, st: &St) -> Size {
        match *st {
            St::Mem(a) => Size::Mem(self.pointer_bits(a)),
            St::Ent(r) => Size::Bits(self.entity(r).1.map_or(0, |b| u128::from(b.width()))),
            St::EntS(_, w, _) | St::EntW(_, _, w) => Size::Bits(u128::from(w)),
            St::Imp(_, w) => Size::Bits(u128::from(w)),
            St::ImpW(_, w) => Size::Bits(u128::from(w)),
            St::Comp(start, len) => Size::Bits(
                self.parts[start as usize..(start + len) as usize]
                    .iter()
                    .map(|p| u128::from(p.bits))
                    .sum(),
            ),
            St::Undef | St::Addr(_) => Size::Bits(0),
        }
    }

    /// The parts covering `off..off+n` of a composite, each read through its
    /// own location description.
    fn composite_into(&mut self, start: u32, len: u32, off: u128, n: u64, dst: u64) -> R<()> {
        let end = off + u128::from(n);
        let mut at: u128 = 0;
        for j in start..start + len {
            let p = self.parts[j as usize].clone();
            let p_end = at + u128::from(p.bits);
            let lo = off.max(at);
            let hi = end.min(p_end);
            if lo < hi {
                let (extra, len, to) =
                    ((lo - at) as u64, (hi - lo) as u64, dst + (lo - off) as u64);
                // A part's piece of at most 128 bits: the small reader's
                // fast paths, the same reads in the same order.
                if len <= 128 {
                    let v = self.read_small_at(&p.loc, extra, len)?;
                    words::put128(self.words, to, v, len);
                } else {
                    self.read_into(&p.loc, extra, len, to)?;
                }
            }
            at = p_end;
            if at >= end {
                break;
            }
        }
        Ok(())
    }

    /// `n` bits of an address space's memory from bit `off` (in bounds).
    fn mem_into(&mut self, a: u32, off: &O, n: u64, dst: u64) -> R<()> {
        let sh = |o: u64| o & 7;
        if let Some(o) = off.to_u128() {
            let first = o >> 3;
            let shift = (o & 7) as u64;
            let nbytes = (shift + n).div_ceil(8);
            if first.checked_add(u128::from(nbytes)).is_some() {
                let mut buf = [0u8; 64];
                let mut k: u64 = 0;
                let mut pos: u64 = 0;
                while k < nbytes {
                    let c = (nbytes - k).min(64) as usize;
                    self.fetch_bytes(a, first + u128::from(k), &mut buf[..c]);
                    // The bytes as little-endian words, copied up to 64 bits
                    // at a time rather than a byte at a time.
                    let mut bits = [0u64; 8];
                    for (w, ch) in bits.iter_mut().zip(buf[..c].chunks(8)) {
                        let mut b8 = [0u8; 8];
                        b8[..ch.len()].copy_from_slice(ch);
                        *w = u64::from_le_bytes(b8);
                    }
                    let mut q = if k == 0 { shift } else { 0 };
                    let end = pos + (c as u64 * 8 - q).min(n - pos);
                    while pos < end {
                        let t = (end - pos).min(64);
                        words::put(self.words, dst + pos, words::get(&bits, q, t), t);
                        q += t;
                        pos += t;
                    }
                    k += c as u64;
                }
                return Ok(());
            }
        }
        // Addresses beyond 2^128: byte by byte through the context.
        let o = off.to_bigint();
        let first = BigUint::try_from(&o >> 3u32).expect("in bounds, so not negative");
        let shift = sh(num_traits::ToPrimitive::to_u64(&(&o & BigInt::from(7))).unwrap_or(0));
        let nbytes = (shift + n).div_ceil(8);
        let mut pos = 0;
        for g in 0..nbytes {
            let b = self.ctx.byte(a, &(&first + BigUint::from(g)));
            let from = if g == 0 { shift } else { 0 };
            let take = (8 - from).min(n - pos);
            words::put(self.words, dst + pos, u64::from(b >> from), take);
            pos += take;
        }
        Ok(())
    }
}
