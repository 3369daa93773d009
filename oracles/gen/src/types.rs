//! Random LLVM types within a size bound: integers of common and odd widths,
//! every float kind, pointers (opaque, and typed in the spec's dialect) in
//! several address spaces, vectors, arrays, literal and packed structs, and
//! named struct types. Every type drawn here has a size under the case's data
//! layout and is at most `max_bits` bits, so the checker's "sized" rules hold
//! by construction.

use super::entropy::{Choices, Entropy};
use super::swarm::{Swarm, TyKind};
use diopter_semantics::ast::Dialect;
use diopter_semantics::types::{DataLayout, Type, TypeTable, MAX_INT_WIDTH};
use diopter_semantics::value::FloatKind;

/// Power-of-two widths LLVM code uses every day; the first is what choice 0
/// (an exhausted input) gets, the simplest interesting integer.
pub const COMMON_WIDTHS: [u64; 6] = [32, 1, 8, 16, 64, 128];
/// Widths that exercise the odd corners: not a byte multiple, just past a
/// machine word, far past 128 bits.
pub const ODD_WIDTHS: [u64; 20] = [
    2, 3, 5, 7, 12, 17, 24, 31, 33, 48, 63, 65, 96, 127, 129, 200, 255, 256, 1000, 4096,
];
/// Address spaces drawn for pointers: generic, global, LDS, private, and
/// AMDGPU's 160-bit buffer fat pointer, plus one no layout names.
pub const ADDRSPACES: [u32; 6] = [0, 1, 3, 5, 7, 42];

/// `T addrspace(N)*`, except that a pointer to `ptr` stays in address space
/// 0: `ptr addrspace(3)*` would print the same as a pointer (in address
/// space 0) to `ptr addrspace(3)`, and the parser reads it as the latter.
pub fn typed_ptr(pointee: Type, addrspace: u32) -> Type {
    let ambiguous = pointee == Type::opaque_ptr(0);
    Type::typed_ptr(pointee, if ambiguous { 0 } else { addrspace })
}

/// Draws types for one case.
#[derive(Clone, Copy)]
pub struct TypeGen<'a> {
    pub dl: &'a DataLayout,
    pub table: &'a TypeTable,
    pub dialect: Dialect,
    pub swarm: &'a Swarm,
    pub max_bits: u64,
}

impl TypeGen<'_> {
    /// `bitsizeof(t)`, if `t` is sized and within the bound.
    pub fn size(&self, t: &Type) -> Option<u64> {
        self.dl
            .bitsizeof(t, self.table)
            .ok()
            .filter(|b| *b <= self.max_bits)
    }

    /// The kinds allowed here, weighted by the swarm; `fallback` when the
    /// swarm switched all of `allowed` off.
    fn kind(&self, e: &mut dyn Entropy, allowed: &[TyKind], fallback: TyKind) -> TyKind {
        let mut w: Choices<TyKind, { TyKind::ALL.len() }> = Choices::new(fallback);
        for k in allowed {
            w.push(*k, self.swarm.ty_weight(*k));
        }
        if w.all_zero() {
            return fallback;
        }
        w.draw(e)
    }

    /// An integer width: common or odd as the swarm allows.
    pub fn int_width(&self, e: &mut dyn Entropy) -> u64 {
        let w = match self.kind(e, &[TyKind::Int, TyKind::OddInt], TyKind::Int) {
            TyKind::OddInt => *e.pick(&ODD_WIDTHS),
            _ => *e.pick(&COMMON_WIDTHS),
        };
        w.min(self.max_bits.max(1))
    }

    pub fn int(&self, e: &mut dyn Entropy) -> Type {
        Type::Int(self.int_width(e))
    }

    pub fn float(&self, e: &mut dyn Entropy) -> Type {
        // Choice 0 is `float`.
        let kinds = [
            FloatKind::Float,
            FloatKind::Half,
            FloatKind::BFloat,
            FloatKind::Double,
            FloatKind::Fp128,
            FloatKind::X86Fp80,
        ];
        Type::float(*e.pick(&kinds))
    }

    pub fn addrspace(&self, e: &mut dyn Entropy) -> u32 {
        *e.pick(&ADDRSPACES)
    }

    /// A pointer: opaque in `diexpression`, typed (to a small type) in
    /// `diexpr` most of the time.
    pub fn ptr(&self, e: &mut dyn Entropy, depth: usize) -> Type {
        let a = self.addrspace(e);
        if self.dialect == Dialect::DiExpr && !e.chance(1, 4) && depth < 3 {
            let pointee = self.any(e, depth + 1);
            typed_ptr(pointee, a)
        } else {
            Type::opaque_ptr(a)
        }
    }

    /// An integer, float or pointer: what `DIOpConvert`, `DIOpExtend` and
    /// vector elements take.
    pub fn basic(&self, e: &mut dyn Entropy, depth: usize) -> Type {
        match self.kind(
            e,
            &[TyKind::Int, TyKind::OddInt, TyKind::Float, TyKind::Ptr],
            TyKind::Int,
        ) {
            TyKind::Float => self.float(e),
            TyKind::Ptr => self.ptr(e, depth),
            _ => self.int(e),
        }
    }

    /// An integer or float, or a vector of them: what arithmetic takes.
    pub fn arith(&self, e: &mut dyn Entropy, int_only: bool) -> Type {
        let scalar = if int_only || !e.chance(1, 3) || self.swarm.ty_weight(TyKind::Float) == 0 {
            self.int(e)
        } else {
            self.float(e)
        };
        if self.swarm.ty_weight(TyKind::Vector) > 0 && e.chance(1, 4) {
            let len = self.vector_len(e);
            let v = Type::Vector {
                len,
                elem: Box::new(scalar.clone()),
            };
            if self.size(&v).is_some() {
                return v;
            }
        }
        scalar
    }

    pub fn vector_len(&self, e: &mut dyn Entropy) -> u64 {
        // Choice 0 is 2 lanes.
        [2, 1, 3, 4, 8, 16][e.index(6)]
    }

    /// Any sized type within the bound.
    pub fn any(&self, e: &mut dyn Entropy, depth: usize) -> Type {
        for _ in 0..4 {
            let t = self.any_once(e, depth);
            if self.size(&t).is_some() {
                return t;
            }
        }
        Type::Int(32)
    }

    fn any_once(&self, e: &mut dyn Entropy, depth: usize) -> Type {
        let kinds: &[TyKind] = if depth >= 2 {
            &[TyKind::Int, TyKind::OddInt, TyKind::Float, TyKind::Ptr]
        } else {
            &TyKind::ALL
        };
        match self.kind(e, kinds, TyKind::Int) {
            TyKind::Int | TyKind::OddInt => self.int(e),
            TyKind::Float => self.float(e),
            TyKind::Ptr => self.ptr(e, depth),
            TyKind::Vector => Type::Vector {
                len: self.vector_len(e),
                elem: Box::new(self.basic(e, depth + 1)),
            },
            TyKind::Array => Type::Array {
                len: e.range(1, 4),
                elem: Box::new(self.any(e, depth + 1)),
            },
            TyKind::Struct => {
                // An empty struct (0 bits) now and then: the zero-size edge.
                let n = if e.chance(1, 16) { 0 } else { e.range(1, 4) };
                Type::Struct {
                    fields: (0..n).map(|_| self.any(e, depth + 1)).collect(),
                    packed: e.chance(1, 3),
                }
            }
            // `pick` over the names with a body, counted rather than listed.
            TyKind::Named => match self.named_count() {
                0 => self.int(e),
                n => self.named_type(e.index(n)),
            },
        }
    }

    /// A type of exactly `bits` bits, of a kind the swarm allows when one
    /// fits (an integer otherwise).
    pub fn of_size(&self, e: &mut dyn Entropy, bits: u64) -> Type {
        // The candidates as small codes, in a buffer on the stack: only the
        // one drawn is built (each used to be a boxed type, built and
        // dropped at every call). More named types than fit (never, with
        // the generator's own tables) spill into a `Vec`.
        let named = self.named_count();
        let mut stack = [Candidate::EmptyStruct; 32];
        let mut spill = Vec::new();
        let buf: &mut [Candidate] = if named + 24 <= stack.len() {
            &mut stack
        } else {
            spill.resize(named + 24, Candidate::EmptyStruct);
            &mut spill
        };
        let mut n = 0;
        let mut push = |c: Candidate| {
            buf[n] = c;
            n += 1;
        };
        if bits == 0 {
            // Choice 0 is the empty struct.
            return if e.index(2) == 0 {
                Candidate::EmptyStruct.build(self)
            } else {
                Candidate::EmptyArray.build(self)
            };
        }
        if bits <= MAX_INT_WIDTH {
            push(Candidate::Int(bits));
        }
        for k in FloatKind::ALL {
            if k.width() == bits {
                push(Candidate::Float(k));
            }
        }
        for a in ADDRSPACES {
            if self.dl.pointer_bits(a) == bits {
                push(Candidate::Ptr(a));
            }
        }
        for lanes in [2u64, 4, 8] {
            if bits.is_multiple_of(lanes) && bits / lanes <= MAX_INT_WIDTH {
                push(Candidate::IntVector(lanes, bits / lanes));
            }
            for k in FloatKind::ALL {
                if k.width() * lanes == bits {
                    push(Candidate::FloatVector(lanes, k));
                }
            }
        }
        for w in [8u64, 16, 32] {
            if bits.is_multiple_of(w) {
                push(Candidate::IntArray(bits / w, w));
            }
        }
        if bits <= MAX_INT_WIDTH {
            push(Candidate::PackedInt(bits));
        }
        if bits.is_multiple_of(2) && bits >= 16 {
            push(Candidate::Halves(bits / 2));
        }
        for i in 0..named {
            push(Candidate::Named(i));
        }
        let cands = &mut buf[..n];
        let mut len = cands.len();
        // Draw first, then check the size of the one drawn (most candidates
        // have it by construction; struct padding and named types may not).
        while len > 0 {
            let live = &cands[..len];
            let i = e.weighted_by(|| live.iter().map(|c| self.swarm.ty_weight(c.kind(bits))));
            // `swap_remove`, as the list of built types did.
            let c = cands[i];
            cands[i] = cands[len - 1];
            len -= 1;
            let t = c.build(self);
            if self.dl.bitsizeof(&t, self.table).ok() == Some(bits) {
                return t;
            }
        }
        Type::Int(bits.clamp(1, MAX_INT_WIDTH))
    }

    /// How many named types have a body.
    fn named_count(&self) -> usize {
        self.table.named.values().filter(|b| b.is_some()).count()
    }

    /// The `i`th named type with a body.
    fn named_type(&self, i: usize) -> Type {
        let name = self
            .table
            .named
            .iter()
            .filter(|(_, b)| b.is_some())
            .nth(i)
            .map(|(n, _)| n.clone())
            .expect("i < named_count()");
        Type::Named(name)
    }

    /// A vector `<N x E>` of basic elements (what `DIOpSelect` and
    /// `DIOpExtend` make).
    pub fn basic_vector(&self, e: &mut dyn Entropy) -> Type {
        for _ in 0..4 {
            let v = Type::Vector {
                len: self.vector_len(e),
                elem: Box::new(self.basic(e, 1)),
            };
            if self.size(&v).is_some() {
                return v;
            }
        }
        Type::Vector {
            len: 2,
            elem: Box::new(Type::Int(32)),
        }
    }
}

/// Named struct types for a case: `%s0 = type { ... }`, `%s1` may use `%s0`.
pub fn named_types(
    e: &mut dyn Entropy,
    dl: &DataLayout,
    dialect: Dialect,
    swarm: &Swarm,
    max_bits: u64,
) -> TypeTable {
    let mut table = TypeTable::default();
    if swarm.ty_weight(TyKind::Named) == 0 {
        return table;
    }
    let n = e.below(4);
    for i in 0..n {
        let tg = TypeGen {
            dl,
            table: &table,
            dialect,
            swarm,
            max_bits: max_bits / 4,
        };
        let fields: Vec<Type> = (0..e.range(1, 3)).map(|_| tg.any(e, 1)).collect();
        let body = Type::Struct {
            fields,
            packed: e.chance(1, 4),
        };
        if tg.size(&body).is_some() {
            table.define(&format!("s{i}"), Some(body));
        }
    }
    table
}

/// One candidate of [`TypeGen::of_size`], a small code for the type it
/// builds when drawn.
#[derive(Clone, Copy, Debug)]
enum Candidate {
    EmptyStruct,
    EmptyArray,
    Int(u64),
    Float(FloatKind),
    Ptr(u32),
    /// `<lanes x iW>`.
    IntVector(u64, u64),
    FloatVector(u64, FloatKind),
    /// `[len x iW]`.
    IntArray(u64, u64),
    /// `<{ iN }>`.
    PackedInt(u64),
    /// `{ iN, iN }`.
    Halves(u64),
    /// The `i`th named type with a body.
    Named(usize),
}

impl Candidate {
    /// The kind whose swarm weight the candidate has, for a size of `bits`.
    fn kind(self, bits: u64) -> TyKind {
        match self {
            Candidate::EmptyStruct | Candidate::PackedInt(_) | Candidate::Halves(_) => {
                TyKind::Struct
            }
            Candidate::EmptyArray | Candidate::IntArray(..) => TyKind::Array,
            Candidate::Int(_) if bits.is_power_of_two() && bits >= 8 => TyKind::Int,
            Candidate::Int(_) => TyKind::OddInt,
            Candidate::Float(_) => TyKind::Float,
            Candidate::Ptr(_) => TyKind::Ptr,
            Candidate::IntVector(..) | Candidate::FloatVector(..) => TyKind::Vector,
            Candidate::Named(_) => TyKind::Named,
        }
    }

    fn build(self, tg: &TypeGen) -> Type {
        let boxed = |t| Box::new(t);
        match self {
            Candidate::EmptyStruct => Type::Struct {
                fields: vec![],
                packed: false,
            },
            Candidate::EmptyArray => Type::Array {
                len: 0,
                elem: boxed(Type::Int(32)),
            },
            Candidate::Int(w) => Type::Int(w),
            Candidate::Float(k) => Type::float(k),
            Candidate::Ptr(a) => Type::opaque_ptr(a),
            Candidate::IntVector(len, w) => Type::Vector {
                len,
                elem: boxed(Type::Int(w)),
            },
            Candidate::FloatVector(len, k) => Type::Vector {
                len,
                elem: boxed(Type::float(k)),
            },
            Candidate::IntArray(len, w) => Type::Array {
                len,
                elem: boxed(Type::Int(w)),
            },
            Candidate::PackedInt(w) => Type::Struct {
                fields: vec![Type::Int(w)],
                packed: true,
            },
            Candidate::Halves(w) => Type::Struct {
                fields: vec![Type::Int(w), Type::Int(w)],
                packed: false,
            },
            Candidate::Named(i) => tg.named_type(i),
        }
    }
}
