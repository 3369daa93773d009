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

    fn register(&mut self, name: &str) -> u16 {
        match self.registers.iter().position(|r| r == name) {
            Some(i) => i as u16,
            None => {
                self.registers.push(name.to_string());
                (self.registers.len() - 1) as u16
            }
        }
    }

    fn implicit_target(&mut self, loc: LocDesc, ty: Type) -> usize {
        self.implicit_targets.push(ImplicitTarget { loc, ty });
        self.implicit_targets.len() - 1
    }

    /// The form of an input's location as the context gives it.
    fn binding(&mut self, loc: &LocDesc, at: usize, depth: usize) -> R<Form> {
        if loc.singles.len() > 1 && self.ext {
            return Ok(Form::Multi(loc.clone()));
        }
        let [s] = loc.singles.as_slice() else {
            return nl(
                Some(at),
                format!(
                    "an input with {} single locations: a DWARF 5 expression describes one location",
                    loc.singles.len()
                ),
            );
        };
        self.single_binding(s, at, depth)
    }

    fn single_binding(&mut self, s: &Single, at: usize, depth: usize) -> R<Form> {
        if depth > 4 {
            return nl(Some(at), "an input nested too deeply");
        }
        let off = &s.offset;
        match &s.storage {
            Storage::Memory { addrspace } => Ok(Form::Mem {
                space: *addrspace,
                bit: off.clone(),
            }),
            Storage::Entity { name } => {
                let Some(bit) = off.to_u64() else {
                    return nl(
                        Some(at),
                        format!("an entity at the negative bit offset {off}: DWARF registers have no negative offsets"),
                    );
                };
                if name.len() > 256 {
                    return nl(Some(at), "an entity name over 256 bytes");
                }
                let reg = self.register(name);
                if usize::from(reg) >= usize::from(UNDEF_REG) {
                    return nl(Some(at), "too many registers");
                }
                Ok(Form::Reg { reg, bit })
            }
            // Outside the value, as an offset would put it (see
            // `Form::ConstBefore`).
            Storage::Implicit { value } => match off.to_u64() {
                Some(k) => Ok(Form::Const(value.clone(), k)),
                None if off.sign() == num_bigint::Sign::Minus => {
                    Ok(Form::ConstBefore(value.clone(), off.clone()))
                }
                None => nl(
                    Some(at),
                    format!("an implicit value at bit offset {off} outside it"),
                ),
            },
            Storage::Undefined => Ok(Form::Undef),
            Storage::ImplicitAddress {
                target, target_ty, ..
            } => {
                if !off.is_zero() {
                    return nl(Some(at), "an implicit pointer at a bit offset");
                }
                Ok(Form::ImplPtr(
                    self.implicit_target((**target).clone(), target_ty.clone()),
                ))
            }
            Storage::Composite { parts } => {
                if !off.is_zero() {
                    return nl(Some(at), "a composite input at a bit offset");
                }
                let mut out = Vec::new();
                for p in parts {
                    if p.loc.singles.len() > 1 && self.ext {
                        out.push((Form::Multi(p.loc.clone()), p.bits));
                        continue;
                    }
                    let [ps] = p.loc.singles.as_slice() else {
                        return nl(
                            Some(at),
                            "a composite part with several single locations: a DWARF 5 piece has one location",
                        );
                    };
                    let f = self.single_binding(ps, at, depth + 1)?;
                    out.push((f, p.bits));
                }
                Ok(Form::Composite(out))
            }
        }
    }

    /// The context's location for the input an `Arg`/`Referrer`/`TypeObject`
    /// node names (`None`: poison, undefined).
    fn input_location(&self, node: usize) -> R<Option<LocDesc>> {
        let n = &self.nodes[node];
        let at = Some(n.op_index);
        let poison = |i: u64| {
            self.bare
                .args
                .as_ref()
                .and_then(|a| usize::try_from(i).ok().and_then(|i| a.get(i)))
                .is_some_and(|a| a.poison)
        };
        match &n.op {
            Op::Arg(i, _) => {
                if poison(*i) {
                    return Ok(None);
                }
                match self.ctx.args.get(i) {
                    Some(l) => Ok(Some(l.clone())),
                    None => nl(at, format!("the context gives no arg {i}")),
                }
            }
            Op::Referrer(_) => match (&self.ctx.referrer, self.bare.expr.dialect) {
                (Some(l), _) => Ok(Some(l.clone())),
                (None, Dialect::DiExpression) => {
                    if poison(0) {
                        return Ok(None);
                    }
                    match self.ctx.args.get(&0) {
                        Some(l) => Ok(Some(l.clone())),
                        None => nl(at, "the context gives neither a referrer nor arg 0"),
                    }
                }
                (None, Dialect::DiExpr) => nl(at, "the context gives no referrer"),
            },
            Op::TypeObject(_) => match &self.ctx.object {
                Some(l) => Ok(Some(l.clone())),
                None => nl(at, "the context gives no object"),
            },
            Op::Constant(t, v) => literal_location(t, v, &self.ctx.datalayout, self.types)
                .map(Some)
                .or_else(|m| nl(at, format!("not well-formed: {m}"))),
            _ => nl(at, "not an input"),
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

    /// Pushes the value of type `t` read from `f` (see the module doc for
    /// `depth`: 0, `f`'s slot is on top or `f` is static; 1, one value
    /// already materialised lies on top of `f`'s slot, or above where a
    /// static `f`'s value must go). An integer of a width without a base
    /// type comes out sign-extended in its container ([`NARROW_CONTAINER`],
    /// or a wide one past 64 bits); so does one of at most 64 bits at a bit
    /// offset that is not a whole register or byte, before it is converted
    /// to its own base type ([`Self::extract_top`]).
    fn read(&mut self, f: &Form, t: &Type, at: usize, depth: u8) -> R<BaseType> {
        let want = self.bt(t, at)?;
        let n = want.bits();
        // The value's own width: below the container's for a narrow integer.
        let w = self.value_width(t, want, at)?;
        let narrow = w != n;
        if f.is_slot() && depth == 1 {
            self.emit(DwOp::Swap);
        }
        match f {
            Form::Addr { space, lo, hi } => {
                self.check_interval(*space, lo, hi, at)?;
                if want.is_wide() {
                    // A wide container is the value's whole bytes: a byte
                    // holding one of its bits is in bounds exactly when that
                    // bit is.
                    self.load(*space, want, at);
                    self.sign_extend_top(want, w);
                } else if narrow {
                    // The whole bytes holding the w bits: a byte holding one
                    // of them is in bounds exactly when that bit is.
                    self.load_generic(*space, w.div_ceil(8) as u8, at);
                    self.extract_top(0, w);
                } else {
                    self.load(*space, want, at);
                }
            }
            Form::Val { bt, computed_float } => {
                // A narrow value is read at its own width: DIOpReinterpret
                // keeps bit sizes, and no other base type has a narrow size,
                // so `bt` is the container of `t` itself.
                if *bt != want {
                    if *computed_float && !want.is_float() {
                        return nl(
                            Some(at),
                            "the bits of a float computed by DWARF arithmetic: NaN payloads are unspecified",
                        );
                    }
                    if bt.bits() != want.bits() {
                        return nl(Some(at), "a value read at another width");
                    }
                    self.emit(DwOp::Reinterpret(want));
                }
            }
            Form::Reg { reg, bit } => {
                if *bit == 0 && !narrow {
                    self.emit(DwOp::RegvalType(*reg, want));
                    self.site(at, n);
                } else if want.is_wide() {
                    self.emit(DwOp::Regx(*reg));
                    self.read_wide_loc_bits(want, w, *bit, at)?;
                } else {
                    self.read_register_bits(*reg, *bit, w, at)?;
                    self.leave_container(want);
                }
            }
            Form::Mem { space, bit } => {
                if mod8(bit) == 0 && !narrow {
                    let a = self.static_address(*space, bit, at)?;
                    self.push_address(a);
                    self.load(*space, want, at);
                } else if want.is_wide() {
                    self.read_wide_memory_bits(*space, bit, want, w, at)?;
                } else {
                    self.read_memory_bits(*space, bit, w, at)?;
                    self.leave_container(want);
                }
            }
            Form::Const(bits, k) if bits.width() < w.saturating_add(*k) && self.ext => {
                // The reference's read fails (out of bounds); so does a read
                // of an empty implicit value, at this read site.
                self.emit(DwOp::ImplicitValue(Vec::new()));
                self.emit(DwOp::DerefType(want.bytes(), want));
                self.site(at, n);
            }
            Form::Const(bits, k) => {
                if bits.width() < w.saturating_add(*k) {
                    return nl(
                        Some(at),
                        format!(
                            "a read past the end of an implicit value ({w} bits at {k} of {}): DWARF 5 cannot read an implicit location",
                            bits.width()
                        ),
                    );
                }
                let v = bits.slice(*k, w);
                let v = if narrow { value::sext(&v, n) } else { v };
                self.emit(DwOp::ConstType(want, v.to_le_bytes()));
            }
            Form::Undef => {
                self.emit(DwOp::RegvalType(UNDEF_REG, want));
                self.site(at, w);
            }
            Form::ImplPtr(_) => {
                self.emit(DwOp::RegvalType(IMPLICIT_POINTER_REG, want));
                self.site(at, w);
            }
            Form::AddrOfSlot(_) => {
                // The checker lets only DIOpDeref consume DIOpAddrOf.
                return nl(Some(at), "not well-formed: a read of an implicit address");
            }
            Form::Loc { .. }
            | Form::LocMoved
            | Form::Composite(_)
            | Form::Deferred(_)
            | Form::Multi(_)
            | Form::ConstBefore(..)
                if self.ext =>
            {
                match f {
                    Form::Multi(loc) => self.multi_loc(loc, 0, at)?,
                    Form::ConstBefore(..) => self.emit(DwOp::ImplicitValue(Vec::new())),
                    Form::Loc { .. } | Form::LocMoved => {}
                    _ => {
                        self.composite_loc(f.clone(), at)?;
                    }
                }
                if want.is_wide() && narrow {
                    self.read_wide_loc_bits(want, w, 0, at)?;
                } else if narrow {
                    self.read_loc_bits(w, at)?;
                    self.leave_container(want);
                } else {
                    self.emit(DwOp::DerefType(want.bytes(), want));
                    self.site(at, n);
                }
            }
            Form::Loc { .. }
            | Form::LocMoved
            | Form::Composite(_)
            | Form::Deferred(_)
            | Form::Multi(_)
            | Form::ConstBefore(..) => {
                return nl(
                    Some(at),
                    "a value read from a composite: DWARF 5 reads only memory and registers",
                )
            }
        }
        if depth == 1 {
            self.emit(DwOp::Swap);
        }
        Ok(want)
    }

    /// Replaces the location on top by its first `w` (< 64) bits,
    /// sign-extended to an `int64_t`: a composite of those bits and zero
    /// padding to 64 bits, read whole (a read of the location's own 64 bits
    /// would fail where the reference's `w`-bit read does not).
    fn read_loc_bits(&mut self, w: u64, at: usize) -> R<()> {
        if self.incomplete_open {
            return nl(
                Some(at),
                "a composite formed while another one's pieces are being added: its pieces would join that one",
            );
        }
        self.emit(DwOp::BitPiece(w, 0));
        self.emit(DwOp::ImplicitValue(vec![0; 8]));
        self.emit(DwOp::BitPiece(64 - w, 0));
        self.emit(DwOp::Llvm(LlvmDwOp::PieceEnd));
        self.emit(DwOp::DerefSize(8));
        self.site(at, 64);
        self.extract_top(0, w);
        Ok(())
    }

    /// Replaces the location on top by its `w` bits at bit `bit` as a value
    /// of the wide container `want`, sign-extended from `w` bits: a
    /// composite of those bits and zero padding to the container's width,
    /// read whole (the location's own bits past `w` may not exist). The
    /// piece's offset is not checked where it is made: like the reference's
    /// offset, it fails when read (the extension evaluator's decision 11).
    fn read_wide_loc_bits(&mut self, want: BaseType, w: u64, bit: u64, at: usize) -> R<()> {
        if self.incomplete_open {
            return nl(
                Some(at),
                "a composite formed while another one's pieces are being added: its pieces would join that one",
            );
        }
        let n = want.bits();
        self.emit(DwOp::BitPiece(w, bit));
        if n > w {
            self.emit(DwOp::ImplicitValue(vec![0; (n - w).div_ceil(8) as usize]));
            self.emit(DwOp::BitPiece(n - w, 0));
        }
        self.emit(DwOp::Llvm(LlvmDwOp::PieceEnd));
        self.emit(DwOp::DerefType(want.bytes(), want));
        self.site(at, n);
        self.sign_extend_top(want, w);
        Ok(())
    }

    /// Pushes the `w` (> 64) bits of memory at bit offset `bit` of `space`
    /// as a value of the wide container `want`, sign-extended from `w`
    /// bits: the whole bytes holding them read as one wide unsigned integer
    /// (each holds one of the `w` bits, so the read is out of bounds exactly
    /// when the reference's is), shifted down to the first bit, converted
    /// (DW_OP_convert of an integer keeps its low bits).
    fn read_wide_memory_bits(
        &mut self,
        space: u32,
        bit: &BigInt,
        want: BaseType,
        w: u64,
        at: usize,
    ) -> R<()> {
        let r = mod8(bit);
        let Some(whole) = wide_int(r + w, false) else {
            return nl(
                Some(at),
                format!("a {w}-bit value at bit {r} of a byte: it spans more than {WIDE_MAX_BYTES} bytes, the most DW_OP_deref_type reads"),
            );
        };
        let a = floor8(bit);
        self.check_interval(space, &a, &a, at)?;
        self.push_address(wrap64(&a));
        self.load(space, whole, at);
        if r != 0 {
            self.shift_by_const(DwOp::Shr, whole, r);
        }
        self.emit(DwOp::Convert(Some(want)));
        self.sign_extend_top(want, w);
        Ok(())
    }

    /// Pushes bits `bit..bit + w` of register `reg`, sign-extended to an
    /// `int64_t`: `DW_OP_bregx reg 0` reads the register's low `bit + w`
    /// bits as a generic value (the read site's width, so that an entity
    /// narrower than that fails as `OutOfBounds`, as the reference's read).
    fn read_register_bits(&mut self, reg: u16, bit: u64, w: u64, at: usize) -> R<()> {
        // A bit offset near 2^64 (an offset applied to a register) must not
        // overflow here: saturate, it is refused either way.
        let end = bit.saturating_add(w);
        if end > 64 {
            return nl(
                Some(at),
                format!(
                    "a value read at bits {bit}..{end} of a register: a DWARF 5 register read (DW_OP_bregx) yields at most 64 bits"
                ),
            );
        }
        self.emit(DwOp::Bregx(reg, 0));
        self.site(at, bit + w);
        self.extract_top(bit, w);
        Ok(())
    }

    /// Pushes the `w` bits of memory at bit offset `bit` of `space`,
    /// sign-extended to an `int64_t`: the whole bytes holding them
    /// (`DW_OP_deref_size`/`DW_OP_xderef_size`; each holds one of the `w`
    /// bits, so the read is out of bounds exactly when the reference's is),
    /// then the bits selected by shifts.
    fn read_memory_bits(&mut self, space: u32, bit: &BigInt, w: u64, at: usize) -> R<()> {
        let r = mod8(bit);
        if r + w > 64 {
            return nl(
                Some(at),
                format!(
                    "a {w}-bit value at bit {r} of a byte: it spans more than 8 bytes, and DW_OP_deref_size reads at most 8"
                ),
            );
        }
        let a = floor8(bit);
        self.check_interval(space, &a, &a, at)?;
        self.push_address(wrap64(&a));
        self.load_generic(space, (r + w).div_ceil(8) as u8, at);
        self.extract_top(r, w);
        Ok(())
    }

    /// Replaces the generic value on top, of which bits `r..r + w` are
    /// wanted (`r + w` ≤ 64), by those bits sign-extended to an `int64_t`:
    /// shift them to the top, then arithmetically back down.
    fn extract_top(&mut self, r: u64, w: u64) {
        self.emit(DwOp::Reinterpret(BaseType::I64));
        if r + w < 64 {
            self.shift_by_const(DwOp::Shl, BaseType::I64, 64 - r - w);
        }
        if w < 64 {
            self.shift_by_const(DwOp::Shra, BaseType::I64, 64 - w);
        }
    }

    /// The `int64_t` on top, a value sign-extended from its width
    /// ([`Self::extract_top`]), becomes a value of its base type `want`.
    fn leave_container(&mut self, want: BaseType) {
        match want {
            // A narrow integer stays in its container.
            BaseType::I64 => {}
            // Integers and pointers: the low bits (DW_OP_convert of an
            // integer truncates).
            BaseType::I8
            | BaseType::I16
            | BaseType::I32
            | BaseType::U8
            | BaseType::U16
            | BaseType::U32
            | BaseType::U64
            | BaseType::IW(_)
            | BaseType::UW(_) => self.emit(DwOp::Convert(Some(want))),
            BaseType::F32 => {
                self.emit(DwOp::Convert(Some(BaseType::I32)));
                self.emit(DwOp::Reinterpret(BaseType::F32));
            }
            BaseType::F64 => self.emit(DwOp::Reinterpret(BaseType::F64)),
            BaseType::F16 | BaseType::BF16 => {
                self.emit(DwOp::Convert(Some(BaseType::I16)));
                self.emit(DwOp::Reinterpret(want));
            }
            BaseType::F128 => {
                self.emit(DwOp::Convert(Some(BaseType::IW(16))));
                self.emit(DwOp::Reinterpret(want));
            }
            BaseType::F80 => {
                self.emit(DwOp::Convert(Some(BaseType::IW(10))));
                self.emit(DwOp::Reinterpret(want));
            }
        }
    }

    /// The `int64_t` on top, a `p`-bit pointer sign-extended
    /// ([`Self::extract_top`]), becomes its unsigned address as a generic value.
    fn unsigned_address_top(&mut self, p: u64) {
        self.zero_extend_top(BaseType::I64, p);
        self.emit(DwOp::Convert(None));
    }

    /// Pushes the unsigned constant `v` as a generic value (an address, or
    /// an operand of generic values).
    fn uconst(&mut self, v: u64) {
        if v < 32 {
            self.emit(DwOp::Lit(v as u8));
        } else {
            self.emit(DwOp::Constu(v));
        }
    }

    /// Shifts the value on top, of base type `t`, by the constant `v`: the
    /// amount is pushed of type `t` too, as DWARF 5 wants both operands of
    /// a binary operation of one type (§2.5.1.4; a generic amount beside a
    /// typed value is what GDB rejects as "Incompatible types on DWARF
    /// stack"). A narrow amount is a literal converted to `t`
    /// (DW_OP_convert, which more consumers read than DW_OP_const_type); a
    /// wide `t`'s, a DW_OP_const_type.
    fn shift_by_const(&mut self, shift: DwOp, t: BaseType, v: u64) {
        if t.is_wide() {
            let mut bytes = v.to_le_bytes().to_vec();
            bytes.resize(usize::from(t.bytes()), 0);
            self.emit(DwOp::ConstType(t, bytes));
        } else {
            self.uconst(v);
            self.emit(DwOp::Convert(Some(t)));
        }
        self.emit(shift);
    }

    /// Re-establishes the container invariant of an `iN` after an operation
    /// whose result may leave the N-bit range: the integer on top, of the
    /// signed container `c`, becomes its low `n` bits sign-extended
    /// (`DW_OP_shl C-n; DW_OP_shra C-n`, C the container's width).
    fn sign_extend_top(&mut self, c: BaseType, n: u64) {
        let cb = c.bits();
        if n < cb && !diopter_faults::planted!("lower-no-sign-extend") {
            self.shift_by_const(DwOp::Shl, c, cb - n);
            self.shift_by_const(DwOp::Shra, c, cb - n);
        }
    }

    /// The integer on top, of base type `c`, becomes its low `n` bits,
    /// zero-extended (an AND with a mask of type `c`: DW_OP_and wants both
    /// operands of one type).
    fn zero_extend_top(&mut self, c: BaseType, n: u64) {
        if n < c.bits() {
            let n = n - u64::from(diopter_faults::planted!("lower-zext-mask-short"));
            self.emit(DwOp::ConstType(c, mask_bytes(n, c.bytes())));
            self.emit(DwOp::And);
        }
    }

    /// The integer (or pointer) of `n` bits on top, of base type `a`, becomes
    /// one of `m` bits and base type `b`, truncated or zero-extended
    /// (DESIGN.md's DIOpConvert, and DIOpZExt), a narrow result sign-extended
    /// in its container. A value is narrow when its base type is wider than it.
    fn resize_int(&mut self, a: BaseType, n: u64, b: BaseType, m: u64) {
        if m > n {
            // Zero-extend: the n bits as a non-negative number, which any
            // wider container then holds as it is (also sign-extended from
            // m > n bits).
            let a = if a.bits() > n {
                self.zero_extend_top(a, n);
                a
            } else if a.is_signed() && !diopter_faults::planted!("lower-zext-via-signed-convert") {
                let u = BaseType::int(u64::from(a.bytes()), false).expect("an integer width");
                self.emit(DwOp::Reinterpret(u));
                u
            } else {
                a
            };
            if a != b {
                self.emit(DwOp::Convert(Some(b)));
            }
        } else {
            // Truncate: DW_OP_convert keeps the low bits of an integer (into
            // a container wider than m bits it extends, which the sign
            // extension from m bits then corrects).
            if a != b {
                self.emit(DwOp::Convert(Some(b)));
            }
            if m < n && b.bits() > m {
                self.sign_extend_top(b, m);
            }
        }
    }

    /// Pushes the generic address held by the `p`-bit pointer `f`.
    fn read_address(&mut self, f: &Form, p: u64, at: usize, depth: u8) -> R<()> {
        if p > 64 || !p.is_multiple_of(8) || p == 0 {
            return nl(
                Some(at),
                format!("a {p}-bit pointer: DWARF addresses here are 8 bytes"),
            );
        }
        if f.is_slot() && depth == 1 {
            self.emit(DwOp::Swap);
        }
        match f {
            Form::Reg { reg, bit: 0 } => {
                // DW_OP_bregx gives the whole register: keep the pointer's
                // p bits (a generic AND, both operands generic).
                self.emit(DwOp::Bregx(*reg, 0));
                self.site(at, p);
                if p < 64 {
                    self.uconst((1u64 << p) - 1);
                    self.emit(DwOp::And);
                }
            }
            Form::Undef => {
                self.emit(DwOp::Bregx(UNDEF_REG, 0));
                self.site(at, p);
            }
            Form::ImplPtr(_) => {
                self.emit(DwOp::Bregx(IMPLICIT_POINTER_REG, 0));
                self.site(at, p);
            }
            Form::AddrOfSlot(_) => {
                return nl(Some(at), "not well-formed: a read of an implicit address");
            }
            Form::Const(bits, k) if bits.width() < p.saturating_add(*k) && self.ext => {
                self.emit(DwOp::ImplicitValue(Vec::new()));
                self.emit(DwOp::DerefSize(p as u8 / 8));
                self.site(at, p);
            }
            Form::Const(bits, k) => {
                if bits.width() < p.saturating_add(*k) {
                    return nl(
                        Some(at),
                        format!(
                            "a read past the end of an implicit value ({p} bits at {k} of {}): DWARF 5 cannot read an implicit location",
                            bits.width()
                        ),
                    );
                }
                let v = bits.slice(*k, p).to_u64().expect("at most 64 bits");
                self.push_address(v);
            }
            Form::Addr { space, lo, hi } => {
                self.check_interval(*space, lo, hi, at)?;
                self.load_generic(*space, p as u8 / 8, at);
            }
            Form::Mem { space, bit } if mod8(bit) != 0 => {
                // The bytes holding the pointer's bits, shifted into place.
                self.read_memory_bits(*space, bit, p, at)?;
                self.unsigned_address_top(p);
            }
            Form::Mem { space, bit } => {
                let a = self.static_address(*space, bit, at)?;
                self.push_address(a);
                self.load_generic(*space, p as u8 / 8, at);
            }
            // DIOpDeref of DIOpAddrOf gives a computed float back under any
            // type, a pointer too: its bits may not become an address.
            Form::Val {
                computed_float: true,
                ..
            } => {
                return nl(
                    Some(at),
                    "the bits of a float computed by DWARF arithmetic as an address: NaN payloads are unspecified",
                )
            }
            Form::Val { .. } => {
                let bt = BaseType::unsigned(p).expect("checked above");
                // A pointer-typed value (DIOpConvert to a pointer): zero-extend.
                if let Form::Val { bt: have, .. } = f {
                    if *have != bt {
                        if have.bits() != p {
                            return nl(Some(at), "a pointer value of another width");
                        }
                        self.emit(DwOp::Reinterpret(bt));
                    }
                }
                self.emit(DwOp::Convert(None));
            }
            Form::Reg { reg, bit } => {
                // The register's low bit + p bits, shifted into place.
                self.read_register_bits(*reg, *bit, p, at)?;
                self.unsigned_address_top(p);
            }
            Form::Multi(loc) => {
                self.multi_loc(loc, 0, at)?;
                self.emit(DwOp::DerefSize(p as u8 / 8));
                self.site(at, p);
            }
            Form::ConstBefore(..) if self.ext => {
                self.emit(DwOp::ImplicitValue(Vec::new()));
                self.emit(DwOp::DerefSize(p as u8 / 8));
                self.site(at, p);
            }
            Form::Loc { .. } | Form::LocMoved => {
                self.emit(DwOp::DerefSize(p as u8 / 8));
                self.site(at, p);
            }
            Form::Composite(_) | Form::Deferred(_) if self.ext => {
                self.composite_loc(f.clone(), at)?;
                self.emit(DwOp::DerefSize(p as u8 / 8));
                self.site(at, p);
            }
            Form::ConstBefore(..) => {
                return nl(
                    Some(at),
                    "a pointer read before the start of an implicit value: DWARF 5 cannot read an implicit location",
                )
            }
            Form::Composite(_) | Form::Deferred(_) => {
                return nl(
                    Some(at),
                    "a pointer read from a composite: DWARF 5 reads only memory and registers",
                )
            }
        }
        if depth == 1 {
            self.emit(DwOp::Swap);
        }
        Ok(())
    }

    /// The byte address of a static memory location (which must lie on a
    /// byte and satisfy [`Self::check_interval`]) modulo 2^64.
    fn static_address(&self, space: u32, bit: &BigInt, at: usize) -> R<u64> {
        if mod8(bit) != 0 {
            return nl(
                Some(at),
                format!("a value read at a memory bit offset that is not on a byte ({bit})"),
            );
        }
        let a = floor8(bit);
        self.check_interval(space, &a, &a, at)?;
        Ok(wrap64(&a))
    }

    fn push_address(&mut self, a: u64) {
        self.uconst(a);
    }

    /// The generic address on top becomes a memory location in `space`
    /// (`DW_OP_LLVM_form_aspace_address`, identifier = LLVM address space).
    fn form_aspace_address(&mut self, space: u32) {
        self.push_address(u64::from(space));
        self.emit(DwOp::Llvm(LlvmDwOp::FormAspaceAddress));
    }

    /// DWARF's address arithmetic wraps modulo 2^64 where the spec's
    /// location offsets do not. A memory location whose real address may be
    /// anywhere in `lo..=hi` lowers only if wrapping cannot change what it
    /// means: no address reaches 2^64, and a negative one wraps to an address
    /// still outside the `p`-bit address space (so both are out of bounds);
    /// in an address space narrower than 64 bits, no address leaves
    /// `0..2^p` (AMD's extension truncates addresses to `p` bits).
    fn check_interval(&self, space: u32, lo: &BigInt, hi: &BigInt, at: usize) -> R<()> {
        let p = self.ctx.datalayout.pointer_bits(space);
        let top = BigInt::one() << 64;
        if p > 64 {
            return nl(
                Some(at),
                format!(
                    "address space {space} has {p}-bit pointers: DWARF addresses here are 64 bits"
                ),
            );
        }
        if hi >= &top || *lo < (BigInt::one() << p) - &top {
            return nl(
                Some(at),
                format!(
                    "an address in address space {space} that may leave 0..2^64: DWARF's address arithmetic wraps, the spec's offsets do not"
                ),
            );
        }
        // AMD's extension defines DW_OP_xderef* through
        // DW_OP_LLVM_form_aspace_address, which truncates the address to the
        // space's p bits: an address outside 0..2^p would wrap into the space
        // there, where DWARF 5 (gimli) and the spec find it out of bounds.
        if p < 64 && (lo.sign() == num_bigint::Sign::Minus || hi >= &(BigInt::one() << p)) {
            return nl(
                Some(at),
                format!(
                    "an address in the {p}-bit address space {space} that may leave 0..2^{p}: AMD's DW_OP_LLVM_form_aspace_address truncates it to {p} bits, DWARF 5 does not"
                ),
            );
        }
        Ok(())
    }

    /// Replaces the address on top by the `want` value stored there.
    fn load(&mut self, space: u32, want: BaseType, at: usize) {
        if space == 0 {
            self.emit(DwOp::DerefType(want.bytes(), want));
        } else {
            self.push_address(u64::from(space));
            self.emit(DwOp::Swap);
            self.emit(DwOp::XderefType(want.bytes(), want));
        }
        self.site(at, want.bits());
    }

    /// Replaces the address on top by the generic value of `size` bytes stored there.
    fn load_generic(&mut self, space: u32, size: u8, at: usize) {
        if space == 0 {
            self.emit(DwOp::DerefSize(size));
        } else {
            self.push_address(u64::from(space));
            self.emit(DwOp::Swap);
            self.emit(DwOp::XderefSize(size));
        }
        self.site(at, u64::from(size) * 8);
    }

    fn lower_offset(&mut self, l: usize, b: usize, scale: i64, at: usize) -> R<Form> {
        let fl = self.lower_node(l)?;
        let fb = self.lower_node(b)?;
        let bty = self.nodes[b].ty.clone();
        let Type::Int(bw) = bty else {
            return nl(Some(at), "not well-formed: a non-integer offset");
        };
        // A constant offset is folded; any other is read (the reference reads
        // it, and the read may fail).
        let known = match &fb {
            Form::Const(bits, k) if bits.width() >= bw.saturating_add(*k) => {
                Some(bits.slice(*k, bw).to_bigint() * BigInt::from(scale))
            }
            _ => None,
        };
        if let Some(v) = known {
            return match fl {
                Form::Reg { reg, bit } => match (BigInt::from(bit) + &v).to_u64() {
                    Some(bit) => Ok(Form::Reg { reg, bit }),
                    None => nl(
                        Some(at),
                        "a negative bit offset into a register: DWARF registers have no negative offsets",
                    ),
                },
                Form::Mem { space, bit } => Ok(Form::Mem {
                    space,
                    bit: bit + v,
                }),
                Form::Addr { space, lo, hi } => {
                    if mod8(&v) != 0 {
                        return nl(
                            Some(at),
                            "a bit offset that is not on a byte, into a computed memory location",
                        );
                    }
                    let bytes = floor8(&v);
                    let Some(c) = bytes.to_i64() else {
                        return nl(Some(at), "a byte offset beyond 64 bits");
                    };
                    if c >= 0 {
                        self.emit(DwOp::PlusUconst(c as u64));
                    } else {
                        self.emit(DwOp::Consts(c));
                        self.emit(DwOp::Plus);
                    }
                    Ok(Form::Addr {
                        space,
                        lo: lo + &bytes,
                        hi: hi + &bytes,
                    })
                }
                // Past the end is a location still (the spec fails only when
                // it is read, and so does DW_OP_bit_piece's unchecked offset,
                // ext.rs decision 11); before the start, no DWARF piece says.
                Form::Const(bits, k) => match (BigInt::from(k) + &v).to_u64() {
                    Some(k) => Ok(Form::Const(bits, k)),
                    None => Ok(Form::ConstBefore(bits, BigInt::from(k) + v)),
                },
                Form::ConstBefore(bits, k) => match (&k + &v).to_u64() {
                    Some(k) => Ok(Form::Const(bits, k)),
                    None => Ok(Form::ConstBefore(bits, k + v)),
                },
                Form::Undef => Ok(Form::Undef),
                Form::Val {
                    computed_float: true,
                    ..
                } => nl(
                    Some(at),
                    "an offset into a float computed by DWARF arithmetic: NaN payloads are unspecified",
                ),
                Form::Val { bt, .. } if self.ext => {
                    // DW_OP_stack_value mid-expression: the value's implicit
                    // location (AMD's extensions).
                    let lty = self.nodes[l].ty.clone();
                    let size = self.value_loc(&lty, bt, at)?;
                    self.offset_loc(size, 0, &v, at)
                }
                Form::Loc { size, bit } => self.offset_loc(size, bit, &v, at),
                Form::Multi(loc) => Ok(Form::Multi(loc.with_bit_offset(&v))),
                Form::LocMoved => nl(
                    Some(at),
                    "an offset into a location moved by an offset computed at run time: it may have left its storage and come back, which AMD's checked offsets cannot say",
                ),
                Form::Composite(_) | Form::Deferred(_) if self.ext => {
                    let size = self.composite_loc(fl, at)?;
                    self.offset_loc(size, 0, &v, at)
                }
                Form::Val { .. } => nl(
                    Some(at),
                    "an offset into a computed value: DWARF cannot offset an implicit value",
                ),
                Form::ImplPtr(_) | Form::AddrOfSlot(_) => {
                    nl(Some(at), "an offset into an implicit pointer")
                }
                Form::Composite(_) | Form::Deferred(_) => nl(
                    Some(at),
                    "an offset into a composite: DWARF pieces cannot be offset",
                ),
            };
        }
        if self.ext
            && matches!(
                fl,
                Form::Reg { .. }
                    | Form::Const(..)
                    | Form::Val { .. }
                    | Form::Loc { .. }
                    | Form::Composite(_)
                    | Form::Deferred(_)
            )
        {
            let lty = self.nodes[l].ty.clone();
            let ty = self.nodes[self.node_of(at)].ty.clone();
            return self.runtime_offset_loc(&fl, &lty, &fb, &bty, scale, &ty, at);
        }
        if scale != 8 && self.ext && matches!(fl, Form::Addr { .. } | Form::Mem { .. }) {
            return self.runtime_bit_offset_memory(fl, &fb, &bty, bw, at);
        }
        if scale != 8 {
            return nl(
                Some(at),
                "a bit offset computed at run time: DW_OP_bit_piece offsets are constants",
            );
        }
        match &fl {
            Form::Addr { .. } | Form::Mem { .. } | Form::Undef => {}
            _ => {
                return nl(
                    Some(at),
                    "a byte offset computed at run time into a register or value: DWARF offsets only addresses",
                )
            }
        }
        // The offset's value, sign-extended to a generic value, on top.
        self.read(&fb, &bty, at, 0)?;
        self.emit(DwOp::Convert(None));
        let half = BigInt::one() << (bw - 1);
        match fl {
            Form::Undef => {
                self.emit(DwOp::Drop);
                Ok(Form::Undef)
            }
            Form::Mem { space, bit } => {
                let a = self.static_address(space, &bit, at)?;
                self.push_address(a);
                self.emit(DwOp::Plus);
                let a = bit / 8;
                Ok(Form::Addr {
                    space,
                    lo: &a - &half,
                    hi: &a + &half - 1,
                })
            }
            Form::Addr { space, lo, hi } => {
                self.emit(DwOp::Plus);
                Ok(Form::Addr {
                    space,
                    lo: lo - &half,
                    hi: hi + &half - 1,
                })
            }
            _ => unreachable!("filtered above"),
        }
    }

    fn lower_convert(&mut self, f: &Form, from: &Type, to: &Type, at: usize) -> R<Form> {
        if raw_bits(from, self.ext) || raw_bits(to, self.ext) {
            return nl(
                Some(at),
                format!("DIOpConvert from `{from}` to `{to}`: the evaluators convert integers and IEEE floats only (its bits are only moved; gimli has no half or bfloat)"),
            );
        }
        let a = self.read(f, from, at, 0)?;
        let computed_in = matches!(
            f,
            Form::Val {
                computed_float: true,
                ..
            }
        );
        let b = self.bt(to, at)?;
        let computed_float = match (from, to) {
            (Type::Float(_), Type::Float(_)) => {
                self.emit(DwOp::Convert(Some(b)));
                true
            }
            (Type::Int(_), Type::Float(_)) if a.is_wide() => {
                return nl(
                    Some(at),
                    "DIOpConvert from an integer wider than 64 bits to a float: the extension evaluator converts no wide integer to a float",
                )
            }
            (Type::Int(_), Type::Float(_)) => {
                self.signed_to_float(a, b);
                false
            }
            (Type::Float(_), _) => {
                return nl(
                    Some(at),
                    "DIOpConvert from a float to an integer: DW_OP_convert has no out-of-range error",
                )
            }
            _ if narrow_width(from).is_some() || narrow_width(to).is_some() => {
                // Keep the bits, truncated or zero-extended, where one side
                // is an integer of a width without a base type.
                let n = self.bitsizeof(from, Some(at))?;
                let m = self.bitsizeof(to, Some(at))?;
                self.resize_int(a, n, b, m);
                false
            }
            _ => {
                // Integers and pointers: keep the bits, truncated or
                // zero-extended (pointers are unsigned; a widening integer
                // conversion, diexpr only, zero-extends).
                if a != b {
                    if a.bits() < b.bits() && a.is_signed() {
                        self.emit(DwOp::Reinterpret(
                            BaseType::int(u64::from(a.bytes()), false).expect("an integer width"),
                        ));
                    }
                    self.emit(DwOp::Convert(Some(b)));
                }
                computed_in && b.is_float()
            }
        };
        Ok(Form::Val {
            bt: b,
            computed_float,
        })
    }

    /// The signed integer on top, of base type `a` (a narrow one
    /// sign-extended in its container), becomes the float `b` nearest to it
    /// (ties to even), as the reference's DIOpConvert. gimli's (and so the
    /// extension evaluator's) DW_OP_convert reads every integer as an
    /// unsigned 64-bit number, which is right for non-negative values only;
    /// a negative one is negated first (as an int64_t: INT64_MIN stays
    /// itself, whose unsigned reading 2^63 is its magnitude), converted and
    /// negated back (round to nearest even is symmetric).
    fn signed_to_float(&mut self, a: BaseType, b: BaseType) {
        if a != BaseType::I64 {
            self.emit(DwOp::Convert(Some(BaseType::I64)));
        }
        self.emit(DwOp::Dup);
        self.emit(DwOp::ConstType(BaseType::I64, vec![0; 8]));
        self.emit(DwOp::Lt);
        let positive = [DwOp::Convert(Some(b))];
        let negative = [DwOp::Neg, DwOp::Convert(Some(b)), DwOp::Neg];
        let len = |ops: &[DwOp]| encode(ops).len() as i16;
        let skip = DwOp::Skip(len(&negative));
        self.emit(DwOp::Bra(len(&positive) + len(std::slice::from_ref(&skip))));
        self.ops.extend(positive);
        self.emit(skip);
        self.ops.extend(negative);
    }

    fn lower_binary(&mut self, op: &Op, c2: usize, c1: usize, ty: &Type, at: usize) -> R<Form> {
        // c2 was pushed first (V2, the deeper), c1 is the top (V1).
        let lanes = int_vector(ty);
        for t in [&self.nodes[c1].ty, &self.nodes[c2].ty, ty] {
            if raw_bits(t, self.ext) && lanes.is_none() {
                return nl(
                    Some(at),
                    format!("arithmetic on `{t}`: the evaluators compute with integers and IEEE single and double only (its bits are only moved; integer vectors are computed lane by lane)"),
                );
            }
        }
        let f2 = self.lower_node(c2)?;
        let f1 = self.lower_node(c1)?;
        let t1 = self.nodes[c1].ty.clone();
        let t2 = self.nodes[c2].ty.clone();
        // The reference reads V1 (the top) first, then V2.
        let b1 = self.read(&f1, &t1, at, 0)?;
        let b2 = self.read(&f2, &t2, at, 1)?;
        if let Some((n, elem)) = lanes {
            return self.lanewise_binary(op, n, &elem, b2, at);
        }
        self.scalar_binary(op, b1, b2, &t2, at)
    }

    /// An integer vector operation on two vectors of `n` lanes of `elem`,
    /// held as their bits in the unsigned `u` (V1 on top, V2 below), lane
    /// by lane as the reference computes (lane `i` in bits `i·E..(i+1)·E`,
    /// lane 0 first, so a division by zero fails at the reference's lane):
    /// each lane of V2 and V1 taken out into its element's container (a
    /// logical shift down, DW_OP_convert keeping the low bits, the sign
    /// extension of a narrow element), the element's operation
    /// ([`Self::scalar_binary`]), the result's E bits put back in place and
    /// OR-ed into the result.
    fn lanewise_binary(
        &mut self,
        op: &Op,
        n: u64,
        elem: &Type,
        held: BaseType,
        at: usize,
    ) -> R<Form> {
        let e = self.bitsizeof(elem, Some(at))?;
        let c = self.bt(elem, at)?;
        let total = n.saturating_mul(e);
        if total > held.bits() || n > 64 {
            return nl(
                Some(at),
                format!("arithmetic on a vector of {n} lanes of {e} bits held in {} bits: lanes and container disagree, or too many lanes", held.bits()),
            );
        }
        let cu = BaseType::int(u64::from(c.bytes()), false).expect("an integer width");
        // A vector of a width no base type has is held sign-extended in a
        // signed container (`raw_narrow_container`): its lanes are taken
        // out of, and put back into, the unsigned reading of its bits.
        let u = BaseType::int(u64::from(held.bytes()), false).expect("an integer width");
        if u != held {
            self.emit(DwOp::Reinterpret(u));
            self.emit(DwOp::Swap);
            self.emit(DwOp::Reinterpret(u));
            self.emit(DwOp::Swap);
        }
        // [V2, V1] -> [V2, V1, 0]
        self.emit(DwOp::ConstType(u, vec![0; usize::from(u.bytes())]));
        for i in 0..n {
            for _ in 0..2 {
                // [.., acc] -> [.., acc, V2's lane] -> [.., acc, a, V1's lane]
                self.emit(DwOp::Pick(2));
                if i > 0 {
                    self.shift_by_const(DwOp::Shr, u, i * e);
                }
                if c != u {
                    self.emit(DwOp::Convert(Some(c)));
                }
                self.sign_extend_top(c, e);
            }
            let r = self.scalar_binary(op, c, c, elem, at)?;
            let Form::Val { bt: rb, .. } = r else {
                return nl(Some(at), "a lane's result is not a value");
            };
            self.zero_extend_top(rb, e);
            if rb.is_signed() {
                self.emit(DwOp::Reinterpret(cu));
            }
            if cu != u {
                self.emit(DwOp::Convert(Some(u)));
            }
            if i > 0 {
                self.shift_by_const(DwOp::Shl, u, i * e);
            }
            self.emit(DwOp::Or);
        }
        // [V2, V1, acc] -> [acc]
        self.emit(DwOp::Rot);
        self.emit(DwOp::Drop);
        self.emit(DwOp::Drop);
        if u != held {
            self.emit(DwOp::Reinterpret(held));
            self.sign_extend_top(held, total);
        }
        Ok(Form::Val {
            bt: held,
            computed_float: false,
        })
    }

    /// The operation on the two values on top (V1, of base type `b1`, on
    /// top; V2, of `b2` and type `t2`, below): their result.
    fn scalar_binary(
        &mut self,
        op: &Op,
        b1: BaseType,
        b2: BaseType,
        t2: &Type,
        at: usize,
    ) -> R<Form> {
        let is_float = b2.is_float();
        let computed_float = is_float;
        let int_only = |s: &Self| -> R<()> {
            if is_float {
                let _ = s;
                return nl(Some(at), "not well-formed: an integer operation on floats");
            }
            Ok(())
        };
        if let Some(w) = narrow_width(t2) {
            return self.narrow_binary(op, w, b2, at);
        }
        match op {
            Op::Add => self.emit(DwOp::Plus),
            Op::Sub => self.emit(DwOp::Minus),
            Op::Mul => self.emit(DwOp::Mul),
            Op::Div => {
                self.emit(DwOp::Div);
                if !is_float {
                    self.div_ops.push((self.ops.len() - 1, at));
                }
            }
            Op::Mod => {
                int_only(self)?;
                self.emit(DwOp::Mod);
                self.div_ops.push((self.ops.len() - 1, at));
            }
            Op::And => {
                int_only(self)?;
                self.emit(DwOp::And)
            }
            Op::Or => {
                int_only(self)?;
                self.emit(DwOp::Or)
            }
            Op::Xor => {
                int_only(self)?;
                self.emit(DwOp::Xor)
            }
            Op::Shl | Op::Shr | Op::LShr | Op::AShr => {
                int_only(self)?;
                self.full_width_shift(op, b1, b2);
            }
            _ => return nl(Some(at), "not a binary operation"),
        }
        Ok(Form::Val {
            bt: b2,
            computed_float,
        })
    }

    /// A shift of V2 (below, of base type `b2`) by V1 (on top, of `b1`, the
    /// same width: DIOp shifts take two operands of one type). The amount is
    /// unsigned (DESIGN.md), and DWARF 5 wants both operands of one type
    /// (§2.5.1.4: "Operands of an operation with two operands must have the
    /// same type"; GDB enforces it), so each shift runs with both operands
    /// in the unsigned type `u` of that width. An arithmetic shift, which
    /// DW_OP_shra gives only for a signed value, is the logical one of
    /// V2 ^ s, XOR-ed with s again (s = V2's sign fill, V2 >> (w - 1)
    /// arithmetically, both operands of V2's signed type): an amount of `w`
    /// or more then gives the sign fill, as the reference's.
    fn full_width_shift(&mut self, op: &Op, b1: BaseType, b2: BaseType) {
        let u = BaseType::int(u64::from(b2.bytes()), false).expect("an integer width");
        let st = BaseType::int(u64::from(b2.bytes()), true).expect("an integer width");
        debug_assert_eq!(b1.bytes(), b2.bytes(), "a shift's operands have one type");
        let to = |s: &mut Self, from: BaseType, to: BaseType| {
            if from != to {
                s.emit(DwOp::Reinterpret(to));
            }
        };
        match op {
            Op::Shl | Op::Shr | Op::LShr => {
                // [V2, V1] -> [V2u, V1u] -> [V2u op V1u] -> back to b2
                to(self, b1, u);
                self.emit(DwOp::Swap);
                to(self, b2, u);
                self.emit(DwOp::Swap);
                self.emit(if matches!(op, Op::Shl) {
                    DwOp::Shl
                } else {
                    DwOp::Shr
                });
                to(self, u, b2);
            }
            _ => {
                // [V2, V1] -> [V1, V2s, V2s] -> [V1, V2s, s] -> [V1, s, V2s ^ s]
                self.emit(DwOp::Swap);
                to(self, b2, st);
                self.emit(DwOp::Dup);
                self.shift_by_const(DwOp::Shra, st, st.bits() - 1);
                self.emit(DwOp::Swap);
                self.emit(DwOp::Pick(1));
                self.emit(DwOp::Xor);
                // -> [V1, s, y u] -> [s, y u, V1] -> [s, y u >> V1 u] -> [s ^ that]
                to(self, st, u);
                self.emit(DwOp::Rot);
                self.emit(DwOp::Rot);
                to(self, b1, u);
                self.emit(DwOp::Shr);
                to(self, u, st);
                self.emit(DwOp::Xor);
                to(self, st, b2);
            }
        }
    }

    /// A binary operation on two `iN` values of a narrow width `w`, each
    /// sign-extended in the signed container `c` (V1 on top, V2 below): the
    /// container's operation, then the sign extension from `w` bits where
    /// the result may leave the w-bit range. Shift amounts are unsigned
    /// w-bit numbers (DESIGN.md): zero-extended first, so that an amount of
    /// at least `w` shifts every bit out (DWARF's shifts give 0, or the sign
    /// fill, for amounts of the container's width and more).
    fn narrow_binary(&mut self, op: &Op, w: u64, c: BaseType, at: usize) -> R<Form> {
        let u = BaseType::int(u64::from(c.bytes()), false).expect("an integer width");
        match op {
            Op::Add | Op::Sub | Op::Mul => {
                self.emit(match op {
                    Op::Add => DwOp::Plus,
                    Op::Sub => DwOp::Minus,
                    _ => DwOp::Mul,
                });
                self.sign_extend_top(c, w);
            }
            Op::Div => {
                // Signed and truncating on the sign-extended values; only
                // INT_MIN / -1 (2^(w-1)) leaves the range, and wraps back.
                self.emit(DwOp::Div);
                self.div_ops.push((self.ops.len() - 1, at));
                self.sign_extend_top(c, w);
            }
            Op::Mod => {
                // |V2 mod V1| < |V1|: always in range.
                self.emit(DwOp::Mod);
                self.div_ops.push((self.ops.len() - 1, at));
            }
            // Bitwise operations keep sign-extended values sign-extended.
            Op::And => self.emit(DwOp::And),
            Op::Or => self.emit(DwOp::Or),
            Op::Xor => self.emit(DwOp::Xor),
            Op::Shl => {
                self.zero_extend_top(c, w);
                self.emit(DwOp::Shl);
                self.sign_extend_top(c, w);
            }
            Op::AShr => {
                // The sign-extended V2 shifted arithmetically is V2's sign
                // fill from bit w up: still sign-extended.
                self.zero_extend_top(c, w);
                self.emit(DwOp::Shra);
            }
            Op::Shr | Op::LShr => {
                // DW_OP_shr shifts unsigned values only: V2's w bits as an
                // unsigned number of the container's width, shifted by V1's
                // (of that type too: DWARF 5 §2.5.1.4), back into the
                // container.
                self.zero_extend_top(c, w);
                self.emit(DwOp::Reinterpret(u));
                self.emit(DwOp::Swap);
                if !diopter_faults::planted!("lower-narrow-lshr-no-zext") {
                    self.zero_extend_top(c, w);
                }
                self.emit(DwOp::Reinterpret(u));
                self.emit(DwOp::Swap);
                self.emit(DwOp::Shr);
                self.emit(DwOp::Reinterpret(c));
                self.sign_extend_top(c, w);
            }
            _ => return nl(Some(at), "not a binary operation"),
        }
        Ok(Form::Val {
            bt: c,
            computed_float: false,
        })
    }

    /// Ends the expression so that its location is `form`'s.
    fn terminate(&mut self, form: Form, bits: u64, root: usize) -> R<()> {
        let at = self.nodes[root].op_index;
        if bits == 0 {
            return nl(
                Some(at),
                "a result of no bits: DWARF has no empty piece list",
            );
        }
        match form {
            Form::Composite(parts) => {
                for (f, b) in parts {
                    self.piece(f, b, at)?;
                }
                Ok(())
            }
            Form::Deferred(id) => self.deferred_or_picked(id, true),
            Form::Undef => {
                // A piece with nothing on the stack is an empty location.
                self.emit(if bits.is_multiple_of(8) && bits > 0 {
                    DwOp::Piece(bits / 8)
                } else {
                    DwOp::BitPiece(bits, 0)
                });
                Ok(())
            }
            Form::Reg { reg, bit } => {
                self.emit(DwOp::Regx(reg));
                if bit != 0 {
                    self.emit(DwOp::BitPiece(bits, bit));
                }
                Ok(())
            }
            Form::Mem { space, bit } => {
                self.memory_terminal(space, &bit, at)?;
                let r = mod8(&bit);
                if r != 0 && !diopter_faults::planted!("lower-mem-piece-bit-dropped") {
                    self.emit(DwOp::BitPiece(bits, r));
                }
                Ok(())
            }
            Form::Const(v, k) => self.implicit_terminal(&v, k, bits, at),
            Form::Val { bt, .. } if bt.bits() > bits => {
                // A narrow integer: the container's low `bits` bits are the
                // value, the rest its sign extension; the result presents
                // exactly the value's bits.
                self.emit(DwOp::StackValue);
                self.emit(DwOp::BitPiece(bits, 0));
                Ok(())
            }
            f => self.single_terminal(&f, at),
        }
    }

    /// The result `v` at bit offset `k`, read as `n` bits:
    /// `DW_OP_implicit_value` of its bytes, and a bit piece selecting the
    /// `n` bits at `k` when that is not all of them. The bytes must be
    /// exactly the value's bits unless the read stays inside them (padding
    /// bits would be read where the reference fails).
    fn implicit_terminal(&mut self, v: &Bits, k: u64, n: u64, at: usize) -> R<()> {
        let w = v.width();
        if !w.is_multiple_of(8) && k.saturating_add(n) > w {
            return nl(
                Some(at),
                format!("reading past the end of a {w}-bit implicit value: DW_OP_implicit_value holds whole bytes"),
            );
        }
        self.emit(DwOp::ImplicitValue(v.to_le_bytes()));
        if k != 0 || n != w {
            self.emit(DwOp::BitPiece(n, k));
        }
        Ok(())
    }

    /// The location of a memory location known when lowering (space 0 only).
    fn memory_terminal(&mut self, space: u32, bit: &BigInt, at: usize) -> R<()> {
        if space != 0 && self.ext {
            let a = floor8(bit);
            self.check_interval(space, &a, &a, at)?;
            self.push_address(wrap64(&a));
            self.form_aspace_address(space);
            return Ok(());
        }
        if space != 0 {
            return nl(
                Some(at),
                format!("a memory location in address space {space}: DWARF 5 locations have no address space (AMD uses DW_OP_LLVM_form_aspace_address)"),
            );
        }
        // Round toward minus infinity: the byte holding the first bit.
        let a = floor8(bit);
        self.check_interval(space, &a, &a, at)?;
        self.emit(DwOp::Addr(wrap64(&a)));
        Ok(())
    }

    /// The location-forming operations for a slot or static form (no piece).
    fn single_terminal(&mut self, f: &Form, at: usize) -> R<()> {
        match f {
            Form::Addr { space, lo, hi } if *space != 0 && self.ext => {
                self.check_interval(*space, lo, hi, at)?;
                self.form_aspace_address(*space);
                Ok(())
            }
            Form::Addr { space, lo, hi } => {
                if *space != 0 {
                    return nl(
                        Some(at),
                        format!("a memory location in address space {space}: DWARF 5 locations have no address space (AMD uses DW_OP_LLVM_form_aspace_address)"),
                    );
                }
                self.check_interval(*space, lo, hi, at)
            }
            Form::Val { .. } => {
                self.emit(DwOp::StackValue);
                Ok(())
            }
            Form::Reg { reg, .. } => {
                self.emit(DwOp::Regx(*reg));
                Ok(())
            }
            Form::Mem { space, bit } => self.memory_terminal(*space, bit, at),
            Form::Const(v, _) => {
                self.emit(DwOp::ImplicitValue(v.to_le_bytes()));
                Ok(())
            }
            Form::Undef => Ok(()),
            Form::ImplPtr(k) => {
                let die = IMPLICIT_DIE_BASE + 0x10 * (*k as u32);
                self.emit(DwOp::ImplicitPointer(die, 0));
                Ok(())
            }
            Form::Composite(_) | Form::Deferred(_) => {
                nl(Some(at), "a composite inside a composite part")
            }
            Form::AddrOfSlot(_) => nl(
                Some(at),
                "an implicit pointer to a location computed at run time, in the result: DW_OP_implicit_pointer names a DIE, whose location would have to be that computation",
            ),
            Form::Loc { .. } | Form::LocMoved => Ok(()),
            Form::Multi(loc) => self.multi_loc(loc, 0, at),
            Form::ConstBefore(..) => {
                self.emit(DwOp::ImplicitValue(Vec::new()));
                Ok(())
            }
        }
    }

    /// Pushes the location `loc` of several single locations (`DW_OP_call4`
    /// of a new location-list DIE), when every single location and an offset
    /// `span` bits further stay inside its storage (a location-list entry is
    /// a DWARF expression, which cannot leave its storage; and see
    /// `Form::Loc`).
    fn multi_loc(&mut self, loc: &LocDesc, span: u64, at: usize) -> R<()> {
        for s in &loc.singles {
            if s.storage == Storage::Undefined {
                continue;
            }
            let Some(size) = diopter_semantics::access::storage_bits(self.ctx, &s.storage) else {
                return nl(
                    Some(at),
                    "a single location whose storage the context does not give",
                );
            };
            if s.offset.sign() == num_bigint::Sign::Minus || &s.offset + span >= size {
                return nl(
                    Some(at),
                    format!("one of several single locations at bit {} of a {size}-bit storage: a location-list entry cannot leave its storage", s.offset),
                );
            }
        }
        let k = self.location_lists.len();
        let Some(die) = u32::try_from(k)
            .ok()
            .and_then(|k| k.checked_mul(0x10))
            .and_then(|o| o.checked_add(LOCLIST_DIE_BASE))
        else {
            return nl(Some(at), "too many location lists");
        };
        self.location_lists.push(loc.clone());
        self.emit(DwOp::Call4(die));
        Ok(())
    }

    /// `DIOpSelect` (AMD's extensions): `DW_OP_LLVM_select_bit_piece` of
    /// the two vectors' locations and the mask, whose lane `i` is the
    /// location the mask's bit `i` chooses, offset by `i` lanes.
    fn lower_select(&mut self, children: &[usize], ty: &Type, at: usize) -> R<Form> {
        let Type::Vector { len, elem } = ty else {
            return nl(Some(at), "not well-formed: DIOpSelect of a non-vector");
        };
        let n = *len;
        if n == 0 || n > 256 {
            return nl(Some(at), "DIOpSelect of no or more than 256 lanes");
        }
        let w = self.bitsizeof(elem, Some(at))?;
        if w == 0 {
            return nl(Some(at), "DIOpSelect of lanes of no bits");
        }
        let (cm, c0, c1) = (children[0], children[1], children[2]);
        let mty = self.nodes[cm].ty.clone();
        let mw = self.bitsizeof(&mty, Some(at))?;
        let fm = self.lower_node(cm)?;
        let f0 = self.lower_node(c0)?;
        let f1 = self.lower_node(c1)?;
        let (t0, t1) = (self.nodes[c0].ty.clone(), self.nodes[c1].ty.clone());
        // The reference's lane i is its top input (c1) where the mask's bit
        // i is set, else c0; select_bit_piece takes the set-bit location
        // from the second entry below the mask: the stack must be
        // [c0's location, c1's location, mask].
        let span = (n - 1) * w;
        match (f0.is_slot(), f1.is_slot()) {
            (false, false) => {
                self.loc_on_top(&f0, &t0, span, at)?;
                self.loc_on_top(&f1, &t1, span, at)?;
            }
            (true, false) => {
                self.loc_on_top(&f0, &t0, span, at)?;
                self.loc_on_top(&f1, &t1, span, at)?;
            }
            (false, true) => {
                self.loc_on_top(&f1, &t1, span, at)?;
                self.loc_on_top(&f0, &t0, span, at)?;
                self.emit(DwOp::Swap);
            }
            (true, true) => {
                self.loc_on_top(&f1, &t1, span, at)?;
                self.emit(DwOp::Swap);
                self.loc_on_top(&f0, &t0, span, at)?;
                self.emit(DwOp::Swap);
            }
        }
        if fm.is_slot() {
            // [mask, l0, l1] -> [l0, l1, mask]
            self.emit(DwOp::Rot);
            self.emit(DwOp::Rot);
        }
        // The mask's bits as an integer of its width (the reference reads
        // `bitsizeof` of its type).
        self.read(&fm, &Type::Int(mw), at, 0)?;
        self.emit(DwOp::Llvm(LlvmDwOp::SelectBitPiece(w, n)));
        Ok(Form::Loc {
            size: n * w,
            bit: 0,
        })
    }

    /// Puts `f`'s location on top of the stack as a location description
    /// (a slot form must already be on top), where offsets up to `span`
    /// bits further stay inside its storage (AMD's offsets fail at once
    /// outside it; see `Form::Loc`).
    fn loc_on_top(&mut self, f: &Form, t: &Type, span: u64, at: usize) -> R<()> {
        let outside = |s: &Self, size: &BigInt, bit: &BigInt| -> R<()> {
            if bit.sign() == num_bigint::Sign::Minus || &(bit + span) >= size {
                return nl(
                    Some(at),
                    format!("a location at bit {bit} of a {size}-bit storage, offset {span} bits further: AMD's offsets fail at once outside the storage, the spec only when it is read"),
                );
            }
            let _ = s;
            Ok(())
        };
        match f {
            Form::Val {
                computed_float: true,
                ..
            } => return nl(
                Some(at),
                "a float computed by DWARF arithmetic as a location: NaN payloads are unspecified",
            ),
            Form::Val { bt, .. } => {
                let size = self.value_loc(t, *bt, at)?;
                outside(self, &BigInt::from(size), &BigInt::zero())?;
            }
            Form::Loc { size, bit } => outside(self, &BigInt::from(*size), &BigInt::from(*bit))?,
            Form::Addr { space, lo, hi } => {
                self.check_interval(*space, lo, hi, at)?;
                let size = self.ctx.memory_bits(*space);
                outside(self, &size, &(lo * 8))?;
                outside(self, &size, &(hi * 8))?;
                self.form_aspace_address(*space);
            }
            Form::Mem { space, bit } => {
                let size = self.ctx.memory_bits(*space);
                outside(self, &size, bit)?;
                let a = floor8(bit);
                self.check_interval(*space, &a, &a, at)?;
                self.push_address(wrap64(&a));
                self.form_aspace_address(*space);
                let r = mod8(bit);
                if r != 0 {
                    self.emit(DwOp::Lit(r as u8));
                    self.emit(DwOp::Llvm(LlvmDwOp::BitOffset));
                }
            }
            Form::Reg { reg, bit } => {
                let size = self.register_bits(*reg, at)?;
                outside(self, &BigInt::from(size), &BigInt::from(*bit))?;
                self.emit(DwOp::Regx(*reg));
                self.offset_loc(size, 0, &BigInt::from(*bit), at)?;
            }
            Form::Const(v, k) => {
                if !v.width().is_multiple_of(8) {
                    return nl(
                        Some(at),
                        format!("a {}-bit implicit value as a location: DW_OP_implicit_value holds whole bytes", v.width()),
                    );
                }
                outside(self, &BigInt::from(v.width()), &BigInt::from(*k))?;
                self.emit(DwOp::ImplicitValue(v.to_le_bytes()));
                self.offset_loc(v.width(), 0, &BigInt::from(*k), at)?;
            }
            Form::Undef => self.emit(DwOp::Llvm(LlvmDwOp::Undefined)),
            Form::Composite(_) | Form::Deferred(_) => {
                let size = self.composite_loc(f.clone(), at)?;
                outside(self, &BigInt::from(size), &BigInt::zero())?;
            }
            Form::ImplPtr(_) | Form::AddrOfSlot(_) => {
                return nl(Some(at), "an implicit pointer as a lane location")
            }
            Form::ConstBefore(..) => {
                return nl(
                    Some(at),
                    "a location before the start of an implicit value, offset: AMD's offsets fail at once outside the storage",
                )
            }
            Form::LocMoved => {
                return nl(
                    Some(at),
                    "a location moved by an offset computed at run time, offset again",
                )
            }
            Form::Multi(loc) => self.multi_loc(loc, span, at)?,
        }
        Ok(())
    }

    /// A bit offset computed at run time into memory (AMD's extensions): the
    /// address moves by the whole bytes (`t >> 3`, by DWARF's address
    /// arithmetic, checked not to wrap as byte offsets are), and
    /// `DW_OP_LLVM_bit_offset` adds the rest (`t & 7`) to the memory
    /// location, which stays inside the address space. Not offset again
    /// (see `Form::LocMoved`).
    fn runtime_bit_offset_memory(
        &mut self,
        fl: Form,
        fb: &Form,
        bty: &Type,
        bw: u64,
        at: usize,
    ) -> R<Form> {
        let (space, lo, hi, r0) = match &fl {
            Form::Addr { space, lo, hi } => (*space, lo.clone(), hi.clone(), 0),
            Form::Mem { space, bit } => {
                let a = floor8(bit);
                (*space, a.clone(), a, mod8(bit))
            }
            _ => return nl(Some(at), "not a memory location"),
        };
        if bw >= 64 && r0 != 0 {
            return nl(
                Some(at),
                "a 64-bit bit offset from inside a byte: the sum could overflow DWARF's 64-bit arithmetic",
            );
        }
        let ob = self.read(fb, bty, at, 0)?;
        if let Form::Mem { .. } = fl {
            // The address below the offset.
            self.push_address(wrap64(&lo));
            self.emit(DwOp::Swap);
        }
        if ob != BaseType::I64 {
            self.emit(DwOp::Convert(Some(BaseType::I64)));
        }
        let i64c = |v: i64| DwOp::ConstType(BaseType::I64, v.to_le_bytes().to_vec());
        if r0 != 0 {
            self.emit(i64c(r0 as i64));
            self.emit(DwOp::Plus);
        }
        // [a, t] -> [t & 7, a + (t >> 3)]
        self.emit(DwOp::Dup);
        self.shift_by_const(DwOp::Shra, BaseType::I64, 3);
        self.emit(DwOp::Convert(None));
        self.emit(DwOp::Rot);
        self.emit(i64c(7));
        self.emit(DwOp::And);
        self.emit(DwOp::Rot);
        self.emit(DwOp::Plus);
        // The real address lies in lo + floor(t_min / 8) ..= hi + floor(t_max / 8).
        use num_integer::Integer;
        let half = BigInt::one() << (bw - 1);
        let tmin: BigInt = BigInt::from(r0) - &half;
        let tmax: BigInt = BigInt::from(r0) + &half - 1;
        let lo = &lo + tmin.div_floor(&BigInt::from(8));
        let hi = &hi + tmax.div_floor(&BigInt::from(8));
        self.check_interval(space, &lo, &hi, at)?;
        self.form_aspace_address(space);
        self.emit(DwOp::Swap);
        self.emit(DwOp::Llvm(LlvmDwOp::BitOffset));
        Ok(Form::LocMoved)
    }

    /// The size of register `reg`: its entity's in the context, or the
    /// input's it was bound to (see `assumed_register_bits`).
    fn register_bits(&self, reg: u16, at: usize) -> R<u64> {
        let name = &self.registers[usize::from(reg)];
        if let Some(b) = self.ctx.entity(name) {
            return Ok(b.width());
        }
        match self.assumed_register_bits.iter().find(|(r, _)| *r == reg) {
            Some((_, bits)) => Ok(*bits),
            None => nl(Some(at), "a register the context does not give"),
        }
    }

    /// The node of the operation at `op_index`.
    fn node_of(&self, op_index: usize) -> usize {
        self.nodes
            .iter()
            .position(|n| n.op_index == op_index)
            .expect("every operation has a node")
    }

    /// An offset computed at run time into a location other than memory
    /// (AMD's extensions). `DW_OP_LLVM_offset` fails at once where the
    /// location leaves its storage, where the spec fails only when it is
    /// read; so the offset is checked at run time (`DW_OP_bra`), and outside
    /// the storage the result is the location moved past its end by a
    /// `DW_OP_bit_piece` offset (not range-checked, ext.rs decision 11),
    /// which fails when read or written as the spec's does. Nothing may
    /// offset the result again (it could come back inside the storage).
    #[allow(clippy::too_many_arguments)]
    fn runtime_offset_loc(
        &mut self,
        fl: &Form,
        lty: &Type,
        fb: &Form,
        bty: &Type,
        scale: i64,
        ty: &Type,
        at: usize,
    ) -> R<Form> {
        let (size, bit) = match fl {
            Form::Reg { reg, bit } => (self.register_bits(*reg, at)?, *bit),
            Form::Const(v, k) => (v.width(), *k),
            Form::Val { bt, .. } => (bt.bits(), 0),
            // A location on the stack does not say whether its storage is
            // implicit, which the guard's outside branch must know (the
            // spec refuses a write there as implicit, not out of bounds).
            Form::Loc { .. } => {
                return nl(
                    Some(at),
                    "a run-time offset into a location already on the stack: its storage may be implicit, which the guard's outside branch would have to know",
                )
            }
            Form::Composite(parts) => (parts.iter().map(|p| p.1).sum(), 0),
            Form::Deferred(id) => {
                let t = self.nodes[*id].ty.clone();
                (self.bitsizeof(&t, Some(at))?, 0)
            }
            _ => return nl(Some(at), "not a location other than memory"),
        };
        let n = self.bitsizeof(ty, Some(at))?;
        if self.incomplete_open {
            return nl(
                Some(at),
                "a run-time offset while a composite's pieces are being added: the guard's piece would join it",
            );
        }
        if size == 0 || n == 0 || size > i64::MAX as u64 / 2 || bit >= size {
            return nl(
                Some(at),
                "a run-time offset into an empty storage or from outside it",
            );
        }
        // The location, then the offset, on top.
        let put_loc = |s: &mut Self| s.loc_on_top(fl, lty, 0, at);
        match (fl.is_slot(), fb.is_slot()) {
            (false, true) => {
                put_loc(self)?;
                self.emit(DwOp::Swap);
            }
            (true, true) => {
                self.emit(DwOp::Swap);
                put_loc(self)?;
                self.emit(DwOp::Swap);
            }
            _ => put_loc(self)?,
        }
        // The offset as an int64_t, or in its own wide signed container (a
        // wider offset must be compared whole), on top.
        let ob = self.read(fb, bty, at, 0)?;
        let cmp = if ob.is_wide() { ob } else { BaseType::I64 };
        if ob != cmp {
            self.emit(DwOp::Convert(Some(cmp)));
        }
        // Inside exactly when lo <= v < hi (bit + scale·v in 0..size).
        let (b, sz, sc) = (bit as i64, size as i64, scale);
        let lo = -(b.div_euclid(sc));
        let hi = (sz - b - 1).div_euclid(sc) + 1;
        let i64c = |v: i64| {
            let bits = Bits::from_bigint(cmp.bits(), &BigInt::from(v));
            DwOp::ConstType(cmp, bits.to_le_bytes())
        };
        self.emit(DwOp::Dup);
        self.emit(i64c(lo));
        self.emit(DwOp::Ge);
        self.emit(DwOp::Over);
        self.emit(i64c(hi));
        self.emit(DwOp::Lt);
        self.emit(DwOp::And);
        // Outside an implicit value the spec's location refuses writes as
        // implicit storage does and fails reads as out of bounds: an empty
        // implicit value does both. Elsewhere the location moved past the
        // storage's end by a piece offset.
        let outside = if matches!(fl, Form::Const(..) | Form::Val { .. }) {
            vec![DwOp::Drop, DwOp::Drop, DwOp::ImplicitValue(Vec::new())]
        } else {
            vec![
                DwOp::Drop,
                DwOp::BitPiece(n, size),
                DwOp::Llvm(LlvmDwOp::PieceEnd),
            ]
        };
        let inside = DwOp::Llvm(if scale == 8 {
            LlvmDwOp::Offset
        } else {
            LlvmDwOp::BitOffset
        });
        let len = |ops: &[DwOp]| encode(ops).len() as i16;
        let skip = DwOp::Skip(len(std::slice::from_ref(&inside)));
        let out_len = len(&outside) + len(std::slice::from_ref(&skip));
        self.emit(DwOp::Bra(out_len));
        for o in outside {
            self.emit(o);
        }
        self.emit(skip);
        self.emit(inside);
        Ok(Form::LocMoved)
    }

    /// The value of type `t` on top, held in base type `bt`, becomes a
    /// location on top (AMD's extensions) that reads and writes as the
    /// spec's implicit location of its bits does; its size in bits. A value
    /// as wide as `bt`: its implicit location (`DW_OP_stack_value`). A
    /// narrow integer (`w` bits of a wider container): a composite of its
    /// `w` bits and [`VALUE_LOC_GAP`] bits of an empty implicit value, so
    /// that a read past the value fails as out of bounds (the empty value
    /// has no bits) and a write anywhere fails as one to implicit storage,
    /// as the spec's; an offset may move into the gap as the spec's may go
    /// past the value's end (the reads there fail alike), and no further
    /// (`Form::Loc`'s checked offsets).
    fn value_loc(&mut self, t: &Type, bt: BaseType, at: usize) -> R<u64> {
        let w = self.bitsizeof(t, Some(at))?;
        if w == bt.bits() {
            self.emit(DwOp::StackValue);
            return Ok(w);
        }
        // Only a narrow integer in its own container: a value retyped by
        // DIOpAddrOf and DIOpDeref is its whole base type's bits.
        let narrow = self.bt(t, at).ok() == Some(bt) && self.value_width(t, bt, at)? < bt.bits();
        if !self.ext || !narrow {
            return self.same_width_as_container(t, bt, at).map(|_| w);
        }
        if self.incomplete_open {
            return nl(
                Some(at),
                "a composite formed while another one's pieces are being added: its pieces would join that one",
            );
        }
        self.emit(DwOp::StackValue);
        self.emit(DwOp::BitPiece(w, 0));
        self.emit(DwOp::ImplicitValue(Vec::new()));
        self.emit(DwOp::BitPiece(VALUE_LOC_GAP, 0));
        self.emit(DwOp::Llvm(LlvmDwOp::PieceEnd));
        Ok(w + VALUE_LOC_GAP)
    }

    /// A value of type `t` held in base type `bt` becomes an implicit
    /// location of `bt`'s size (`DW_OP_stack_value`): only right when `t`
    /// is as wide (a narrow integer lives in a wider container).
    fn same_width_as_container(&self, t: &Type, bt: BaseType, at: usize) -> R<()> {
        let bits = self.bitsizeof(t, Some(at))?;
        if bits != bt.bits() {
            return nl(
                Some(at),
                format!("a {bits}-bit value computed in a {}-bit base type, as a location: its implicit location would be the base type's size", bt.bits()),
            );
        }
        Ok(())
    }

    /// Forms the composite `f` (`Form::Composite` or `Form::Deferred`) as a
    /// location on top of the stack, with `DW_OP_LLVM_piece_end` (AMD's
    /// extensions); its size in bits.
    fn composite_loc(&mut self, f: Form, at: usize) -> R<u64> {
        let bits = match &f {
            Form::Composite(parts) => parts.iter().map(|p| p.1).sum(),
            Form::Deferred(id) => {
                let ty = self.nodes[*id].ty.clone();
                self.bitsizeof(&ty, Some(at))?
            }
            _ => return nl(Some(at), "not a composite"),
        };
        if bits == 0 {
            return nl(
                Some(at),
                "a composite of no bits: DWARF has no empty piece list",
            );
        }
        if self.incomplete_open {
            return nl(
                Some(at),
                "a composite formed while another one's pieces are being added: its pieces would join that one",
            );
        }
        let deferred = matches!(f, Form::Deferred(_));
        let (reads, divs) = (self.read_sites.len(), self.div_ops.len());
        let was = std::mem::replace(&mut self.explicit_undef, true);
        let r = self.piece(f, bits, at);
        self.explicit_undef = was;
        r?;
        // A DIOpComposite's parts are lowered here, later than where the
        // reference evaluates them: a read or division among them could
        // fail after (or instead of) a failure the reference meets first.
        if deferred && (self.read_sites.len() > reads || self.div_ops.len() > divs) {
            return nl(
                Some(at),
                "a composite whose parts read or divide at run time, formed after later operations: its failures would come in another order than the spec's",
            );
        }
        self.emit(DwOp::Llvm(LlvmDwOp::PieceEnd));
        self.incomplete_open = false;
        Ok(bits)
    }

    /// Offsets the location on top (`Form::Loc` of `size` bits at `bit`) by
    /// the constant `v` bits, when the result stays inside its storage
    /// (see `Form::Loc`).
    fn offset_loc(&mut self, size: u64, bit: u64, v: &BigInt, at: usize) -> R<Form> {
        let new = BigInt::from(bit) + v;
        let Some(nb) = new.to_u64().filter(|n| *n < size) else {
            return nl(
                Some(at),
                format!("an offset to bit {new} of a {size}-bit computed location: AMD's DW_OP_LLVM_offset fails at once outside the storage, the spec only when it is read"),
            );
        };
        if v.is_zero() {
            return Ok(Form::Loc { size, bit: nb });
        }
        if mod8(v) == 0 && v.sign() == num_bigint::Sign::Plus {
            self.emit(DwOp::Llvm(LlvmDwOp::OffsetUconst(
                floor8(v).to_u64().expect("below the size"),
            )));
        } else {
            let c = v.to_i64().expect("below the size");
            self.emit(DwOp::Consts(c));
            self.emit(DwOp::Llvm(LlvmDwOp::BitOffset));
        }
        Ok(Form::Loc { size, bit: nb })
    }

    /// The location a static form stands for, as the reference's location
    /// description (`ty`: the form's type, for an implicit pointer's).
    fn static_location(&mut self, f: &Form, ty: &Type, at: usize) -> R<LocDesc> {
        Ok(match f {
            Form::Reg { reg, bit } => LocDesc::entity(&self.registers[usize::from(*reg)], *bit),
            Form::Mem { space, bit } => {
                LocDesc::single(Storage::Memory { addrspace: *space }, bit.clone())
            }
            Form::Const(v, k) => {
                LocDesc::single(Storage::Implicit { value: v.clone() }, BigInt::from(*k))
            }
            Form::Undef => LocDesc::undefined(),
            Form::Multi(loc) => loc.clone(),
            Form::ConstBefore(v, k) => {
                LocDesc::single(Storage::Implicit { value: v.clone() }, k.clone())
            }
            Form::ImplPtr(k) => {
                let t = self.implicit_targets[*k].clone();
                let bits = self.bitsizeof(ty, Some(at))?;
                LocDesc::implicit_address(t.loc, t.ty, ty.clone(), bits)
            }
            Form::Composite(parts) => {
                let mut out = Vec::new();
                for (pf, pb) in parts {
                    if matches!(pf, Form::ImplPtr(_)) {
                        return nl(Some(at), "an implicit pointer inside a composite input, as a location known when lowering");
                    }
                    let loc = self.static_location(pf, ty, at)?;
                    out.push(Part { loc, bits: *pb });
                }
                LocDesc::composite(out)
            }
            Form::Deferred(id) => {
                let children = self.nodes[*id].children.clone();
                let mut out = Vec::new();
                for c in children {
                    let cf = self.lower_node(c)?;
                    let cty = self.nodes[c].ty.clone();
                    let bits = self.bitsizeof(&cty, Some(at))?;
                    let loc = self.static_location(&cf, &cty, at)?;
                    out.push(Part { loc, bits });
                }
                LocDesc::composite(out)
            }
            Form::Addr { .. }
            | Form::Val { .. }
            | Form::AddrOfSlot(_)
            | Form::Loc { .. }
            | Form::LocMoved => {
                return nl(
                    Some(at),
                    "a location computed at run time where one known when lowering is needed",
                )
            }
        })
    }

    /// One piece of a composite: `f`'s location then `DW_OP_piece` (or
    /// `DW_OP_bit_piece` when the part is not whole bytes or starts inside
    /// its storage).
    fn piece(&mut self, f: Form, bits: u64, at: usize) -> R<()> {
        match f {
            Form::Composite(parts) => {
                let total: u64 = parts.iter().map(|p| p.1).sum();
                if total != bits {
                    return nl(Some(at), "a composite part of another size than its parts");
                }
                for (pf, pb) in parts {
                    self.piece(pf, pb, at)?;
                }
                return Ok(());
            }
            Form::Deferred(id) => {
                return self.deferred_or_picked(id, false);
            }
            _ => {}
        }
        // A part of no bits is still a piece (`DW_OP_piece 0`): its location
        // was computed, and after a piece only another piece may follow.
        if let Form::Val {
            computed_float: true,
            ..
        } = f
        {
            return nl(
                Some(at),
                "a float computed by DWARF arithmetic as a composite part: NaN payloads are unspecified",
            );
        }
        let offset = match &f {
            Form::Reg { bit, .. } => *bit,
            Form::Mem { bit, .. } => mod8(bit),
            Form::Const(v, k) => {
                // DW_OP_implicit_value holds whole bytes: a part reaching
                // into the padding would read bits the reference does not
                // have.
                if !v.width().is_multiple_of(8) && k.saturating_add(bits) > v.width() {
                    return nl(
                        Some(at),
                        format!("a composite part reading past the end of a {}-bit implicit value: DW_OP_implicit_value holds whole bytes", v.width()),
                    );
                }
                *k
            }
            Form::ConstBefore(_, k) => {
                // The empty implicit value fails every read, right only for
                // a part whose bits all lie before the value: one reaching
                // into it reads those bits in the spec (through a later
                // offset into the composite).
                if k + BigInt::from(bits) > BigInt::zero() {
                    return nl(
                        Some(at),
                        "a composite part reaching from before the start of an implicit value into it: DW_OP_bit_piece offsets are unsigned",
                    );
                }
                0
            }
            // The guard of a run-time offset gives a location outside its
            // storage one that fails every read; but a part starting before
            // its storage reaches back into it, and a later offset into the
            // composite reads those bits in the spec.
            Form::LocMoved => {
                return nl(
                    Some(at),
                    "a location moved by an offset computed at run time as a composite part: it may start before its storage and reach back into it, which the guard's outside branch cannot say",
                )
            }
            _ => 0,
        };
        if self.explicit_undef && matches!(f, Form::Undef) {
            self.emit(DwOp::Llvm(LlvmDwOp::Undefined));
        }
        self.single_terminal(&f, at)?;
        if offset == 0 && bits.is_multiple_of(8) {
            self.emit(DwOp::Piece(bits / 8));
        } else {
            self.emit(DwOp::BitPiece(bits, offset));
        }
        self.incomplete_open = true;
        Ok(())
    }

    /// The pieces of a `DIOpComposite` entry: each part lowered in push
    /// order (the deepest first, at bit 0), from an empty DWARF stack.
    /// [`Self::deferred_pieces`]; with AMD's extensions, where a part needs
    /// a composite (or a guard's piece) of its own while the parts' pieces
    /// are open, [`Self::picked_pieces`] instead.
    fn deferred_or_picked(&mut self, id: usize, root: bool) -> R<()> {
        if !self.ext {
            return self.deferred_pieces(id);
        }
        let snap = self.snapshot();
        match self.deferred_pieces(id) {
            Err(e)
                if e.reason
                    .starts_with("a composite formed while another one's pieces")
                    || e.reason
                        .starts_with("a run-time offset while a composite's pieces") =>
            {
                self.restore(snap);
                self.picked_pieces(id, root)
            }
            r => r,
        }
    }

    /// The parts of a `DIOpComposite` entry as locations on the stack first,
    /// in push order (each part's own composites formed while no piece is
    /// open), then the composite from copies of them (`DW_OP_pick`), closed
    /// by `DW_OP_LLVM_piece_end`, and the originals dropped. Not at the
    /// root, the composite is then one piece of the enclosing one.
    fn picked_pieces(&mut self, id: usize, root: bool) -> R<()> {
        let children = self.nodes[id].children.clone();
        let at = self.nodes[id].op_index;
        let n = children.len();
        if n == 0 || n > 200 {
            return nl(
                Some(at),
                "a composite of no or more than 200 parts, formed from copies",
            );
        }
        // Something other than an incomplete composite below the parts, so
        // that the first part's own composite does not join an open one.
        let outer_open = self.incomplete_open;
        if outer_open {
            self.emit(DwOp::Lit(0));
        }
        self.incomplete_open = false;
        let mut sizes = Vec::new();
        for &c in &children {
            let f = self.lower_node(c)?;
            let cty = self.nodes[c].ty.clone();
            let b = self.bitsizeof(&cty, Some(at))?;
            if let Form::Val {
                computed_float: true,
                ..
            } = f
            {
                return nl(
                    Some(at),
                    "a float computed by DWARF arithmetic as a composite part: NaN payloads are unspecified",
                );
            }
            if !matches!(f, Form::Loc { .. } | Form::LocMoved) {
                self.loc_on_top(&f, &cty, 0, at)?;
            }
            sizes.push(b);
        }
        for (i, b) in sizes.iter().enumerate() {
            // Part i lies n - 1 - i entries below the top, and one more once
            // the incomplete composite is there.
            let depth = n - 1 - i + usize::from(i > 0);
            self.emit(DwOp::Pick(depth as u8));
            if b.is_multiple_of(8) {
                self.emit(DwOp::Piece(b / 8));
            } else {
                self.emit(DwOp::BitPiece(*b, 0));
            }
        }
        self.emit(DwOp::Llvm(LlvmDwOp::PieceEnd));
        for _ in 0..n + usize::from(outer_open) {
            self.emit(DwOp::Swap);
            self.emit(DwOp::Drop);
        }
        self.incomplete_open = outer_open;
        if !root {
            let total: u64 = sizes.iter().sum();
            if total.is_multiple_of(8) {
                self.emit(DwOp::Piece(total / 8));
            } else {
                self.emit(DwOp::BitPiece(total, 0));
            }
            self.incomplete_open = true;
        }
        Ok(())
    }

    /// The lowering's state, to try one way and fall back on another.
    fn snapshot(&self) -> Snapshot {
        Snapshot {
            ops: self.ops.len(),
            div_ops: self.div_ops.len(),
            registers: self.registers.len(),
            implicit_targets: self.implicit_targets.len(),
            location_lists: self.location_lists.len(),
            read_sites: self.read_sites.len(),
            assumed_register_bits: self.assumed_register_bits.len(),
            explicit_undef: self.explicit_undef,
            incomplete_open: self.incomplete_open,
        }
    }

    fn restore(&mut self, s: Snapshot) {
        // Every list only grows while lowering: cutting it back restores it.
        self.ops.truncate(s.ops);
        self.div_ops.truncate(s.div_ops);
        self.registers.truncate(s.registers);
        self.implicit_targets.truncate(s.implicit_targets);
        self.location_lists.truncate(s.location_lists);
        self.read_sites.truncate(s.read_sites);
        self.assumed_register_bits.truncate(s.assumed_register_bits);
        self.explicit_undef = s.explicit_undef;
        self.incomplete_open = s.incomplete_open;
    }

    fn deferred_pieces(&mut self, id: usize) -> R<()> {
        let children = self.nodes[id].children.clone();
        let at = self.nodes[id].op_index;
        for c in children {
            let f = self.lower_node(c)?;
            let cty = self.nodes[c].ty.clone();
            let b = self.bitsizeof(&cty, Some(at))?;
            self.piece(f, b, at)?;
        }
        Ok(())
    }
}
