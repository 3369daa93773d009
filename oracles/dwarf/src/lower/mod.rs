//! Lowering a DIOp expression, with the locations its inputs have in a
//! context, to a DWARF 5 expression (see the module doc of [`super`] for the
//! mapping decisions).
//!
//! The DIOp stack holds *locations*; DWARF's stack holds *values* and a
//! location is only formed at the end (or before a `DW_OP_piece`). So the
//! lowering first rebuilds the expression's tree (every entry with the
//! entries it was made from, in push order) and then walks it in that order,
//! giving every entry a [`Form`]: where its location will be when DWARF
//! needs it. Most forms are static (a register, a known address, a constant,
//! undefined, an implicit pointer); two occupy a slot of the DWARF stack (a
//! computed address, a computed value). Bits are read only where the
//! reference reads them (in the operation that consumes the entry, the top
//! input first), so that reads fail in the same order and at the same
//! operation as in the reference; every read is recorded as a
//! [`ReadSite`] so that the evaluator can say which operation a failed read
//! belongs to.
//!
//! This file holds the forms, the driver (`lower_with`, the tree,
//! `Lowerer::lower_node`, one operation at a time) and the type helpers;
//! the lowerer's other methods are split by concern: where the inputs
//! are (`bindings`), reading bits and addresses (`read`), offsets and
//! binary operations (`arith`), conversions (`convert`), locations formed
//! on the DWARF stack (`locations`), and the final location and its
//! pieces (`pieces`).

mod arith;
mod bindings;
mod convert;
mod locations;
mod pieces;
mod read;

use super::ops::{encode, BaseType, DwOp, LlvmDwOp, WIDE_MAX_BYTES};
use diopter_semantics::ast::{Bare, Dialect, Op};
use diopter_semantics::check::{self, check_bare};
use diopter_semantics::context::Context;
use diopter_semantics::location::{literal_location, LocDesc, Part, Single, Storage};
use diopter_semantics::types::{Type, TypeTable};
use diopter_semantics::value::{self, Bits, FloatKind};
use num_bigint::BigInt;
use num_traits::{One, ToPrimitive, Zero};
use std::fmt;

/// Register number standing for "a register with no value in this frame"
/// (`DW_CFA_undefined`): reading it fails as a read of undefined storage.
pub const UNDEF_REG: u16 = 0xfff0;
/// Register number standing for the bits of an implicit pointer, which the
/// spec forbids reading: reading it fails as `ImplicitAddressRead`.
pub const IMPLICIT_POINTER_REG: u16 = 0xfff1;
/// `.debug_info` offset of the first object an implicit pointer refers to;
/// object `k` is at `IMPLICIT_DIE_BASE + 0x10 * k`.
pub const IMPLICIT_DIE_BASE: u32 = 0x1000;
/// The location-list DIE `k` of [`Lowered::location_lists`] (an artificial
/// variable whose `DW_AT_location` is a location list with one entry per
/// single location, every entry covering the current program location) is
/// at unit offset `LOCLIST_DIE_BASE + 0x10 * k`.
pub const LOCLIST_DIE_BASE: u32 = 0x0100_0000;

/// Why an expression (with these input locations) does not lower.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotLowerable {
    /// The operation at fault, when one is.
    pub op_index: Option<usize>,
    pub reason: String,
}

impl fmt::Display for NotLowerable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.op_index {
            Some(i) => write!(f, "operation #{i}: {}", self.reason),
            None => f.write_str(&self.reason),
        }
    }
}

impl NotLowerable {
    /// The reason without operands: a class for counting (`an i1 value`,
    /// `address space 5`, ...), the text up to the first `:`.
    pub fn class(&self) -> String {
        self.reason
            .split(':')
            .next()
            .unwrap_or(&self.reason)
            .trim()
            .to_string()
    }
}

/// A read the DWARF expression makes (a memory or register request of the
/// evaluator), in execution order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadSite {
    /// The DIOp operation that reads.
    pub op_index: usize,
    /// How many bits a register read takes (the low bits of the entity).
    pub bits: u64,
}

/// The object an implicit pointer refers to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImplicitTarget {
    pub loc: LocDesc,
    pub ty: Type,
}

/// A lowered expression.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lowered {
    pub ops: Vec<DwOp>,
    pub bytes: Vec<u8>,
    /// Register `i` is the entity `registers[i]` of the context.
    pub registers: Vec<String>,
    /// The object `k` of `DW_OP_implicit_pointer IMPLICIT_DIE_BASE + 0x10 k`.
    pub implicit_targets: Vec<ImplicitTarget>,
    /// The location of the DIE `k` of `DW_OP_call4 LOCLIST_DIE_BASE + 0x10 k`:
    /// an input with several single locations at once (AMD's extensions:
    /// `DW_OP_call*` of a DIE whose location is a location list pushes the
    /// location description of all its matching entries).
    pub location_lists: Vec<LocDesc>,
    pub read_sites: Vec<ReadSite>,
    /// For each `DW_OP_div`/`DW_OP_mod`: the byte offset just past it and
    /// the DIOp operation it lowers.
    pub div_sites: Vec<(usize, usize)>,
    /// The result's type, size and fragment (DIOpFragment is metadata,
    /// passed through).
    pub ty: Type,
    pub bits: u64,
    pub fragment: Option<(u64, u64)>,
    /// The result is a float computed by DWARF arithmetic: if it is a NaN,
    /// its payload is unspecified (IEEE-754 recommends, DWARF does not say).
    pub computed_float_result: bool,
    /// The bytes use AMD's extensions ([`lower_ext`]); gimli cannot read them.
    pub uses_extensions: bool,
}

/// One entry of the expression's tree.
struct Node {
    op_index: usize,
    op: Op,
    ty: Type,
    /// The entries it was made from, in push order (the deepest first).
    children: Vec<usize>,
}

/// Where an entry's location is, during lowering.
#[derive(Clone, Debug)]
enum Form {
    /// On top of the DWARF stack: a generic address into `space`; the real
    /// (unwrapped) address lies in `lo..=hi`.
    Addr {
        space: u32,
        lo: BigInt,
        hi: BigInt,
    },
    /// On top of the DWARF stack: a typed value (an implicit location).
    Val {
        bt: BaseType,
        computed_float: bool,
    },
    /// The entity held by register `reg`, at a bit offset.
    Reg {
        reg: u16,
        bit: u64,
    },
    /// Memory of `space` at a known bit offset.
    Mem {
        space: u32,
        bit: BigInt,
    },
    /// An implicit value known when lowering, at a bit offset.
    Const(Bits, u64),
    Undef,
    /// An implicit pointer to object `k`.
    ImplPtr(usize),
    /// A composite whose parts are static forms, with their sizes in bits.
    Composite(Vec<(Form, u64)>),
    /// A `DIOpComposite` entry: its parts are lowered where the composite
    /// becomes the result (only there can pieces be formed).
    Deferred(usize),
    /// `DIOpAddrOf` of a location computed at run time (a slot, on top of
    /// the DWARF stack): an implicit pointer to it would need a DIE whose
    /// location is that computation, so only `DIOpDeref`, which gives the
    /// location back, may consume it.
    AddrOfSlot(Box<Form>),
    /// On top of the DWARF stack (AMD's extensions only): a location
    /// description of one storage other than memory, `size` bits, at bit
    /// `bit` of it (`DW_OP_stack_value` of a value, `DW_OP_LLVM_piece_end`
    /// of a composite, ...). Its sizes are known when lowering, so every
    /// offset applied to it can be checked to stay inside the storage:
    /// AMD's `DW_OP_LLVM_offset` fails at once outside it, where the spec
    /// fails only when the location is read.
    Loc {
        size: u64,
        bit: u64,
    },
    /// On top of the DWARF stack (AMD's extensions): a location moved by an
    /// offset computed at run time, possibly outside its storage (see
    /// `Lowerer::runtime_offset_loc`); it may be read or be the result, not
    /// offset again, nor be a composite part (which a later offset into the
    /// composite would move).
    LocMoved,
    /// An implicit value at a negative bit offset: a location the spec
    /// forms and fails to read (out of bounds) or write (implicit). DWARF
    /// has no piece before a value's start, but an empty implicit value
    /// fails alike; a later offset may bring it back into the value.
    ConstBefore(Bits, BigInt),
    /// Several single locations at once, known when lowering (AMD's
    /// extensions): `DW_OP_call4` of a location-list DIE holding them.
    Multi(LocDesc),
}

impl Form {
    fn is_slot(&self) -> bool {
        match self {
            Form::Addr { .. } | Form::Val { .. } | Form::Loc { .. } | Form::LocMoved => true,
            Form::AddrOfSlot(inner) => inner.is_slot(),
            _ => false,
        }
    }
}

type R<T> = Result<T, NotLowerable>;

fn nl<T>(op_index: Option<usize>, reason: impl Into<String>) -> R<T> {
    Err(NotLowerable {
        op_index,
        reason: reason.into(),
    })
}

/// How long the lowering's lists were, and its flags (see
/// [`Lowerer::snapshot`]).
struct Snapshot {
    ops: usize,
    div_ops: usize,
    registers: usize,
    implicit_targets: usize,
    location_lists: usize,
    read_sites: usize,
    assumed_register_bits: usize,
    explicit_undef: bool,
    incomplete_open: bool,
}

struct Lowerer<'a> {
    bare: &'a Bare,
    types: &'a TypeTable,
    ctx: &'a Context,
    nodes: Vec<Node>,
    ops: Vec<DwOp>,
    /// The DIOp index of each `DW_OP_div`/`DW_OP_mod` in `ops`.
    div_ops: Vec<(usize, usize)>,
    registers: Vec<String>,
    implicit_targets: Vec<ImplicitTarget>,
    location_lists: Vec<LocDesc>,
    read_sites: Vec<ReadSite>,
    /// May use AMD's extensions (`lower_ext`).
    ext: bool,
    /// Forming a composite location mid-expression: an undefined part gets
    /// `DW_OP_LLVM_undefined`, not an empty piece (which would take what
    /// lies below on the stack).
    explicit_undef: bool,
    /// A piece operation has made an incomplete composite on the stack that
    /// no `DW_OP_LLVM_piece_end` has closed: any further piece joins it, so
    /// no other composite can be formed until it is closed.
    incomplete_open: bool,
    /// The size of a register the context does not give (`diopter lower`'s
    /// register context names registers without values): the size of the
    /// input it holds, as a register holding an argument is that wide.
    assumed_register_bits: Vec<(u16, u64)>,
}

/// Lowers `bare` with its inputs at the locations `ctx` gives them.
pub fn lower(bare: &Bare, types: &TypeTable, ctx: &Context) -> Result<Lowered, NotLowerable> {
    lower_with(bare, types, ctx, false)
}

/// [`lower`], and where DWARF 5 has no operation, AMD's extensions
/// (`DW_OP_LLVM_form_aspace_address` for a memory location outside address
/// space 0, `DW_OP_LLVM_push_lane` for `DIOpPushLane`): bytes only the
/// extension evaluator ([`super::ext`]) reads, not gimli.
pub fn lower_ext(bare: &Bare, types: &TypeTable, ctx: &Context) -> Result<Lowered, NotLowerable> {
    lower_with(bare, types, ctx, true)
}

fn lower_with(
    bare: &Bare,
    types: &TypeTable,
    ctx: &Context,
    ext: bool,
) -> Result<Lowered, NotLowerable> {
    if let Err(ds) = check_bare(bare, &ctx.datalayout, types) {
        let first = ds.first().map_or(String::new(), |d| d.message.clone());
        return nl(None, format!("not well-formed: {first}"));
    }
    let mut l = Lowerer {
        bare,
        types,
        ctx,
        nodes: Vec::new(),
        ops: Vec::new(),
        div_ops: Vec::new(),
        registers: Vec::new(),
        implicit_targets: Vec::new(),
        location_lists: Vec::new(),
        read_sites: Vec::new(),
        ext,
        explicit_undef: false,
        incomplete_open: false,
        assumed_register_bits: Vec::new(),
    };
    let (root, fragment) = l.build_tree()?;
    let form = l.lower_node(root)?;
    let computed_float_result = matches!(
        form,
        Form::Val {
            computed_float: true,
            ..
        }
    );
    let ty = l.nodes[root].ty.clone();
    let bits = l.bitsizeof(&ty, None)?;
    if computed_float_result && !ty.is_float() {
        return nl(
            Some(l.nodes[root].op_index),
            "the bits of a float computed by DWARF arithmetic as a non-float result: NaN payloads are unspecified",
        );
    }
    l.terminate(form, bits, root)?;
    let mut bytes = Vec::new();
    let mut div_sites = Vec::new();
    for (i, op) in l.ops.iter().enumerate() {
        op.encode(&mut bytes);
        if let Some((_, d)) = l.div_ops.iter().find(|(k, _)| *k == i) {
            div_sites.push((bytes.len(), *d));
        }
    }
    debug_assert_eq!(bytes, encode(&l.ops));
    let uses_extensions = l.ops.iter().any(|o| matches!(o, DwOp::Llvm(_)));
    Ok(Lowered {
        uses_extensions,
        ops: l.ops,
        bytes,
        registers: l.registers,
        implicit_targets: l.implicit_targets,
        location_lists: l.location_lists,
        read_sites: l.read_sites,
        div_sites,
        ty,
        bits,
        fragment,
        computed_float_result,
    })
}

/// The base type of a value of type `t` (integers of 8/16/32/64 bits are
/// signed, pointers unsigned of their width, float and double). An integer
/// of another width below 64 bits ([`narrow_width`]) is kept sign-extended
/// in the 64-bit signed container [`NARROW_CONTAINER`]: whoever makes such a
/// value must leave it sign-extended from its width (see
/// [`Lowerer::sign_extend_top`]). With AMD's extensions (`ext`), an integer
/// wider than 64 bits is computed in the wide signed base type of its whole
/// bytes (sign-extended there too when its width is not whole bytes), and a
/// vector, array or struct wider than 64 bits is moved as its bits in the
/// wide unsigned one: the extension evaluator computes with base types of
/// any size up to 255 bytes ([`super::ext`]'s decision 13), gimli's `Value`
/// stops at 64 bits.
fn base_type(t: &Type, bits: u64, ext: bool) -> Result<BaseType, String> {
    match t {
        Type::Int(_) if narrow_width(t).is_some_and(|w| w < 64) => Ok(NARROW_CONTAINER),
        Type::Int(w) if *w > 64 && ext => wide_int(*w, true).ok_or_else(|| {
            format!("an i{w} value: wider than {WIDE_MAX_BYTES} bytes, the most a DW_OP_const_type constant or a DW_OP_deref_type read holds")
        }),
        Type::Int(w) => BaseType::signed(*w).ok_or_else(|| {
            format!("an i{w} value: DWARF's typed values stop at 64 bits as gimli evaluates them (`Value`), and a wider integer has no base type to compute in without AMD's extensions")
        }),
        Type::Float(k) => match k.0 {
            FloatKind::Float => Ok(BaseType::F32),
            FloatKind::Double => Ok(BaseType::F64),
            // With AMD's extensions, computed in the extension evaluator's
            // half, bfloat, binary128 and x87 base types (its decisions 14
            // and 15);
            // without, half and bfloat are moved, never computed with (see
            // `raw_bits`).
            FloatKind::Half if ext => Ok(BaseType::F16),
            FloatKind::BFloat if ext => Ok(BaseType::BF16),
            FloatKind::Fp128 if ext => Ok(BaseType::F128),
            FloatKind::X86Fp80 if ext => Ok(BaseType::F80),
            FloatKind::Half | FloatKind::BFloat => Ok(BaseType::U16),
            other => Err(format!(
                "a {} value: the evaluators' floating-point values are IEEE single and double only (gimli's `Value` has F32 and F64), so DWARF arithmetic on it could not be checked",
                other.name()
            )),
        },
        Type::Ptr { .. } if bits > 64 => Err(format!(
            "a {bits}-bit pointer value: DWARF's typed values stop at 64 bits"
        )),
        Type::Ptr { .. } => BaseType::unsigned(bits).ok_or_else(|| {
            format!("a {bits}-bit pointer value: DWARF has no {bits}-bit base type (narrow pointers are not emulated, unlike narrow integers)")
        }),
        // A vector, array or struct of a base type's size: its bits, moved
        // and never computed with (see `raw_bits`).
        _ if raw_bits(t, ext) => {
            let wide = (ext && bits > 64 && bits.is_multiple_of(8))
                .then(|| wide_int(bits, false))
                .flatten();
            wide.or_else(|| BaseType::unsigned(bits))
                .or_else(|| raw_narrow_container(bits, ext))
                .ok_or_else(|| {
                    format!("a `{t}` value of {bits} bits: no base type of that size holds its bits")
                })
        }
        other => Err(format!(
            "a `{other}` value: a DWARF value has a scalar base type; vectors, arrays and structs are not lowered as values"
        )),
    }
}

/// The bits of empty implicit value after a narrow integer's bits in its
/// location ([`Lowerer::value_loc`]): more than any read or offset of the
/// generated cases reaches (an offset beyond is refused when lowering).
const VALUE_LOC_GAP: u64 = 1 << 20;

/// The container of a vector, array or struct of `bits` bits that no
/// unsigned base type has the size of: its bits as an integer of that
/// width, kept sign-extended in that integer's container as a narrow
/// integer is ([`NARROW_CONTAINER`] below 64 bits, a wide signed integer of
/// its whole bytes above, with AMD's extensions), so that every narrow
/// integer's read, move and result serves it too.
fn raw_narrow_container(bits: u64, ext: bool) -> Option<BaseType> {
    match bits {
        1..=63 => Some(NARROW_CONTAINER),
        65.. if ext => wide_int(bits, true),
        _ => None,
    }
}

/// `Some((N, E))` when `t` is a vector of `N` integers `E`: computed lane
/// by lane ([`Lowerer::lanewise_binary`]).
fn int_vector(t: &Type) -> Option<(u64, Type)> {
    match t {
        Type::Vector { len, elem } if elem.is_int() => Some((*len, (**elem).clone())),
        _ => None,
    }
}

/// The wide integer base type of `w` (> 64) bits' whole bytes, if
/// [`WIDE_MAX_BYTES`] holds them.
fn wide_int(w: u64, signed: bool) -> Option<BaseType> {
    let bytes = w.div_ceil(8);
    (bytes <= u64::from(WIDE_MAX_BYTES))
        .then(|| BaseType::int(bytes, signed))
        .flatten()
}

/// Whether values of `t` are held as their bits in an unsigned base type
/// (half and bfloat without AMD's extensions, which gimli cannot compute
/// with, vectors, arrays and structs): such a value may be read,
/// reinterpreted and be the result, but no operation may compute with it
/// (`lower_binary` and `lower_convert` refuse; integer vectors are computed
/// lane by lane), since the bits' arithmetic is not the type's.
fn raw_bits(t: &Type, ext: bool) -> bool {
    match t {
        Type::Float(k) => !ext && matches!(k.0, FloatKind::Half | FloatKind::BFloat),
        Type::Int(_) | Type::Ptr { .. } => false,
        _ => true,
    }
}

/// The container of an integer value of a width DWARF has no base type for
/// (i1 .. i63 other than i8, i16, i32): the value is kept sign-extended from
/// its width in a 64-bit signed base type, as a backend promotes an illegal
/// integer type (see the module doc of [`super`]).
const NARROW_CONTAINER: BaseType = BaseType::I64;

/// `Some(N)` when `t` is an `iN` kept in a wider container: N < 64 and not
/// 8, 16 or 32 ([`NARROW_CONTAINER`]), or N > 64 and not whole bytes (the
/// wide signed integer of its whole bytes, with AMD's extensions only).
fn narrow_width(t: &Type) -> Option<u64> {
    match t {
        Type::Int(w) if *w < 64 && BaseType::signed(*w).is_none() => Some(*w),
        Type::Int(w) if *w > 64 && !w.is_multiple_of(8) => Some(*w),
        _ => None,
    }
}

/// The little-endian bytes of an integer of `bytes` bytes whose low `n`
/// bits are set.
fn mask_bytes(n: u64, bytes: u8) -> Vec<u8> {
    (0..u64::from(bytes))
        .map(|i| match n.saturating_sub(8 * i) {
            0 => 0,
            k if k >= 8 => 0xff,
            k => (1u8 << k) - 1,
        })
        .collect()
}

/// `bit mod 8`, in 0..8.
fn mod8(bit: &BigInt) -> u64 {
    use num_integer::Integer;
    bit.mod_floor(&BigInt::from(8)).to_u64().expect("0..8")
}

/// The byte holding bit `bit`: `floor(bit / 8)`.
fn floor8(bit: &BigInt) -> BigInt {
    use num_integer::Integer;
    bit.div_floor(&BigInt::from(8))
}

/// `a mod 2^64`.
fn wrap64(a: &BigInt) -> u64 {
    use num_integer::Integer;
    a.mod_floor(&(BigInt::one() << 64))
        .to_u64()
        .expect("reduced mod 2^64")
}

impl Lowerer<'_> {
    fn bitsizeof(&self, t: &Type, at: Option<usize>) -> R<u64> {
        self.ctx
            .datalayout
            .bitsizeof(t, self.types)
            .or_else(|e| nl(at, format!("unsized type: {}", e.0)))
    }

    fn bt(&self, t: &Type, at: usize) -> R<BaseType> {
        let bits = self.bitsizeof(t, Some(at))?;
        base_type(t, bits, self.ext).or_else(|m| nl(Some(at), m))
    }

    /// The width of a value of type `t` held in its base type `bt`: below
    /// `bt`'s when `t` is narrow (an integer, or a vector, array or struct,
    /// of a width no base type has: see [`raw_narrow_container`]), kept
    /// sign-extended from it in the signed container `bt`.
    fn value_width(&self, t: &Type, bt: BaseType, at: usize) -> R<u64> {
        let w = self.bitsizeof(t, Some(at))?;
        Ok(if w < bt.bits() && bt.is_signed() {
            w
        } else {
            bt.bits()
        })
    }

    fn emit(&mut self, op: DwOp) {
        self.ops.push(op);
    }

    fn site(&mut self, op_index: usize, bits: u64) {
        self.read_sites.push(ReadSite { op_index, bits });
    }

    /// The expression's tree, as the reference's loop builds its stack.
    fn build_tree(&mut self) -> R<(usize, Option<(u64, u64)>)> {
        let e = &self.bare.expr;
        let mut stack: Vec<usize> = Vec::new();
        let mut fragment = None;
        for (i, node) in e.ops.iter().enumerate() {
            let op = &node.op;
            if let Op::Fragment(o, s) = op {
                fragment = Some((*o, *s));
                continue;
            }
            let n = check::arity(op, e.dialect);
            if stack.len() < n {
                return nl(Some(i), "not well-formed: stack underflow");
            }
            let children = stack.split_off(stack.len() - n);
            let input_types: Vec<Type> = children
                .iter()
                .rev()
                .map(|&c| self.nodes[c].ty.clone())
                .collect();
            let ty = check::result_type(
                op,
                e.dialect,
                &input_types,
                &self.ctx.datalayout,
                self.types,
            )
            .or_else(|m| nl(Some(i), format!("not well-formed: {m}")))?;
            self.nodes.push(Node {
                op_index: i,
                op: op.clone(),
                ty,
                children,
            });
            stack.push(self.nodes.len() - 1);
        }
        match stack.as_slice() {
            [root] => Ok((*root, fragment)),
            _ => nl(
                None,
                "not well-formed: the stack does not end with one entry",
            ),
        }
    }

    fn lower_node(&mut self, id: usize) -> R<Form> {
        let op = self.nodes[id].op.clone();
        let at = self.nodes[id].op_index;
        let children = self.nodes[id].children.clone();
        let ty = self.nodes[id].ty.clone();
        match &op {
            Op::Arg(..) | Op::Referrer(_) | Op::TypeObject(_) | Op::Constant(..) => {
                let f = match self.input_location(id)? {
                    None => Form::Undef,
                    Some(l) => self.binding(&l, at, 0)?,
                };
                if let Form::Reg { reg, bit: 0 } = f {
                    let name = &self.registers[usize::from(reg)];
                    if self.ctx.entity(name).is_none() {
                        let bits = self.bitsizeof(&ty, Some(at))?;
                        self.assumed_register_bits.push((reg, bits));
                    }
                }
                Ok(f)
            }
            Op::Reinterpret(_) => {
                let f = self.lower_node(children[0])?;
                // The module doc: a float computed by DWARF arithmetic may
                // not have its bits reinterpreted (NaN payloads).
                if matches!(
                    f,
                    Form::Val {
                        computed_float: true,
                        ..
                    }
                ) && !ty.is_float()
                {
                    return nl(
                        Some(at),
                        "the bits of a float computed by DWARF arithmetic, reinterpreted: NaN payloads are unspecified",
                    );
                }
                Ok(f)
            }
            Op::Composite(..) => Ok(Form::Deferred(id)),
            Op::AddrOf(_) => {
                let c = children[0];
                let cty = self.nodes[c].ty.clone();
                match self.nodes[c].op {
                    Op::Arg(..) | Op::Referrer(_) | Op::TypeObject(_) | Op::Constant(..) => {
                        let loc = self.input_location(c)?.unwrap_or_else(LocDesc::undefined);
                        Ok(Form::ImplPtr(self.implicit_target(loc, cty)))
                    }
                    _ => {
                        // A location known when lowering gets a DIE of its
                        // own (an artificial variable holding it), as an
                        // input's does; one computed at run time can only be
                        // dereferenced again (see `Form::AddrOfSlot`).
                        let f = self.lower_node(c)?;
                        if let Form::Val { bt, .. } = &f {
                            // DIOpDeref may retype it: its storage must be
                            // the value's own bits.
                            self.same_width_as_container(&cty, *bt, at)?;
                        }
                        if f.is_slot() {
                            return Ok(Form::AddrOfSlot(Box::new(f)));
                        }
                        let loc = self.static_location(&f, &cty, at)?;
                        Ok(Form::ImplPtr(self.implicit_target(loc, cty)))
                    }
                }
            }
            Op::Deref(_) => {
                let c = children[0];
                let f = self.lower_node(c)?;
                if let Form::ImplPtr(k) = f {
                    let target = self.implicit_targets[k].loc.clone();
                    return self.binding(&target, at, 0);
                }
                if let Form::AddrOfSlot(inner) = f {
                    // Retyped as a narrow integer: the location's low bits
                    // are the value, so its container must hold them
                    // sign-extended from its width (the invariant `read`
                    // relies on); the slot is on top.
                    if let (Form::Val { bt, computed_float }, Ok(c)) = (&*inner, self.bt(&ty, at)) {
                        let w = self.value_width(&ty, c, at)?;
                        if w < c.bits() && bt.bits() == c.bits() {
                            if *computed_float {
                                return nl(
                                    Some(at),
                                    "the bits of a float computed by DWARF arithmetic, reinterpreted: NaN payloads are unspecified",
                                );
                            }
                            if *bt != c {
                                self.emit(DwOp::Reinterpret(c));
                            }
                            self.sign_extend_top(c, w);
                            return Ok(Form::Val {
                                bt: c,
                                computed_float: false,
                            });
                        }
                    }
                    return Ok(*inner);
                }
                let pty = self.nodes[c].ty.clone();
                let Some(space) = pty.addrspace() else {
                    return nl(Some(at), "not well-formed: DIOpDeref of a non-pointer");
                };
                let p = self.bitsizeof(&pty, Some(at))?;
                self.read_address(&f, p, at, 0)?;
                Ok(Form::Addr {
                    space,
                    lo: BigInt::zero(),
                    hi: (BigInt::one() << p) - 1,
                })
            }
            Op::Read => {
                let c = children[0];
                let f = self.lower_node(c)?;
                let cty = self.nodes[c].ty.clone();
                let bt = self.read(&f, &cty, at, 0)?;
                Ok(Form::Val {
                    bt,
                    computed_float: matches!(
                        f,
                        Form::Val {
                            computed_float: true,
                            ..
                        }
                    ),
                })
            }
            Op::Offset | Op::BitOffset(_) | Op::ByteOffset(_) => {
                let scale = if matches!(op, Op::BitOffset(_))
                    || diopter_faults::planted!("lower-offset-in-bits") && matches!(op, Op::Offset)
                {
                    1
                } else {
                    8
                };
                self.lower_offset(children[0], children[1], scale, at)
            }
            Op::Convert(to) => {
                let c = children[0];
                let f = self.lower_node(c)?;
                let from = self.nodes[c].ty.clone();
                self.lower_convert(&f, &from, to, at)
            }
            Op::ZExt(to) | Op::SExt(to) => {
                let c = children[0];
                let f = self.lower_node(c)?;
                let from = self.nodes[c].ty.clone();
                let a = self.read(&f, &from, at, 0)?;
                let b = self.bt(to, at)?;
                if matches!(op, Op::ZExt(_)) {
                    let n = self.bitsizeof(&from, Some(at))?;
                    let m = self.bitsizeof(to, Some(at))?;
                    self.resize_int(a, n, b, m);
                } else if a != b || narrow_width(&from).is_none() {
                    // DW_OP_convert of a signed integer sign-extends it into
                    // a wider base type and keeps the low bits of a narrower
                    // one (a narrow value's 64-bit container may be wider
                    // than the result's); a narrow value already in the
                    // result's container is its own sign extension.
                    self.emit(DwOp::Convert(Some(b)));
                }
                Ok(Form::Val {
                    bt: b,
                    computed_float: false,
                })
            }
            Op::Add
            | Op::Sub
            | Op::Mul
            | Op::Div
            | Op::Mod
            | Op::And
            | Op::Or
            | Op::Xor
            | Op::Shl
            | Op::Shr
            | Op::LShr
            | Op::AShr => self.lower_binary(&op, children[0], children[1], &ty, at),
            Op::Extend(n) => {
                // N copies of a location known when lowering: N pieces of it
                // (DWARF 5 can say this; DW_OP_LLVM_extend would be shorter).
                let c = children[0];
                let elem_ty = self.nodes[c].ty.clone();
                let elem = self.bitsizeof(&elem_ty, Some(at))?;
                let n = *n;
                if n > 256 {
                    return nl(Some(at), "DIOpExtend of more than 256 lanes");
                }
                let f = self.lower_node(c)?;
                match f {
                    Form::Reg { .. }
                    | Form::Mem { .. }
                    | Form::Const(..)
                    | Form::Undef
                    | Form::Multi(_)
                    | Form::ConstBefore(..)
                    | Form::Composite(_) => Ok(Form::Composite(
                        (0..n).map(|_| (f.clone(), elem)).collect(),
                    )),
                    // With AMD's extensions a location on the stack is
                    // repeated by DW_OP_LLVM_extend.
                    _ if self.ext && elem > 0 && n > 0 => {
                        if !matches!(f, Form::Loc { .. } | Form::LocMoved) {
                            self.loc_on_top(&f, &elem_ty, 0, at)?;
                        }
                        self.emit(DwOp::Llvm(LlvmDwOp::Extend(elem, n)));
                        Ok(Form::Loc {
                            size: n * elem,
                            bit: 0,
                        })
                    }
                    _ => nl(
                        Some(at),
                        "DIOpExtend of a computed value or address: a piece cannot repeat a stack entry",
                    ),
                }
            }
            Op::Select if self.ext => self.lower_select(&children, &ty, at),
            Op::Select => nl(
                Some(at),
                "DIOpSelect: needs DW_OP_LLVM_select_bit_piece (AMD-only)",
            ),
            Op::PushLane(_) if self.ext => {
                let bits = self.bitsizeof(&ty, Some(at))?;
                let Some(lane) = self.ctx.lane else {
                    return nl(Some(at), "DIOpPushLane: the context gives no lane");
                };
                // An integer (wider than 64 bits with AMD's extensions
                // only: `bt` says so), holding the lane unsigned.
                let bt = self.bt(&ty, at)?;
                if !ty.is_int() || (bits < 64 && lane >> bits != 0) {
                    return nl(
                        Some(at),
                        format!("DIOpPushLane: lane {lane} does not fit in `{ty}` (the reference's ConvertOutOfRange error, which DW_OP_convert does not have)"),
                    );
                }
                self.emit(DwOp::Llvm(LlvmDwOp::PushLane));
                self.emit(DwOp::Convert(Some(bt)));
                if let Some(w) = narrow_width(&ty) {
                    // The lane fits in w bits unsigned (checked above); as
                    // an iN it may be negative.
                    self.sign_extend_top(bt, w);
                }
                Ok(Form::Val {
                    bt,
                    computed_float: false,
                })
            }
            Op::PushLane(_) => nl(
                Some(at),
                "DIOpPushLane: needs DW_OP_LLVM_push_lane (AMD-only)",
            ),
            Op::Fragment(..) => nl(Some(at), "DIOpFragment is not a stack operation"),
        }
    }
}
