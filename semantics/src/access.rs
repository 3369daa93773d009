//! Reading and writing bits through a location description in a context
//! (DESIGN.md's "Reading" and "Writing"): the one implementation of both
//! that the reference interpreter and every oracle's observation use.
//!
//! **Reading** `n` bits of a location description reads `n` bits at the offset
//! of *every* single location. A bit of undefined storage is
//! [`crate::location::ReadErrorKind::Undefined`]; a bit outside its storage (a negative offset,
//! or past the end) is [`crate::location::ReadErrorKind::OutOfBounds`]; implicit-address storage
//! is [`crate::location::ReadErrorKind::ImplicitAddress`] (only `DIOpDeref` may consume it, and
//! it does so without reading). If every single location reads without error
//! but they disagree, the context broke the spec's promise that they all hold
//! the same object: [`crate::location::ReadErrorKind::Inconsistent`]. When some single
//! locations fail, the first failure (in the order of the single locations)
//! is the outcome.
//!
//! **Writing** (what a debugger does when the user assigns to the variable)
//! writes the bits into every single location; implicit, implicit-address and
//! undefined storage refuse. A write is all-or-nothing: when any part of it is
//! refused, the context is left unchanged.
//!

use crate::context::Context;
use crate::location::{
    print_entity_name, LocDesc, Part, ReadError, ReadErrorKind, Storage, WriteError, WriteErrorKind,
};
use crate::value::Bits;
use num_bigint::{BigInt, BigUint};
use num_integer::Integer;
use num_traits::{Signed, ToPrimitive, Zero};

fn read_err(kind: ReadErrorKind, message: String) -> ReadError {
    ReadError { kind, message }
}
fn write_err(kind: WriteErrorKind, message: String) -> WriteError {
    WriteError { kind, message }
}

// -------------------------------------------------------------- storage sizes

/// The size in bits of a storage; `None` for undefined storage (it has no bits
/// at all) and for an entity the context does not have.
pub fn storage_bits(ctx: &Context, storage: &Storage) -> Option<BigInt> {
    match storage {
        Storage::Memory { addrspace } => Some(ctx.memory_bits(*addrspace)),
        Storage::Entity { name } => ctx.entity(name).map(|b| BigInt::from(b.width())),
        Storage::Implicit { value } => Some(BigInt::from(value.width())),
        Storage::ImplicitAddress { bits, .. } => Some(BigInt::from(*bits)),
        Storage::Undefined => None,
        Storage::Composite { parts } => Some(parts.iter().map(|p| BigInt::from(p.bits)).sum()),
    }
}

/// Whether bits `offset .. offset+bits` lie inside a storage of `size` bits.
fn in_bounds(offset: &BigInt, bits: u64, size: &BigInt) -> bool {
    !offset.is_negative() && offset + BigInt::from(bits) <= *size
}

fn describe_storage(storage: &Storage) -> String {
    match storage {
        Storage::Memory { addrspace } => format!("the memory of address space {addrspace}"),
        Storage::Entity { name } => format!("entity {}", print_entity_name(name)),
        Storage::Implicit { value } => format!("an implicit value of {} bits", value.width()),
        Storage::ImplicitAddress { .. } => "an implicit address".to_string(),
        Storage::Undefined => "undefined storage".to_string(),
        Storage::Composite { parts } => format!("a composite of {} parts", parts.len()),
    }
}

// ---------------------------------------------------------------------- read

/// Reads `bits` bits from `loc`: the bits at the offset of every single
/// location, which must agree.
pub fn read(ctx: &Context, loc: &LocDesc, bits: u64) -> Result<Bits, ReadError> {
    read_at(ctx, loc, &BigInt::zero(), bits)
}

/// Reads `bits` bits at `extra` bits past the offset of every single location.
fn read_at(ctx: &Context, loc: &LocDesc, extra: &BigInt, bits: u64) -> Result<Bits, ReadError> {
    if loc.singles.is_empty() {
        return Err(read_err(
            ReadErrorKind::Undefined,
            "the location description has no single location".into(),
        ));
    }
    let mut results: Vec<Bits> = Vec::with_capacity(loc.singles.len());
    for s in &loc.singles {
        // The first failing single location is the outcome.
        results.push(read_storage(ctx, &s.storage, &(&s.offset + extra), bits)?);
    }
    // "By definition these must all describe the same object": when they do
    // not, the context is inconsistent, which is not the same as any value.
    if let Some(i) = results.iter().position(|r| *r != results[0]) {
        return Err(read_err(
            ReadErrorKind::Inconsistent,
            format!(
                "the single locations disagree: #0 ({}) reads 0x{:x}, #{i} ({}) reads 0x{:x}",
                loc.singles[0],
                results[0].to_biguint(),
                loc.singles[i],
                results[i].to_biguint()
            ),
        ));
    }
    Ok(results.swap_remove(0))
}

/// Reads `bits` bits of one storage starting at bit `offset`.
fn read_storage(
    ctx: &Context,
    storage: &Storage,
    offset: &BigInt,
    bits: u64,
) -> Result<Bits, ReadError> {
    // Reading no bits reads no bit of any storage, so nothing can go wrong.
    if bits == 0 {
        return Ok(Bits::empty());
    }
    match storage {
        Storage::Undefined => {
            return Err(read_err(
                ReadErrorKind::Undefined,
                format!("reading {bits} bits of undefined storage"),
            ))
        }
        Storage::ImplicitAddress { .. } => {
            return Err(read_err(
                ReadErrorKind::ImplicitAddress,
                "reading the bits of an implicit address (made by DIOpAddrOf; only DIOpDeref may consume it)".into(),
            ))
        }
        _ => {}
    }
    let Some(size) = storage_bits(ctx, storage) else {
        return Err(read_err(
            ReadErrorKind::Undefined,
            format!("{} is not in the context", describe_storage(storage)),
        ));
    };
    if !in_bounds(offset, bits, &size) {
        return Err(read_err(
            ReadErrorKind::OutOfBounds,
            format!(
                "reading bits {offset}..{} of {}, which has {size} bits",
                offset + BigInt::from(bits),
                describe_storage(storage)
            ),
        ));
    }
    match storage {
        Storage::Memory { addrspace } => Ok(memory_bits(ctx, *addrspace, offset, bits)),
        Storage::Entity { name } => {
            let value = ctx.entity(name).expect("its size was found above");
            Ok(value.slice(small(offset), bits))
        }
        Storage::Implicit { value } => Ok(value.slice(small(offset), bits)),
        Storage::Composite { parts } => read_composite(ctx, parts, offset, bits),
        Storage::Undefined | Storage::ImplicitAddress { .. } => unreachable!("handled above"),
    }
}

/// An offset the caller has checked to lie inside a value (so below 2^64).
fn small(offset: &BigInt) -> u64 {
    offset
        .to_u64()
        .expect("in bounds of a value, so fits in u64")
}

/// The bytes `first .. first+count` of an address space's memory, byte 0 of
/// the list from `first`.
// A counter beside the loop, not a range: `BigUint` is no `Step` type.
#[allow(clippy::explicit_counter_loop)]
fn memory_bytes(ctx: &Context, addrspace: u32, first: &BigUint, count: u64) -> Vec<u8> {
    let mut at = first.clone();
    let mut bytes = Vec::with_capacity(count.min(1 << 16) as usize);
    for _ in 0..count {
        bytes.push(ctx.byte(addrspace, &at));
        at += 1u32;
    }
    UNLISTED.with(|u| {
        if let Some(ranges) = u.borrow_mut().as_mut() {
            // The gaps between the listed bytes of the range.
            let end = first + count;
            let mut at = first.clone();
            let listed = ctx.state.memory.range(addrspace, first, &end);
            for (a, _) in listed.chain(std::iter::once((end.clone(), 0))) {
                if a > at {
                    let n = (&a - &at).to_u64().unwrap_or(u64::MAX);
                    ranges.push((addrspace, at.clone(), n));
                }
                at = a + 1u32;
            }
        }
    });
    bytes
}

thread_local! {
    /// While [`read_noting_unlisted`] runs: the memory bytes read that the
    /// context does not list, as (address space, first byte, count).
    static UNLISTED: std::cell::RefCell<Option<Vec<(u32, BigUint, u64)>>> =
        const { std::cell::RefCell::new(None) };
}

/// [`read`], and the memory bytes it used that the context does not list
/// (which read as the context's seeded pseudo-random bytes), as ranges
/// (address space, first byte, number of bytes).
#[allow(clippy::type_complexity)]
pub fn read_noting_unlisted(
    ctx: &Context,
    loc: &LocDesc,
    bits: u64,
) -> (Result<Bits, ReadError>, Vec<(u32, BigUint, u64)>) {
    UNLISTED.with(|u| *u.borrow_mut() = Some(Vec::new()));
    let r = read(ctx, loc, bits);
    let mut ranges = UNLISTED.with(|u| u.borrow_mut().take()).unwrap_or_default();
    // Several single locations may read the same bytes: merge overlaps.
    ranges.sort();
    let mut merged: Vec<(u32, BigUint, u64)> = Vec::with_capacity(ranges.len());
    for (s, f, n) in ranges {
        match merged.last_mut() {
            Some((ls, lf, ln)) if *ls == s && &*lf + *ln >= f => {
                let end = (&f + n).max(&*lf + *ln);
                *ln = (end - &*lf).to_u64().unwrap_or(u64::MAX);
            }
            _ => merged.push((s, f, n)),
        }
    }
    (r, merged)
}

/// The byte range covering bits `offset .. offset+bits` of memory: (first
/// byte, number of bytes, bit position of `offset` inside the first byte).
fn covering_bytes(offset: &BigInt, bits: u64) -> (BigUint, u64, u64) {
    let (first, within) = offset.div_mod_floor(&BigInt::from(8));
    let first = first.to_biguint().expect("in bounds, so not negative");
    let within = within.to_u64().expect("0..8");
    (first, (within + bits).div_ceil(8), within)
}

/// Bits `offset .. offset+bits` of an address space's memory: bit `p` is
/// bit `p mod 8` of byte `p / 8` (the caller checked the bounds).
fn memory_bits(ctx: &Context, addrspace: u32, offset: &BigInt, bits: u64) -> Bits {
    let (first, count, within) = covering_bytes(offset, bits);
    let bytes = memory_bytes(ctx, addrspace, &first, count);
    Bits::from_le_bytes(count * 8, &bytes).slice(within, bits)
}

/// The parts covering `offset .. offset+bits` of a composite, each read from its
/// own location description, concatenated in order.
fn read_composite(
    ctx: &Context,
    parts: &[Part],
    offset: &BigInt,
    bits: u64,
) -> Result<Bits, ReadError> {
    let mut out = Bits::empty();
    for (start, part) in part_starts(parts) {
        if let Some((rel, len)) = overlap(offset, bits, &start, part.bits) {
            let piece = read_at(ctx, &part.loc, &rel, len)?;
            out = Bits::concat(&out, &piece);
        }
    }
    Ok(out)
}

/// Each part with the bit at which it starts in the composite.
fn part_starts(parts: &[Part]) -> Vec<(BigInt, &Part)> {
    let mut at = BigInt::zero();
    let mut out = Vec::with_capacity(parts.len());
    for p in parts {
        out.push((at.clone(), p));
        at += BigInt::from(p.bits);
    }
    out
}

/// The piece of a part (starting at `start`, `len` bits long) that falls in the
/// range `offset .. offset+bits`, as (offset within the part, length).
fn overlap(offset: &BigInt, bits: u64, start: &BigInt, len: u64) -> Option<(BigInt, u64)> {
    let lo = offset.max(start).clone();
    let hi = (offset + BigInt::from(bits)).min(start + BigInt::from(len));
    if lo >= hi {
        return None;
    }
    let n = (&hi - &lo).to_u64().expect("at most a part's size");
    Some((lo - start, n))
}

// --------------------------------------------------------------------- write

/// Writes `value` into every single location of `loc` (memory bytes, entity
/// bits, composite parts). All or nothing: on error the context is unchanged.
pub fn write(ctx: &mut Context, loc: &LocDesc, value: &Bits) -> Result<(), WriteError> {
    // The write goes to a copy that replaces the context only when every part
    // of it succeeded, so that a refused write has no effect at all.
    let mut staged = ctx.clone();
    write_at(&mut staged, loc, &BigInt::zero(), value)?;
    *ctx = staged;
    Ok(())
}

fn write_at(
    ctx: &mut Context,
    loc: &LocDesc,
    extra: &BigInt,
    value: &Bits,
) -> Result<(), WriteError> {
    if loc.singles.is_empty() {
        return Err(write_err(
            WriteErrorKind::Undefined,
            "the location description has no single location".into(),
        ));
    }
    // "when writing to them the write must be performed into each single
    // location description"
    for s in &loc.singles {
        write_storage(ctx, &s.storage, &(&s.offset + extra), value)?;
    }
    Ok(())
}

/// `old` with bits `start .. start+new.width()` replaced by `new`.
fn splice(old: &Bits, start: u64, new: &Bits) -> Bits {
    let end = start + new.width();
    let low = old.slice(0, start);
    let high = old.slice(end, old.width() - end);
    Bits::concat(&Bits::concat(&low, new), &high)
}

fn write_storage(
    ctx: &mut Context,
    storage: &Storage,
    offset: &BigInt,
    value: &Bits,
) -> Result<(), WriteError> {
    // Refusal depends on the kind of storage alone, whatever the width.
    match storage {
        Storage::Implicit { .. } => {
            return Err(write_err(
                WriteErrorKind::Implicit,
                "writing to implicit storage (a value; read-only)".into(),
            ))
        }
        Storage::ImplicitAddress { .. } => {
            return Err(write_err(
                WriteErrorKind::ImplicitAddress,
                "writing to an implicit address".into(),
            ))
        }
        Storage::Undefined => {
            return Err(write_err(
                WriteErrorKind::Undefined,
                "writing to undefined storage".into(),
            ))
        }
        _ => {}
    }
    let Some(size) = storage_bits(ctx, storage) else {
        return Err(write_err(
            WriteErrorKind::Undefined,
            format!("{} is not in the context", describe_storage(storage)),
        ));
    };
    let bits = value.width();
    if bits > 0 && !in_bounds(offset, bits, &size) {
        return Err(write_err(
            WriteErrorKind::OutOfBounds,
            format!(
                "writing bits {offset}..{} of {}, which has {size} bits",
                offset + BigInt::from(bits),
                describe_storage(storage)
            ),
        ));
    }
    if bits == 0 {
        return Ok(());
    }
    match storage {
        Storage::Memory { addrspace } => {
            // The bytes the write touches, with the bits outside the written
            // range kept as they were.
            let (first, count, within) = covering_bytes(offset, bits);
            let old = memory_bytes(ctx, *addrspace, &first, count);
            let new = splice(&Bits::from_le_bytes(count * 8, &old), within, value);
            ctx.set_memory(*addrspace, first, &new.to_le_bytes());
            Ok(())
        }
        Storage::Entity { name } => {
            let current = ctx.entity(name).expect("its size was found above");
            let new = splice(current, small(offset), value);
            ctx.set_entity(name, new);
            Ok(())
        }
        Storage::Composite { parts } => {
            for (start, part) in part_starts(parts) {
                if let Some((rel, len)) = overlap(offset, bits, &start, part.bits) {
                    let from = (&start + &rel - offset)
                        .to_u64()
                        .expect("inside the written range");
                    write_at(ctx, &part.loc, &rel, &value.slice(from, len))?;
                }
            }
            Ok(())
        }
        Storage::Implicit { .. } | Storage::ImplicitAddress { .. } | Storage::Undefined => {
            unreachable!("refused above")
        }
    }
}
