//! Shared helpers of the fast evaluator's differential tests (included by
//! the other `fast_*.rs` test files with `#[path]`; on its own it tests that
//! its context builder makes what it says).
#![allow(dead_code)]

use diopter_fast as fast;
use diopter_semantics::ast::{Bare, Dialect};
use diopter_semantics::check::BareInputs;
use diopter_semantics::context::{splitmix64, Context};
use diopter_semantics::interp::{self, Outcome};
use diopter_semantics::location::{LocDesc, Part, Storage};
use diopter_semantics::syntax::parse_bare;
use diopter_semantics::types::{DataLayout, Type, TypeTable};
use diopter_semantics::value::Bits;
use num_bigint::BigUint;

/// Every file under `dir` (recursively, in sorted order) whose extension
/// is `ext`, appended to `out`: the corpus files the tests and the benches
/// read.
pub fn files(dir: &std::path::Path, ext: &str, out: &mut Vec<std::path::PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("a directory entry").path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            files(&p, ext, out);
        } else if p.extension().is_some_and(|x| x == ext) {
            out.push(p);
        }
    }
}

/// The reference's outcome and the fast evaluator's (compiled once, run
/// twice with one scratch: the second run sees recycled buffers; then
/// twice more in the context prepared beforehand, which must agree).
pub fn both(
    b: &Bare,
    types: &TypeTable,
    ctx: &Context,
    scratch: &mut fast::Scratch,
) -> (Outcome, Outcome) {
    // The environment the reference's `eval_bare` builds.
    let inputs = BareInputs::of(b, &ctx.datalayout, types);
    let env = inputs.env(b.expr.dialect, &ctx.datalayout, types);
    let reference = interp::eval(&b.expr, &env, ctx);
    let compiled = fast::compile_unchecked(&b.expr, &env);
    let first = compiled.eval(ctx, scratch);
    let run = compiled.run(ctx, scratch);
    compact_matches(&run, &reference);
    let second = run.to_outcome();
    drop(run);
    assert_eq!(first, second, "two runs of one program differ");
    // The same program in the context prepared beforehand, twice (the
    // second run starts from the buffers the first handed back).
    let prepared = fast::PreparedContext::new(ctx);
    let run = compiled.run_prepared(&prepared, scratch);
    compact_matches(&run, &reference);
    let third = run.to_outcome();
    drop(run);
    assert_eq!(first, third, "the run in the prepared context differs");
    assert_eq!(first, compiled.eval_prepared(&prepared, scratch));
    (reference, first)
}

/// Asserts that the compact result (`Compiled::run`), read through its own
/// accessors rather than `to_outcome`, says what the reference's outcome
/// says: the error's class, operation and message, or the type, size,
/// fragment and every single location's storage and offset.
pub fn compact_matches(run: &fast::Evaluation<'_>, reference: &Outcome) {
    match reference {
        Err(e) => {
            let f = run
                .failure()
                .unwrap_or_else(|| panic!("the compact result succeeds, the reference: {e}"));
            assert_eq!((f.kind(), f.op_index()), (e.kind, e.op_index), "{e}");
            assert_eq!(f.message(), e.message);
            assert!(!run.is_ok() && run.ty().is_none() && run.single_count() == 0);
        }
        Ok(l) => {
            assert!(run.is_ok(), "{:?}", run.failure());
            assert_eq!(run.ty(), Some(&l.ty));
            assert_eq!(run.bits(), Some(l.bits));
            assert_eq!(run.fragment(), l.fragment);
            assert_eq!(run.single_count(), l.loc.singles.len());
            let singles = run.singles();
            assert_eq!(singles.len(), l.loc.singles.len());
            for (i, (c, r)) in singles.iter().zip(&l.loc.singles).enumerate() {
                assert_eq!(run.single(i).as_ref(), Some(c));
                assert_eq!(
                    c.bit_offset.map(num_bigint::BigInt::from),
                    i128::try_from(&r.offset).ok().map(num_bigint::BigInt::from),
                    "single #{i}: offset"
                );
                storage_matches(&c.storage, &r.storage);
            }
        }
    }
}

fn storage_matches(c: &fast::StorageRef<'_>, r: &Storage) {
    use fast::StorageRef as S;
    match (c, r) {
        (S::Memory { addrspace: a }, Storage::Memory { addrspace: b }) => assert_eq!(a, b),
        (S::Entity { name: a }, Storage::Entity { name: b }) => assert_eq!(a, b),
        (S::Implicit(v), Storage::Implicit { value }) => {
            assert_eq!(v.bits(), value.width());
            for i in 0..value.width() {
                assert_eq!(v.bit(i), value.bit(i), "bit {i} of {}", value.to_hex());
            }
            assert!(!v.bit(value.width()), "a bit beyond the width");
        }
        (S::Undefined, Storage::Undefined)
        | (S::ImplicitAddress, Storage::ImplicitAddress { .. }) => {}
        (S::Composite { parts }, Storage::Composite { parts: p }) => {
            assert_eq!(*parts as usize, p.len())
        }
        _ => panic!("compact storage {c:?}, the reference's {r:?}"),
    }
}

/// Asserts that the fast evaluator gives the reference's whole outcome.
pub fn agree(b: &Bare, types: &TypeTable, ctx: &Context, scratch: &mut fast::Scratch) -> Outcome {
    let (reference, fast) = both(b, types, ctx, scratch);
    assert_eq!(
        fast,
        reference,
        "\nexpression: {}\ncontext:\n{ctx}",
        diopter_semantics::syntax::print_bare(b)
    );
    reference
}

/// `agree` on a one-line expression and a context in the context format.
pub fn agree_text(line: &str, ctx: &str) -> Outcome {
    let b = parse_bare(line).unwrap_or_else(|d| panic!("{line}: {}", d.message));
    let ctx = Context::parse(ctx).unwrap_or_else(|d| panic!("{ctx}: {:?}", d));
    agree(&b, &TypeTable::default(), &ctx, &mut fast::Scratch::new())
}

/// `agree_text` where only the agreement matters.
pub fn same(line: &str, ctx: &str) {
    let _ = agree_text(line, ctx);
}

/// A small deterministic random source.
pub struct Rng(pub u64);

impl Rng {
    pub fn draw(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(1);
        splitmix64(self.0)
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.draw() % n.max(1)
    }
    pub fn chance(&mut self, num: u64, den: u64) -> bool {
        self.below(den) < num
    }
    pub fn bits(&mut self, width: u64) -> Bits {
        let bytes: Vec<u8> = (0..width.div_ceil(8)).map(|_| self.draw() as u8).collect();
        let b = Bits::from_le_bytes(width, &bytes);
        // Edge values now and then.
        match self.below(8) {
            0 => Bits::zero(width),
            1 => Bits::ones(width),
            _ => b,
        }
    }
}

/// How [`context_for`] places the inputs of an expression.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Placement {
    Memory,
    Entity,
    Implicit,
    /// Two parts: an entity and memory (or one part for 1-bit values).
    Composite,
    /// Memory and an entity holding the same bits.
    MultiConsistent,
    /// Memory and an entity holding different bits.
    MultiInconsistent,
    Undef,
    /// A little of everything, chosen per input.
    Mixed,
}

pub const PLACEMENTS: [Placement; 8] = [
    Placement::Memory,
    Placement::Entity,
    Placement::Implicit,
    Placement::Composite,
    Placement::MultiConsistent,
    Placement::MultiInconsistent,
    Placement::Undef,
    Placement::Mixed,
];

struct Builder<'r> {
    ctx: Context,
    rng: &'r mut Rng,
    next_entity: usize,
    next_addr: u64,
}

impl Builder<'_> {
    fn entity(&mut self, v: Bits) -> LocDesc {
        let name = format!("%e{}", self.next_entity);
        self.next_entity += 1;
        self.ctx.set_entity(&name, v);
        LocDesc::entity(&name, 0)
    }
    /// A fresh memory location (bytes left to the seed).
    fn memory(&mut self, bits: u64) -> (u32, u64) {
        let a = [0u32, 1, 5][self.rng.below(3) as usize];
        let addr = self.next_addr;
        self.next_addr += bits.div_ceil(8) + 16;
        (a, addr)
    }
    fn memory_bits(&self, a: u32, addr: u64, bits: u64) -> Bits {
        let bytes: Vec<u8> = (0..bits.div_ceil(8))
            .map(|i| self.ctx.byte(a, &BigUint::from(addr + i)))
            .collect();
        Bits::from_le_bytes(bits, &bytes)
    }
    fn place(&mut self, bits: u64, how: Placement) -> LocDesc {
        let how = if how == Placement::Mixed {
            PLACEMENTS[self.rng.below(7) as usize]
        } else {
            how
        };
        match how {
            Placement::Memory => {
                let (a, addr) = self.memory(bits);
                LocDesc::memory(a, addr)
            }
            Placement::Entity => {
                let v = self.rng.bits(bits);
                // Sometimes a wider entity with the value at a bit offset.
                if self.rng.chance(1, 4) {
                    let pad = 1 + self.rng.below(9);
                    let wide = self.rng.bits(bits + pad);
                    let l = self.entity(wide);
                    return l.with_bit_offset(&(self.rng.below(pad + 1) as i64).into());
                }
                self.entity(v)
            }
            Placement::Implicit => LocDesc::implicit(self.rng.bits(bits)),
            Placement::Composite if bits >= 2 => {
                let lo = 1 + self.rng.below(bits - 1);
                let v = self.rng.bits(lo);
                let first = self.entity(v);
                let (a, addr) = self.memory(bits - lo);
                LocDesc::composite(vec![
                    Part {
                        loc: first,
                        bits: lo,
                    },
                    Part {
                        loc: LocDesc::memory(a, addr),
                        bits: bits - lo,
                    },
                ])
            }
            Placement::Composite => {
                let v = self.rng.bits(bits);
                LocDesc::composite(vec![Part {
                    loc: self.entity(v),
                    bits,
                }])
            }
            Placement::MultiConsistent | Placement::MultiInconsistent => {
                let (a, addr) = self.memory(bits);
                let mut v = self.memory_bits(a, addr, bits);
                if how == Placement::MultiInconsistent && bits > 0 {
                    v = diopter_semantics::value::xor(&v, &Bits::from_u64(bits, 1));
                }
                let e = self.entity(v);
                LocDesc::multi(vec![LocDesc::memory(a, addr), e])
            }
            Placement::Undef => LocDesc::undefined(),
            Placement::Mixed => unreachable!(),
        }
    }
}

/// A context for an expression whose inputs have the given sizes: `arg N`
/// for each argument, a referrer, an object, a lane, a random seed, and
/// some given memory bytes; inputs placed as `how` says.
pub fn context_for(
    dl: &DataLayout,
    arg_bits: &[u64],
    referrer_bits: u64,
    how: Placement,
    rng: &mut Rng,
) -> Context {
    let mut b = Builder {
        ctx: Context::new(dl.clone()),
        rng,
        next_entity: 0,
        next_addr: 0x100,
    };
    b.ctx.seed = b.rng.draw();
    if b.rng.chance(3, 4) {
        b.ctx.lane = Some(b.rng.below(70));
    }
    // A few given bytes, where seeded ones would be read otherwise.
    for i in 0..b.rng.below(24) {
        let v = b.rng.draw() as u8;
        b.ctx.set_byte(
            [0u32, 1, 5][(i % 3) as usize],
            BigUint::from(0x100 + i * 3),
            v,
        );
    }
    for (i, bits) in arg_bits.iter().enumerate() {
        if b.rng.chance(1, 16) {
            continue; // no such argument in the context
        }
        let l = b.place(*bits, how);
        b.ctx.args.insert(i as u64, l);
    }
    if !b.rng.chance(1, 8) {
        let l = b.place(referrer_bits, how);
        b.ctx.referrer = Some(l);
    }
    if b.rng.chance(3, 4) {
        let l = b.place(referrer_bits, how);
        b.ctx.object = Some(l);
    }
    b.ctx
}

/// The sizes of a bare expression's inputs (0 where unknown or unsized).
pub fn input_bits(b: &Bare, types: &TypeTable, dl: &DataLayout) -> (Vec<u64>, u64) {
    let size = |t: &Type| dl.bitsizeof(t, types).unwrap_or(0);
    let args: Vec<u64> = b
        .args
        .as_ref()
        .map(|a| a.iter().map(|d| size(&d.ty)).collect())
        .unwrap_or_default();
    let referrer = match (&b.referrer, b.expr.dialect) {
        (Some((t, _)), _) => size(t),
        (None, Dialect::DiExpression) => args.first().copied().unwrap_or(32),
        _ => 32,
    };
    (args, referrer)
}

#[test]
fn placements_make_what_they_say() {
    let dl = DataLayout::default();
    let mut rng = Rng(7);
    let c = context_for(&dl, &[32, 8], 64, Placement::MultiConsistent, &mut rng);
    for l in c.args.values() {
        assert_eq!(l.singles.len(), 2);
    }
}
