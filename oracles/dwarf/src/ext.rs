//! An evaluator for DWARF 5 with AMD's heterogeneous-debugging extensions,
//! written from *DWARF Extensions For Heterogeneous Debugging*
//! (`llvm/docs/AMDGPUDwarfExtensionsForHeterogeneousDebugging.rst`, read in
//! llvm/llvm-project at 00738dd; ROCm/llvm-project's copy was not in the
//! store), the `DW_OP_LLVM_user` sub-opcodes of ROCm's
//! `llvm/include/llvm/BinaryFormat/Dwarf.def` (0x02 `form_aspace_address` …
//! 0x0c `select_bit_piece`, the same numbers as the document's table) and
//! the AMDGPU chapter of `llvm/docs/AMDGPUUsage.rst` (address-space
//! identifiers, VGPR layout).
//!
//! # The machine
//!
//! The stack holds values and location descriptions (document A.2.5.4). A
//! location description is a diopter [`LocDesc`] — the document's model and
//! the spec's are the same five storage kinds, with bit offsets — so the
//! result needs no mapping back: memory per address space and entities come
//! from the [`Context`], as for the gimli oracle ([`super::eval`]). Values
//! are gimli's [`Value`]s, and every arithmetic, logical, comparison and
//! conversion operation on them is gimli's own `Value` method (values of a
//! base type wider than 64 bits, which gimli has no `Value` for, are
//! [`super::wide`]'s: decision 13; half, bfloat, binary128 and x86_fp80
//! values are [`super::softfloat`]'s: decisions 14 and 15): "standard DWARF 5
//! operations behave as gimli evaluates them" holds by construction for the
//! arithmetic, and the property test `oracles/harness/tests/dwarf_ext.rs` checks the
//! rest (locations, pieces, reads) against gimli's evaluator on the plain
//! subset. Standard operations are decoded by gimli's
//! `Operation::parse`; `DW_OP_LLVM_user` (0xe9) and its sub-opcodes are
//! decoded here.
//!
//! * A register number names an entity of the context ([`ExtMachine`]):
//!   `DW_OP_regx R` pushes that entity at bit offset 0; reading bits from it
//!   reads the entity's bits (so a VGPR modelled as an entity of
//!   wave-size × 32 bits holds lane `l`'s dword at bit `32 l`, as
//!   AMDGPUUsage's "consecutive dwords (32-bits), one per lane, with the dword
//!   at the least significant bit position corresponding to lane 0" says).
//! * `DW_OP_LLVM_push_lane` pushes the context's lane; a context without a
//!   lane is an evaluation error (A.2.5.1: "If the evaluation requires a
//!   context element that is not specified, then the result of the
//!   evaluation is an error").
//! * Address spaces: [`AspaceMap`] says which diopter memory a DWARF address
//!   space identifier is. The differential oracle uses diopter's own
//!   convention (identifier `N` is LLVM address space `N`, the one the
//!   lowering's `DW_OP_xderef*` uses); the AMD comparison uses AMDGPUUsage's
//!   table (`DW_ASPACE_none` = global, 1 = generic, 2 region, 3 local,
//!   5 private_lane = the focused lane's private memory, the LLVM address
//!   space 5 of diopter's contexts).
//!
//! Uses: `DwarfExt` (`diopter_harness::adapters`, the `dwarf-ext` oracle of
//! the `dwarf_diff` fuzz target) evaluates [`super::lower_ext`]'s bytes; `amd_ext` evaluates the
//! DWARF AMD's backend emits (`reports/dwarf-amd.md`).
//!
//! # Decisions where the document is silent or ambiguous
//!
//! Each is also an entry of the errata report ([`DECISIONS`], section
//! "DWARF extension document" of `reports/errata.md`).
//!
//! 1. **Offsets are signed.** `DW_OP_LLVM_offset`/`bit_offset` take "an
//!    integral type value that represents a byte displacement" without a
//!    signedness; the generic type has "unspecified signedness". The
//!    displacement is read as a two's-complement integer of its type (the
//!    generic type: 64 bits), as DESIGN.md reads DIOp offsets.
//! 2. **Offset bounds.** The updated offset must be `>= 0` and `<` the
//!    storage's size; an offset onto the end of the storage is an error too,
//!    as the sentence says (a zero-sized read at the end is therefore never
//!    reachable through an offset). Undefined locations are left unchanged.
//! 3. **Register reads by generic type.** `DW_OP_breg*`/`DW_OP_bregx` read
//!    the register "as an unsigned integral base type of size S" (the
//!    address size). diopter's registers are entities of their own width: a
//!    generic read fails as a read of the width the caller gives (the
//!    lowering's pointer width) does, and yields all of the entity's bits
//!    that fit in S, zero-extended, as a machine register is read whole —
//!    the same answer the gimli oracle gives gimli's `RequiresRegister`.
//! 4. **`DW_OP_LLVM_form_aspace_address`** truncates the address to the
//!    address space's address size (the datalayout's pointer width) as the
//!    sentence says; an identifier the map does not know is an error
//!    (the document: ill-formed).
//! 5. **No call frame information.** Contexts are the top frame and carry no
//!    CFI, so `DW_OP_LLVM_call_frame_entry_reg R` uses the "same value" rule
//!    and pushes the register location of `R`.
//! 6. **Context elements diopter has no notion of** (`DW_OP_push_object_address`,
//!    `DW_OP_call*` but decision 12's, `DW_OP_fbreg`, `DW_OP_call_frame_cfa`,
//!    `DW_OP_form_tls_address`, `DW_OP_entry_value`, `DW_OP_LLVM_private_wave`
//!    addresses, `DW_ASPACE_AMDGPU_private_lane<n>` for a lane other than the
//!    context's) are evaluation errors, never guesses.
//! 7. **Implicit pointer values.** Reading the bits of a
//!    `DW_OP_implicit_pointer` location is an error (`ImplicitAddressRead`);
//!    the document's implicit pointer *value* (A.2.5.4.4.5) is not modelled.
//! 8. **Decoding.** The whole byte block is decoded before evaluation: a
//!    malformed or unknown operation anywhere is an error even if no branch
//!    reaches it. A branch must land on the start of an operation or one
//!    past the end. `DW_OP_LLVM_aspace_implicit_pointer`,
//!    `DW_OP_LLVM_push_iteration`, `DW_OP_LLVM_overlay` and
//!    `DW_OP_LLVM_bit_overlay` have no encoding yet (the table says TBA), so
//!    they cannot occur in bytes.
//! 9. **Implicit conversions** (A.2.5.4.4.3): a generic value converts to a
//!    memory location in the default address space (byte address = value);
//!    a memory location in the default address space whose bit offset is a
//!    multiple of 8 converts to a generic value. Nothing else converts (a
//!    typed integer left on the stack as the result is an error, where
//!    gimli reads it as an address).
//! 10. **Limits.** At most 2^16 operations are executed (gimli's limit in the
//!     oracle) and a location description may have at most
//!     [`diopter_semantics::location::MAX_LOC_NODES`] nodes
//!     (`DW_OP_LLVM_extend` of a large count, `DW_OP_dup` of composites);
//!     beyond is `ResourceLimit`.
//! 11. **`DW_OP_bit_piece`'s offset** is added to the part's location
//!     without the range check of `DW_OP_LLVM_bit_offset`, although the
//!     document defines it "as if the `DW_OP_constu B;
//!     DW_OP_LLVM_bit_offset` operations were applied" and says a part's
//!     bits outside its storage make the expression ill-formed. DWARF 5
//!     (and gimli) accept `DW_OP_implicit_value 4 …; DW_OP_bit_piece 32 32`
//!     and fail only when the part is read; the document's first principle
//!     is backwards compatibility, so that is what this evaluator does (the
//!     reference interpreter agrees: an offset past the end is an error only
//!     on read).
//! 12. **`DW_OP_call*` of a location list.** The document: "If D has a
//!     `DW_AT_location` attribute that is encoded as a `loclist` …, then the
//!     specified location list expression E is evaluated … The location
//!     description result is pushed on the stack", and a location list
//!     whose entries overlap describes an object in several places. The
//!     lowering's location-list DIEs ([`super::lower::LOCLIST_DIE_BASE`]) are
//!     such lists with every entry matching the current program location;
//!     `DW_OP_call4` of one pushes their single locations together. Any other
//!     `DW_OP_call*` is still an error (decision 6).
//! 13. **Wide integer base types.** DWARF 5 bounds no base type's size
//!     (§2.5.1: a value has a base type; §5.1's `DW_AT_byte_size` has no
//!     limit) and GDB evaluates wide ones, but gimli's `Value` stops at 64
//!     bits. Values of the wide base types of [`super::ops`]
//!     (`BaseType::IW(n)`/`UW(n)`, signed and unsigned integers of 9 to 255
//!     bytes) are integers kept reduced into their type's range
//!     ([`super::wide::ExtValue`], arithmetic written with `num-bigint`),
//!     with gimli's conventions for its typed integers so that a wide type
//!     behaves as an `I64`/`U64` with more bits: operands of one type (else
//!     `TypeMismatch`, so `DW_OP_plus_uconst`, which adds a generic value,
//!     is an error on a wide value as on an `I64`); results modulo `2^(8n)`;
//!     `div` truncating, `mod` with the dividend's sign, a zero divisor
//!     `DivisionByZero`; comparisons push a generic 0/1 (signed for `IW`);
//!     `neg` of `UW`, `shr` of `IW` and `shra` of `UW` are errors; a shift
//!     count is any non-negative integral value (narrow or wide), a count
//!     of `8n` or more gives 0 or the sign fill. `DW_OP_convert` into a wide
//!     type takes the source's mathematical value (signed types
//!     sign-extend, the generic type and unsigned types zero-extend) modulo
//!     `2^(8n)`; out of one, the low 64 bits then gimli's `from_u64`
//!     (truncation). `DW_OP_reinterpret` needs equal sizes. Floats to or from
//!     wide types, wide addresses and address spaces
//!     (`form_aspace_address`, `xderef`, `aspace_bregx`) are errors, never
//!     guesses. `DW_OP_const_type` takes `n` bytes;
//!     `DW_OP_regval_type`/`deref_type`/`xderef_type` read `8n` bits (the
//!     deref size operand is not checked, as for narrow types);
//!     `DW_OP_stack_value` gives an `8n`-bit implicit location;
//!     `DW_OP_bra` branches on a nonzero wide value;
//!     `DW_OP_LLVM_offset`/`bit_offset` take a wide displacement as its
//!     signed (`IW`) or unsigned (`UW`) value (decision 1's two's complement
//!     needs no 64-bit wrap there); `select_bit_piece`'s mask may be wide.
//!     Two narrow operands still go to gimli's methods, so no narrow result
//!     changes.
//! 14. **Half, bfloat and binary128 base types.** gimli's `Value` has only
//!     `F32` and `F64`, but DWARF 5's `DW_ATE_float` has any size and GDB
//!     evaluates `half` and `__float128`. Values of [`super::ops`]'s
//!     `BaseType::F16` (2 bytes, `half`: IEEE binary16), `BaseType::BF16`
//!     (2 bytes, `__bf16`: bfloat16 — DWARF has no encoding telling it from
//!     half, so the base type's name does, as GDB reads it) and
//!     `BaseType::F128` (16 bytes, `__float128`: IEEE binary128) are
//!     [`super::softfloat::SoftFloat`]s, computed with `rustc_apfloat`
//!     (LLVM's `APFloat`; not through the reference interpreter's code),
//!     with gimli's conventions for `F32`/`F64`: `plus`, `minus`, `mul`,
//!     `div` and the comparisons take two values of one kind (else
//!     `TypeMismatch`); arithmetic is IEEE's, rounded to nearest, ties to
//!     even, a NaN result's payload `APFloat`'s; comparisons push a generic
//!     0/1 and a NaN makes all of them false but `ne`; `neg` flips the sign
//!     bit; `abs` changes only a value that compares below zero (gimli's
//!     `if value < 0. { -value }`, so `abs(-0.0)` and a negative NaN are
//!     unchanged); `mod`, `and`, `or`, `xor`, `not` and shifts are
//!     `IntegralTypeRequired` (a soft shift count `InvalidShiftExpression`),
//!     and a soft value is no branch condition, displacement, mask, address
//!     or address space. `DW_OP_convert` between soft kinds and to or from
//!     `float`/`double` rounds to nearest, ties to even (`APFloat`'s
//!     conversion, NaNs included); a narrow integer converts as gimli
//!     converts one to a float: its `to_u64` (signed types sign-extended to
//!     64 bits) read as an unsigned 64-bit number, rounded to nearest even
//!     (a lowering negates negative values first, as for `float`). Wide
//!     integers to soft floats and soft floats to any integer are not
//!     modelled: errors. `DW_OP_reinterpret` needs equal sizes: half and
//!     bfloat with each other and `I16`/`U16`, binary128 with the 16-byte
//!     wide integers. `DW_OP_const_type` takes the type's 2 or 16 bytes,
//!     `DW_OP_regval_type`/`deref_type`/`xderef_type` read 16 or 128 bits
//!     as the encoding, `DW_OP_stack_value` gives an implicit location of
//!     those bits. Narrow operands, `float` and `double` included, still go
//!     to gimli's methods.
//! 15. **The x87 80-bit base type.** `BaseType::F80` (10 bytes,
//!     `__float80`: LLVM's `x86_fp80`, the x87 extended format with an
//!     explicit integer bit; 10 bytes are the value's own 80 bits, LLVM's
//!     `bitsizeof(x86_fp80)` — a debugger's `long double` DIE often says 16
//!     with 6 of padding, but a lowering moves exactly the 80 bits) is a
//!     fourth soft kind of decision 14, computed with `rustc_apfloat`'s
//!     `X87DoubleExtended` under all of decision 14's rules;
//!     `DW_OP_reinterpret` pairs it with the 10-byte wide integers,
//!     `DW_OP_const_type` takes 10 bytes, `DW_OP_regval_type`/`deref_type`/
//!     `xderef_type` read 80 bits and `DW_OP_stack_value` gives those 80.
//!     Its encodings that are no IEEE value are `APFloat`'s, which agrees
//!     with the reference interpreter's `X86_FP80_DECISIONS`
//!     (`semantics/src/value.rs`): the pseudo-infinity, pseudo-NaNs and
//!     unnormals are NaNs (unordered; `abs` leaves them as they are); a
//!     pseudo-denormal is the normal number 2^-16382 · 1.f, and a result
//!     written back from it has exponent 1; a NaN converted to x86_fp80
//!     (from x86_fp80 too) has the integer and quiet bits set; arithmetic
//!     on a pseudo-NaN, pseudo-infinity or unnormal gives a NaN whose
//!     integer bit is still clear (`APFloat` sets the quiet bit alone; an
//!     unnormal's exponent becomes all ones). A value holds the encoding it
//!     was read with (a constant, a register, memory, a reinterpret):
//!     reading, moving, `neg` and `abs` never canonicalize it (`neg` flips
//!     bit 79 of those bits); the results of arithmetic and conversions are
//!     `APFloat`'s encodings, which may.
//! 16. **A shift's operands have one type.** DWARF 5 §2.5.1.4: "Operands
//!     of an operation with two operands must have the same type, either
//!     the same base type or the generic type." gimli checks it for every
//!     binary operation but the shifts (their count may be any integral
//!     value); GDB checks the shifts too ("Incompatible types on DWARF
//!     stack"), and so does this evaluator, after gimli's own checks (a
//!     float or negative count keeps gimli's error). It found the lowering
//!     shifting typed values by generic counts (reports/debuggers-findings.md,
//!     F1).

use super::lower::{
    ImplicitTarget, IMPLICIT_DIE_BASE, IMPLICIT_POINTER_REG, LOCLIST_DIE_BASE, UNDEF_REG,
};
use super::ops::BaseType;
use super::wide::{binary, value_bits, BinOp, ExtType, ExtValue, ValueError};
use diopter_semantics::access;
use diopter_semantics::context::Context;
use diopter_semantics::interp::ErrorKind;
use diopter_semantics::location::{LocDesc, Part, ReadErrorKind, Storage, MAX_LOC_NODES};
use diopter_semantics::types::Type;
use diopter_semantics::value::Bits;
use gimli::read::{EndianSlice, Operation, Reader, Value, ValueType};
use gimli::{LittleEndian, UnitOffset};
use num_bigint::BigInt;
use num_traits::{Signed, ToPrimitive, Zero};

pub use super::ops::{user, DW_OP_LLVM_USER};

/// An extension operation, decoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LlvmOp {
    Nop,
    FormAspaceAddress,
    PushLane,
    Offset,
    OffsetUconst(u64),
    BitOffset,
    CallFrameEntryReg(u64),
    Undefined,
    AspaceBregx(u64, i64),
    PieceEnd,
    Extend(u64, u64),
    SelectBitPiece(u64, u64),
}

/// How DWARF address space identifiers map onto diopter's memories.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AspaceMap {
    /// Identifier `N` is diopter's (LLVM's) address space `N`; the default
    /// address space is 0. The convention of diopter's lowering.
    Identity,
    /// AMDGPUUsage's "AMDGPU DWARF Address Space Mapping": 0
    /// (`DW_ASPACE_none`, the default) is global memory (LLVM address space
    /// 1), 1 generic (LLVM 0), 2 region, 3 local, 5 the focused lane's
    /// private memory (LLVM 5), `0x20 + n` lane `n`'s private memory (only the
    /// context's lane is modelled); 6 (`private_wave`, the unswizzled wave
    /// view) is not modelled.
    Amdgpu,
}

impl AspaceMap {
    /// The default address space's diopter memory.
    pub fn default_space(self) -> u32 {
        match self {
            AspaceMap::Identity => 0,
            AspaceMap::Amdgpu => 1,
        }
    }

    /// The diopter memory of a DWARF address space identifier.
    pub fn space(self, id: u64, lane: Option<u64>) -> Result<u32, AspaceError> {
        match self {
            AspaceMap::Identity => u32::try_from(id).map_err(|_| AspaceError::Beyond32Bits(id)),
            AspaceMap::Amdgpu => match id {
                0 => Ok(1),
                1 => Ok(0),
                2 => Ok(2),
                3 => Ok(3),
                5 => Ok(5),
                6 => Err(AspaceError::PrivateWave),
                0x20..=0x5f if lane == Some(id - 0x20) => Ok(5),
                0x20..=0x5f => Err(AspaceError::OtherLane(id - 0x20)),
                _ => Err(AspaceError::NotAmdgpu(id)),
            },
        }
    }
}

/// A DWARF address space with no diopter memory ([`AspaceMap::space`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AspaceError {
    #[error("address space {0} beyond 32 bits")]
    Beyond32Bits(u64),
    #[error("DW_ASPACE_AMDGPU_private_wave (the unswizzled wave view of private memory) is not modelled by diopter's contexts")]
    PrivateWave,
    /// The private memory of a lane other than the context's.
    #[error(
        "DW_ASPACE_AMDGPU_private_lane{0}: only the context's lane's private memory is modelled"
    )]
    OtherLane(u64),
    #[error("{0:#x} is not an AMDGPU DWARF address space")]
    NotAmdgpu(u64),
}

/// What the evaluator needs besides the bytes and the context.
pub struct ExtMachine<'a> {
    pub ctx: &'a Context,
    /// Register `i` is the entity `registers[i]`.
    pub registers: &'a [String],
    /// Further register numbers and their entities.
    pub extra_registers: &'a [(u16, String)],
    /// The object `k` of `DW_OP_implicit_pointer IMPLICIT_DIE_BASE + 0x10 k`.
    pub implicit_targets: &'a [ImplicitTarget],
    /// The location of the DIE `k` of `DW_OP_call4 LOCLIST_DIE_BASE + 0x10 k`
    /// (a location list all of whose entries match: decision 12).
    pub location_lists: &'a [LocDesc],
    pub aspaces: AspaceMap,
    /// `.debug_addr` (for `DW_OP_addrx`/`DW_OP_constx`), from index 0.
    pub debug_addr: &'a [u64],
    /// Added to `DW_OP_addr`'s operand (the relocation of the address).
    pub address_relocation: u64,
    /// The pointer type and size an implicit pointer location is given.
    pub pointer: (Type, u64),
}

impl<'a> ExtMachine<'a> {
    /// The machine of `ctx` whose register `i` is the entity
    /// `registers[i]`, and nothing else: no further registers, implicit
    /// pointers, location lists or `.debug_addr`, diopter's address-space
    /// identifiers ([`AspaceMap::Identity`]), 64-bit pointers. Fields may
    /// be set over it (`ExtMachine { aspaces, ..ExtMachine::new(..) }`).
    pub fn new(ctx: &'a Context, registers: &'a [String]) -> ExtMachine<'a> {
        ExtMachine {
            ctx,
            registers,
            extra_registers: &[],
            implicit_targets: &[],
            location_lists: &[],
            aspaces: AspaceMap::Identity,
            debug_addr: &[],
            address_relocation: 0,
            pointer: (Type::Int(64), 64),
        }
    }
}

/// Why an evaluation stopped: the reference's error class, the byte offset
/// of the operation, how many register and memory reads came before
/// (`request`, as the gimli oracle counts gimli's requests), and a message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExtStop {
    pub kind: ErrorKind,
    pub offset: usize,
    /// The byte offset just past the failing operation.
    pub end: usize,
    pub request: usize,
    pub message: String,
}

/// One decoded operation.
#[derive(Clone, Debug)]
pub enum Op<'b> {
    Std(Operation<EndianSlice<'b, LittleEndian>>),
    Llvm(LlvmOp),
}

/// Decodes one operation at the start of `r`.
fn decode_one<'b>(r: &mut EndianSlice<'b, LittleEndian>) -> Result<Op<'b>, String> {
    if r.slice().first() == Some(&DW_OP_LLVM_USER) {
        r.read_u8().map_err(|e| format!("{e:?}"))?;
        let sub = r
            .read_uleb128()
            .map_err(|e| format!("DW_OP_LLVM_user without a sub-opcode: {e:?}"))?;
        let uleb = |r: &mut EndianSlice<'b, LittleEndian>| {
            r.read_uleb128()
                .map_err(|e| format!("DW_OP_LLVM_user {sub:#x}: bad operand: {e:?}"))
        };
        let op = match sub {
            user::NOP => LlvmOp::Nop,
            user::FORM_ASPACE_ADDRESS => LlvmOp::FormAspaceAddress,
            user::PUSH_LANE => LlvmOp::PushLane,
            user::OFFSET => LlvmOp::Offset,
            user::OFFSET_UCONST => LlvmOp::OffsetUconst(uleb(r)?),
            user::BIT_OFFSET => LlvmOp::BitOffset,
            user::CALL_FRAME_ENTRY_REG => LlvmOp::CallFrameEntryReg(uleb(r)?),
            user::UNDEFINED => LlvmOp::Undefined,
            user::ASPACE_BREGX => {
                let reg = uleb(r)?;
                let off = r
                    .read_sleb128()
                    .map_err(|e| format!("DW_OP_LLVM_aspace_bregx: bad offset: {e:?}"))?;
                LlvmOp::AspaceBregx(reg, off)
            }
            user::PIECE_END => LlvmOp::PieceEnd,
            user::EXTEND => {
                let s = uleb(r)?;
                LlvmOp::Extend(s, uleb(r)?)
            }
            user::SELECT_BIT_PIECE => {
                let s = uleb(r)?;
                LlvmOp::SelectBitPiece(s, uleb(r)?)
            }
            other => return Err(format!("unknown DW_OP_LLVM_user sub-opcode {other:#x}")),
        };
        return Ok(Op::Llvm(op));
    }
    if r.slice().first() == Some(&gimli::constants::DW_OP_piece.0) {
        // gimli computes `8 * size` unchecked, which overflows (a panic in a
        // debug build) for sizes of 2^61 bytes and more: refuse them first.
        let mut probe = *r;
        probe.read_u8().map_err(|e| format!("{e:?}"))?;
        let size = probe
            .read_uleb128()
            .map_err(|e| format!("DW_OP_piece: bad size: {e:?}"))?;
        if size.checked_mul(8).is_none() {
            return Err(format!(
                "DW_OP_piece {size}: the size in bits overflows 64 bits"
            ));
        }
    }
    Operation::parse(r, super::eval::ENCODING)
        .map(Op::Std)
        .map_err(|e| format!("{e:?}"))
}

/// An operation with its start and end byte offsets.
pub type Decoded<'b> = (usize, usize, Op<'b>);

/// Decodes the whole block: each operation with its start and end offsets,
/// or the offset and reason of the first malformed operation.
pub fn decode(bytes: &[u8]) -> Result<Vec<Decoded<'_>>, (usize, String)> {
    let mut r = EndianSlice::new(bytes, LittleEndian);
    let mut out = Vec::new();
    while !r.is_empty() {
        let start = bytes.len() - r.len();
        let op = decode_one(&mut r).map_err(|m| (start, m))?;
        out.push((start, bytes.len() - r.len(), op));
    }
    Ok(out)
}

/// A stack entry.
#[derive(Clone, Debug)]
enum Entry {
    Val(ExtValue),
    Loc(LocDesc),
    /// An incomplete composite location description: its parts so far.
    Incomplete(Vec<Part>),
}

/// An integral narrow value as an unsigned integer of its type's width.
fn integral_u64(v: Value) -> Option<u64> {
    if matches!(v, Value::F32(_) | Value::F64(_)) {
        return None;
    }
    value_bits(v).to_u64()
}

fn base_type_of(off: UnitOffset<usize>) -> Option<ExtType> {
    if off.0 == 0 {
        return Some(ExtType::Narrow(ValueType::Generic));
    }
    BaseType::from_die_offset(off.0 as u64).and_then(ExtType::of_base)
}

/// The evaluator's state while running one expression.
struct Run<'m, 'a> {
    m: &'m ExtMachine<'a>,
    stack: Vec<Entry>,
    requests: usize,
    /// Byte offsets of the current operation.
    at: (usize, usize),
}

type Step<T> = Result<T, ExtStop>;

impl Run<'_, '_> {
    fn stop(&self, kind: ErrorKind, message: impl Into<String>) -> ExtStop {
        ExtStop {
            kind,
            offset: self.at.0,
            end: self.at.1,
            request: self.requests,
            message: message.into(),
        }
    }
    fn ill(&self, message: impl Into<String>) -> ExtStop {
        self.stop(ErrorKind::IllFormed, message)
    }

    fn pop(&mut self) -> Step<Entry> {
        match self.stack.pop() {
            Some(Entry::Incomplete(_)) => {
                Err(self
                    .ill("an operation other than a piece operation takes an incomplete composite"))
            }
            Some(e) => Ok(e),
            None => Err(self.ill("the stack is empty")),
        }
    }

    /// Pops a value, converting a default-address-space memory location.
    fn pop_value(&mut self) -> Step<ExtValue> {
        match self.pop()? {
            Entry::Val(v) => Ok(v),
            Entry::Loc(l) => self.loc_to_value(&l).map(ExtValue::Narrow),
            Entry::Incomplete(_) => Err(self.ill("an incomplete composite is not a value")),
        }
    }

    fn loc_to_value(&self, l: &LocDesc) -> Step<Value> {
        let default = self.m.aspaces.default_space();
        if let [s] = l.singles.as_slice() {
            if s.storage == (Storage::Memory { addrspace: default }) {
                let bits = &s.offset;
                if (bits % 8u8).is_zero() {
                    if let Some(a) = (bits / 8u8).to_u64() {
                        return Ok(Value::Generic(a));
                    }
                }
            }
        }
        Err(self.ill(
            "a location description where a value is required (only a byte address in the default address space converts)",
        ))
    }

    fn pop_integral(&mut self, what: &str) -> Step<ExtValue> {
        let v = self.pop_value()?;
        if !v.is_integral() {
            return Err(self.ill(format!("{what} must be an integral value")));
        }
        Ok(v)
    }

    /// Pops a location description, converting a generic value.
    fn pop_loc(&mut self) -> Step<LocDesc> {
        match self.pop()? {
            Entry::Loc(l) => Ok(l),
            Entry::Val(v) => self.value_to_loc(v),
            Entry::Incomplete(_) => Err(self.ill("an incomplete composite")),
        }
    }

    fn value_to_loc(&self, v: ExtValue) -> Step<LocDesc> {
        match v {
            ExtValue::Narrow(Value::Generic(a)) => {
                Ok(LocDesc::memory(self.m.aspaces.default_space(), a))
            }
            _ => Err(self.ill(
                "a typed value where a location description is required (only generic values convert)",
            )),
        }
    }

    fn push_loc(&mut self, l: LocDesc) -> Step<()> {
        if l.node_count() > MAX_LOC_NODES {
            return Err(self.stop(
                ErrorKind::ResourceLimit,
                format!("a location description of more than {MAX_LOC_NODES} nodes"),
            ));
        }
        self.stack.push(Entry::Loc(l));
        Ok(())
    }

    fn register_name(&self, r: u64) -> Option<&str> {
        let r16 = u16::try_from(r).ok()?;
        self.m
            .registers
            .get(usize::from(r16))
            .map(String::as_str)
            .or_else(|| {
                self.m
                    .extra_registers
                    .iter()
                    .find(|(n, _)| *n == r16)
                    .map(|(_, s)| s.as_str())
            })
    }

    /// The register location description of `r`.
    fn register_loc(&self, r: u64) -> Step<LocDesc> {
        if r == u64::from(UNDEF_REG) {
            return Ok(LocDesc::undefined());
        }
        match self.register_name(r) {
            Some(name) => Ok(LocDesc::entity(name, 0)),
            None => Err(self.ill(format!("register {r} names no entity of the context"))),
        }
    }

    /// Reads `bits` bits of register `r` (one request).
    fn read_register(&mut self, r: u64, bits: u64) -> Step<Bits> {
        if r == u64::from(IMPLICIT_POINTER_REG) {
            return Err(self.stop(
                ErrorKind::ImplicitAddressRead,
                "reading the bits of an implicit pointer",
            ));
        }
        if r == u64::from(UNDEF_REG) {
            return Err(self.stop(
                ErrorKind::ReadUndefined,
                "reading a register with no value (undefined storage)",
            ));
        }
        let Some(name) = self.register_name(r).map(str::to_string) else {
            return Err(self.stop(
                ErrorKind::ReadUndefined,
                format!("register {r} names no entity"),
            ));
        };
        let loc = LocDesc::entity(&name, 0);
        self.read(&loc, bits)
    }

    /// A generic read of register `r` by a site that wants `bits` bits
    /// (one request, failing as a read of `bits` does): all of the entity's
    /// bits that fit in the address size, as a machine register is read
    /// whole (decision 3).
    fn read_whole_register(&mut self, r: u64, bits: u64) -> Step<Bits> {
        let low = self.read_register(r, bits)?;
        let Some(name) = self.register_name(r).map(str::to_string) else {
            return Ok(low);
        };
        let whole = self.m.ctx.entity(&name).map_or(bits, |v| v.width().min(64));
        if whole <= bits {
            return Ok(low);
        }
        Ok(access::read(self.m.ctx, &LocDesc::entity(&name, 0), whole).unwrap_or(low))
    }

    /// Reads `bits` bits from a location (one request).
    fn read(&mut self, loc: &LocDesc, bits: u64) -> Step<Bits> {
        let r = access::read(self.m.ctx, loc, bits).map_err(|e| {
            let kind = match e.kind {
                ReadErrorKind::Undefined => ErrorKind::ReadUndefined,
                ReadErrorKind::OutOfBounds => ErrorKind::OutOfBounds,
                ReadErrorKind::ImplicitAddress => ErrorKind::ImplicitAddressRead,
                ReadErrorKind::Inconsistent => ErrorKind::Inconsistent,
            };
            self.stop(kind, e.message)
        });
        self.requests += 1;
        r
    }

    /// `DW_OP_deref_type`-like: `bits` bits of the location as a value of
    /// `ty` (a wide type takes all of them).
    fn deref(&mut self, loc: &LocDesc, ty: ExtType, bits: u64) -> Step<ExtValue> {
        let raw = self.read(loc, bits)?;
        Ok(ExtValue::from_bits(ty, &raw))
    }

    /// Adds `delta` bits to every single location (the offset operations).
    fn offset(&self, l: &LocDesc, delta: &BigInt) -> Step<LocDesc> {
        let mut out = l.clone();
        for s in &mut out.singles {
            if s.storage == Storage::Undefined {
                continue;
            }
            let new = &s.offset + delta;
            let size = access::storage_bits(self.m.ctx, &s.storage).ok_or_else(|| {
                self.stop(
                    ErrorKind::ReadUndefined,
                    "offsetting a location whose storage the context does not have",
                )
            })?;
            if new.is_negative() || new >= size {
                return Err(self.stop(
                    ErrorKind::OutOfBounds,
                    format!(
                        "the offset moves a location to bit {new}, outside its {size}-bit storage"
                    ),
                ));
            }
            s.offset = new;
        }
        Ok(out)
    }

    fn form_aspace_address(&self, address: ExtValue, aspace: ExtValue) -> Step<LocDesc> {
        let id = self.narrow(aspace, "the address space").and_then(|v| {
            integral_u64(v).ok_or_else(|| self.ill("the address space must be an integral value"))
        })?;
        let a = self.narrow(address, "the address").and_then(|v| {
            integral_u64(v).ok_or_else(|| self.ill("the address must be an integral value"))
        })?;
        let space = self
            .m
            .aspaces
            .space(id, self.m.ctx.lane)
            .map_err(|e| self.ill(e.to_string()))?;
        let size = self.m.ctx.datalayout.pointer_bits(space);
        let a = if size >= 64 || diopter_faults::planted!("ext-aspace-address-untruncated") {
            a
        } else {
            a & ((1u64 << size) - 1)
        };
        Ok(LocDesc::memory(space, a))
    }

    /// One piece operation (`DW_OP_piece`, `DW_OP_bit_piece`): `bits` bits,
    /// the part's location offset by `bit_offset`.
    fn piece(&mut self, bits: u64, bit_offset: u64) -> Step<()> {
        // Decision 11: the part's bit offset is not range-checked here.
        let offset_part = |_: &Self, l: LocDesc| -> Step<LocDesc> {
            if bit_offset == 0
                || l == LocDesc::undefined()
                || diopter_faults::planted!("ext-bit-piece-offset-ignored")
            {
                Ok(l)
            } else {
                Ok(l.with_bit_offset(&BigInt::from(bit_offset)))
            }
        };
        match self.stack.last() {
            None => {
                self.stack.push(Entry::Incomplete(vec![Part {
                    loc: LocDesc::undefined(),
                    bits,
                }]));
                return Ok(());
            }
            Some(Entry::Incomplete(_)) => {
                if let Some(Entry::Incomplete(parts)) = self.stack.last_mut() {
                    parts.push(Part {
                        loc: LocDesc::undefined(),
                        bits,
                    });
                }
                return Ok(());
            }
            Some(Entry::Val(v)) if !matches!(v, ExtValue::Narrow(Value::Generic(_))) => {
                return Err(self
                    .ill("DW_OP_piece of a typed value (DW_OP_stack_value makes it a location)"));
            }
            _ => {}
        }
        let pl = self.pop_loc()?;
        let pl = offset_part(self, pl)?;
        if let Some(Entry::Incomplete(parts)) = self.stack.last_mut() {
            parts.push(Part { loc: pl, bits });
        } else {
            self.stack
                .push(Entry::Incomplete(vec![Part { loc: pl, bits }]));
        }
        self.check_top()
    }

    fn check_top(&self) -> Step<()> {
        if let Some(Entry::Incomplete(parts)) = self.stack.last() {
            let n = parts
                .iter()
                .fold(1u64, |a, p| a.saturating_add(p.loc.node_count()));
            if n > MAX_LOC_NODES {
                return Err(self.stop(
                    ErrorKind::ResourceLimit,
                    format!("a composite of more than {MAX_LOC_NODES} nodes"),
                ));
            }
        }
        Ok(())
    }

    /// A binary operation: gimli's method on two narrow values, the wide
    /// and soft-float arithmetic of [`super::wide`] otherwise (decisions 13
    /// and 14).
    fn binary(&mut self, op: BinOp) -> Step<()> {
        let b = self.pop_value()?;
        let a = self.pop_value()?;
        let v = binary(op, a, b).map_err(|e| self.value_error(e))?;
        self.stack.push(Entry::Val(v));
        Ok(())
    }

    fn unary(&mut self, f: impl Fn(ExtValue) -> Result<ExtValue, ValueError>) -> Step<()> {
        let a = self.pop_value()?;
        let v = f(a).map_err(|e| self.value_error(e))?;
        self.stack.push(Entry::Val(v));
        Ok(())
    }

    fn value_error(&self, e: ValueError) -> ExtStop {
        match e {
            ValueError::DivisionByZero => {
                self.stop(ErrorKind::DivisionByZero, "DW_OP_div/DW_OP_mod by zero")
            }
            ValueError::Ill(m) => self.ill(m),
        }
    }

    /// A narrow value where a wide one or a soft float is not accepted
    /// (addresses and address spaces: decisions 13 and 14).
    fn narrow(&self, v: ExtValue, what: &str) -> Step<Value> {
        match v {
            ExtValue::Narrow(v) => Ok(v),
            ExtValue::Wide(w) => Err(self.ill(format!(
                "{what} is the wide {}: wide integers are not addresses or address spaces",
                w.ty().name()
            ))),
            ExtValue::Soft(s) => Err(self.ill(format!(
                "{what} is a {}: floats are not addresses or address spaces",
                s.kind().name()
            ))),
        }
    }

    fn base_type(&self, off: UnitOffset<usize>) -> Step<ExtType> {
        base_type_of(off)
            .ok_or_else(|| self.ill(format!("unknown base type at unit offset {}", off.0)))
    }
}

impl ExtMachine<'_> {
    /// Evaluates `bytes` and returns the location description the
    /// expression yields (the result kind is a location description).
    /// `generic_register_bits(k)` is how many bits the `k`th read (counting
    /// register and memory reads) takes when it reads a register by the
    /// generic type (decision 3).
    pub fn evaluate(
        &self,
        bytes: &[u8],
        generic_register_bits: &dyn Fn(usize) -> u64,
    ) -> Result<LocDesc, ExtStop> {
        let ops = decode(bytes).map_err(|(at, m)| ExtStop {
            kind: ErrorKind::IllFormed,
            offset: at,
            end: at,
            request: 0,
            message: format!("malformed at byte {at}: {m}"),
        })?;
        let mut run = Run {
            m: self,
            stack: Vec::new(),
            requests: 0,
            at: (0, 0),
        };
        let mut pc = 0usize;
        let mut executed = 0u32;
        while pc < ops.len() {
            executed += 1;
            let (start, end, op) = &ops[pc];
            run.at = (*start, *end);
            if executed > 1 << 16 {
                return Err(run.stop(
                    ErrorKind::ResourceLimit,
                    "more than 2^16 operations executed",
                ));
            }
            if run.stack.len() > 1 << 16 {
                return Err(run.stop(ErrorKind::ResourceLimit, "more than 2^16 stack entries"));
            }
            pc += 1;
            let branch = |run: &Run, target: i16| -> Step<usize> {
                let to = (*end as i64) + i64::from(target);
                if to == bytes.len() as i64 {
                    return Ok(ops.len());
                }
                ops.iter()
                    .position(|(s, _, _)| *s as i64 == to)
                    .ok_or_else(|| {
                        run.ill(format!(
                            "a branch to byte {to}, not the start of an operation"
                        ))
                    })
            };
            match op {
                Op::Llvm(l) => self.llvm(&mut run, l)?,
                Op::Std(o) => match o {
                    Operation::Bra { target } => {
                        let v = run.pop_integral("DW_OP_bra's operand")?;
                        if v.is_nonzero_integral() {
                            pc = branch(&run, *target)?;
                        }
                    }
                    Operation::Skip { target } => pc = branch(&run, *target)?,
                    o => self.standard(&mut run, o, generic_register_bits)?,
                },
            }
        }
        run.at = (bytes.len(), bytes.len());
        // The result kind is a location description (A.2.5.4).
        match run.stack.pop() {
            None => Ok(LocDesc::undefined()),
            Some(Entry::Incomplete(parts)) => Ok(LocDesc::composite(parts)),
            Some(Entry::Loc(l)) => Ok(l),
            Some(Entry::Val(v)) => run.value_to_loc(v),
        }
    }

    fn llvm(&self, run: &mut Run, op: &LlvmOp) -> Step<()> {
        match op {
            LlvmOp::Nop => {}
            LlvmOp::FormAspaceAddress => {
                let aspace = run.pop_integral("the address space")?;
                let address = run.pop_integral("the address")?;
                let l = run.form_aspace_address(address, aspace)?;
                run.push_loc(l)?;
            }
            LlvmOp::PushLane => {
                let Some(lane) = self.ctx.lane else {
                    return Err(run.stop(
                        ErrorKind::NoLane,
                        "DW_OP_LLVM_push_lane: the context gives no lane",
                    ));
                };
                run.stack.push(Entry::Val(Value::Generic(lane).into()));
            }
            LlvmOp::Offset | LlvmOp::BitOffset => {
                let b = run.pop_integral("the displacement")?;
                let b = b.displacement().unwrap_or_default();
                let l = run.pop_loc()?;
                let delta =
                    if *op == LlvmOp::Offset && !diopter_faults::planted!("ext-offset-unscaled") {
                        b * 8
                    } else {
                        b
                    };
                let l = run.offset(&l, &delta)?;
                run.push_loc(l)?;
            }
            LlvmOp::OffsetUconst(b) => {
                let l = run.pop_loc()?;
                let l = run.offset(&l, &(BigInt::from(*b) * 8))?;
                run.push_loc(l)?;
            }
            LlvmOp::CallFrameEntryReg(r) => {
                let l = run.register_loc(*r)?;
                run.push_loc(l)?;
            }
            LlvmOp::Undefined => run.push_loc(LocDesc::undefined())?,
            LlvmOp::AspaceBregx(r, b) => {
                let aspace = run.pop_integral("the address space")?;
                let aspace = run.narrow(aspace, "the address space")?;
                let id = integral_u64(aspace).unwrap_or(u64::MAX);
                let space = self
                    .aspaces
                    .space(id, self.ctx.lane)
                    .map_err(|e| run.ill(e.to_string()))?;
                let size = self.ctx.datalayout.pointer_bits(space).min(64);
                let raw = run.read_register(*r, size)?.to_u64().unwrap_or(0);
                let a = raw.wrapping_add(*b as u64);
                let a = if size >= 64 {
                    a
                } else {
                    a & ((1u64 << size) - 1)
                };
                run.push_loc(LocDesc::memory(space, a))?;
            }
            LlvmOp::PieceEnd => match run.stack.pop() {
                Some(Entry::Incomplete(parts)) => run.push_loc(LocDesc::composite(parts))?,
                _ => {
                    return Err(
                        run.ill("DW_OP_LLVM_piece_end without an incomplete composite on top")
                    )
                }
            },
            LlvmOp::Extend(s, c) => {
                if *s == 0 || *c == 0 {
                    return Err(run.ill("DW_OP_LLVM_extend with a zero size or count"));
                }
                let pl = run.pop_loc()?;
                if pl.node_count().saturating_mul(*c) > MAX_LOC_NODES {
                    return Err(run.stop(
                        ErrorKind::ResourceLimit,
                        "DW_OP_LLVM_extend beyond the location size limit",
                    ));
                }
                let n = *c - u64::from(diopter_faults::planted!("ext-extend-one-short"));
                let parts = (0..n)
                    .map(|_| Part {
                        loc: pl.clone(),
                        bits: *s,
                    })
                    .collect();
                run.push_loc(LocDesc::composite(parts))?;
            }
            LlvmOp::SelectBitPiece(s, c) => {
                if *s == 0 || *c == 0 {
                    return Err(run.ill("DW_OP_LLVM_select_bit_piece with a zero size or count"));
                }
                let m = run.pop_integral("the mask")?;
                let l1 = run.pop_loc()?;
                let l0 = run.pop_loc()?;
                let mask = m.bits();
                if mask.width() < *c {
                    return Err(run.ill(format!(
                        "DW_OP_LLVM_select_bit_piece: a {}-bit mask for {c} parts",
                        mask.width()
                    )));
                }
                let nodes = l0.node_count().max(l1.node_count()).saturating_mul(*c);
                if nodes > MAX_LOC_NODES {
                    return Err(run.stop(
                        ErrorKind::ResourceLimit,
                        "DW_OP_LLVM_select_bit_piece beyond the location size limit",
                    ));
                }
                let mut parts = Vec::new();
                for n in 0..*c {
                    let from = if mask.bit(n) != diopter_faults::planted!("ext-select-swapped") {
                        &l1
                    } else {
                        &l0
                    };
                    let delta = BigInt::from(n) * BigInt::from(*s);
                    parts.push(Part {
                        loc: run.offset(from, &delta)?,
                        bits: *s,
                    });
                }
                run.push_loc(LocDesc::composite(parts))?;
            }
        }
        Ok(())
    }

    fn standard(
        &self,
        run: &mut Run,
        op: &Operation<EndianSlice<'_, LittleEndian>>,
        generic_register_bits: &dyn Fn(usize) -> u64,
    ) -> Step<()> {
        match op {
            Operation::Deref {
                base_type,
                size,
                space,
            } => {
                let vt = run.base_type(*base_type)?;
                let loc = if *space {
                    let address = run.pop_integral("DW_OP_xderef's address")?;
                    let aspace = run.pop_integral("DW_OP_xderef's address space")?;
                    run.form_aspace_address(address, aspace)?
                } else {
                    run.pop_loc()?
                };
                let bits = match vt {
                    // DW_OP_deref_size: min(S·8, 64) bits, zero-extended.
                    ExtType::Narrow(ValueType::Generic) => (u64::from(*size) * 8).min(64),
                    // DW_OP_deref_type: the type's size (a wide type's 8n bits).
                    t => t.bits(),
                };
                let v = run.deref(&loc, vt, bits)?;
                run.stack.push(Entry::Val(v));
            }
            Operation::Drop => {
                run.pop()?;
            }
            Operation::Pick { index } => {
                let i = usize::from(*index);
                let n = run.stack.len();
                if i >= n {
                    return Err(run.ill(format!("DW_OP_pick {i} of a stack of {n}")));
                }
                let e = run.stack[n - 1 - i].clone();
                if let Entry::Incomplete(_) = e {
                    return Err(run.ill("copying an incomplete composite"));
                }
                if let Entry::Loc(l) = e {
                    run.push_loc(l)?;
                } else {
                    run.stack.push(e);
                }
            }
            Operation::Swap => {
                let a = run.pop()?;
                let b = run.pop()?;
                run.stack.push(a);
                run.stack.push(b);
            }
            Operation::Rot => {
                let a = run.pop()?;
                let b = run.pop()?;
                let c = run.pop()?;
                run.stack.push(a);
                run.stack.push(c);
                run.stack.push(b);
            }
            Operation::Abs => run.unary(ExtValue::abs)?,
            Operation::Neg => run.unary(ExtValue::negate)?,
            Operation::Not => run.unary(ExtValue::complement)?,
            Operation::And => run.binary(BinOp::And)?,
            Operation::Or => run.binary(BinOp::Or)?,
            Operation::Xor => run.binary(BinOp::Xor)?,
            Operation::Div => run.binary(BinOp::Div)?,
            Operation::Mod => run.binary(BinOp::Mod)?,
            Operation::Minus => run.binary(BinOp::Minus)?,
            Operation::Mul => run.binary(BinOp::Mul)?,
            Operation::Plus => run.binary(BinOp::Plus)?,
            Operation::Shl => run.binary(BinOp::Shl)?,
            Operation::Shr => run.binary(BinOp::Shr)?,
            Operation::Shra => run.binary(BinOp::Shra)?,
            Operation::Eq => run.binary(BinOp::Eq)?,
            Operation::Ge => run.binary(BinOp::Ge)?,
            Operation::Gt => run.binary(BinOp::Gt)?,
            Operation::Le => run.binary(BinOp::Le)?,
            Operation::Lt => run.binary(BinOp::Lt)?,
            Operation::Ne => run.binary(BinOp::Ne)?,
            Operation::PlusConstant { value } => {
                // gimli adds a generic value: a mismatch for typed values,
                // wide ones included.
                let c = ExtValue::Narrow(Value::Generic(*value));
                run.unary(move |a| binary(BinOp::Plus, a, c.clone()))?
            }
            Operation::UnsignedConstant { value } => {
                run.stack.push(Entry::Val(Value::Generic(*value).into()))
            }
            Operation::SignedConstant { value } => run
                .stack
                .push(Entry::Val(Value::Generic(*value as u64).into())),
            Operation::TypedLiteral { base_type, value } => {
                let ty = run.base_type(*base_type)?;
                let bytes = value.slice();
                if bytes.len() as u64 * 8 != ty.bits() {
                    return Err(run.ill("DW_OP_const_type: the byte count does not match the type"));
                }
                let raw = Bits::from_le_bytes(ty.bits(), bytes);
                run.stack.push(Entry::Val(ExtValue::from_bits(ty, &raw)));
            }
            Operation::Convert { base_type } => {
                let ty = run.base_type(*base_type)?;
                run.unary(|a| a.convert(ty))?
            }
            Operation::Reinterpret { base_type } => {
                let ty = run.base_type(*base_type)?;
                run.unary(|a| a.reinterpret(ty))?
            }
            Operation::Register { register } => {
                let l = run.register_loc(u64::from(register.0))?;
                run.push_loc(l)?;
            }
            Operation::RegisterOffset {
                register,
                offset,
                base_type,
            } => {
                let r = u64::from(register.0);
                if base_type.0 == 0 {
                    // DW_OP_breg*/DW_OP_bregx: a memory location in the
                    // default address space at register + B.
                    let bits = generic_register_bits(run.requests);
                    let raw = run.read_whole_register(r, bits)?.to_u64().unwrap_or(0);
                    let a = raw.wrapping_add(*offset as u64);
                    run.push_loc(LocDesc::memory(self.aspaces.default_space(), a))?;
                } else {
                    // DW_OP_regval_type ≡ DW_OP_regx R; DW_OP_deref_type T.
                    let ty = run.base_type(*base_type)?;
                    let raw = run.read_register(r, ty.bits())?;
                    run.stack.push(Entry::Val(ExtValue::from_bits(ty, &raw)));
                }
            }
            Operation::Nop => {}
            Operation::Piece {
                size_in_bits,
                bit_offset,
            } => run.piece(*size_in_bits, bit_offset.unwrap_or(0))?,
            Operation::ImplicitValue { data } => {
                let b = data.slice();
                run.push_loc(LocDesc::implicit(Bits::from_le_bytes(
                    b.len() as u64 * 8,
                    b,
                )))?;
            }
            Operation::StackValue => {
                let v = run.pop_value()?;
                run.push_loc(LocDesc::implicit(v.bits()))?;
            }
            Operation::ImplicitPointer { value, byte_offset } => {
                let die = value.0 as u64;
                let k = die
                    .checked_sub(u64::from(IMPLICIT_DIE_BASE))
                    .filter(|d| d % 0x10 == 0)
                    .map(|d| (d / 0x10) as usize);
                let Some(t) = k.and_then(|k| self.implicit_targets.get(k)) else {
                    return Err(run.ill(format!("an implicit pointer to an unknown DIE {die:#x}")));
                };
                if *byte_offset != 0 {
                    return Err(run.ill("an implicit pointer with a byte offset is not modelled"));
                }
                let l = LocDesc::implicit_address(
                    t.loc.clone(),
                    t.ty.clone(),
                    self.pointer.0.clone(),
                    self.pointer.1,
                );
                run.push_loc(l)?;
            }
            Operation::Address { address } => {
                let a = address.wrapping_add(self.address_relocation);
                run.push_loc(LocDesc::memory(self.aspaces.default_space(), a))?;
            }
            Operation::AddressIndex { index } | Operation::ConstantIndex { index } => {
                let Some(a) = self.debug_addr.get(index.0) else {
                    return Err(run.ill(format!(".debug_addr has no entry {}", index.0)));
                };
                if matches!(op, Operation::AddressIndex { .. }) {
                    run.push_loc(LocDesc::memory(self.aspaces.default_space(), *a))?;
                } else {
                    run.stack.push(Entry::Val(Value::Generic(*a).into()));
                }
            }
            Operation::Bra { .. } | Operation::Skip { .. } => {
                return Err(run.ill("a branch outside the branch handler"))
            }
            Operation::Call {
                offset: gimli::DieReference::UnitRef(UnitOffset(die)),
            } if *die as u64 >= u64::from(LOCLIST_DIE_BASE) => {
                // Decision 12: a location-list DIE's location, all entries.
                let rel = *die as u64 - u64::from(LOCLIST_DIE_BASE);
                let k = rel.is_multiple_of(0x10).then_some(rel / 0x10);
                let Some(l) = k.and_then(|k| self.location_lists.get(k as usize)) else {
                    return Err(run.ill(format!("a call of an unknown DIE {die:#x}")));
                };
                run.push_loc(l.clone())?;
            }
            other => {
                return Err(run.ill(format!(
                    "{other:?} needs a context element diopter's contexts do not have"
                )))
            }
        }
        run.check_top()
    }
}

/// Evaluates a lowered expression with this evaluator in `ctx`, with the
/// same error attribution as the gimli oracle ([`super::evaluate`]): a read
/// error belongs to the DIOp operation of its read site, a division by zero
/// to the DIOp operation of its `DW_OP_div`/`DW_OP_mod`.
pub fn evaluate_lowered(l: &super::Lowered, ctx: &Context) -> diopter_semantics::interp::Outcome {
    use diopter_semantics::interp::{EvalError, Located};
    let machine = ExtMachine {
        ctx,
        registers: &l.registers,
        extra_registers: &[],
        implicit_targets: &l.implicit_targets,
        location_lists: &l.location_lists,
        aspaces: AspaceMap::Identity,
        debug_addr: &[],
        address_relocation: 0,
        pointer: (l.ty.clone(), l.bits),
    };
    let site_bits = |k: usize| l.read_sites.get(k).map_or(64, |s| s.bits);
    match machine.evaluate(&l.bytes, &site_bits) {
        Ok(loc) => Ok(Located {
            loc,
            ty: l.ty.clone(),
            bits: l.bits,
            fragment: l.fragment,
        }),
        Err(stop) => {
            let op_index = match stop.kind {
                ErrorKind::DivisionByZero => l
                    .div_sites
                    .iter()
                    .find(|(end, _)| *end == stop.end)
                    .map_or(usize::MAX, |(_, i)| *i),
                ErrorKind::ReadUndefined
                | ErrorKind::OutOfBounds
                | ErrorKind::ImplicitAddressRead
                | ErrorKind::Inconsistent => l
                    .read_sites
                    .get(stop.request)
                    .map_or(usize::MAX, |s| s.op_index),
                _ => usize::MAX,
            };
            Err(EvalError {
                kind: stop.kind,
                op_index,
                message: format!("DWARF extension evaluator: {}", stop.message),
            })
        }
    }
}

/// The decisions of the module doc, for the errata report: (title, what
/// this evaluator does, the test in `oracles/harness/tests/dwarf_ext.rs` that pins
/// it).
pub const DECISIONS: &[(&str, &str, &str)] = &[
    (
        "Offsets are signed",
        "`DW_OP_LLVM_offset`/`DW_OP_LLVM_bit_offset` read the displacement as a two's-complement integer of its type (generic: 64 bits); the document gives the displacement no signedness and the generic type has \"unspecified signedness\"",
        "offsets_are_checked_against_the_storage",
    ),
    (
        "Offset bounds",
        "the updated bit offset must be >= 0 and < the storage size (an offset onto the end is an error, as the sentence says); undefined locations are left unchanged",
        "offsets_are_checked_against_the_storage",
    ),
    (
        "Generic register reads",
        "`DW_OP_breg*` read \"an unsigned integral base type of size S\" (the address size); diopter's registers are entities of their own width, so a generic read fails as a read of the width the caller gives (the lowering's pointer width) does, and yields all of the entity's bits that fit in S, zero-extended, as a machine register is read whole (and as the gimli oracle answers gimli)",
        "agrees_with_gimli_on_4000_generated_lowerings, a_pointer_narrower_than_its_register_is_masked",
    ),
    (
        "form_aspace_address truncates",
        "the address is truncated to the address space's address size (the datalayout's pointer width); an unknown address space is an error",
        "form_aspace_address_maps_identifiers",
    ),
    (
        "No call frame information",
        "contexts are the top frame and carry no CFI: `DW_OP_LLVM_call_frame_entry_reg R` uses the \"same value\" rule and pushes R's register location",
        "other_extension_operations",
    ),
    (
        "Missing context elements",
        "an operation needing what diopter's contexts lack (object address, DW_OP_call*, frame base, CFA, TLS, entry values, the unswizzled private_wave view, private_lane<n> of another lane, a lane for push_lane) is an evaluation error, never a guess",
        "other_extension_operations",
    ),
    (
        "Implicit pointer values",
        "reading the bits of a DW_OP_implicit_pointer location is an error (ImplicitAddressRead); the document's implicit pointer value is not modelled",
        "agrees_with_gimli_on_4000_generated_lowerings",
    ),
    (
        "Decoding",
        "the whole block is decoded before evaluation (a malformed or unknown operation anywhere is an error); a branch must land on an operation's start or one past the end; aspace_implicit_pointer, push_iteration, overlay and bit_overlay have no encoding (TBA) and cannot occur in bytes",
        "malformed_and_unknown_operations_are_errors",
    ),
    (
        "Implicit conversions",
        "a generic value converts to a default-address-space memory location and back (byte address); a typed value left as the result is an error (gimli reads it as an address)",
        "regx_pushes_a_location_that_deref_reads",
    ),
    (
        "Limits",
        "at most 2^16 operations executed and MAX_LOC_NODES nodes per location description (extend, select, dup of composites); beyond is ResourceLimit",
        "random_operation_sequences_never_panic",
    ),
    (
        "bit_piece's offset is not range-checked",
        "the document defines DW_OP_bit_piece's part \"as if DW_OP_constu B; DW_OP_LLVM_bit_offset\" were applied (an error past the storage) and calls parts outside their storage ill-formed, but DWARF 5 and gimli accept `DW_OP_implicit_value 4 ...; DW_OP_bit_piece 32 32` and fail only on reading it; backwards compatibility is the document's first principle, so the offset is added unchecked (the reference agrees: an offset past the end fails on read)",
        "agrees_with_gimli_on_random_lowerings",
    ),
    (
        "DW_OP_call* of a location list",
        "`DW_OP_call4` of one of the lowering's location-list DIEs (an artificial variable whose location list has one entry per place, every entry matching the current program location) pushes a location description of all those single locations, as the document's DW_OP_call* rule for loclist attributes says; other calls are errors",
        "an_input_in_two_places_is_a_call_of_a_location_list_die (dwarf_locations.rs)",
    ),
    (
        "Wide integer base types",
        "DWARF 5 bounds no base type's size and gimli's `Value` stops at 64 bits, so values of the wide base types (signed/unsigned integers of 9 to 255 bytes) are computed here with gimli's conventions for its typed integers: operands of one type (else TypeMismatch, so plus_uconst of a wide value is an error as of an I64), results modulo 2^(8n), div truncating, mod with the dividend's sign, comparisons pushing a generic 0/1, neg of unsigned and shr of signed/shra of unsigned refused, counts of 8n or more giving 0 or the sign fill; DW_OP_convert extends the source's mathematical value into a wide type (signed sign-extends, generic zero-extends) and keeps the low 64 bits out of one; floats to or from wide types and wide addresses are errors; const_type/regval_type/deref_type take all 8n bits, stack_value gives 8n bits, offsets take the signed (IW) or unsigned (UW) value",
        "wide_values_compute_modulo_2_to_the_n (ext_wide.rs)",
    ),
    (
        "Half, bfloat and binary128 base types",
        "gimli's `Value` has only F32 and F64, so values of the 2-byte `half` (IEEE binary16), the 2-byte `__bf16` (bfloat16: DWARF has no encoding telling it from half, so the base type's name does, as GDB reads it) and the 16-byte `__float128` (IEEE binary128) base types are computed with rustc_apfloat (LLVM's APFloat, called directly, not through the reference's code) with gimli's conventions for F32/F64: operands of one kind (else TypeMismatch); IEEE arithmetic rounded to nearest, ties to even, NaN payloads APFloat's; comparisons push a generic 0/1, a NaN making all false but ne; neg flips the sign bit; abs changes only values comparing below zero (gimli's `if value < 0. { -value }`: abs(-0.0) and a negative NaN are unchanged); mod, and, or, xor, not and shifts are IntegralTypeRequired; convert between the soft kinds and float/double rounds to nearest even, a narrow integer converts by gimli's unsigned 64-bit to_u64 reading (signed types sign-extended), wide integer to soft float and soft float to integer are errors; reinterpret needs equal sizes (half/bfloat with each other and I16/U16, binary128 with 16-byte wide integers); const_type takes 2 or 16 bytes, regval_type/deref_type/xderef_type read 16 or 128 bits, stack_value gives those bits",
        "soft_floats_compute_with_ieee_rounding (ext_soft.rs)",
    ),
    (
        "The x87 80-bit base type",
        "the 10-byte `__float80` base type (LLVM's x86_fp80, explicit integer bit; 10 bytes are the value's own 80 bits, LLVM's bitsizeof(x86_fp80), where a debugger's `long double` DIE often says 16 with 6 of padding) is a fourth soft kind of the half/bfloat/binary128 decision, computed with rustc_apfloat's X87DoubleExtended under all of its rules; reinterpret pairs it with the 10-byte wide integers, const_type takes 10 bytes, regval_type/deref_type/xderef_type read 80 bits, stack_value gives those 80. Encodings that are no IEEE value are APFloat's, which agrees with the reference's x86_fp80 decisions: the pseudo-infinity, pseudo-NaNs and unnormals are NaNs (unordered; abs leaves them); a pseudo-denormal is the normal 2^-16382 · 1.f and a result written back from it has exponent 1; a NaN converted to x86_fp80 (from x86_fp80 too) has the integer and quiet bits set; arithmetic on a pseudo-NaN, pseudo-infinity or unnormal gives a NaN with the integer bit still clear (APFloat sets the quiet bit alone; an unnormal's exponent becomes all ones). A value holds the encoding it was read with (constant, register, memory, reinterpret): reading, moving, neg (bit 79 flipped) and abs never canonicalize it; arithmetic and conversion results are APFloat's encodings, which may",
        "x87_floats_compute_in_80_bits (ext_soft.rs)",
    ),
    (
        "A shift's operands have one type",
        "DW_OP_shl/shr/shra of two values of different types (a typed value by a generic count, or by another base type) is an error, as DWARF 5 §2.5.1.4 says of every operation with two operands and as GDB evaluates it; gimli takes a count of any integral type. Checked after gimli's own checks, so a float or negative count keeps gimli's error",
        "shifts (wide.rs unit test), wide_values_compute_modulo_2_to_the_n (ext_wide.rs)",
    ),
    (
        "Older unprefixed encodings",
        "rows from the DIExpr era print `DW_OP_LLVM_form_aspace_address` and `DW_OP_LLVM_offset` without the DW_OP_LLVM_user prefix; the document gives no opcode for them, so diopter reads the name and encodes it with DW_OP_LLVM_user",
        "dwarfdump_text_parses_with_amd_extensions (dwarf_amd.rs)",
    ),
];
