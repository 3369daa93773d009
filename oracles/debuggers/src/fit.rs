//! Fitting a generated case to the machine the debuggers run on, before it
//! is evaluated by anyone (the reference included), so that the reference
//! and the debuggers see one and the same case:
//!
//! * **memory** of address space 0 moves to the case's own window of the
//!   address space ([`window`]): the generator places values from address
//!   0x400 up and constant addresses below it, where no process can map a
//!   page (`vm.mmap_min_addr`). Every memory location of the context
//!   (arguments, referrer, object, inside composites and implicit
//!   addresses) and every listed byte moves by the same amount; bytes the
//!   context does not list stay the seed's (at their new addresses);
//! * **entities** become as wide as a machine register: 64 bits when they
//!   have at most 64 (a general register), 128 when at most 128 (an xmm
//!   register), the new high bits drawn from the seed. A debugger reads a
//!   register whole, so a narrower entity would make the reference's
//!   out-of-bounds reads unanswerable.
//!
//! A pointer value that a case computes or stores is not moved: where it is
//! dereferenced, the bytes it reads lie outside every mapped page and the
//! case is not applicable ([`crate::prepare`]), never compared against
//! memory the process does not have.

use diopter_semantics::case::Case;
use diopter_semantics::context::{splitmix64, Context};
use diopter_semantics::location::{LocDesc, Part, Single, Storage};
use diopter_semantics::memory::Memory;
use diopter_semantics::value::Bits;
use num_bigint::{BigInt, BigUint};

/// The lowest address of the windows.
pub const WINDOW_BASE: u64 = 0x1000_0000;
/// Each window's size: 1 MiB, far more than the generator's addresses use.
pub const WINDOW_BYTES: u64 = 0x10_0000;

/// The first address of window `slot`.
pub fn window(slot: u64) -> u64 {
    WINDOW_BASE + slot * WINDOW_BYTES
}

fn move_loc(loc: &LocDesc, by: &BigInt) -> LocDesc {
    LocDesc {
        singles: loc.singles.iter().map(|s| move_single(s, by)).collect(),
    }
}

fn move_single(s: &Single, by: &BigInt) -> Single {
    let bits = by * 8;
    match &s.storage {
        Storage::Memory { addrspace: 0 } => Single {
            storage: s.storage.clone(),
            offset: &s.offset + bits,
        },
        Storage::Composite { parts } => Single {
            storage: Storage::Composite {
                parts: parts
                    .iter()
                    .map(|p| Part {
                        loc: move_loc(&p.loc, by),
                        bits: p.bits,
                    })
                    .collect(),
            },
            offset: s.offset.clone(),
        },
        Storage::ImplicitAddress {
            target,
            target_ty,
            ptr_ty,
            bits: b,
        } => Single {
            storage: Storage::ImplicitAddress {
                target: Box::new(move_loc(target, by)),
                target_ty: target_ty.clone(),
                ptr_ty: ptr_ty.clone(),
                bits: *b,
            },
            offset: s.offset.clone(),
        },
        _ => s.clone(),
    }
}

/// Moves address space 0's memory up by `by` bytes.
pub fn relocate(ctx: &mut Context, by: u64) {
    let by_big = BigInt::from(by);
    for l in ctx.args.values_mut() {
        *l = move_loc(l, &by_big);
    }
    for l in [&mut ctx.referrer, &mut ctx.object].into_iter().flatten() {
        *l = move_loc(l, &by_big);
    }
    let mut moved = Memory::new();
    for (space, addr, b) in ctx.state.memory.iter() {
        let a = if space == 0 {
            addr + BigUint::from(by)
        } else {
            addr
        };
        moved.insert(space, &a, b);
    }
    ctx.state.memory = moved;
}

/// Widens every entity to the register that will hold it (see the module doc).
pub fn widen_entities(ctx: &mut Context) {
    let seed = ctx.seed;
    for (i, v) in ctx.state.entities.values_mut().enumerate() {
        let w = v.width();
        let to = match w {
            1..=63 => 64,
            65..=127 => 128,
            _ => continue,
        };
        let h1 = splitmix64(seed ^ (i as u64).wrapping_mul(0x9e37_79b9));
        let h2 = splitmix64(h1);
        let high = Bits::from_u128(128, (u128::from(h2) << 64) | u128::from(h1)).slice(0, to - w);
        *v = Bits::concat(v, &high);
    }
}

/// `case` fitted to window `slot` (see the module doc).
pub fn fit(mut case: Case, slot: u64) -> Case {
    relocate(&mut case.ctx, window(slot));
    widen_entities(&mut case.ctx);
    case
}
