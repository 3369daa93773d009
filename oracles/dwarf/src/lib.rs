//! DWARF lowering, and gimli as an independent oracle.
//!
//! Debug expressions end up as DWARF. [`lower`] translates the lowerable
//! subset of DIOp expressions into DWARF 5 expression bytes, given the
//! locations the expression's inputs have in an evaluation context;
//! [`evaluate`] evaluates those bytes with `gimli::read::Evaluation` (written by
//! other people for other reasons) in the same context and maps the pieces
//! back to a diopter location, so that the differential driver compares it
//! with the reference interpreter (the `Dwarf` oracle of
//! `diopter_harness::adapters`: this crate knows nothing of the framework). Everything that does not lower gets a
//! precise [`NotLowerable`] reason and is counted as such, never as
//! agreement.
//!
//! # Mapping decisions
//!
//! **Inputs.** The lowering takes each input's (argument's, referrer's,
//! object's) location from the context, as LLVM bakes an operand's location
//! into the DWARF it emits:
//!
//! * an entity → a register: `DW_OP_regx N` as a location,
//!   `DW_OP_regval_type N` (or `DW_OP_bregx N 0` for an address) as a value.
//!   Registers are numbered per expression in order of first use
//!   ([`Lowered::registers`]); reading `n` bits of a register yields the
//!   low `n` bits of the entity (an entity narrower than `n` is
//!   `OutOfBounds`, a missing one `ReadUndefined`, as in the reference); a
//!   generic read (`DW_OP_bregx`) takes the width its [`ReadSite`] records:
//!   a pointer's, or for a value at bit offset `b` of width `w`, `b + w`;
//! * memory of address space `N` at byte `A` → the constant address `A`
//!   (`DW_OP_addr A` as a location, which only address space 0 may be);
//! * an implicit value → a typed constant (`DW_OP_const_type`) as a value,
//!   `DW_OP_implicit_value` as a location;
//! * undefined (and a `poison` argument) → an empty piece as a location;
//!   reading it reads register [`lower::UNDEF_REG`], a register with no value
//!   in the frame (`DW_CFA_undefined`), which fails as `ReadUndefined`;
//! * an implicit address (`addrof(...)`) → `DW_OP_implicit_pointer` to a DIE
//!   standing for the referenced object ([`Lowered::implicit_targets`]);
//!   reading its bits reads register [`lower::IMPLICIT_POINTER_REG`], which
//!   fails as `ImplicitAddressRead`;
//! * a composite → `DW_OP_piece`s (`DW_OP_bit_piece` for parts that are not
//!   whole bytes or start inside a register or byte);
//! * several single locations → not lowerable in DWARF 5 (one expression
//!   describes one location; location lists choose by PC, not "all of");
//!   with AMD's extensions, `DW_OP_call4` of an artificial DIE whose
//!   location list has one entry per place, all matching the current
//!   program location (the document's `DW_OP_call*` pushes such a list's
//!   location description, every single location of it).
//!
//! **Values.** Typed DWARF 5 arithmetic with base types (`DW_OP_const_type`,
//! `DW_OP_convert`, `DW_OP_reinterpret`, `DW_OP_deref_type`,
//! `DW_OP_regval_type`): `iN` for N = 8, 16, 32, 64 as *signed* base types
//! (so that `DW_OP_div`/`DW_OP_mod` are signed, as DESIGN.md's), pointers as
//! unsigned base types of their width, `float` and `double`. Shift amounts
//! are reinterpreted as unsigned (DESIGN.md); `DIOpLShr` shifts an unsigned
//! reinterpretation. Addresses are generic (8-byte) values.
//!
//! **Integers of other widths up to 64 bits** (i1 … i63 but i8, i16, i32)
//! are emulated as a backend legalises an illegal integer type: the value is
//! kept *sign-extended* from its N bits in the 64-bit signed base type, and
//! every operation whose result may leave the N-bit range is followed by
//! `DW_OP_shl 64-N; DW_OP_shra 64-N`. Sign extension rather than zero
//! extension because the project's integers are signed base types: a
//! sign-extended iN is numerically its signed value, so `DW_OP_div`,
//! `DW_OP_mod`, `DW_OP_shra`, `DIOpSExt` and the signed offset of
//! `DIOpBitOffset`/`DIOpByteOffset` (DESIGN.md) are the 64-bit operations as
//! they are, and `DW_OP_and`/`or`/`xor` and `DW_OP_mod` keep the invariant
//! without a fix-up; only add, sub, mul, div (`INT_MIN / -1`), shl and the
//! zero-extending operations need one. Where the unsigned reading is meant
//! (a shift amount, the value `DIOpLShr` shifts, `DIOpZExt`, a widening
//! `DIOpConvert`) the N bits are zero-extended by `DW_OP_and` with a typed
//! mask; an amount of N or more then shifts every bit out, as the
//! reference's shifts do (gimli's 64-bit shifts give 0 or the sign fill from
//! 64 on). Reads: a register by `DW_OP_bregx R 0` as a generic value of the
//! read site's width (see inputs), memory by `DW_OP_deref_size`/
//! `DW_OP_xderef_size` of the ⌈N/8⌉ bytes holding the value (each holds one
//! of its bits, so the read fails where the reference's does), an implicit
//! value as a sign-extended `DW_OP_const_type`; then the bits shifted to the
//! top and arithmetically back down. The same reads serve an integer (or
//! pointer, or float) of any base type at a bit offset inside a register or
//! a byte, as long as offset + width is at most 64 bits. A narrow result is
//! `DW_OP_stack_value; DW_OP_bit_piece N 0`: exactly its N bits, the low
//! ones of the container; as a location mid-expression (AMD's extensions)
//! it is the composite of those N bits and a long empty implicit value, so
//! that reads past the value fail as out of bounds and writes fail as to
//! implicit storage, as the spec's implicit location of N bits does.
//!
//! **Integers wider than 64 bits** (AMD's extensions only): computed in the
//! signed integer base type of their ⌈N/8⌉ bytes (sign-extended there when
//! N is not whole bytes, the same emulation as above in a wider container),
//! which the extension evaluator computes with (its decision 13: DWARF 5
//! puts no bound on a base type's size; gimli's `Value`, and so the DWARF 5
//! form here, stops at 64 bits). At most 255 bytes: `DW_OP_const_type`
//! gives its constant's length and `DW_OP_deref_type` its size in one
//! byte. A wide value not on whole bytes of a register or a location is
//! read through a composite of its bits and zero padding; one at a bit
//! offset into memory as the whole bytes holding it, shifted down.
//!
//! **Integer vectors** are held as their bits in an unsigned base type of
//! their size (a wide one past 64 bits, with the extensions) and computed
//! lane by lane, lane 0 first as the reference does: each lane shifted out
//! into its element's container, the element's operation, the result's
//! bits shifted back and OR-ed in. **Signed integers convert to floats**
//! around gimli's `DW_OP_convert`, which reads every integer as an unsigned
//! 64-bit number: a negative one is negated, converted and negated back.
//!
//! **half, bfloat, fp128 and x86_fp80** are computed, with AMD's
//! extensions only, in the extension evaluator's float base types of 2, 16
//! and 10 bytes (`half`, `__bf16`, `__float128`, `__float80`: its
//! decisions 14 and 15; gimli's `Value` has float and double only).
//! Without the extensions half and bfloat are moved as their bits, fp128
//! and x86_fp80 not at all.
//!
//! Float vectors, arrays and structs (and half and bfloat in DWARF 5) are
//! held as their bits in an unsigned base type of their size: they
//! may be read, reinterpreted and be the result, but no operation computes
//! with them (arithmetic and `DIOpConvert` on them are not lowerable: a
//! float lane computed by DWARF arithmetic would expose a NaN payload DWARF
//! leaves unspecified).
//!
//! **Address spaces.** A read from address space `N ≠ 0` is
//! `DW_OP_xderef_type`/`DW_OP_xderef_size` with `N` as the address-space
//! identifier; a memory *location* in `N ≠ 0` is not lowerable (DWARF 5
//! locations have none; AMD's `DW_OP_LLVM_form_aspace_address`). gimli's
//! `Location::Address` is the context's address space 0.
//!
//! **Addresses wrap in DWARF, offsets do not in the spec.** A memory location
//! is lowered only when the interval of addresses it can take (tracked
//! through every offset) cannot wrap modulo 2^64 in a way that changes its
//! meaning: no address reaches 2^64, and a negative address wraps to one
//! still outside its (at most 2^64-byte) address space, so that both are out
//! of bounds. Offsets of a 64-bit address space's computed addresses are
//! therefore lowerable only when they are constants.
//!
//! **Implicit pointers.** As the spec's note says, `DIOpAddrOf` of an input
//! (`DIOpArg`, `DIOpReferrer`, `DIOpTypeObject`, `DIOpConstant`) maps onto
//! `DW_OP_implicit_pointer` to that input's DIE; `DIOpDeref` of it is
//! resolved while lowering. `DIOpAddrOf` of a computed location that is
//! known when lowering (a register or implicit value at an offset, a
//! composite of such parts, ...) does the same with a DIE of its own, an
//! artificial variable whose location is that location (how LLVM gives an
//! implicit pointer an object); of a location computed at run time it is
//! lowerable only where `DIOpDeref` takes it back (the checker lets nothing
//! else consume it), since the DIE's location would be the computation.
//!
//! **Locations on the stack (AMD's extensions).** With the extensions a
//! location description can sit on the stack mid-expression: a composite
//! read as a value is formed with `DW_OP_LLVM_piece_end` and read with
//! `DW_OP_deref_type`; a constant offset into a computed value is
//! `DW_OP_stack_value` then `DW_OP_LLVM_offset_uconst`/`bit_offset`. AMD's
//! offset operations fail at once when the location leaves its storage,
//! where the spec fails only when it is read, so a constant offset is
//! lowered only where the storage's size is known when lowering and the
//! offset stays inside it. An offset computed at run time into anything
//! but memory (AMD's `DW_OP_regx V, DW_OP_LLVM_push_lane, DW_OP_lit4,
//! DW_OP_mul, DW_OP_LLVM_offset` pattern) is guarded: `DW_OP_bra` takes
//! `DW_OP_LLVM_offset` when the result stays inside the storage, and
//! otherwise a location that fails reads and writes as the spec's does (the
//! location moved past the storage's end by `DW_OP_bit_piece`'s unchecked
//! offset, or an empty implicit value for implicit storage); such a
//! location is not offset again. A register the context names without a
//! value (`diopter lower`'s register context) is as wide as the input it
//! holds. A composite cannot be formed while another one's pieces are
//! being added (every piece joins the open composite). `DIOpSelect` is
//! `DW_OP_LLVM_select_bit_piece` of its two vectors' locations (a mask
//! computed at run time is rotated above them), lowered where every lane's
//! offset stays inside both storages.
//!
//! **Results back.** gimli's pieces map one to one onto diopter storage:
//! `Register` → the entity at bit offset 0, `Address` → memory of address
//! space 0, `Value` → an implicit value of the value's width, `Bytes` → an
//! implicit value of those bytes, `ImplicitPointer` → an implicit address of
//! the DIE's object, `Empty` → undefined; a piece's `bit_offset` is added to
//! the location's offset; one piece without a size is the location itself,
//! several pieces (or one with a size) a composite of parts of their sizes.
//! DWARF's model is coarser than the spec's here: a value and an implicit
//! location are one thing, and a piece loses which single location the
//! spec's location was inside. So the DWARF oracle's location is compared
//! by DESIGN.md's equivalence, not structurally: same type, same bits read,
//! same effect of a write (`diopter_diff::Oracle::exact_locations`).
//!
//! **Errors.** The reference's error classes map as follows: a read of
//! undefined storage, an out-of-bounds read and a read of an implicit
//! address are the evaluator's answers to gimli's memory/register requests,
//! attributed to the DIOp operation whose read it was ([`ReadSite`]); gimli's
//! `DivisionByZero` is `DivisionByZero`, attributed to the first
//! `DW_OP_div`/`DW_OP_mod` whose prefix of the bytes fails; any other gimli
//! error means the lowering wrote bytes it should not have and is reported
//! as `IllFormed` (so it never agrees with anything). Errors that depend on
//! what DWARF cannot say (no argument in the context, no lane, float→int
//! out of range) make the case not lowerable.
//!
//! **Floats.** gimli computes floats with the host's IEEE arithmetic, the
//! reference with rustc_apfloat: the same correctly rounded results, but
//! NaN payloads are unspecified by IEEE-754 (a "should") and DWARF. A float
//! computed by DWARF arithmetic may therefore only be the whole result (then
//! `diopter_harness::adapters::dwarf::compare` counts two NaNs as the same NaN, reported apart as
//! `NanPayload`) or feed more float arithmetic; its bits reinterpreted, or
//! as a composite part, are not lowerable. `DIOpConvert` int→float is not
//! lowerable: gimli 0.31's `DW_OP_convert` reads a signed integer as
//! unsigned (`Value::convert` goes through `to_u64`, so `i32 -1` becomes
//! 1.8e19) — a gimli bug, reported; float→int is not lowerable because
//! `DW_OP_convert` has no out-of-range error.
//!
//! **AMD's extensions.** [`lower_ext`] lowers as [`lower`] does and, where
//! DWARF 5 has no operation, uses AMD's: a memory location outside address
//! space 0 is `DW_OP_LLVM_form_aspace_address` (the identifier is the LLVM
//! address space, diopter's convention), `DIOpPushLane` is
//! `DW_OP_LLVM_push_lane` and `DW_OP_convert`. Those bytes are evaluated by
//! [`ext`], the evaluator written from AMD's extension document (the
//! `dwarf-ext` oracle), never by gimli.
//!
//! **Not lowered yet.** `DIOpExtend`, `DIOpSelect` (per-lane composites),
//! `DIOpPushLane` in DWARF 5 (needs AMD's `DW_OP_LLVM_push_lane`), a value read from a
//! composite, a runtime bit offset, offsets into registers or values that
//! are not constants. `DIOpFragment` is metadata: it is passed through to the
//! result and is not part of the bytes (a variable's fragments are pieces of
//! the variable's location list entry, outside one expression).

pub mod amd;
pub mod amd_ext;
pub mod amd_text;
pub mod coverage;
pub mod eval;
pub mod ext;
pub mod lower;
pub mod ops;
pub mod softfloat;
pub mod wide;

pub use lower::{lower, lower_ext, Lowered, NotLowerable, ReadSite};

use diopter_semantics::context::Context;
use diopter_semantics::interp::{ErrorKind, EvalError, Located, Outcome};
use eval::{Machine, Stop};

/// Evaluates a lowered expression with gimli in `ctx`.
pub fn evaluate(l: &Lowered, ctx: &Context) -> Outcome {
    let machine = Machine {
        ctx,
        registers: &l.registers,
        implicit_targets: &l.implicit_targets,
        extra_registers: &[],
    };
    let site_bits = |k: usize| l.read_sites.get(k).map_or(64, |s| s.bits);
    let end = usize::MAX;
    let err = |kind, op_index, message| EvalError {
        kind,
        op_index,
        message,
    };
    match machine.evaluate(&l.bytes, &site_bits) {
        Ok(pieces) => {
            let loc = machine
                .location(&pieces, &l.ty, l.bits)
                .map_err(|m| err(ErrorKind::IllFormed, end, format!("gimli's result: {m}")))?;
            Ok(Located {
                loc,
                ty: l.ty.clone(),
                bits: l.bits,
                fragment: l.fragment,
            })
        }
        Err(Stop::Read {
            kind,
            request,
            message,
        }) => {
            let op_index = l.read_sites.get(request).map_or(end, |s| s.op_index);
            Err(err(kind, op_index, message))
        }
        Err(Stop::Gimli(gimli::read::Error::DivisionByZero)) => {
            // The first division whose prefix of the bytes fails is the one.
            for (stop, op_index) in &l.div_sites {
                let prefix = &l.bytes[..*stop];
                if let Err(Stop::Gimli(gimli::read::Error::DivisionByZero)) =
                    machine.evaluate(prefix, &site_bits)
                {
                    return Err(err(
                        ErrorKind::DivisionByZero,
                        *op_index,
                        "DW_OP_div/DW_OP_mod by zero".into(),
                    ));
                }
            }
            Err(err(
                ErrorKind::DivisionByZero,
                end,
                "DW_OP_div/DW_OP_mod by zero".into(),
            ))
        }
        Err(Stop::Gimli(e)) => Err(err(
            ErrorKind::IllFormed,
            end,
            format!("gimli rejects the lowered bytes: {e:?}"),
        )),
    }
}

/// A lowering: [`lower`] (DWARF 5) or [`lower_ext`] (with AMD's extensions).
pub type LowerFn = fn(
    &diopter_semantics::ast::Bare,
    &diopter_semantics::types::TypeTable,
    &Context,
) -> Result<Lowered, NotLowerable>;
