//! Random evaluation contexts for a generated expression.
//!
//! Every location a context gives (argument, referrer, object) is made by
//! first drawing the bits it should hold and then placing them in storage of
//! a kind the case's swarm allows: memory of some address space (at a fresh
//! address, at a bit offset inside a byte now and then), an entity wider than
//! the value (the value at a bit offset inside it), an implicit value, a
//! composite whose parts are placed the same way, an implicit address (for
//! pointer-typed inputs) or the undefined location. A multi-location is the
//! same bits placed twice (consistent) or two different bit strings placed
//! once each (inconsistent: the reference must say `Inconsistent` when the
//! expression reads it). Edge locations hang over the end of memory or start
//! before it.

use super::entropy::{Choices, Entropy};
use super::expr::{Shape, Uses};
use super::swarm::{StorageKind, Swarm};
use super::types::{TypeGen, ADDRSPACES};
use super::values;
use diopter_semantics::ast::{Bare, Op};
use diopter_semantics::context::Context;
use diopter_semantics::location::{LocDesc, Part};
use diopter_semantics::types::{DataLayout, Type, TypeTable};
use diopter_semantics::value::Bits;
use num_bigint::{BigInt, BigUint};
use num_traits::One;
use std::collections::BTreeMap;

/// How deep composites and implicit addresses nest in a context.
const MAX_DEPTH: usize = 2;

pub struct CtxGen<'a, 'e> {
    pub e: &'e mut dyn Entropy,
    pub swarm: &'a Swarm,
    pub tg: &'a TypeGen<'a>,
    pub ctx: Context,
    entities: usize,
    /// Bump allocator per address space: the next free byte address.
    next: BTreeMap<u32, BigUint>,
}

impl<'a, 'e> CtxGen<'a, 'e> {
    pub fn new(e: &'e mut dyn Entropy, swarm: &'a Swarm, tg: &'a TypeGen<'a>) -> Self {
        let mut ctx = Context::new(tg.dl.clone());
        ctx.seed = if e.chance(1, 2) {
            e.below(16)
        } else {
            e.bits64()
        };
        CtxGen {
            e,
            swarm,
            tg,
            ctx,
            entities: 0,
            next: BTreeMap::new(),
        }
    }

    fn omit(&mut self) -> bool {
        self.e.chance(self.swarm.omit, 16)
    }

    /// The whole context for an expression of this shape and these uses.
    pub fn run(mut self, shape: &Shape, uses: &Uses) -> Context {
        for (i, (t, _poison)) in shape.args.iter().enumerate() {
            if self.omit() {
                continue;
            }
            let loc = self.location_for(t, 0);
            self.ctx.args.insert(i as u64, loc);
        }
        // The referrer: in `diexpression` without one the reference falls
        // back to argument 0, so it is sometimes left out on purpose.
        let referrer_ty = shape
            .referrer
            .clone()
            .or_else(|| shape.args.first().map(|a| a.0.clone()));
        if let Some(t) = referrer_ty {
            let fallback = shape.dialect == diopter_semantics::ast::Dialect::DiExpression
                && shape.referrer.is_none();
            let give = if fallback {
                self.e.chance(1, 3)
            } else {
                uses.referrer || self.e.chance(1, 2)
            };
            if give && !self.omit() {
                let loc = self.location_for(&t, 0);
                self.ctx.referrer = Some(loc);
            }
        }
        // One object serves every DIOpTypeObject(T): sized for the largest T.
        let object = uses
            .object
            .iter()
            .max_by_key(|t| self.tg.size(t).unwrap_or(0))
            .cloned();
        if let Some(t) = object {
            if !self.omit() {
                let loc = self.location_for(&t, 0);
                self.ctx.object = Some(loc);
            }
        }
        if !uses.lane.is_empty() && !self.omit() {
            self.ctx.lane = Some(if self.e.chance(self.swarm.edge, 16) {
                *self.e.pick(&[0, 1, 255, 256, 65535, 1 << 32, u64::MAX])
            } else {
                self.e.below(64)
            });
        }
        // A few bytes where the expression's constant addresses point.
        for _ in 0..self.e.below(3) {
            let a = *self.e.pick(&ADDRSPACES);
            let addr = self.e.below(64) * 16;
            let n = self.e.range(1, 16) as usize;
            if self.fits(a, &BigUint::from(addr), n as u64) {
                let bytes: Vec<u8> = (0..n).map(|_| self.e.below(256) as u8).collect();
                self.ctx.set_memory(a, addr, &bytes);
            }
        }
        self.ctx
    }

    /// A location holding a value of type `t`.
    pub fn location_for(&mut self, t: &Type, depth: usize) -> LocDesc {
        let bits = self.tg.size(t).unwrap_or(32);
        self.location(Some(t), bits, depth)
    }

    /// A location of `bits` bits, of a storage kind the swarm allows.
    pub fn location(&mut self, t: Option<&Type>, bits: u64, depth: usize) -> LocDesc {
        if self.e.chance(self.swarm.edge, 64) {
            return self.edge_location(bits);
        }
        let mut kinds: Choices<StorageKind, { StorageKind::ALL.len() }> =
            Choices::new(StorageKind::Memory);
        for k in StorageKind::ALL {
            let ok = match k {
                StorageKind::ImplicitAddress => t.is_some_and(Type::is_ptr) && depth < MAX_DEPTH,
                StorageKind::Composite => bits >= 2 && depth < MAX_DEPTH,
                StorageKind::MultiConsistent | StorageKind::MultiInconsistent => depth < MAX_DEPTH,
                _ => true,
            };
            if ok {
                kinds.push(k, self.swarm.storage_weight(k));
            }
        }
        let kind = if kinds.all_zero() {
            StorageKind::Memory
        } else {
            kinds.draw(self.e)
        };
        let v = values::int_bits(self.e, bits, self.swarm.edge);
        match kind {
            StorageKind::Undefined => LocDesc::undefined(),
            StorageKind::ImplicitAddress => {
                let ptr_ty = t.expect("a pointer type").clone();
                let target_ty = self.tg.any(self.e, 1);
                let target = self.location_for(&target_ty, depth + 1);
                LocDesc::implicit_address(target, target_ty, ptr_ty, bits)
            }
            StorageKind::MultiConsistent | StorageKind::MultiInconsistent => {
                let n = self.e.range(2, 3);
                let mut alternatives = Vec::new();
                for i in 0..n {
                    let vi = if kind == StorageKind::MultiInconsistent && i > 0 && bits > 0 {
                        // The same bits but one.
                        let flip = self.e.below(bits);
                        let mask = Bits::from_biguint(bits, &(BigUint::one() << flip));
                        diopter_semantics::value::xor(&v, &mask)
                    } else {
                        v.clone()
                    };
                    let k = self.plain_kind(depth);
                    alternatives.push(self.place(&vi, k, depth + 1));
                }
                LocDesc::multi(alternatives)
            }
            k => self.place(&v, k, depth),
        }
    }

    /// A storage kind that can hold given bits (memory, entity, implicit,
    /// composite), as the swarm allows.
    fn plain_kind(&mut self, depth: usize) -> StorageKind {
        let kinds = [
            StorageKind::Memory,
            StorageKind::Entity,
            StorageKind::Implicit,
            StorageKind::Composite,
        ];
        let w: [u32; 4] = kinds.map(|k| {
            if k == StorageKind::Composite && depth + 1 >= MAX_DEPTH {
                0
            } else {
                self.swarm.storage_weight(k).max(1)
            }
        });
        kinds[self.e.weighted(&w)]
    }

    /// Places `v` in new storage of kind `k` and returns its location.
    pub fn place(&mut self, v: &Bits, k: StorageKind, depth: usize) -> LocDesc {
        let bits = v.width();
        match k {
            StorageKind::Entity => {
                // The value sits at a bit offset inside a wider entity now
                // and then; the entity always has at least one bit.
                let lo = if self.e.chance(1, 4) {
                    self.e.range(1, 16)
                } else {
                    0
                };
                let hi = if self.e.chance(1, 4) || bits + lo == 0 {
                    self.e.range(1, 16)
                } else {
                    0
                };
                let below = values::int_bits(self.e, lo, 0);
                let above = values::int_bits(self.e, hi, 0);
                let whole = Bits::concat(&Bits::concat(&below, v), &above);
                let name = self.entity_name();
                self.ctx.set_entity(&name, whole);
                LocDesc::entity(&name, lo)
            }
            StorageKind::Implicit => {
                if self.e.chance(1, 4) {
                    let lo = self.e.range(1, 8);
                    let below = values::int_bits(self.e, lo, 0);
                    LocDesc::implicit(Bits::concat(&below, v)).with_bit_offset(&BigInt::from(lo))
                } else {
                    LocDesc::implicit(v.clone())
                }
            }
            StorageKind::Composite if bits >= 2 && depth < MAX_DEPTH => {
                let n = self.e.range(2, 3).min(bits);
                let mut cuts: Vec<u64> = Vec::new();
                while (cuts.len() as u64) + 1 < n {
                    let mut c = self.e.range(1, bits - 1);
                    while cuts.contains(&c) {
                        c = if c == bits - 1 { 1 } else { c + 1 };
                    }
                    cuts.push(c);
                }
                cuts.sort_unstable();
                cuts.push(bits);
                let mut parts = Vec::new();
                let mut at = 0;
                for c in cuts {
                    let slice = v.slice(at, c - at);
                    // Now and then a part is undefined: reading across it fails.
                    let loc = if self.e.chance(1, 16)
                        && self.swarm.storage_weight(StorageKind::Undefined) > 0
                    {
                        LocDesc::undefined()
                    } else {
                        let k = self.plain_kind(depth + 1);
                        self.place(&slice, k, depth + 1)
                    };
                    parts.push(Part { loc, bits: c - at });
                    at = c;
                }
                LocDesc::composite(parts)
            }
            _ => self.memory(v),
        }
    }

    /// Places `v` in memory: a fresh address in some address space, at a
    /// bit offset inside the first byte now and then.
    fn memory(&mut self, v: &Bits) -> LocDesc {
        let a = *self.e.pick(&ADDRSPACES);
        let bit = if !v.width().is_multiple_of(8) || self.e.chance(1, 8) {
            self.e.below(8)
        } else {
            0
        };
        let nbytes = (bit + v.width()).div_ceil(8);
        let addr = if self.e.chance(1, 8) {
            // High in the address space (still inside it).
            let top = self.ctx.memory_bytes(a);
            let span = BigUint::from(nbytes + 1 + self.e.below(4096));
            if top > span {
                top - span
            } else {
                self.bump(a, nbytes)
            }
        } else {
            self.bump(a, nbytes)
        };
        if !self.fits(a, &addr, nbytes) {
            return LocDesc::implicit(v.clone());
        }
        // The value's bytes, shifted to its bit offset; the bits around it in
        // the first and last byte keep what the memory held (a byte not yet
        // written holds the seeded fill).
        let shifted = Bits::concat(&Bits::zero(bit), v).to_le_bytes();
        let end = bit + v.width();
        // All the bytes first, then one write: the addresses are distinct,
        // so reading a partly kept byte before the others are written reads
        // what a byte-by-byte loop read, without a `BigUint` address a byte.
        let bytes: Vec<u8> = (0..nbytes)
            .map(|i| {
                let lo = (i * 8).max(bit);
                let hi = (i * 8 + 8).min(end);
                let keep: u8 = if lo == i * 8 && hi == i * 8 + 8 {
                    0
                } else {
                    // Bits of this byte outside [lo, hi).
                    let inside = ((1u16 << (hi - lo)) - 1) << (lo - i * 8);
                    !(inside as u8)
                };
                let old = if keep == 0 {
                    0
                } else {
                    self.ctx.byte(a, &(&addr + i))
                };
                (old & keep) | (shifted.get(i as usize).copied().unwrap_or(0) & !keep)
            })
            .collect();
        self.ctx.set_memory(a, addr.clone(), &bytes);
        LocDesc::memory(a, BigInt::from(addr)).with_bit_offset(&BigInt::from(bit))
    }

    /// Whether `n` bytes from `addr` lie inside address space `a`.
    fn fits(&self, a: u32, addr: &BigUint, n: u64) -> bool {
        addr + n <= self.ctx.memory_bytes(a)
    }

    /// The next free address of `a`, past whatever was placed before,
    /// 16-byte aligned; starts at 0x100 (below it the expression's constant
    /// addresses point).
    fn bump(&mut self, a: u32, n: u64) -> BigUint {
        let gap = self.e.below(3) * 16;
        let next = self
            .next
            .entry(a)
            .or_insert_with(|| BigUint::from(0x400u32));
        let addr = &*next + gap;
        *next = ((&addr + n + 15u32) >> 4u8) << 4u8;
        addr
    }

    fn entity_name(&mut self) -> String {
        let i = self.entities;
        self.entities += 1;
        match self.e.below(5) {
            0 => format!("%v{i}"),
            1 => format!("$r{i}"),
            2 => format!("@g{i}"),
            3 => format!("%frame.index.{i}"),
            // A name that needs quotes.
            _ => format!("%e {i}"),
        }
    }

    /// A location at an edge of its storage: over the end of memory, before
    /// its start, or past the end of an entity.
    fn edge_location(&mut self, bits: u64) -> LocDesc {
        let a = *self.e.pick(&ADDRSPACES);
        match self.e.below(3) {
            0 => {
                // The last bytes of the address space: reading `bits` runs
                // past the end unless the value is tiny.
                let top = self.ctx.memory_bytes(a);
                let back = BigUint::from(1 + self.e.below(4));
                let addr = if top > back {
                    top - back
                } else {
                    BigUint::from(0u32)
                };
                LocDesc::memory(a, BigInt::from(addr))
            }
            1 => LocDesc::memory(a, -BigInt::from(1 + self.e.below(8))),
            _ => {
                let name = self.entity_name();
                let w = bits.max(1);
                let v = values::int_bits(self.e, w, 0);
                self.ctx.set_entity(&name, v);
                LocDesc::entity(&name, 1 + self.e.below(8))
            }
        }
    }
}

/// What [`context_for`] needs to know.
pub struct ContextFor<'a> {
    pub bare: &'a Bare,
    pub types: &'a TypeTable,
    pub dl: &'a DataLayout,
    pub swarm: &'a Swarm,
    pub max_bits: u64,
}

/// What a one-line expression asks of its context (object types, lane
/// types, whether it uses the referrer).
pub fn uses_of(bare: &Bare) -> Uses {
    let mut uses = Uses::default();
    for op in bare.expr.ops() {
        match op {
            Op::TypeObject(t) => uses.object.push(t.clone()),
            Op::PushLane(t) => uses.lane.push(t.clone()),
            Op::Referrer(_) => uses.referrer = true,
            _ => {}
        }
    }
    uses
}

/// Argument indices above this are not given a location by [`context_for`]
/// (a parsed `DIOpArg(4294967295, T)` must not make a context that large).
const MAX_ARG_INDEX: u64 = 64;

/// A context for any one-line expression, generated or parsed: a location
/// for each argument (by the bracket's types, or, for `[?]`, by the types
/// the expression's `DIOpArg`s use), the referrer, the object and the lane.
pub fn context_for(e: &mut dyn Entropy, f: &ContextFor) -> Context {
    let args: Vec<(Type, bool)> = match &f.bare.args {
        Some(a) => a.iter().map(|d| (d.ty.clone(), d.poison)).collect(),
        None => {
            let mut by_index: BTreeMap<u64, Type> = BTreeMap::new();
            for op in f.bare.expr.ops() {
                if let Op::Arg(n, t) = op {
                    if *n < MAX_ARG_INDEX {
                        by_index.entry(*n).or_insert_with(|| t.clone());
                    }
                }
            }
            let n = by_index.keys().next_back().map_or(0, |m| m + 1);
            (0..n)
                .map(|i| (by_index.get(&i).cloned().unwrap_or(Type::Int(32)), false))
                .collect()
        }
    };
    let shape = Shape {
        dialect: f.bare.expr.dialect,
        args,
        referrer: f.bare.referrer.as_ref().map(|r| r.0.clone()),
        var_type: f.bare.var_type.as_ref().map(|r| r.0.clone()),
    };
    let tg = TypeGen {
        dl: f.dl,
        table: f.types,
        dialect: shape.dialect,
        swarm: f.swarm,
        max_bits: f.max_bits,
    };
    CtxGen::new(e, f.swarm, &tg).run(&shape, &uses_of(f.bare))
}
