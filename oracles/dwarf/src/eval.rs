//! Evaluating DWARF expression bytes with `gimli::read::Evaluation`,
//! answering its requests from an evaluation context, and mapping the pieces
//! it yields back to a diopter [`LocDesc`].
//!
//! The requests are answered as a debugger stopped in that context would:
//! memory from the context's bytes (address space 0, or the `DW_OP_xderef`
//! space), registers from the entities the lowering numbered, base types from
//! the synthetic unit of [`super::ops::BaseType`]. A request the context
//! cannot answer ends the evaluation with the reference's error class (see
//! the module doc of [`super`]); any error of gimli's own other than a
//! division by zero means the bytes are not a DWARF expression we meant to
//! write, and is reported as such.

use super::lower::{ImplicitTarget, IMPLICIT_DIE_BASE, IMPLICIT_POINTER_REG, UNDEF_REG};
use super::ops::BaseType;
use super::wide::{value_bits, value_of};
use diopter_semantics::context::Context;
use diopter_semantics::interp::ErrorKind;
use diopter_semantics::location::{LocDesc, Part};
use diopter_semantics::types::Type;
use diopter_semantics::value::Bits;
use gimli::read::{EndianSlice, Evaluation, EvaluationResult, Location, Piece, ValueType};
use gimli::{Encoding, Format, LittleEndian, Register, UnitOffset};
use num_bigint::{BigInt, BigUint};

/// DWARF 5, 32-bit format, 8-byte addresses: every lowered expression's encoding.
pub const ENCODING: Encoding = Encoding {
    format: Format::Dwarf32,
    version: 5,
    address_size: 8,
};

/// What the evaluator needs besides the bytes: which entity each register
/// number is, and which object each implicit pointer refers to.
pub struct Machine<'a> {
    pub ctx: &'a Context,
    pub registers: &'a [String],
    pub implicit_targets: &'a [ImplicitTarget],
    /// The register number of an entity not in `registers` (AMD's register
    /// names in the comparison), by name.
    pub extra_registers: &'a [(u16, String)],
}

/// Why an evaluation stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stop {
    /// A request the context cannot answer, with the reference's class;
    /// `request` counts the memory and register requests before it.
    Read {
        kind: ErrorKind,
        request: usize,
        message: String,
    },
    /// gimli's own error.
    Gimli(gimli::read::Error),
}

/// The evaluation's result as diopter pieces: each with its size (`None`:
/// the whole object), bit offset and location.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DwarfPiece {
    pub size_in_bits: Option<u64>,
    pub bit_offset: u64,
    pub location: DwarfLocation,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DwarfLocation {
    Empty,
    Register(u16),
    Address(u64),
    Value(Bits),
    Bytes(Vec<u8>),
    ImplicitPointer { die: u64, byte_offset: i64 },
}

thread_local! {
    /// The memory requests of the evaluations inside [`trace_memory`].
    static MEMORY_TRACE: std::cell::RefCell<Option<Vec<(u32, u64, u8)>>> =
        const { std::cell::RefCell::new(None) };
}

/// Runs `f` and returns, beside its result, every memory request (address
/// space, address, size in bytes) that gimli made in evaluations on this
/// thread meanwhile: which bytes a consumer must be able to read to follow
/// the same steps (the debugger oracle maps exactly those pages).
pub fn trace_memory<R>(f: impl FnOnce() -> R) -> (R, Vec<(u32, u64, u8)>) {
    let outer = MEMORY_TRACE.with(|t| t.borrow_mut().replace(Vec::new()));
    let r = f();
    let got = MEMORY_TRACE.with(|t| std::mem::replace(&mut *t.borrow_mut(), outer));
    (r, got.unwrap_or_default())
}

/// Whether `raw` as a float of type `vt` changes when +0.0 is added to it:
/// -0.0 (which becomes +0.0) and signalling NaNs (which become quiet).
fn changed_by_adding_zero(vt: ValueType, raw: u64) -> bool {
    match vt {
        ValueType::F32 => {
            let x = raw as u32;
            x == 0x8000_0000 || (f32::from_bits(x).is_nan() && x & 0x0040_0000 == 0)
        }
        ValueType::F64 => {
            raw == 0x8000_0000_0000_0000
                || (f64::from_bits(raw).is_nan() && raw & 0x0008_0000_0000_0000 == 0)
        }
        _ => false,
    }
}

fn base_value_type(off: UnitOffset<usize>) -> Option<ValueType> {
    if off.0 == 0 {
        return Some(ValueType::Generic);
    }
    BaseType::from_die_offset(off.0 as u64).and_then(BaseType::value_type)
}

fn read_fail(kind: ErrorKind, request: usize, message: String) -> Stop {
    Stop::Read {
        kind,
        request,
        message,
    }
}

impl Machine<'_> {
    fn register_name(&self, r: u16) -> Option<&str> {
        self.registers
            .get(usize::from(r))
            .map(String::as_str)
            .or_else(|| {
                self.extra_registers
                    .iter()
                    .find(|(n, _)| *n == r)
                    .map(|(_, s)| s.as_str())
            })
    }

    /// Evaluates `bytes`; `site_bits(k)` says how many bits the `k`th
    /// register request of a generic type reads (a pointer's width).
    pub fn evaluate(
        &self,
        bytes: &[u8],
        site_bits: &dyn Fn(usize) -> u64,
    ) -> Result<Vec<DwarfPiece>, Stop> {
        let mut eval = Evaluation::new(EndianSlice::new(bytes, LittleEndian), ENCODING);
        eval.set_max_iterations(1 << 16);
        let mut requests = 0usize;
        let mut r = eval.evaluate().map_err(Stop::Gimli)?;
        loop {
            r = match r {
                EvaluationResult::Complete => break,
                EvaluationResult::RequiresMemory {
                    address,
                    size,
                    space,
                    base_type,
                } => {
                    let k = requests;
                    requests += 1;
                    let vt = base_value_type(base_type).ok_or_else(|| {
                        read_fail(ErrorKind::IllFormed, k, "unknown base type".into())
                    })?;
                    let space = u32::try_from(space.unwrap_or(0)).map_err(|_| {
                        read_fail(
                            ErrorKind::IllFormed,
                            k,
                            "address space beyond 32 bits".into(),
                        )
                    })?;
                    let raw = self.memory(space, address, size, k)?;
                    eval.resume_with_memory(value_of(vt, raw))
                        .map_err(Stop::Gimli)?
                }
                EvaluationResult::RequiresRegister {
                    register,
                    base_type,
                } => {
                    let k = requests;
                    requests += 1;
                    let vt = base_value_type(base_type).ok_or_else(|| {
                        read_fail(ErrorKind::IllFormed, k, "unknown base type".into())
                    })?;
                    let bits = match vt {
                        ValueType::Generic => site_bits(k),
                        t => u64::from(t.bit_size(u64::MAX)),
                    };
                    let raw = self.register(register, bits, k)?;
                    if changed_by_adding_zero(vt, raw) {
                        // gimli 0.31 reads DW_OP_regval_type as the register
                        // plus a zero offset (`resume_with_register` adds
                        // `Value::from_u64(type, 0)`): a float -0.0 comes back
                        // +0.0 and a signalling NaN quiet. What follows would
                        // check gimli, not the lowering: this oracle cannot
                        // evaluate the case (docs/known-issues.md).
                        return Err(read_fail(
                            ErrorKind::ResourceLimit,
                            k,
                            "gimli adds +0.0 to a float register read by DW_OP_regval_type, which changes -0.0 and signalling NaNs".into(),
                        ));
                    }
                    eval.resume_with_register(value_of(vt, raw))
                        .map_err(Stop::Gimli)?
                }
                EvaluationResult::RequiresBaseType(off) => {
                    let vt = base_value_type(off).ok_or_else(|| {
                        read_fail(
                            ErrorKind::IllFormed,
                            requests,
                            format!("unknown base type at unit offset {}", off.0),
                        )
                    })?;
                    eval.resume_with_base_type(vt).map_err(Stop::Gimli)?
                }
                EvaluationResult::RequiresRelocatedAddress(a) => {
                    eval.resume_with_relocated_address(a).map_err(Stop::Gimli)?
                }
                other => {
                    return Err(read_fail(
                        ErrorKind::IllFormed,
                        requests,
                        format!("an evaluation request the context cannot answer: {other:?}"),
                    ))
                }
            };
        }
        Ok(eval.result().into_iter().map(convert_piece).collect())
    }

    /// `size` bytes of `space` at `address`, little-endian.
    fn memory(&self, space: u32, address: u64, size: u8, k: usize) -> Result<u64, Stop> {
        MEMORY_TRACE.with(|t| {
            if let Some(v) = t.borrow_mut().as_mut() {
                v.push((space, address, size));
            }
        });
        let end = BigUint::from(address) + u64::from(size);
        if end > self.ctx.memory_bytes(space) {
            return Err(read_fail(
                ErrorKind::OutOfBounds,
                k,
                format!("reading {size} bytes at 0x{address:x} of address space {space}"),
            ));
        }
        let mut raw = 0u64;
        for i in (0..u64::from(size)).rev() {
            let b = self.ctx.byte(space, &(BigUint::from(address) + i));
            raw = (raw << 8) | u64::from(b);
        }
        Ok(raw)
    }

    /// The low `bits` bits of the entity register `r` holds.
    fn register(&self, r: Register, bits: u64, k: usize) -> Result<u64, Stop> {
        match r.0 {
            UNDEF_REG => {
                return Err(read_fail(
                    ErrorKind::ReadUndefined,
                    k,
                    "reading a register with no value (undefined storage)".into(),
                ))
            }
            IMPLICIT_POINTER_REG => {
                return Err(read_fail(
                    ErrorKind::ImplicitAddressRead,
                    k,
                    "reading the bits of an implicit pointer".into(),
                ))
            }
            _ => {}
        }
        let Some(name) = self.register_name(r.0) else {
            return Err(read_fail(
                ErrorKind::ReadUndefined,
                k,
                format!("register {} names no entity", r.0),
            ));
        };
        let Some(v) = self.ctx.entity(name) else {
            return Err(read_fail(
                ErrorKind::ReadUndefined,
                k,
                format!("entity {name} is not in the context"),
            ));
        };
        if v.width() < bits {
            return Err(read_fail(
                ErrorKind::OutOfBounds,
                k,
                format!("reading {bits} bits of the {}-bit entity {name}", v.width()),
            ));
        }
        // A register holds all of its entity's bits that fit in 64, as a
        // debugger reads a machine register whole (DW_OP_bregx: "the
        // contents of the register plus the offset"), not only the bits
        // the read site wants: the lowering must mask what it does not use.
        Ok(v.slice(0, v.width().min(64)).to_u64().unwrap_or(0))
    }

    /// The diopter location description of the pieces: one piece without a
    /// size is the location itself; otherwise a composite of the pieces.
    /// `result_ty`/`result_bits` give an implicit pointer its pointer type.
    pub fn location(
        &self,
        pieces: &[DwarfPiece],
        result_ty: &Type,
        result_bits: u64,
    ) -> Result<LocDesc, PieceError> {
        match pieces {
            [p] if p.size_in_bits.is_none() => self.piece_location(p, result_ty, result_bits),
            _ => {
                let mut parts = Vec::new();
                for p in pieces {
                    let Some(bits) = p.size_in_bits else {
                        return Err(PieceError::UnsizedAmongSeveral);
                    };
                    parts.push(Part {
                        loc: self.piece_location(p, result_ty, result_bits)?,
                        bits,
                    });
                }
                Ok(LocDesc::composite(parts))
            }
        }
    }

    fn piece_location(
        &self,
        p: &DwarfPiece,
        result_ty: &Type,
        result_bits: u64,
    ) -> Result<LocDesc, PieceError> {
        let loc = match &p.location {
            DwarfLocation::Empty => LocDesc::undefined(),
            DwarfLocation::Register(r) => match self.register_name(*r) {
                Some(name) => LocDesc::entity(name, 0),
                None if *r == UNDEF_REG => LocDesc::undefined(),
                None => return Err(PieceError::NoEntity(*r)),
            },
            DwarfLocation::Address(a) => LocDesc::memory(0, BigInt::from(*a)),
            DwarfLocation::Value(v) => LocDesc::implicit(v.clone()),
            DwarfLocation::Bytes(b) => {
                LocDesc::implicit(Bits::from_le_bytes(b.len() as u64 * 8, b))
            }
            DwarfLocation::ImplicitPointer { die, byte_offset } => {
                let k = die
                    .checked_sub(u64::from(IMPLICIT_DIE_BASE))
                    .filter(|d| d % 0x10 == 0)
                    .map(|d| (d / 0x10) as usize);
                let Some(t) = k.and_then(|k| self.implicit_targets.get(k)) else {
                    return Err(PieceError::UnknownDie(*die));
                };
                if *byte_offset != 0 {
                    return Err(PieceError::ByteOffset);
                }
                LocDesc::implicit_address(
                    t.loc.clone(),
                    t.ty.clone(),
                    result_ty.clone(),
                    result_bits,
                )
            }
        };
        Ok(if p.bit_offset == 0 {
            loc
        } else {
            loc.with_bit_offset(&BigInt::from(p.bit_offset))
        })
    }
}

/// Pieces gimli gave that have no diopter location ([`Machine::location`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PieceError {
    #[error("a piece without a size among several")]
    UnsizedAmongSeveral,
    /// A register that is no entity of the lowering (nor the undefined one).
    #[error("register {0} names no entity")]
    NoEntity(u16),
    #[error("an implicit pointer to an unknown DIE 0x{0:x}")]
    UnknownDie(u64),
    #[error("an implicit pointer with a byte offset")]
    ByteOffset,
}

fn convert_piece(p: Piece<EndianSlice<'_, LittleEndian>>) -> DwarfPiece {
    let location = match p.location {
        Location::Empty => DwarfLocation::Empty,
        Location::Register { register } => DwarfLocation::Register(register.0),
        Location::Address { address } => DwarfLocation::Address(address),
        Location::Value { value } => DwarfLocation::Value(value_bits(value)),
        Location::Bytes { value } => DwarfLocation::Bytes(value.slice().to_vec()),
        Location::ImplicitPointer { value, byte_offset } => DwarfLocation::ImplicitPointer {
            die: value.0 as u64,
            byte_offset,
        },
    };
    DwarfPiece {
        size_in_bits: p.size_in_bits,
        bit_offset: p.bit_offset.unwrap_or(0),
        location,
    }
}
