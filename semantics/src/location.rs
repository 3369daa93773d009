//! The location model: location storage, single location descriptions and
//! location descriptions, and the locations of literals.
//!
//! The spec ("Location Description"): *A location description can consist of
//! one or more single location descriptions. A single location description
//! specifies a location storage and bit offset. A location storage is a linear
//! stream of bits with a fixed size.* DESIGN.md fixes the storage kinds:
//!
//! | kind             | size in bits                          | read          | write   |
//! |------------------|---------------------------------------|---------------|---------|
//! | memory (per AS)  | 8 · 2^(pointer bits of the AS)        | yes           | yes     |
//! | entity           | the width of its value in the context | yes           | yes     |
//! | implicit         | the width of its value                | yes           | refused |
//! | implicit address | bitsizeof of its pointer type         | error         | refused |
//! | undefined        | (no bits)                             | error         | refused |
//! | composite        | the sum of its parts' sizes           | via the parts | via the parts |
//!
//! Bit order is little-endian throughout: bit 0 is the least significant bit
//! of a value; memory byte `A` holds bits `8A .. 8A+8` of its address space's
//! storage, bit 0 of the byte being its least significant.
//!
//! Reading and writing bits through a location description in a context
//! is [`crate::access`].
//!
//! Offsets are [`BigInt`]s: a negative `DIOpBitOffset` makes them negative, and
//! a memory bit offset is 8 × an address that may be as wide as the widest
//! pointer (a datalayout may give a pointer up to 1024 bits).

use crate::types::{DataLayout, LayoutError, Type, TypeTable};
use crate::value::Bits;
use num_bigint::{BigInt, Sign};
use num_integer::Integer;
use num_traits::{One, Zero};
use std::fmt;

use crate::ast::Literal;

/// A location storage: "a linear stream of bits with a fixed size".
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Storage {
    /// The memory of one address space, byte-addressed.
    Memory { addrspace: u32 },
    /// A named LLVM entity (value, register, stack slot, global's address),
    /// `%x`, `$r0`, `@g`: the name includes its sigil. Its bits live in the
    /// context.
    Entity { name: String },
    /// A value; read-only.
    Implicit { value: Bits },
    /// Made by `DIOpAddrOf`: "conceptually holds a reference to the storage that
    /// `L` denotes". `bits` is `bitsizeof(ptr_ty)`.
    ImplicitAddress {
        target: Box<LocDesc>,
        target_ty: Type,
        ptr_ty: Type,
        bits: u64,
    },
    /// Cannot be read or written.
    Undefined,
    /// Ordered parts, the first at bit 0, each the next `bits` bits.
    Composite { parts: Vec<Part> },
}

/// One part of a composite storage: `bits` bits starting at the location
/// description `loc` (which may itself have several single locations).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Part {
    pub loc: LocDesc,
    pub bits: u64,
}

/// A single location description: a storage and a bit offset into it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Single {
    pub storage: Storage,
    pub offset: BigInt,
}

/// A location description: one or more single location descriptions, all of
/// which hold the same object.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LocDesc {
    pub singles: Vec<Single>,
}

/// diopter's limit on the size of one location description, counted by
/// [`LocDesc::node_count`]. `DIOpSelect` and `DIOpExtend` copy their input
/// locations into every lane, so nesting them multiplies sizes: without a
/// limit, a few dozen operations build descriptions of billions of nodes.
/// Exceeding it is `ErrorKind::ResourceLimit`, which says nothing about the
/// expression's meaning.
///
/// It is above what `DIOpExtend` makes at its own limit of 2^16 lanes from a
/// location with a few single locations, and below what costs more than a
/// few hundred megabytes to build.
pub const MAX_LOC_NODES: u64 = 1 << 18;

impl LocDesc {
    /// The number of single locations in the description, counting those
    /// inside composite parts and implicit addresses' targets.
    pub fn node_count(&self) -> u64 {
        self.singles.iter().fold(0u64, |acc, s| {
            let inner = match &s.storage {
                Storage::Composite { parts } => parts
                    .iter()
                    .fold(0u64, |a, p| a.saturating_add(p.loc.node_count())),
                Storage::ImplicitAddress { target, .. } => target.node_count(),
                _ => 0,
            };
            acc.saturating_add(1).saturating_add(inner)
        })
    }

    pub fn single(storage: Storage, offset: BigInt) -> LocDesc {
        LocDesc {
            singles: vec![Single { storage, offset }],
        }
    }
    /// "the undefined location description"
    pub fn undefined() -> LocDesc {
        Self::single(Storage::Undefined, BigInt::zero())
    }
    /// One implicit location description holding `value`, at offset 0.
    pub fn implicit(value: Bits) -> LocDesc {
        Self::single(Storage::Implicit { value }, BigInt::zero())
    }
    /// The memory of `addrspace` at byte address `address` (bit offset 8·address).
    pub fn memory(addrspace: u32, address: impl Into<BigInt>) -> LocDesc {
        Self::single(Storage::Memory { addrspace }, address.into() * 8)
    }
    /// The entity `name` (with its sigil) at bit offset `bit_offset`.
    pub fn entity(name: &str, bit_offset: impl Into<BigInt>) -> LocDesc {
        Self::single(
            Storage::Entity {
                name: name.to_string(),
            },
            bit_offset.into(),
        )
    }
    /// One composite location description of `parts` at offset 0.
    pub fn composite(parts: Vec<Part>) -> LocDesc {
        Self::single(Storage::Composite { parts }, BigInt::zero())
    }
    /// One implicit address location description at offset 0.
    pub fn implicit_address(target: LocDesc, target_ty: Type, ptr_ty: Type, bits: u64) -> LocDesc {
        Self::single(
            Storage::ImplicitAddress {
                target: Box::new(target),
                target_ty,
                ptr_ty,
                bits,
            },
            BigInt::zero(),
        )
    }
    /// Several single locations at once (the multi-location case).
    pub fn multi(alternatives: Vec<LocDesc>) -> LocDesc {
        LocDesc {
            singles: alternatives.into_iter().flat_map(|l| l.singles).collect(),
        }
    }

    /// The same location description with `delta` added to the bit offset of
    /// every single location (what the offset operations do).
    pub fn with_bit_offset(&self, delta: &BigInt) -> LocDesc {
        LocDesc {
            singles: self
                .singles
                .iter()
                .map(|s| Single {
                    storage: s.storage.clone(),
                    offset: &s.offset + delta,
                })
                .collect(),
        }
    }
}

/// Why a read failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ReadErrorKind {
    /// A bit of undefined storage (or of an entity the context does not have).
    Undefined,
    /// A bit outside its storage.
    OutOfBounds,
    /// The bits of an implicit address (only `DIOpDeref` may consume one).
    ImplicitAddress,
    /// The single locations read without error but disagree.
    Inconsistent,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadError {
    pub kind: ReadErrorKind,
    pub message: String,
}

/// Why a write was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WriteErrorKind {
    /// Implicit storage: a value, read-only.
    Implicit,
    ImplicitAddress,
    /// Undefined storage (or an entity the context does not have).
    Undefined,
    /// A bit outside its storage.
    OutOfBounds,
    /// A value of another width than the location's type (see
    /// `interp::write_value`).
    Width,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WriteError {
    pub kind: WriteErrorKind,
    pub message: String,
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}
impl fmt::Display for WriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ReadError {}
impl std::error::Error for WriteError {}

// ------------------------------------------------------------------ bit lists
//
// Literals are assembled as plain lists of bits (index 0 = bit 0), where
// every step is visibly a copy of one bit. Reads and writes work on `Bits`
// slices and concatenations instead: a slice of a storage is the same
// statement ("bits `o .. o+n` of this storage") made once rather than bit
// by bit.

/// The bits of `b`, bit 0 first.
pub fn bits_to_list(b: &Bits) -> Vec<bool> {
    (0..b.width()).map(|i| b.bit(i)).collect()
}

/// The `Bits` whose bit `i` is `list[i]`.
pub fn list_to_bits(list: &[bool]) -> Bits {
    let mut bytes = vec![0u8; list.len().div_ceil(8)];
    for (i, &bit) in list.iter().enumerate() {
        if bit {
            bytes[i / 8] |= 1 << (i % 8);
        }
    }
    Bits::from_le_bytes(list.len() as u64, &bytes)
}

// ------------------------------------------------------------------ literals

/// A piece of a literal's bits: defined bits, or `n` undefined bits (an `undef`
/// or `poison` element).
enum Chunk {
    Defined(Bits),
    Undefined(u64),
}

/// Why a literal has no location or bits as a value of its type.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LiteralError {
    /// The type (or an element's) has no size.
    #[error(transparent)]
    Layout(#[from] LayoutError),
    #[error("integer literal for `{0}`")]
    IntFor(Type),
    #[error("a {bits}-bit float literal for `{ty}`")]
    FloatFor { bits: u64, ty: Type },
    #[error("vector literal for `{0}`")]
    VectorFor(Type),
    #[error("array literal for `{0}`")]
    ArrayFor(Type),
    /// A vector or array literal with another number of elements.
    #[error("{count} elements for `{ty}`")]
    Count { count: usize, ty: Type },
    /// [`literal_bits`] of a literal with `undef` or `poison` in it.
    #[error("the `{0}` literal has undefined bits (undef or poison)")]
    Undefined(Type),
}

/// The location description of `DIOpConstant(T V)`: "If V is undef then L
/// comprises one undefined location description"; otherwise one implicit
/// location description whose storage "has value V and size bitsizeof(T)".
///
/// Integers are two's complement at the type's width, floats their bits,
/// `null`/`zeroinitializer` zeros; vector element `i` occupies bits
/// `[i·w, (i+1)·w)` with `w = bitsizeof(element)`; array element `i` starts at
/// `i · allocsize(element)` and the padding up to the stride is zero. `poison`
/// is treated as `undef`. A vector or array literal with some `undef` elements
/// (and some defined) is a composite of implicit and undefined parts, so that
/// exactly the undefined elements' bits are undefined.
pub fn literal_location(
    ty: &Type,
    lit: &Literal,
    dl: &DataLayout,
    types: &TypeTable,
) -> Result<LocDesc, LiteralError> {
    let mut chunks = Vec::new();
    literal_chunks(ty, lit, dl, types, &mut chunks)?;
    // Merge neighbours of the same kind so that a fully defined literal is one
    // implicit value and a fully undefined one the undefined location.
    let mut merged: Vec<Chunk> = Vec::new();
    for c in chunks {
        match (merged.last_mut(), c) {
            (Some(Chunk::Defined(a)), Chunk::Defined(b)) => *a = Bits::concat(a, &b),
            (Some(Chunk::Undefined(a)), Chunk::Undefined(b)) => *a += b,
            (_, c) => merged.push(c),
        }
    }
    Ok(match merged.len() {
        0 => LocDesc::implicit(Bits::empty()),
        1 => match merged.pop().expect("one chunk") {
            Chunk::Defined(l) => LocDesc::implicit(l),
            Chunk::Undefined(_) => LocDesc::undefined(),
        },
        _ => LocDesc::composite(
            merged
                .into_iter()
                .map(|c| match c {
                    Chunk::Defined(l) => Part {
                        bits: l.width(),
                        loc: LocDesc::implicit(l),
                    },
                    Chunk::Undefined(n) => Part {
                        bits: n,
                        loc: LocDesc::undefined(),
                    },
                })
                .collect(),
        ),
    })
}

/// The bits of a literal with no `undef` in it; `Err` if it has one.
pub fn literal_bits(
    ty: &Type,
    lit: &Literal,
    dl: &DataLayout,
    types: &TypeTable,
) -> Result<Bits, LiteralError> {
    let mut chunks = Vec::new();
    literal_chunks(ty, lit, dl, types, &mut chunks)?;
    let mut all = Bits::empty();
    for c in chunks {
        match c {
            Chunk::Defined(l) => all = Bits::concat(&all, &l),
            Chunk::Undefined(_) => return Err(LiteralError::Undefined(ty.clone())),
        }
    }
    Ok(all)
}

fn literal_chunks(
    ty: &Type,
    lit: &Literal,
    dl: &DataLayout,
    types: &TypeTable,
    out: &mut Vec<Chunk>,
) -> Result<(), LiteralError> {
    let size = dl.bitsizeof(ty, types)?;
    match lit {
        Literal::Undef | Literal::Poison => out.push(Chunk::Undefined(size)),
        Literal::Null | Literal::ZeroInitializer => out.push(Chunk::Defined(Bits::zero(size))),
        Literal::Int(v) => {
            let Type::Int(w) = ty else {
                return Err(LiteralError::IntFor(ty.clone()));
            };
            out.push(Chunk::Defined(Bits::from_bigint(*w, v)));
        }
        Literal::Float(b) => {
            if !ty.is_float() || b.width() != size {
                return Err(LiteralError::FloatFor {
                    bits: b.width(),
                    ty: ty.clone(),
                });
            }
            out.push(Chunk::Defined(b.clone()));
        }
        Literal::Vector(elems) => {
            let Type::Vector { len, .. } = ty else {
                return Err(LiteralError::VectorFor(ty.clone()));
            };
            if elems.len() as u64 != *len {
                return Err(LiteralError::Count {
                    count: elems.len(),
                    ty: ty.clone(),
                });
            }
            for (t, e) in elems {
                literal_chunks(t, e, dl, types, out)?;
            }
        }
        Literal::Array(elems) => {
            let Type::Array { len, elem } = ty else {
                return Err(LiteralError::ArrayFor(ty.clone()));
            };
            if elems.len() as u64 != *len {
                return Err(LiteralError::Count {
                    count: elems.len(),
                    ty: ty.clone(),
                });
            }
            let esize = dl.bitsizeof(elem, types)?;
            let stride = dl.alloc_bits(elem, types)?;
            for (t, e) in elems {
                literal_chunks(t, e, dl, types, out)?;
                out.push(Chunk::Defined(Bits::zero(stride - esize)));
            }
        }
    }
    Ok(())
}

/// `v` modulo 2^width, as `width` bits (two's complement for negative `v`).
pub fn twos_complement(v: &BigInt, width: u64) -> Vec<bool> {
    let modulus = BigInt::one() << width;
    let u = v.mod_floor(&modulus);
    let (_, bytes) = u.to_bytes_le();
    (0..width)
        .map(|i| {
            let byte = bytes.get((i / 8) as usize).copied().unwrap_or(0);
            (byte >> (i % 8)) & 1 == 1
        })
        .collect()
}

// ------------------------------------------------------------------- display

/// `%x`, `$r0`, `@g`, quoted when the name needs it (`%"a b"`).
pub fn print_entity_name(name: &str) -> String {
    let mut chars = name.chars();
    match chars.next() {
        Some(sigil @ ('%' | '$' | '@')) => {
            format!("{sigil}{}", crate::syntax::print_local_name(chars.as_str()))
        }
        _ => name.to_string(),
    }
}

/// The context format's spelling (see [`crate::context`]): `mem(1, 0x10)`,
/// `%x + 8`, `implicit(i32 0x7)`, `undef`,
/// `composite(%x : 32, mem(1, 0x0) | $r0 : 32)`,
/// `addrof(ptr addrspace(5), i32, %x)`.
impl fmt::Display for Single {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut offset = self.offset.clone();
        match &self.storage {
            Storage::Memory { addrspace } => {
                // The byte address and the bits beyond it (0..8).
                let (address, bits) = self.offset.div_mod_floor(&BigInt::from(8));
                if address.sign() == Sign::Minus {
                    write!(f, "mem({addrspace}, -0x{:x})", -address)?;
                } else {
                    write!(f, "mem({addrspace}, 0x{address:x})")?;
                }
                offset = bits;
            }
            Storage::Entity { name } => f.write_str(&print_entity_name(name))?,
            Storage::Implicit { value } => f.write_str(&print_implicit_value(value))?,
            Storage::ImplicitAddress {
                target,
                target_ty,
                ptr_ty,
                ..
            } => write!(f, "addrof({ptr_ty}, {target_ty}, {target})")?,
            Storage::Undefined => f.write_str("undef")?,
            Storage::Composite { parts } => {
                f.write_str("composite(")?;
                for (i, p) in parts.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{} : {}", p.loc, p.bits)?;
                }
                f.write_str(")")?;
            }
        }
        match offset.sign() {
            Sign::NoSign => Ok(()),
            Sign::Plus => write!(f, " + {offset}"),
            Sign::Minus => write!(f, " - {}", -offset),
        }
    }
}

/// `implicit(iN 0x...)`; a value of no bits is `implicit({} zeroinitializer)`.
pub fn print_implicit_value(value: &Bits) -> String {
    if value.width() == 0 {
        "implicit({} zeroinitializer)".to_string()
    } else {
        format!(
            "implicit(i{} 0x{})",
            value.width(),
            value.to_biguint().to_str_radix(16)
        )
    }
}

impl fmt::Display for LocDesc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.singles.is_empty() {
            return f.write_str("<no location>");
        }
        for (i, s) in self.singles.iter().enumerate() {
            if i > 0 {
                f.write_str(" | ")?;
            }
            write!(f, "{s}")?;
        }
        Ok(())
    }
}
