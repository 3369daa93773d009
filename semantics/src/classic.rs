//! The meaning of upstream LLVM's classic `!DIExpression(DW_OP_...)`, given by
//! translation into the DIOp language the reference interpreter runs (no
//! second interpreter: DESIGN.md, "Two dialects, one language").
//!
//! A classic expression is untyped DWARF: a stack of values of the *generic
//! type* (an integer as wide as an address) or of base types made by
//! `DW_OP_LLVM_convert`. The translator keeps that stack symbolically: each
//! entry is the DIOp sequence that pushes its value, with its DWARF type, so
//! `DW_OP_dup`, `over` and `swap` copy or reorder sequences and every binary
//! operation concatenates its two operands' sequences with the DIOp that
//! combines them. Where DWARF leaves a convention open, the translation takes
//! the reading that is sound for what a debugger shows, decided once and
//! listed in `docs/classic.md` and the errata report
//! ([`DECISIONS`]):
//!
//! * the generic type is `iW`, `W` the data layout's address-space-0 pointer
//!   width;
//! * an SSA value narrower than `W` is pushed with **unknown upper bits**:
//!   an extra input (a [`Hole::UpperBits`]) fills them, so a verdict holds
//!   whatever the register held above the value;
//! * the generic type's signedness, where DWARF 5 gives it none and
//!   debuggers differ (`DW_OP_div`, `mod`, `lt`/`le`/`gt`/`ge`), is an extra
//!   1-bit input (a [`Hole::Signedness`]): 1 reads signed (DWARF 5's text),
//!   0 unsigned (GDB's and LLDB's generic values), and a verdict must hold
//!   for both;
//! * results are read as the variable (or fragment) of `N` bits: a stack
//!   value keeps its low `N` bits, a register location its low `N` bits, a
//!   memory location `N` bits at the address.

use crate::ast::{ArgDecl, Bare, Dialect, Expr, Literal, Op, OpNode, Span};
use crate::diag::Diagnostic;
use crate::syntax::classic::{ClassicExpr, ClassicOp};
use crate::types::{DataLayout, Type, TypeTable};
use num_bigint::BigInt;

/// How the record uses its location operands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecordUse {
    /// `#dbg_value`/`#dbg_assign`'s value: the operand is the value (or,
    /// without `DW_OP_stack_value`, a computed address).
    Value,
    /// `#dbg_declare`: the operand is the variable's address.
    Declare,
}

/// An extra input of the translation, after the record's operands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Hole {
    /// The `bits` bits above operand `operand`'s value in the register the
    /// debugger reads (an `i{bits}` input).
    UpperBits { operand: usize, bits: u64 },
    /// The generic type's signedness as the debugger reads it (`i1`: 1
    /// signed, 0 unsigned).
    Signedness,
}

/// What the translated expression yields.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// The operand's own location (an empty `#dbg_value` expression).
    Register,
    /// An implicit value (`DW_OP_stack_value`, `DW_OP_LLVM_extract_bits_*`).
    Value,
    /// Memory at the computed address.
    Memory,
}

/// A classic expression in the DIOp language.
#[derive(Clone, Debug)]
pub struct Translation {
    /// Arguments: the record's operands (`DIOpArg(k)` is operand `k`), then
    /// one per [`Hole`].
    pub bare: Bare,
    pub holes: Vec<Hole>,
    pub kind: Kind,
    /// The trailing `DW_OP_LLVM_fragment`'s `(offset, size)` in bits.
    pub fragment: Option<(u64, u64)>,
    /// The result's width: the fragment's size, else the variable's.
    pub bits: u64,
}

/// The decisions the translation takes where DWARF and LLVM leave the
/// meaning open: `(name, decision and why, the test pinning it)`. The errata report lists them and
/// `docs/classic.md` explains them; each has a test in `tests/classic.rs` of
/// the semantics crate.
pub const DECISIONS: &[(&str, &str, &str)] = &[
    ("classic: generic type width", "The generic type is an integer as wide as an address-space-0 pointer of the module's data layout (`p:64` gives i64; LLVM's default layout too); DWARF 5 2.5.1 gives it the target's address size and LLVM's backend emits DW_OP_* for that target.", "generic_width_is_the_pointer_width"),
    ("classic: narrower SSA values", "An SSA value of K < W bits is pushed with unknown upper W-K bits (an extra input the verdict quantifies over): LLVM masks sub-registers (DwarfExpression::maskSubRegister) but a value kept in a full register after type promotion (RISC-V's sign-extended i32, any-extended i8) carries whatever the register holds, and GDB and LLDB push the whole register. An operation whose low bits depend on the upper ones (shr, div, comparisons) is therefore trusted only where the result does not depend on them.", "narrow_values_have_unknown_upper_bits_that_low_bits_ignore"),
    ("classic: wider SSA values", "An integer operand wider than the generic type cannot be pushed (refused with a diagnostic); a register location of it (empty expression) is still read.", "generic_width_is_the_pointer_width"),
    ("classic: generic signedness", "Where DWARF 5 leaves the generic type's signedness open and debuggers differ (DW_OP_div: DWARF 5 says signed; DW_OP_mod: unspecified; DW_OP_lt/le/gt/ge: DWARF 5 says signed; GDB's evaluator computes generic values as an unsigned address-sized type and LLDB's as unsigned scalars) the reading is an extra 1-bit input: a record must show the right value under both the signed and the unsigned reading. shr is logical and shra arithmetic in every reading; eq/ne need none.", "generic_signedness_is_an_input_of_the_verdict"),
    ("classic: typed values", "After DW_OP_LLVM_convert the value has a base type: arithmetic is done at its width, div/mod/comparisons with its encoding's signedness (DW_ATE_signed/signed_char signed; unsigned/unsigned_char/boolean unsigned; other encodings refused). A generic value meeting a base type of the same width takes the base type (GDB refuses the mix, which shows nothing: sound); of another width it is refused.", "typed_values_use_their_own_signedness_and_width"),
    ("classic: DW_OP_LLVM_convert", "Narrowing truncates; widening extends by the source type's signedness (DWARF 5 DW_OP_convert, what debuggers do). LLVM's DWARF 4 lowering extends by the target's encoding instead, so a widening convert whose source and target signedness differ, or that widens a generic value, is refused.", "convert_extends_by_the_source_signedness"),
    ("classic: variable read from a wider value", "A variable (or fragment) of N bits reads the low N bits of a wider stack value or register (little-endian: the first N bits, as GDB takes the leading bytes of an implicit value); a stack value narrower than the variable is refused (a debugger would read bytes the expression did not give), and so is a non-integer register narrower than it; an integer register narrower than the variable (debugify gives an i1 an 8-bit variable) is read with the bits above the value unknown, an extra input as for narrow values on the DWARF stack.", "a_variable_reads_the_low_bits_of_a_wider_value"),
    ("classic: stack_value versus memory", "With DW_OP_stack_value (or DW_OP_LLVM_extract_bits_*) the variable is the computed value (read-only). A #dbg_value with an empty expression is the operand's register location. A #dbg_value with operations and no stack_value describes memory at the computed address, a trailing DW_OP_deref being that memory's implied read (DwarfExpression turns it into a memory location); a #dbg_declare's operand is the address, its expression modifies it, and a DW_OP_deref in it is a real load.", "stack_value_versus_memory"),
    ("classic: fragments", "DW_OP_LLVM_fragment(offset, size) makes the record describe `size` bits of the variable at `offset`; the translated expression yields those `size` bits. A fragment outside the variable is refused (LLVM's verifier rejects it).", "fragments_describe_part_of_the_variable"),
    ("classic: deref", "DW_OP_deref reads a generic-width value at the address (address space 0, or the pointer operand's own address space); DW_OP_deref_size N reads N bytes and zero-extends them (DWARF 5); N beyond the generic width is refused.", "deref_and_deref_size_read_memory"),
    ("classic: extract_bits", "DW_OP_LLVM_extract_bits_zext/sext(offset, size) take bits offset..offset+size of the value (of the memory first, for a #dbg_declare, read with deref_size) and zero- or sign-extend them in the generic type, as LLVM's DwarfExpression lowers them (shl then shr/shra); the result is an implicit value.", "extract_bits"),
    ("classic: shifts", "A shift amount at or above the width gives 0 (shl, shr) or the sign fill (shra), as DIOpShl/LShr/AShr; debuggers compute host shifts there (undefined in C), so such records say nothing reliable either way.", "bitwise_and_shifts"),
    ("classic: constants", "DW_OP_constu/plus_uconst take their operand modulo 2^W; DW_OP_consts takes LLVM's unsigned 64-bit element as a two's-complement int64, then modulo 2^W; DW_OP_lit0 is 0.", "stack_operations_and_constants"),
    ("classic: tag offset", "DW_OP_LLVM_tag_offset changes the memory tag a debugger uses for HWASan, not the address or the bits read: no effect on the value shown.", "stack_operations_and_constants"),
    ("classic: refused operations", "DW_OP_LLVM_entry_value (the value at function entry: diopter has no entry state), DW_OP_LLVM_implicit_pointer, DW_OP_regN/regx/bregN/bregx (machine registers: not IR), DW_OP_push_object_address (no object), DW_OP_xderef (target-defined address spaces), and the operations LLVM 19's DIExpression::isValid rejects (DW_OP_neg, lit1..31, pick, ...), each with a diagnostic naming it.", "every_operation_llvm_accepts_has_a_meaning_or_a_named_refusal"),
    ("classic: poison operands", "A poison or undef location operand has the undefined location (reading it fails): the record shows the variable as optimized out, a refinement of any value.", "poison_operands_show_nothing"),
];

#[derive(Clone, Debug, PartialEq, Eq)]
enum CTy {
    Generic,
    Base {
        bits: u64,
        signed: bool,
    },
    /// An untouched pointer operand (an address in its own address space).
    Ptr(Type),
}

#[derive(Clone, Debug)]
struct Entry {
    ops: Vec<OpNode>,
    ty: CTy,
}

/// The translated expression is bounded: operations that copy their operands
/// (comparisons, the signedness choice) could otherwise grow it exponentially.
pub const MAX_OPS: usize = 20_000;

fn n(op: Op) -> OpNode {
    OpNode {
        op,
        span: Span::default(),
    }
}

fn int(w: u64) -> Type {
    Type::Int(w)
}

/// `DIOpConstant(iw v mod 2^w)`.
fn konst(w: u64, v: u64) -> OpNode {
    let v = if w < 64 { v & ((1u64 << w) - 1) } else { v };
    n(Op::Constant(int(w), Literal::Int(BigInt::from(v))))
}

/// `a OP b`: both operands' operations, then `op`.
pub fn binary(a: &[OpNode], b: &[OpNode], op: Op) -> Vec<OpNode> {
    let mut v = a.to_vec();
    v.extend(b.iter().cloned());
    v.push(n(op));
    v
}

/// Unsigned division or modulo of two `iw` values, through `w + 1` bits
/// (DIOp's Div and Mod are signed).
pub fn unsigned_binary(a: &[OpNode], b: &[OpNode], w: u64, op: Op) -> Vec<OpNode> {
    let mut v = a.to_vec();
    v.push(n(Op::ZExt(int(w + 1))));
    v.extend(b.iter().cloned());
    v.push(n(Op::ZExt(int(w + 1))));
    v.push(n(op));
    v.push(n(Op::Convert(int(w))));
    v
}

/// `a < b` as an `iw` 1/0: the sign bit of `a - b` in `w + 1` bits.
pub fn less_than(a: &[OpNode], b: &[OpNode], w: u64, signed: bool) -> Vec<OpNode> {
    let ext = |t| if signed { Op::SExt(t) } else { Op::ZExt(t) };
    let mut v = a.to_vec();
    v.push(n(ext(int(w + 1))));
    v.extend(b.iter().cloned());
    v.push(n(ext(int(w + 1))));
    v.push(n(Op::Sub));
    v.push(konst(w + 1, w));
    v.push(n(Op::LShr));
    v.push(n(Op::Convert(int(w))));
    v
}

/// `a != b` as an `iw` 1/0: the top bit of `d | -d`, `d = a ^ b`.
pub fn not_equal(a: &[OpNode], b: &[OpNode], w: u64) -> Vec<OpNode> {
    let d = binary(a, b, Op::Xor);
    let mut v = d.clone();
    v.push(konst(w, 0));
    v.extend(d);
    v.push(n(Op::Sub));
    v.push(n(Op::Or));
    v.push(konst(w, w - 1));
    v.push(n(Op::LShr));
    v
}

/// `1 - v` for a 1/0 value `v` of `iw`.
pub fn flip(mut v: Vec<OpNode>, w: u64) -> Vec<OpNode> {
    v.push(konst(w, 1));
    v.push(n(Op::Xor));
    v
}

/// `c ? a : b` for an `i1` `c` and `iw` values: `b ^ ((a ^ b) & -zext(c))`.
pub fn select(c: &[OpNode], a: &[OpNode], b: &[OpNode], w: u64) -> Vec<OpNode> {
    let mut v = b.to_vec();
    v.extend(binary(a, b, Op::Xor));
    v.push(konst(w, 0));
    v.extend(c.iter().cloned());
    if w > 1 {
        v.push(n(Op::ZExt(int(w))));
    }
    v.push(n(Op::Sub));
    v.push(n(Op::And));
    v.push(n(Op::Xor));
    v
}

/// `DIOpConstant(iw v mod 2^w)`.
pub fn constant(w: u64, v: u64) -> OpNode {
    konst(w, v)
}

struct Tx<'a> {
    operands: &'a [Type],
    dl: &'a DataLayout,
    types: &'a TypeTable,
    w: u64,
    holes: Vec<Hole>,
    stack: Vec<Entry>,
}

fn err(o: &ClassicOp, m: impl Into<String>) -> Diagnostic {
    Diagnostic::error(o.span, m)
}

impl Tx<'_> {
    fn hole(&mut self, h: Hole) -> u64 {
        let k = match self.holes.iter().position(|x| *x == h) {
            Some(k) => k,
            None => {
                self.holes.push(h);
                self.holes.len() - 1
            }
        };
        (self.operands.len() + k) as u64
    }

    fn bits(&self, t: &Type) -> Option<u64> {
        self.dl.bitsizeof(t, self.types).ok()
    }

    fn width(&self, t: &CTy) -> u64 {
        match t {
            CTy::Generic => self.w,
            CTy::Base { bits, .. } => *bits,
            CTy::Ptr(p) => self.bits(p).unwrap_or(self.w),
        }
    }

    /// Operand `k` pushed as a DWARF value.
    fn push_operand(&mut self, k: usize, o: &ClassicOp) -> Result<Entry, Diagnostic> {
        let Some(t) = self.operands.get(k).cloned() else {
            return Err(err(
                o,
                format!(
                    "`DW_OP_LLVM_arg {k}`: the record has {} location operand(s)",
                    self.operands.len()
                ),
            ));
        };
        if t.is_ptr() {
            return Ok(Entry {
                ops: vec![n(Op::Arg(k as u64, t.clone()))],
                ty: CTy::Ptr(t),
            });
        }
        let Some(kb) = t.int_width() else {
            return Err(err(o, format!("operand {k} of type `{t}` cannot be pushed onto the DWARF stack (integers and pointers only)")));
        };
        self.widen(vec![n(Op::Arg(k as u64, t))], kb, k, o)
    }

    /// A `kb`-bit value of operand `k` in the generic type, with unknown
    /// upper bits.
    fn widen(
        &mut self,
        mut ops: Vec<OpNode>,
        kb: u64,
        k: usize,
        o: &ClassicOp,
    ) -> Result<Entry, Diagnostic> {
        let w = self.w;
        if kb > w {
            return Err(err(o, format!("operand {k} has {kb} bits, more than the {w}-bit generic type (decision: wider SSA values are refused)")));
        }
        if kb < w {
            let h = self.hole(Hole::UpperBits {
                operand: k,
                bits: w - kb,
            });
            ops.push(n(Op::ZExt(int(w))));
            ops.push(n(Op::Arg(h, int(w - kb))));
            ops.push(n(Op::ZExt(int(w))));
            ops.push(konst(w, kb));
            ops.push(n(Op::Shl));
            ops.push(n(Op::Or));
        }
        Ok(Entry {
            ops,
            ty: CTy::Generic,
        })
    }

    /// An entry as an integer value (a pointer operand becomes generic).
    fn value(&mut self, e: Entry, o: &ClassicOp) -> Result<Entry, Diagnostic> {
        match &e.ty {
            CTy::Ptr(p) => {
                let pb = self.bits(p).unwrap_or(self.w);
                let k = match e.ops.first().map(|x| &x.op) {
                    Some(Op::Arg(k, _)) => *k as usize,
                    _ => 0,
                };
                let mut ops = e.ops.clone();
                ops.push(n(Op::Reinterpret(int(pb))));
                self.widen(ops, pb, k, o)
            }
            _ => Ok(e),
        }
    }

    /// An entry as a pointer value (an address).
    fn address(&mut self, e: Entry, o: &ClassicOp) -> Result<Vec<OpNode>, Diagnostic> {
        match e.ty {
            CTy::Ptr(_) => Ok(e.ops),
            CTy::Generic => {
                let mut ops = e.ops;
                ops.push(n(Op::Reinterpret(Type::opaque_ptr(0))));
                Ok(ops)
            }
            CTy::Base { bits, .. } => Err(err(
                o,
                format!(
                    "`{}` needs an address, found a value of a {bits}-bit base type",
                    o.name
                ),
            )),
        }
    }

    fn pop(&mut self, o: &ClassicOp) -> Result<Entry, Diagnostic> {
        self.stack
            .pop()
            .ok_or_else(|| err(o, format!("`{}`: the DWARF stack is empty", o.name)))
    }

    fn pop_value(&mut self, o: &ClassicOp) -> Result<Entry, Diagnostic> {
        let e = self.pop(o)?;
        self.value(e, o)
    }

    /// Two values of one type (DWARF 5: binary operations need one type).
    fn pop2(&mut self, o: &ClassicOp) -> Result<(Entry, Entry, CTy), Diagnostic> {
        let b = self.pop_value(o)?;
        let a = self.pop_value(o)?;
        let w = self.w;
        let ty = match (&a.ty, &b.ty) {
            (x, y) if x == y => x.clone(),
            (CTy::Generic, t @ CTy::Base { bits, .. })
            | (t @ CTy::Base { bits, .. }, CTy::Generic)
                if *bits == w =>
            {
                t.clone()
            }
            (x, y) => {
                return Err(err(
                    o,
                    format!(
                        "`{}` on values of different types ({} and {}): DWARF 5 requires one type",
                        o.name,
                        self.show(x),
                        self.show(y)
                    ),
                ))
            }
        };
        Ok((a, b, ty))
    }

    fn show(&self, t: &CTy) -> String {
        match t {
            CTy::Generic => format!("generic i{}", self.w),
            CTy::Base { bits, signed } => {
                format!("{} {bits}-bit", if *signed { "signed" } else { "unsigned" })
            }
            CTy::Ptr(p) => format!("`{p}`"),
        }
    }

    fn push(&mut self, ops: Vec<OpNode>, ty: CTy, o: &ClassicOp) -> Result<(), Diagnostic> {
        let total: usize = self.stack.iter().map(|e| e.ops.len()).sum::<usize>() + ops.len();
        if total > MAX_OPS {
            return Err(err(
                o,
                format!("the translation exceeds {MAX_OPS} DIOps (copied operands)"),
            ));
        }
        self.stack.push(Entry { ops, ty });
        Ok(())
    }

    fn bin(a: &Entry, b: &Entry, op: Op) -> Vec<OpNode> {
        binary(&a.ops, &b.ops, op)
    }

    fn unsigned(a: &Entry, b: &Entry, w: u64, op: Op) -> Vec<OpNode> {
        unsigned_binary(&a.ops, &b.ops, w, op)
    }

    fn less(a: &Entry, b: &Entry, w: u64, signed: bool) -> Vec<OpNode> {
        less_than(&a.ops, &b.ops, w, signed)
    }

    fn not_equal(a: &Entry, b: &Entry, w: u64) -> Vec<OpNode> {
        not_equal(&a.ops, &b.ops, w)
    }

    fn flip(v: Vec<OpNode>, w: u64) -> Vec<OpNode> {
        flip(v, w)
    }

    /// `s ? rs : ru` on the signedness input.
    fn choose(&mut self, rs: Vec<OpNode>, ru: Vec<OpNode>, w: u64) -> Vec<OpNode> {
        let s = self.hole(Hole::Signedness);
        select(&[n(Op::Arg(s, int(1)))], &rs, &ru, w)
    }

    /// A comparison result (width `w`) as a generic value.
    fn to_generic(&self, mut v: Vec<OpNode>, w: u64) -> Vec<OpNode> {
        if w < self.w {
            v.push(n(Op::ZExt(int(self.w))));
        } else if w > self.w {
            v.push(n(Op::Convert(int(self.w))));
        }
        v
    }

    fn sign_dependent(&mut self, ty: &CTy, w: u64, f: impl Fn(bool) -> Vec<OpNode>) -> Vec<OpNode> {
        match ty {
            CTy::Base { signed, .. } => f(*signed),
            _ => {
                let (rs, ru) = (f(true), f(false));
                self.choose(rs, ru, w)
            }
        }
    }

    fn step(&mut self, o: &ClassicOp, use_: RecordUse) -> Result<(), Diagnostic> {
        let w = self.w;
        match o.name.as_str() {
            "DW_OP_LLVM_arg" => {
                let e = self.push_operand(o.args[0] as usize, o)?;
                self.push(e.ops, e.ty, o)?;
            }
            "DW_OP_constu" => self.push(vec![konst(w, o.args[0])], CTy::Generic, o)?,
            "DW_OP_consts" => {
                // Two's complement int64, then modulo 2^W (sign-extended when W > 64).
                let v = o.args[0] as i64;
                let ops = if w <= 64 {
                    vec![konst(w, v as u64)]
                } else {
                    vec![n(Op::Constant(int(w), Literal::Int(BigInt::from(v) & ((BigInt::from(1) << w) - 1))))]
                };
                self.push(ops, CTy::Generic, o)?;
            }
            "DW_OP_lit0" => self.push(vec![konst(w, 0)], CTy::Generic, o)?,
            "DW_OP_plus_uconst" => {
                let a = self.pop_value(o)?;
                let aw = self.width(&a.ty);
                let mut v = a.ops;
                v.push(konst(aw, o.args[0]));
                v.push(n(Op::Add));
                self.push(v, a.ty, o)?;
            }
            "DW_OP_plus" | "DW_OP_minus" | "DW_OP_mul" | "DW_OP_and" | "DW_OP_or" | "DW_OP_xor"
            | "DW_OP_shl" | "DW_OP_shr" | "DW_OP_shra" => {
                let (a, b, ty) = self.pop2(o)?;
                let op = match o.name.as_str() {
                    "DW_OP_plus" => Op::Add,
                    "DW_OP_minus" => Op::Sub,
                    "DW_OP_mul" => Op::Mul,
                    "DW_OP_and" => Op::And,
                    "DW_OP_or" => Op::Or,
                    "DW_OP_xor" => Op::Xor,
                    "DW_OP_shl" => Op::Shl,
                    "DW_OP_shr" => Op::LShr,
                    _ => Op::AShr,
                };
                self.push(Self::bin(&a, &b, op), ty, o)?;
            }
            "DW_OP_div" | "DW_OP_mod" => {
                let (a, b, ty) = self.pop2(o)?;
                let aw = self.width(&ty);
                let op = if o.name == "DW_OP_div" { Op::Div } else { Op::Mod };
                let v = self.sign_dependent(&ty, aw, |signed| {
                    if signed {
                        Self::bin(&a, &b, op.clone())
                    } else {
                        Self::unsigned(&a, &b, aw, op.clone())
                    }
                });
                self.push(v, ty, o)?;
            }
            "DW_OP_lt" | "DW_OP_gt" | "DW_OP_le" | "DW_OP_ge" => {
                let (a, b, ty) = self.pop2(o)?;
                let aw = self.width(&ty);
                let name = o.name.clone();
                let v = self.sign_dependent(&ty, aw, |signed| match name.as_str() {
                    "DW_OP_lt" => Self::less(&a, &b, aw, signed),
                    "DW_OP_gt" => Self::less(&b, &a, aw, signed),
                    "DW_OP_le" => Self::flip(Self::less(&b, &a, aw, signed), aw),
                    _ => Self::flip(Self::less(&a, &b, aw, signed), aw),
                });
                let v = self.to_generic(v, aw);
                self.push(v, CTy::Generic, o)?;
            }
            "DW_OP_eq" | "DW_OP_ne" => {
                let (a, b, ty) = self.pop2(o)?;
                let aw = self.width(&ty);
                let mut v = Self::not_equal(&a, &b, aw);
                if o.name == "DW_OP_eq" {
                    v = Self::flip(v, aw);
                }
                let v = self.to_generic(v, aw);
                self.push(v, CTy::Generic, o)?;
            }
            "DW_OP_not" => {
                let a = self.pop_value(o)?;
                let aw = self.width(&a.ty);
                let mut v = a.ops;
                v.push(n(Op::Constant(
                    int(aw),
                    Literal::Int((BigInt::from(1) << aw) - 1),
                )));
                v.push(n(Op::Xor));
                self.push(v, a.ty, o)?;
            }
            "DW_OP_dup" => {
                let a = self.pop(o)?;
                self.push(a.ops.clone(), a.ty.clone(), o)?;
                self.push(a.ops, a.ty, o)?;
            }
            "DW_OP_over" => {
                let b = self.pop(o)?;
                let a = self.pop(o)?;
                self.push(a.ops.clone(), a.ty.clone(), o)?;
                self.push(b.ops, b.ty, o)?;
                self.push(a.ops, a.ty, o)?;
            }
            "DW_OP_swap" => {
                let b = self.pop(o)?;
                let a = self.pop(o)?;
                self.stack.push(b);
                self.stack.push(a);
            }
            "DW_OP_deref" | "DW_OP_deref_size" => {
                let size = if o.name == "DW_OP_deref" { w } else { o.args[0].saturating_mul(8) };
                if size == 0 || size > w {
                    return Err(err(o, format!("`DW_OP_deref_size {}` reads {size} bits: more than the {w}-bit generic type, or none", o.args.first().copied().unwrap_or(0))));
                }
                let a = self.pop(o)?;
                let mut v = self.address(a, o)?;
                v.push(n(Op::Deref(Some(int(size)))));
                if size < w {
                    v.push(n(Op::ZExt(int(w))));
                }
                self.push(v, CTy::Generic, o)?;
            }
            "DW_OP_LLVM_convert" => {
                let (to, enc) = (o.args[0], o.args[1]);
                let signed = match enc {
                    0x5 | 0x6 => true,
                    0x2 | 0x7 | 0x8 => false,
                    _ => return Err(err(o, format!("`DW_OP_LLVM_convert` to encoding {enc}: only integer encodings (DW_ATE_signed, signed_char, unsigned, unsigned_char, boolean) have a meaning here"))),
                };
                if to == 0 || to > 1 << 23 {
                    return Err(err(o, format!("`DW_OP_LLVM_convert` to {to} bits")));
                }
                let a = self.pop_value(o)?;
                let from = self.width(&a.ty);
                let mut v = a.ops;
                if to < from {
                    v.push(n(Op::Convert(int(to))));
                } else if to > from {
                    match a.ty {
                        CTy::Base { signed: s, .. } if s == signed => {
                            v.push(n(if s { Op::SExt(int(to)) } else { Op::ZExt(int(to)) }));
                        }
                        CTy::Base { .. } => return Err(err(o, "a widening `DW_OP_LLVM_convert` whose source and target signedness differ: DWARF 5's DW_OP_convert extends by the source, LLVM's DWARF 4 lowering by the target (decision: refused)")),
                        _ => return Err(err(o, "a widening `DW_OP_LLVM_convert` of a generic value: the generic type has no signedness to extend by (decision: refused)")),
                    }
                }
                self.push(v, CTy::Base { bits: to, signed }, o)?;
            }
            "DW_OP_LLVM_extract_bits_zext" | "DW_OP_LLVM_extract_bits_sext" => {
                let (off, size) = (o.args[0], o.args[1]);
                if size == 0 || off.saturating_add(size) > w {
                    return Err(err(o, format!("`{}` of bits {off}..{} outside the {w}-bit generic type", o.name, off.saturating_add(size))));
                }
                let mut a = self.pop(o)?;
                if use_ == RecordUse::Declare {
                    // A memory location is read first, as far as the bits reach.
                    let bytes = (off + size).div_ceil(8);
                    let mut v = self.address(a, o)?;
                    v.push(n(Op::Deref(Some(int(bytes * 8)))));
                    if bytes * 8 < w {
                        v.push(n(Op::ZExt(int(w))));
                    }
                    a = Entry { ops: v, ty: CTy::Generic };
                }
                let a = self.value(a, o)?;
                if self.width(&a.ty) != w {
                    return Err(err(o, format!("`{}` on a {}: LLVM lowers it in the generic type", o.name, self.show(&a.ty))));
                }
                let left = w - off - size;
                let mut v = a.ops;
                if left > 0 {
                    v.push(konst(w, left));
                    v.push(n(Op::Shl));
                }
                v.push(konst(w, left + off));
                v.push(n(if o.name.ends_with("sext") { Op::AShr } else { Op::LShr }));
                self.push(v, CTy::Generic, o)?;
            }
            "DW_OP_LLVM_tag_offset" | "DW_OP_stack_value" | "DW_OP_LLVM_fragment" => {}
            "DW_OP_LLVM_entry_value" => return Err(err(o, "`DW_OP_LLVM_entry_value` (the value at function entry) has no meaning here: diopter models no entry state (decision: refused)")),
            "DW_OP_LLVM_implicit_pointer" => return Err(err(o, "`DW_OP_LLVM_implicit_pointer` (a pointer to an optimized-out object) has no meaning here (decision: refused)")),
            "DW_OP_push_object_address" => return Err(err(o, "`DW_OP_push_object_address` has no object to push in a variable's location (decision: refused)")),
            "DW_OP_xderef" => return Err(err(o, "`DW_OP_xderef` reads a target-defined address space (decision: refused)")),
            name if name.starts_with("DW_OP_reg") || name.starts_with("DW_OP_breg") => {
                return Err(err(o, format!("`{name}` names a machine register: IR has none (decision: refused)")))
            }
            name => return Err(err(o, format!("`{name}` has no meaning here (decision: refused)"))),
        }
        Ok(())
    }
}

/// Translates a classic expression of a record with location operands of
/// types `operands` (poison ones marked) describing a variable of `var_bits`
/// bits. Errors name the operation and point at it.
pub fn translate(
    e: &ClassicExpr,
    use_: RecordUse,
    operands: &[(Type, bool)],
    var_bits: u64,
    dl: &DataLayout,
    types: &TypeTable,
    span: Span,
) -> Result<Translation, Diagnostic> {
    let fragment = e.fragment();
    let bits = match fragment {
        Some((off, size)) => {
            if size == 0 || off.saturating_add(size) > var_bits {
                let o = e.ops.last().map_or(span, |o| o.span);
                return Err(Diagnostic::error(o, format!("DW_OP_LLVM_fragment {off}, {size} lies outside the {var_bits}-bit variable (LLVM's verifier rejects it)")));
            }
            size
        }
        None => var_bits,
    };
    if bits == 0 {
        return Err(Diagnostic::error(span, "the variable has no size"));
    }
    let tys: Vec<Type> = operands.iter().map(|(t, _)| t.clone()).collect();
    let mut tx = Tx {
        operands: &tys,
        dl,
        types,
        w: dl.pointer_bits(0),
        holes: Vec::new(),
        stack: Vec::new(),
    };
    let body: Vec<&ClassicOp> = e
        .ops
        .iter()
        .filter(|o| {
            !matches!(
                o.name.as_str(),
                "DW_OP_LLVM_fragment" | "DW_OP_LLVM_tag_offset"
            )
        })
        .collect();
    let explicit = body.iter().any(|o| o.name == "DW_OP_LLVM_arg");
    let trivial = body.is_empty()
        || (body.len() == 1 && body[0].name == "DW_OP_LLVM_arg" && body[0].args[0] == 0);
    let res = int(bits);
    let ops: Vec<OpNode>;
    let kind;
    if use_ == RecordUse::Value && trivial {
        // The operand's register: its low `bits` bits.
        let Some(t) = tys.first() else {
            return Err(Diagnostic::error(
                span,
                "the record has no location operand",
            ));
        };
        let tb = tx
            .bits(t)
            .ok_or_else(|| Diagnostic::error(span, format!("operand type `{t}` has no size")))?;
        if tb < bits && !t.is_int() {
            return Err(Diagnostic::error(span, format!("a {tb}-bit operand for a {bits}-bit variable (or fragment): the debugger would read past the register (decision: refused)")));
        }
        let mut v = vec![n(Op::Arg(0, t.clone()))];
        if tb < bits {
            // The register's bits above the value are whatever it holds
            // (debugify gives an `i1` an 8-bit variable).
            let h = tx.hole(Hole::UpperBits {
                operand: 0,
                bits: bits - tb,
            });
            v.push(n(Op::ZExt(res.clone())));
            v.push(n(Op::Arg(h, int(bits - tb))));
            v.push(n(Op::ZExt(res.clone())));
            v.push(konst(bits, tb));
            v.push(n(Op::Shl));
            v.push(n(Op::Or));
            ops = v;
            kind = Kind::Value;
        } else {
            if tb == bits {
                if *t != res {
                    v.push(n(Op::Reinterpret(res.clone())));
                }
            } else {
                if !t.is_int() {
                    v.push(n(Op::Reinterpret(int(tb))));
                }
                v.push(konst(32, 0));
                v.push(n(Op::BitOffset(Some(res.clone()))));
            }
            ops = v;
            kind = Kind::Register;
        }
    } else {
        let mut body = body;
        // A #dbg_value's trailing DW_OP_deref is the memory location's own read.
        let stack_value = body.iter().any(|o| o.name == "DW_OP_stack_value");
        if use_ == RecordUse::Value
            && !stack_value
            && body.last().is_some_and(|o| o.name == "DW_OP_deref")
        {
            body.pop();
        }
        let first = e.ops.first().cloned().unwrap_or(ClassicOp {
            name: String::new(),
            args: Vec::new(),
            span,
        });
        if !explicit {
            if tys.is_empty() {
                return Err(Diagnostic::error(
                    span,
                    "the record has no location operand",
                ));
            }
            let e0 = if use_ == RecordUse::Declare && tys[0].is_ptr() {
                Entry {
                    ops: vec![n(Op::Arg(0, tys[0].clone()))],
                    ty: CTy::Ptr(tys[0].clone()),
                }
            } else {
                tx.push_operand(0, &first)?
            };
            tx.push(e0.ops, e0.ty, &first)?;
        }
        let mut implicit = stack_value;
        for o in &body {
            tx.step(o, use_)?;
            if o.name.starts_with("DW_OP_LLVM_extract_bits") {
                implicit = true;
            }
        }
        let last = body.last().copied().unwrap_or(&first);
        let top = tx.pop(last).map_err(|_| {
            Diagnostic::error(last.span, "the expression leaves the DWARF stack empty")
        })?;
        if implicit {
            let top = tx.value(top, last)?;
            let aw = tx.width(&top.ty);
            if aw < bits {
                return Err(Diagnostic::error(last.span, format!("a {aw}-bit stack value for a {bits}-bit variable (or fragment) (decision: refused)")));
            }
            let mut v = top.ops;
            if aw > bits {
                v.push(n(Op::Convert(res.clone())));
            }
            ops = v;
            kind = Kind::Value;
        } else {
            let mut v = tx.address(top, last)?;
            v.push(n(Op::Deref(Some(res.clone()))));
            ops = v;
            kind = Kind::Memory;
        }
    }
    let mut args: Vec<ArgDecl> = operands
        .iter()
        .map(|(t, poison)| ArgDecl {
            ty: t.clone(),
            poison: *poison,
            span: Span::default(),
        })
        .collect();
    for h in &tx.holes {
        let ty = match h {
            Hole::UpperBits { bits, .. } => int(*bits),
            Hole::Signedness => int(1),
        };
        args.push(ArgDecl {
            ty,
            poison: false,
            span: Span::default(),
        });
    }
    Ok(Translation {
        bare: Bare {
            args: Some(args),
            referrer: None,
            var_type: None,
            expr: Expr {
                dialect: Dialect::DiExpression,
                ops,
                span: Span::default(),
            },
            explicit_dialect: false,
            wrapped: false,
        },
        holes: tx.holes,
        kind,
        fragment,
        bits,
    })
}
