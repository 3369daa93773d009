//! The SMT encoding of the expression language: what an expression means, as
//! Z3 terms over symbolic inputs, so that the prover (`prove`) can ask Z3
//! whether two expressions can ever be told apart.
//!
//! This is a second reading of the spec and DESIGN.md, written apart from the
//! reference interpreter (`interp`, `location`) and checked against it by
//! `tests/smt_encoding.rs` (random expressions and contexts, all inputs fixed
//! to the context's values). Only the *types* and the stack handling come from
//! the shared stack-effect engine (`check::arity`, `check::result_type`): an
//! instance's types are concrete, so the encoding is symbolic only in values,
//! addresses and offsets.
//!
//! # The model
//!
//! * A **location** ([`SLoc`]) is a list of guarded alternatives ([`SAlt`]):
//!   exactly one guard holds in any model. An alternative is a list of single
//!   locations ([`SSingle`], the multi-location case), each a storage of a
//!   concrete kind ([`SStorage`]) at a symbolic signed bit offset of
//!   [`Encoder::offw`] bits (wide enough that no offset computation wraps).
//!   Alternatives let one query cover every storage shape of a hole at once,
//!   instead of one query per combination of shapes.
//! * **Memory** is, per address space, the initial memory with the stores of
//!   writes on top ([`SMem`]). The initial memory is not a Z3 array: every
//!   byte the encoding reads from it is a fresh 8-bit variable, and two such
//!   bytes at addresses that may coincide are constrained to be equal when
//!   they do ([`Encoder::memory_axioms`], Ackermann's reduction). This is
//!   equisatisfiable with an array (any model's bytes extend to a whole
//!   memory) and keeps queries in pure bit-vector logic, which Z3 decides by
//!   bit-blasting to its SAT solver, far faster than with its array theory.
//!   Entities are bit-vectors ([`Encoder::entities`]); implicit storage holds
//!   a bit-vector.
//! * **Failure** is a Z3 boolean per side. Error classes are not encoded:
//!   DESIGN.md's equivalence only asks that both sides fail or both succeed.
//! * **Inconsistency** (single locations that read differently) is a separate
//!   boolean; the prover quantifies only over contexts where it is false, so
//!   a multi-location hole is constrained to hold the same bits in both its
//!   single locations, and any context in which some read meets disagreeing
//!   single locations is left out (the spec promises they never disagree).
//! * **Floats** use Z3's floating-point theory, rounding to nearest even; NaN
//!   results get the bits LLVM's APFloat gives them (see [`bv::float_bin`]
//!   for arithmetic, [`bv::float_convert`] for a conversion between float
//!   kinds: a NaN quieted, its payload shifted and cut, its sign kept), so
//!   every float operation is exact, bit for bit, for every kind
//!   (`tests/float_exact.rs`). `x86_fp80` values live in an IEEE sort with
//!   15 exponent and 64 significand bits; its encodings outside that format
//!   (unnormals, pseudo-NaNs, the pseudo-infinity, pseudo-denormals) are
//!   decoded as the reference decodes them (the x86_fp80 section of `bv`).
//!   [`Encoder::approx`] remains for values the encoding might
//!   over-approximate (an uninterpreted function of the bits): a
//!   counterexample that depends on one is not trusted, a proof stays sound.
//!   No operation records one at present.
//! * What the encoding cannot express (types of zero
//!   bits, composites read at a symbolic offset over more than
//!   [`MAX_SYMBOLIC_COMPOSITE_BITS`] bits, more than `interp::MAX_PARTS`
//!   lanes) is an [`EncodeError::Unsupported`] with its reason: the prover
//!   answers `unknown`, never a wrong verdict.

pub mod bv;
pub mod concrete;
pub mod prove;
pub mod term;

use bv::{and, ff, num, num_u, or, resize, tt};
use diopter_semantics::ast::{Dialect, Expr, Literal, Op};
use diopter_semantics::check::{self, Env, ReferrerInfo};
use diopter_semantics::interp::MAX_PARTS;
use diopter_semantics::location::{self, LocDesc, Storage};
use diopter_semantics::types::{DataLayout, Type, TypeTable};
use num_bigint::BigInt;
use num_traits::Zero;
use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::rc::Rc;
use z3::ast::{Ast, Bool, BV};

/// At most this many bytes read from the initial memory are encoded: the
/// axioms that make them one memory are pairwise (`Encoder::memory_axioms`),
/// and some thousand bytes (operands of types like `i4096` in every storage
/// shape) took seconds to build before Z3 saw the query, past any timeout.
pub const MAX_INITIAL_BYTES: usize = 1024;

/// A composite read or written at a symbolic offset is split into one case
/// per possible offset; above this size the encoding gives up.
pub const MAX_SYMBOLIC_COMPOSITE_BITS: u64 = 512;

/// Why an expression could not be encoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EncodeError {
    /// The expression is not well-formed (at operation `op`; `ops.len()` for
    /// the expression as a whole).
    IllFormed { op: usize, message: String },
    /// The encoding cannot express this; the verdict must be `unknown`.
    Unsupported(String),
}

impl fmt::Display for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EncodeError::IllFormed { op, message } => {
                write!(f, "ill-formed at operation #{op}: {message}")
            }
            EncodeError::Unsupported(m) => write!(f, "not supported by the encoding: {m}"),
        }
    }
}

type R<T> = Result<T, EncodeError>;

fn unsupported<T>(m: impl Into<String>) -> R<T> {
    Err(EncodeError::Unsupported(m.into()))
}

/// A storage kind with its symbolic contents.
#[derive(Clone, Debug)]
pub enum SStorage {
    Memory(u32),
    /// Index into [`Encoder::entities`].
    Entity(usize),
    Implicit(BV),
    ImplicitAddress(Box<SLoc>),
    Undefined,
    /// Parts from bit 0 upwards: a location and its size in bits.
    Composite(Vec<(SLoc, u64)>),
}

#[derive(Clone, Debug)]
pub struct SSingle {
    pub storage: SStorage,
    pub offset: BV,
}

#[derive(Clone, Debug)]
pub struct SAlt {
    pub guard: Bool,
    pub singles: Vec<SSingle>,
}

#[derive(Clone, Debug)]
pub struct SLoc {
    pub alts: Vec<SAlt>,
}

impl SLoc {
    pub fn one(singles: Vec<SSingle>) -> SLoc {
        SLoc {
            alts: vec![SAlt {
                guard: tt(),
                singles,
            }],
        }
    }
    /// The location with `delta` added to every single location's offset.
    pub fn shifted(&self, delta: &BV) -> SLoc {
        SLoc {
            alts: self
                .alts
                .iter()
                .map(|a| SAlt {
                    guard: a.guard.clone(),
                    singles: a
                        .singles
                        .iter()
                        .map(|s| SSingle {
                            storage: s.storage.clone(),
                            offset: s.offset.bvadd(delta),
                        })
                        .collect(),
                })
                .collect(),
        }
    }
    /// Every alternative's guard conjoined with `g`.
    pub fn guarded(&self, g: &Bool) -> SLoc {
        SLoc {
            alts: self
                .alts
                .iter()
                .map(|a| SAlt {
                    guard: Bool::and(&[g, &a.guard]),
                    singles: a.singles.clone(),
                })
                .collect(),
        }
    }
}

/// One input of an expression (argument, referrer, object): its location,
/// and when it fails instead (the prover's "failing subexpression" shape).
#[derive(Clone, Debug)]
pub struct Input {
    pub loc: SLoc,
    pub fail: Bool,
}

/// What the expression's context-dependent operations see.
#[derive(Clone, Debug, Default)]
pub struct Inputs {
    pub args: BTreeMap<u64, Input>,
    pub referrer: Option<Input>,
    pub object: Option<Input>,
    /// `DIOpPushLane`'s lane, 64 bits.
    pub lane: Option<BV>,
}

/// An entity: its name (with sigil) and initial bits.
#[derive(Clone, Debug)]
pub struct Entity {
    pub name: String,
    pub value: BV,
}

/// The memory of one address space: the initial memory, a store of one byte
/// on top of another memory, or a choice between two memories.
#[derive(Debug)]
pub enum SMem {
    Initial,
    Store { under: Rc<SMem>, addr: BV, byte: BV },
    Ite(Bool, Rc<SMem>, Rc<SMem>),
}

/// A byte of the initial memory the encoding read: its address space, its
/// address and the variable standing for it.
#[derive(Clone, Debug)]
pub struct InitialByte {
    pub space: u32,
    pub addr: BV,
    pub byte: BV,
}

/// The mutable part of a context: memory per address space (absent: the
/// initial memory) and entity values (by index).
#[derive(Clone, Debug)]
pub struct SState {
    pub mem: BTreeMap<u32, Rc<SMem>>,
    pub ents: Vec<BV>,
    /// Every byte address a write may have stored to. Two states that grew
    /// from the same initial memory are equal iff they agree there, which
    /// [`same_state`] checks byte by byte.
    pub written: Vec<(u32, BV)>,
}

/// A value read: bits, whether the read failed, and whether it met
/// disagreeing single locations (and did not fail otherwise).
#[derive(Clone, Debug)]
pub struct ReadOut {
    pub value: BV,
    pub err: Bool,
    pub incons: Bool,
}

/// The encoding of one side: fails when `fail`; otherwise yields `loc` of
/// type `ty` (`bits` bits). `incons`: some read on the way met disagreeing
/// single locations (before anything failed).
#[derive(Clone, Debug)]
pub struct Side {
    pub fail: Bool,
    pub incons: Bool,
    /// `None` when the side fails in every context (a missing input).
    pub result: Option<SResult>,
    /// Why the side fails in every context, when it does.
    pub always_fails: Option<String>,
    /// Per operation: the failure flag after it (for counterexamples).
    pub fail_after: Vec<Bool>,
}

#[derive(Clone, Debug)]
pub struct SResult {
    pub loc: SLoc,
    pub ty: Type,
    pub bits: u64,
    pub fragment: Option<(u64, u64)>,
}

/// The encoder: the symbolic context shared by the sides of one query.
pub struct Encoder {
    pub dl: DataLayout,
    pub types: TypeTable,
    /// Width of offsets (signed bit offsets into any storage).
    pub offw: u32,
    pub entities: Vec<Entity>,
    /// Conditions under which a value is over-approximated (see module docs).
    pub approx: RefCell<Vec<Bool>>,
    /// The amount of every shift on integers the encoding built, with the
    /// width of the value shifted: the prover may split a query on an
    /// amount's value (see `prove::shift_cases`).
    pub shift_amounts: RefCell<Vec<(BV, u64)>>,
    /// Every (address space, byte address) the encoding selected from memory.
    pub touched: RefCell<Vec<(u32, BV)>>,
    /// `None`: memory is symbolic (a variable per byte read, see the module
    /// docs); `Some`: the bytes of memory known so far (concrete mode, for
    /// checking the encoding), every other byte reading as 0 until it is
    /// known.
    pub concrete_mem: Option<BTreeMap<(u32, num_bigint::BigUint), u8>>,
    /// The bytes read from the initial memory (symbolic mode), in order.
    initial: RefCell<Vec<InitialByte>>,
    /// The index in `initial` of each (address space, simplified address).
    initial_at: RefCell<HashMap<(u32, BV), usize>>,
    /// Each address term simplified, and each pair of address terms decided
    /// equal, different or unknown (`None`): Z3's `simplify` sets up a
    /// rewriter per call, and comparing every byte address read with every
    /// byte address written, again for each state compared, made these calls
    /// most of the prover's time (measured with perf on the library: see
    /// `addr_eq`).
    simplified: RefCell<HashMap<BV, BV>>,
    addr_eqs: RefCell<HashMap<(BV, BV), Option<bool>>>,
    /// At most this much work (see [`Encoder::work`]), or the encoding gives
    /// up with [`EncodeError::Unsupported`] instead of exhausting memory;
    /// `None`: no limit.
    pub budget: Option<u64>,
    /// After this instant the encoding gives up like over its budget
    /// (`diopter prove --time-limit`): building a query is not bounded by
    /// Z3's timeout. A memory read past it gives a dummy byte and its
    /// caller fails; whoever builds a query checks [`Encoder::within_budget`]
    /// once more at the end, so that no dummy reaches Z3.
    pub deadline: Option<std::time::Instant>,
    /// The work done so far: a count of what reads, writes and merges build
    /// (alternatives and composite parts visited, bytes read or stored,
    /// addresses and entities merged), which bounds the terms built and the
    /// memory the encoding holds.
    work: std::cell::Cell<u64>,
}

impl Encoder {
    pub fn new(dl: DataLayout, types: TypeTable, offw: u32) -> Self {
        Encoder {
            dl,
            types,
            offw,
            entities: Vec::new(),
            approx: RefCell::new(Vec::new()),
            shift_amounts: RefCell::new(Vec::new()),
            touched: RefCell::new(Vec::new()),
            concrete_mem: None,
            initial: RefCell::new(Vec::new()),
            initial_at: RefCell::new(HashMap::new()),
            simplified: RefCell::new(HashMap::new()),
            addr_eqs: RefCell::new(HashMap::new()),
            budget: None,
            deadline: None,
            work: std::cell::Cell::new(0),
        }
    }

    /// The work done so far (see the field `work`).
    pub fn work(&self) -> u64 {
        self.work.get()
    }

    /// Counts `n` units of work.
    fn charge(&self, n: usize) {
        self.work.set(self.work.get().saturating_add(n as u64));
    }

    /// Fails once the work exceeds the budget. Called where reads and writes
    /// recurse, so that a growth of the work, however fast, stops within a
    /// step of the limit.
    pub fn within_budget(&self) -> R<()> {
        if self.past_deadline() {
            return unsupported("the time limit ran out while the query was built");
        }
        match self.budget {
            Some(b) if self.work.get() > b => unsupported(format!(
                "the encoding would exceed its budget of {b} units of work \
                 (terms and addresses built by reads, writes and merges)"
            )),
            _ => Ok(()),
        }
    }

    fn past_deadline(&self) -> bool {
        self.deadline
            .is_some_and(|d| std::time::Instant::now() >= d)
    }

    /// An offset width that no computation of `exprs` can overflow: the widest
    /// type they mention (offset operands), the widest pointer (memory sizes),
    /// plus room for sums and the factor 8.
    pub fn offset_width(
        dl: &DataLayout,
        types: &TypeTable,
        exprs: &[&Expr],
        extra: &[Type],
    ) -> u32 {
        let mut widest = 64u64;
        let mut spaces: Vec<u32> = (0..=16).collect();
        let mut see = |t: &Type| {
            if let Ok(b) = dl.bitsizeof(t, types) {
                widest = widest.max(b);
            }
            let mut t = t;
            while let Type::Vector { elem, .. } | Type::Array { elem, .. } = t {
                t = elem;
            }
            if let Some(a) = t.addrspace() {
                spaces.push(a);
            }
        };
        for e in exprs {
            for op in e.ops() {
                if let Some(t) = op.type_param() {
                    see(t);
                }
            }
        }
        for t in extra {
            see(t);
        }
        for e in exprs {
            for op in e.ops() {
                if let Op::AddrOf(n) = op {
                    spaces.push(u32::try_from(*n).unwrap_or(0));
                }
            }
        }
        let ptr = spaces
            .iter()
            .map(|a| dl.pointer_bits(*a))
            .max()
            .unwrap_or(64);
        (widest.max(ptr + 4) + 24) as u32
    }

    pub fn add_entity(&mut self, name: &str, value: BV) -> usize {
        self.entities.push(Entity {
            name: name.to_string(),
            value,
        });
        self.entities.len() - 1
    }

    pub fn initial_state(&self) -> SState {
        SState {
            mem: BTreeMap::new(),
            ents: self.entities.iter().map(|e| e.value.clone()).collect(),
            written: Vec::new(),
        }
    }

    pub fn ptr_bits(&self, a: u32) -> u64 {
        self.dl.pointer_bits(a)
    }

    /// The byte at `addr` of the initial memory of address space `a`.
    pub fn initial_byte(&self, a: u32, addr: &BV) -> BV {
        if let Some(bytes) = &self.concrete_mem {
            if let Some(u) = bv::as_biguint(addr) {
                let b = bytes.get(&(a, u)).copied().unwrap_or(0);
                return num_u(b as u64, 8);
            }
            // Not a numeral (never so in concrete mode, where every input is
            // fixed, but kept exact): a choice among the known bytes.
            let mut v = num_u(0, 8);
            for ((sp, at), b) in bytes {
                if *sp == a {
                    let at = num(&BigInt::from(at.clone()), addr.get_size() as u64);
                    v = addr.eq(&at).ite(&num_u(*b as u64, 8), &v);
                }
            }
            return v;
        }
        // Equal addresses (after simplification) share one variable, which
        // keeps the equalities of `memory_axioms` few.
        let key = (a, self.simplified(addr));
        if let Some(&i) = self.initial_at.borrow().get(&key) {
            return self.initial.borrow()[i].byte.clone();
        }
        let mut initial = self.initial.borrow_mut();
        let byte = BV::new_const(format!("mem{a}[{}]", initial.len()), 8);
        self.initial_at
            .borrow_mut()
            .insert(key.clone(), initial.len());
        initial.push(InitialByte {
            space: a,
            addr: key.1,
            byte: byte.clone(),
        });
        byte
    }

    /// `t` simplified, once per term.
    fn simplified(&self, t: &BV) -> BV {
        if let Some(s) = self.simplified.borrow().get(t) {
            return s.clone();
        }
        let s = t.simplify();
        self.simplified.borrow_mut().insert(t.clone(), s.clone());
        s
    }

    /// Whether the addresses `x` and `y` are equal (`Some(true)`), different
    /// (`Some(false)`) or either (`None`, left to the solver), decided once
    /// per pair. Z3 shares equal terms, so the same term is equal without
    /// asking; otherwise both are simplified (once per term) and compared as
    /// sums (`bv::linear`): with the same symbolic summands they are equal
    /// exactly when their numeral parts are. Sums of different summands are
    /// left to the solver even when simplifying `x = y` might decide them:
    /// on 18 rules of the library (4,533 instances, one job) that call, once
    /// per pair, took 30 of 78 s, and leaving those pairs to the solver
    /// changed neither a verdict nor the time spent solving (9.3 vs 8.9 s).
    fn addr_eq(&self, x: &BV, y: &BV) -> Option<bool> {
        if x == y {
            return Some(true);
        }
        let key = (x.clone(), y.clone());
        if let Some(d) = self.addr_eqs.borrow().get(&key) {
            return *d;
        }
        let (lx, ly) = (
            bv::linear(&self.simplified(x)),
            bv::linear(&self.simplified(y)),
        );
        let d = (lx.0 == ly.0).then(|| lx.1 == ly.1);
        self.addr_eqs.borrow_mut().insert(key, d);
        d
    }

    /// How many bytes have been read from the initial memory so far.
    pub fn initial_count(&self) -> usize {
        self.initial.borrow().len()
    }

    /// Every byte read from the initial memory so far (symbolic mode).
    pub fn initial_bytes(&self) -> Vec<InitialByte> {
        self.initial.borrow().clone()
    }

    /// What makes the bytes read from the initial memory one memory: two
    /// bytes of an address space at equal addresses are equal. Call it after
    /// everything is encoded; the prover assumes the result.
    pub fn memory_axioms(&self) -> Vec<Bool> {
        let initial = self.initial.borrow();
        // The bytes of one wide read are `p + 0`, `p + 1`, ...: told apart
        // here without asking Z3, since simplifying every pair's equality
        // took seconds for the few thousand bytes of a wide type (the
        // pairs are quadratically many; `diopter validate` of a pair whose
        // operands include an i4096 spent 12 s here).
        // (`bv::linear`: the same terms plus different numerals.)
        let sums: Vec<_> = initial.iter().map(|b| bv::linear(&b.addr)).collect();
        let mut out = Vec::new();
        for (i, x) in initial.iter().enumerate() {
            for (j, y) in initial.iter().enumerate().skip(i + 1) {
                if x.space != y.space || (sums[i].0 == sums[j].0 && sums[i].1 != sums[j].1) {
                    continue;
                }
                let same = x.addr.eq(&y.addr).simplify();
                // Addresses that can never coincide (distinct numerals, or
                // `p + i` and `p + j`) need no axiom.
                if bv::as_bool(&same) == Some(false) {
                    continue;
                }
                out.push(same.implies(x.byte.eq(&y.byte)));
            }
        }
        out
    }

    /// The byte at `addr` of address space `a` in the state `st`.
    pub fn mem_byte(&self, st: &SState, a: u32, addr: &BV) -> BV {
        match st.mem.get(&a) {
            None => self.initial_byte(a, addr),
            Some(m) => self.select(m, a, addr, &mut HashMap::new()),
        }
    }

    /// `m` at `addr`. `memo` holds what shared parts of `m` gave already:
    /// states merged from states that grew from a common one share their
    /// history, and without it the term would be built once per path.
    fn select(&self, m: &Rc<SMem>, a: u32, addr: &BV, memo: &mut HashMap<*const SMem, BV>) -> BV {
        let key = Rc::as_ptr(m);
        if let Some(v) = memo.get(&key) {
            return v.clone();
        }
        // A read walks the stores before it: reads after many stores are
        // work the budget must see. Past the deadline, a dummy: the caller
        // fails (see the field `deadline`).
        self.charge(1);
        if self.past_deadline() {
            return num_u(0, 8);
        }
        let v = match &**m {
            SMem::Initial => self.initial_byte(a, addr),
            SMem::Store {
                under,
                addr: at,
                byte,
            } => {
                let rest = self.select(under, a, addr, memo);
                match self.addr_eq(addr, at) {
                    Some(true) => byte.clone(),
                    Some(false) => rest,
                    None => addr.eq(at).ite(byte, &rest),
                }
            }
            SMem::Ite(g, x, y) => {
                let (x, y) = (self.select(x, a, addr, memo), self.select(y, a, addr, memo));
                g.ite(&x, &y)
            }
        };
        memo.insert(key, v.clone());
        v
    }

    fn mem(&self, st: &SState, a: u32) -> Rc<SMem> {
        st.mem
            .get(&a)
            .cloned()
            .unwrap_or_else(|| Rc::new(SMem::Initial))
    }

    fn off(&self, v: i64) -> BV {
        num(&BigInt::from(v), self.offw as u64)
    }

    fn bitsizeof(&self, t: &Type, op: usize) -> R<u64> {
        self.dl
            .bitsizeof(t, &self.types)
            .map_err(|e| EncodeError::IllFormed { op, message: e.0 })
    }

    // ------------------------------------------------------------ reading

    /// Reads `k` bits at `loc` (every alternative, every single location).
    pub fn read(&self, st: &SState, loc: &SLoc, k: u64) -> R<ReadOut> {
        if k == 0 {
            return unsupported("a read of zero bits");
        }
        self.charge(loc.alts.len());
        self.within_budget()?;
        let mut value: Option<BV> = None;
        let mut errs = Vec::new();
        let mut incs = Vec::new();
        // The last alternative is the default of the ite chain: exactly one
        // guard holds.
        for a in loc.alts.iter().rev() {
            let r = self.read_alt(st, a, k)?;
            value = Some(match value {
                None => r.value,
                Some(v) => a.guard.ite(&r.value, &v),
            });
            errs.push(Bool::and(&[&a.guard, &r.err]));
            incs.push(Bool::and(&[&a.guard, &r.incons]));
        }
        let Some(value) = value else {
            return unsupported("a location with no alternative");
        };
        Ok(ReadOut {
            value,
            err: or(&errs),
            incons: or(&incs),
        })
    }

    fn read_alt(&self, st: &SState, a: &SAlt, k: u64) -> R<ReadOut> {
        if a.singles.is_empty() {
            return Ok(ReadOut {
                value: bv::zeros(k),
                err: tt(),
                incons: ff(),
            });
        }
        let mut outs = Vec::new();
        for s in &a.singles {
            outs.push(self.read_storage(st, &s.storage, &s.offset, k)?);
        }
        let err = or(&outs.iter().map(|o| o.err.clone()).collect::<Vec<_>>());
        let mut differ: Vec<Bool> = outs.iter().map(|o| o.incons.clone()).collect();
        for o in &outs[1..] {
            differ.push(o.value.eq(&outs[0].value).not());
        }
        let incons = Bool::and(&[&err.not(), &or(&differ)]);
        Ok(ReadOut {
            value: outs[0].value.clone(),
            err,
            incons,
        })
    }

    /// Whether bits `off .. off+k` lie inside a storage of `size` bits.
    fn in_bounds(&self, off: &BV, k: u64, size: &BigInt) -> Bool {
        let w = self.offw as u64;
        let end = off.bvadd(num(&BigInt::from(k), w));
        Bool::and(&[&off.bvsge(self.off(0)), &end.bvsle(num(size, w))])
    }

    fn mem_bits(&self, a: u32) -> BigInt {
        BigInt::from(8) << self.ptr_bits(a)
    }

    /// The byte address and bit within the byte of a memory bit offset.
    ///
    /// When `off` is a sum with summands `concat(X, y)` (`y` of 3 bits: the
    /// form the prover gives a memory hole's offset, see `prove::value_hole`),
    /// `off = 8 * X' + R` with `X'` the sum of those `X` and `R` the sum of
    /// the other summands (the offsets the expression added, `8 * 0 + y`
    /// included). Then, exactly (modulo 2^offw, for any values):
    ///
    ///   (off >>s 3) mod 2^p = (X' + (R >>s 3)) mod 2^p,   off mod 8 = R mod 8
    ///
    /// (`signed(off) = 8 * X' + signed(R) + j * 2^offw` for some integer `j`;
    /// divide by 8 and reduce mod 2^p, p <= offw - 3). Byte addresses so
    /// written are `X' + c` for every access through one hole, so once the
    /// prover fixes `y` and the constants in `R`, addresses of different
    /// accesses compare as `X' + c1 = X' + c2`, which Z3's simplifier
    /// decides, instead of sums of shifted `offw`-bit terms that the SAT
    /// solver must relate through their adders (why SRoA's pieces of a
    /// memory hole timed out). Any other offset is split as before.
    fn split(&self, a: u32, off: &BV) -> (BV, BV) {
        let p = self.ptr_bits(a) as u32;
        let mut bases = Vec::new();
        let mut rest = Vec::new();
        bv::summands(off, &mut bases, &mut rest);
        if !bases.is_empty() {
            let w = off.get_size() as u64;
            let r = rest.iter().fold(bv::zeros(w), |acc, t| acc.bvadd(t));
            let mut addr = resize(&r.bvashr(self.off(3)), p, false);
            for x in &bases {
                addr = resize(x, p, false).bvadd(&addr);
            }
            return (addr, r.extract(2, 0));
        }
        let addr = resize(&off.bvashr(self.off(3)), p, false);
        let bit = off.extract(2, 0);
        (addr, bit)
    }

    /// How many bytes a `k`-bit access at bit `bit` of its first byte spans
    /// (one more when the bit may not be 0).
    fn span(&self, bit: &BV, k: u64) -> u64 {
        let aligned = bv::as_biguint(bit).is_some_and(|b| b.is_zero());
        k.div_ceil(8) + u64::from(!aligned)
    }

    fn read_bytes(&self, st: &SState, a: u32, addr: &BV, n: u64) -> R<BV> {
        self.charge(n as usize);
        let p = self.ptr_bits(a);
        let mut out: Option<BV> = None;
        for i in 0..n {
            // Per byte: each walks every store before it (`select`), so a
            // wide read after many stores is much work in one call.
            self.within_budget()?;
            let at = addr.bvadd(num_u(i, p));
            self.touched.borrow_mut().push((a, at.clone()));
            let b = self.mem_byte(st, a, &at);
            out = Some(match out {
                None => b,
                Some(lo) => b.concat(&lo),
            });
        }
        // The last byte may be a dummy of a deadline passed during it.
        self.within_budget()?;
        Ok(out.expect("at least one byte"))
    }

    fn read_storage(&self, st: &SState, s: &SStorage, off: &BV, k: u64) -> R<ReadOut> {
        let fail = |err: Bool, value: BV| ReadOut {
            value,
            err,
            incons: ff(),
        };
        Ok(match s {
            SStorage::Undefined | SStorage::ImplicitAddress(_) => fail(tt(), bv::zeros(k)),
            SStorage::Memory(a) => {
                let inb = self.in_bounds(off, k, &self.mem_bits(*a));
                let (addr, bit) = self.split(*a, off);
                let n = self.span(&bit, k);
                let bytes = self.read_bytes(st, *a, &addr, n)?;
                fail(inb.not(), bv::extract_at(&bytes, &bit, k))
            }
            SStorage::Entity(i) => {
                let v = &st.ents[*i];
                let inb = self.in_bounds(off, k, &BigInt::from(v.get_size()));
                fail(inb.not(), bv::extract_at(v, off, k))
            }
            SStorage::Implicit(v) => {
                let inb = self.in_bounds(off, k, &BigInt::from(v.get_size()));
                fail(inb.not(), bv::extract_at(v, off, k))
            }
            SStorage::Composite(parts) => self.read_composite(st, parts, off, k)?,
        })
    }

    /// The concrete offsets a composite access must be split over.
    fn composite_cases(&self, off: &BV, k: u64, size: u64) -> R<Vec<(Bool, i64)>> {
        if let Some(c) = bv::as_signed(off) {
            let c = i64::try_from(c).unwrap_or(i64::MAX);
            return Ok(vec![(tt(), c)]);
        }
        if size > MAX_SYMBOLIC_COMPOSITE_BITS {
            return unsupported(format!(
                "a {size}-bit composite accessed at a symbolic offset"
            ));
        }
        Ok((0..=(size.saturating_sub(k)) as i64)
            .map(|c| (off.eq(self.off(c)), c))
            .collect())
    }

    fn read_composite(&self, st: &SState, parts: &[(SLoc, u64)], off: &BV, k: u64) -> R<ReadOut> {
        let size: u64 = parts.iter().map(|p| p.1).sum();
        let cases = self.composite_cases(off, k, size)?;
        let mut value = bv::zeros(k);
        let mut err = tt(); // no case: out of bounds
        let mut incons = ff();
        for (g, c) in cases.into_iter().rev() {
            let r = if c < 0 || c as u64 + k > size {
                ReadOut {
                    value: bv::zeros(k),
                    err: tt(),
                    incons: ff(),
                }
            } else {
                self.read_composite_at(st, parts, c as u64, k)?
            };
            value = g.ite(&r.value, &value);
            err = g.ite(&r.err, &err);
            incons = g.ite(&r.incons, &incons);
        }
        Ok(ReadOut { value, err, incons })
    }

    fn read_composite_at(&self, st: &SState, parts: &[(SLoc, u64)], c: u64, k: u64) -> R<ReadOut> {
        self.charge(parts.len());
        let mut value: Option<BV> = None;
        let (mut errs, mut incs) = (Vec::new(), Vec::new());
        let mut start = 0u64;
        for (loc, n) in parts {
            let lo = c.max(start);
            let hi = (c + k).min(start + n);
            if lo < hi {
                let r = self.read(st, &loc.shifted(&self.off((lo - start) as i64)), hi - lo)?;
                value = Some(match value {
                    None => r.value,
                    Some(v) => r.value.concat(&v),
                });
                // A piece read only when the earlier ones did not fail.
                incs.push(Bool::and(&[&or(&errs).not(), &r.incons]));
                errs.push(r.err);
            }
            start += n;
        }
        Ok(ReadOut {
            value: value.unwrap_or_else(|| bv::zeros(k)),
            err: or(&errs),
            incons: or(&incs),
        })
    }

    // ------------------------------------------------------------ writing

    /// Writes `x` through `loc`: the new state, and whether the write is
    /// refused (then the state does not matter).
    pub fn write(&self, st: &SState, loc: &SLoc, x: &BV) -> R<(SState, Bool)> {
        self.charge(loc.alts.len());
        self.within_budget()?;
        let mut out: Option<(SState, Bool)> = None;
        for a in loc.alts.iter().rev() {
            let mut s = st.clone();
            let mut refused = Vec::new();
            if a.singles.is_empty() {
                refused.push(tt());
            }
            for single in &a.singles {
                let (s2, r) = self.write_storage(&s, &single.storage, &single.offset, x)?;
                s = s2;
                refused.push(r);
            }
            let r = or(&refused);
            out = Some(match out {
                None => (s, r),
                Some((other, r2)) => (self.merge(&a.guard, &s, &other), a.guard.ite(&r, &r2)),
            });
        }
        out.ok_or_else(|| EncodeError::Unsupported("a location with no alternative".into()))
    }

    /// `g ? a : b`, component-wise.
    pub fn merge(&self, g: &Bool, a: &SState, b: &SState) -> SState {
        self.charge(a.written.len() + b.written.len() + a.ents.len() + a.mem.len());
        let spaces: std::collections::BTreeSet<u32> =
            a.mem.keys().chain(b.mem.keys()).copied().collect();
        SState {
            mem: spaces
                .into_iter()
                .map(|s| {
                    let (x, y) = (self.mem(a, s), self.mem(b, s));
                    // A memory neither side wrote stays shared, not a choice.
                    if Rc::ptr_eq(&x, &y) {
                        (s, x)
                    } else {
                        (s, Rc::new(SMem::Ite(g.clone(), x, y)))
                    }
                })
                .collect(),
            ents: a
                .ents
                .iter()
                .zip(&b.ents)
                .map(|(x, y)| g.ite(x, y))
                .collect(),
            written: union_written(&a.written, &b.written),
        }
    }

    fn write_storage(&self, st: &SState, s: &SStorage, off: &BV, x: &BV) -> R<(SState, Bool)> {
        let k = x.get_size() as u64;
        Ok(match s {
            SStorage::Implicit(_) | SStorage::ImplicitAddress(_) | SStorage::Undefined => {
                (st.clone(), tt())
            }
            SStorage::Memory(a) => {
                let inb = self.in_bounds(off, k, &self.mem_bits(*a));
                let (addr, bit) = self.split(*a, off);
                let n = self.span(&bit, k);
                let old = self.read_bytes(st, *a, &addr, n)?;
                let new = bv::insert_at(&old, &bit, x);
                let p = self.ptr_bits(*a);
                let mut m2 = self.mem(st, *a);
                let mut s2 = st.clone();
                for i in 0..n {
                    let at = addr.bvadd(num_u(i, p));
                    m2 = Rc::new(SMem::Store {
                        under: m2,
                        addr: at.clone(),
                        byte: new.extract((8 * i + 7) as u32, (8 * i) as u32),
                    });
                    s2.written.push((*a, at));
                }
                s2.mem.insert(*a, m2);
                (s2, inb.not())
            }
            SStorage::Entity(i) => {
                let v = &st.ents[*i];
                let inb = self.in_bounds(off, k, &BigInt::from(v.get_size()));
                let mut s2 = st.clone();
                s2.ents[*i] = bv::insert_at(v, off, x);
                (s2, inb.not())
            }
            SStorage::Composite(parts) => {
                let size: u64 = parts.iter().map(|p| p.1).sum();
                let cases = self.composite_cases(off, k, size)?;
                let mut out = (st.clone(), tt());
                for (g, c) in cases.into_iter().rev() {
                    let (s2, r) = if c < 0 || c as u64 + k > size {
                        (st.clone(), tt())
                    } else {
                        self.write_composite_at(st, parts, c as u64, x)?
                    };
                    out = (self.merge(&g, &s2, &out.0), g.ite(&r, &out.1));
                }
                out
            }
        })
    }

    fn write_composite_at(
        &self,
        st: &SState,
        parts: &[(SLoc, u64)],
        c: u64,
        x: &BV,
    ) -> R<(SState, Bool)> {
        let k = x.get_size() as u64;
        self.charge(parts.len());
        let mut s = st.clone();
        let mut refused = Vec::new();
        let mut start = 0u64;
        for (loc, n) in parts {
            let lo = c.max(start);
            let hi = (c + k).min(start + n);
            if lo < hi {
                let piece = x.extract((hi - c - 1) as u32, (lo - c) as u32);
                let (s2, r) =
                    self.write(&s, &loc.shifted(&self.off((lo - start) as i64)), &piece)?;
                s = s2;
                refused.push(r);
            }
            start += n;
        }
        Ok((s, or(&refused)))
    }

    // --------------------------------------------------------- evaluation

    /// The encoding of `e` with the inputs `inp`, reading the state `st`.
    pub fn eval(&self, e: &Expr, env: &Env, inp: &Inputs, st: &SState) -> R<Side> {
        let mut stack: Vec<(SLoc, Type)> = Vec::new();
        let mut fail = ff();
        let mut incons = ff();
        let mut fragment: Option<(u64, u64)> = None;
        let mut fail_after = Vec::new();
        for (i, node) in e.ops.iter().enumerate() {
            let op = &node.op;
            let ill = |m: String| EncodeError::IllFormed { op: i, message: m };
            if let Op::Fragment(off, size) = op {
                if fragment.is_some() || *size == 0 {
                    return Err(ill("a second DIOpFragment, or one of size 0".into()));
                }
                if let Some(v) = env.var_bits {
                    if off.checked_add(*size).is_none_or(|end| end > v) {
                        return Err(ill("DIOpFragment outside the variable".into()));
                    }
                }
                fragment = Some((*off, *size));
                fail_after.push(fail.clone());
                continue;
            }
            if let Op::Composite(n, _) = op {
                if *n > stack.len() as u64 {
                    return Err(ill(
                        "DIOpComposite pops more entries than the stack holds".into()
                    ));
                }
            }
            let n = check::arity(op, e.dialect);
            if stack.len() < n {
                return Err(ill(format!("{} pops {n} entries", op.name())));
            }
            let inputs: Vec<(SLoc, Type)> =
                stack.split_off(stack.len() - n).into_iter().rev().collect();
            let tys: Vec<Type> = inputs.iter().map(|x| x.1.clone()).collect();
            let ty = check::result_type(op, e.dialect, &tys, &self.dl, &self.types)
                .map_err(|e| ill(e.message))?;
            let step = Step {
                enc: self,
                env,
                inp,
                st,
                dialect: e.dialect,
                i,
            };
            let applied = step.apply(op, &inputs, &ty)?;
            self.within_budget()?;
            match applied {
                Applied::Always(why) => {
                    fail_after.push(tt());
                    return Ok(Side {
                        fail: tt(),
                        incons,
                        result: None,
                        always_fails: Some(why),
                        fail_after,
                    });
                }
                Applied::Loc { loc, err, inc } => {
                    incons = Bool::or(&[&incons, &Bool::and(&[&fail.not(), &inc])]);
                    fail = Bool::or(&[&fail, &err, &inc]);
                    fail_after.push(fail.clone());
                    stack.push((loc, ty));
                }
            }
        }
        if stack.len() != 1 {
            return Err(EncodeError::IllFormed {
                op: e.ops.len(),
                message: format!("the stack holds {} entries at the end", stack.len()),
            });
        }
        let (loc, ty) = stack.pop().expect("one entry");
        let bits = self.bitsizeof(&ty, e.ops.len())?;
        Ok(Side {
            fail,
            incons,
            result: Some(SResult {
                loc,
                ty,
                bits,
                fragment,
            }),
            always_fails: None,
            fail_after,
        })
    }

    /// A concrete location (from a context) as a symbolic one. Entities are
    /// looked up (and added) by name with `entity_value`.
    pub fn concrete_loc(
        &mut self,
        l: &LocDesc,
        entity_value: &dyn Fn(&str) -> Option<BV>,
    ) -> R<SLoc> {
        let mut singles = Vec::new();
        for s in &l.singles {
            let storage = match &s.storage {
                Storage::Memory { addrspace } => SStorage::Memory(*addrspace),
                Storage::Entity { name } => {
                    match self.entities.iter().position(|e| &e.name == name) {
                        Some(i) => SStorage::Entity(i),
                        None => match entity_value(name) {
                            Some(v) if v.get_size() > 0 => {
                                SStorage::Entity(self.add_entity(name, v))
                            }
                            // An entity the context does not have reads as undefined.
                            _ => SStorage::Undefined,
                        },
                    }
                }
                Storage::Implicit { value } => {
                    if value.width() == 0 {
                        return unsupported("an implicit value of zero bits");
                    }
                    SStorage::Implicit(bv::bits_num(value))
                }
                Storage::ImplicitAddress { target, .. } => {
                    SStorage::ImplicitAddress(Box::new(self.concrete_loc(target, entity_value)?))
                }
                Storage::Undefined => SStorage::Undefined,
                Storage::Composite { parts } => {
                    let mut ps = Vec::new();
                    for p in parts {
                        ps.push((self.concrete_loc(&p.loc, entity_value)?, p.bits));
                    }
                    SStorage::Composite(ps)
                }
            };
            singles.push(SSingle {
                storage,
                offset: num(&s.offset, self.offw as u64),
            });
        }
        Ok(SLoc::one(singles))
    }
}

/// What an operation did.
enum Applied {
    /// It fails in every context (a missing input).
    Always(String),
    /// Its location, when it failed, and when it met disagreeing single
    /// locations.
    Loc { loc: SLoc, err: Bool, inc: Bool },
}

struct Step<'a> {
    enc: &'a Encoder,
    env: &'a Env<'a>,
    inp: &'a Inputs,
    st: &'a SState,
    dialect: Dialect,
    i: usize,
}

fn implicit(offw: u32, v: BV) -> SLoc {
    SLoc::one(vec![SSingle {
        storage: SStorage::Implicit(v),
        offset: bv::zeros(offw as u64),
    }])
}

impl<'a> Step<'a> {
    fn ill<T>(&self, m: impl Into<String>) -> R<T> {
        Err(EncodeError::IllFormed {
            op: self.i,
            message: m.into(),
        })
    }
    fn bits(&self, t: &Type) -> R<u64> {
        self.enc.bitsizeof(t, self.i)
    }
    fn read(&self, l: &SLoc, t: &Type) -> R<ReadOut> {
        let k = self.bits(t)?;
        self.enc.read(self.st, l, k)
    }
    fn ok(&self, loc: SLoc) -> Applied {
        Applied::Loc {
            loc,
            err: ff(),
            inc: ff(),
        }
    }
    fn value(&self, v: BV, r: &[&ReadOut], extra_err: Option<Bool>) -> Applied {
        let mut errs: Vec<Bool> = r.iter().map(|x| x.err.clone()).collect();
        // Reads happen in order: an inconsistency counts only when the reads
        // before it did not fail.
        let mut incs = Vec::new();
        for (j, x) in r.iter().enumerate() {
            incs.push(Bool::and(&[&or(&errs[..j]).not(), &x.incons]));
        }
        let inc = or(&incs);
        if let Some(e) = extra_err {
            errs.push(Bool::and(&[&inc.not(), &e]));
        }
        Applied::Loc {
            loc: implicit(self.enc.offw, v),
            err: or(&errs),
            inc,
        }
    }
    fn input(&self, x: &Input) -> Applied {
        Applied::Loc {
            loc: x.loc.clone(),
            err: x.fail.clone(),
            inc: ff(),
        }
    }

    fn apply(&self, op: &Op, inputs: &[(SLoc, Type)], ty: &Type) -> R<Applied> {
        match op {
            Op::Referrer(t) => self.referrer(t),
            Op::Arg(n, t) => self.arg(*n, t),
            Op::TypeObject(_) => Ok(match &self.inp.object {
                Some(x) => self.input(x),
                None => Applied::Always("no object".into()),
            }),
            Op::Constant(t, lit) => self.constant(t, lit),
            Op::Convert(to) => self.convert(&inputs[0], to),
            Op::Reinterpret(to) => {
                if self.bits(&inputs[0].1)? != self.bits(to)? {
                    return self.ill("DIOpReinterpret changes the size");
                }
                let k = check::passes_location(op, self.dialect).unwrap_or(0);
                Ok(self.ok(inputs[k].0.clone()))
            }
            Op::Offset | Op::BitOffset(_) | Op::ByteOffset(_) => {
                let (b, l) = (&inputs[0], &inputs[1]);
                if !b.1.is_int() {
                    return self.ill("the offset is not an integer");
                }
                let r = self.read(&b.0, &b.1)?;
                let mut d = resize(&r.value, self.enc.offw, true);
                if !matches!(op, Op::BitOffset(_)) {
                    d = d.bvshl(num_u(3, self.enc.offw as u64));
                }
                Ok(Applied::Loc {
                    loc: l.0.shifted(&d),
                    err: r.err,
                    inc: r.incons,
                })
            }
            Op::Composite(n, t) => {
                if inputs.len() as u64 != *n {
                    return self.ill("DIOpComposite input count");
                }
                let mut parts = Vec::new();
                for (l, lt) in inputs.iter().rev() {
                    parts.push((l.clone(), self.bits(lt)?));
                }
                if parts.iter().map(|p| p.1).sum::<u64>() != self.bits(t)? {
                    return self.ill("the parts' sizes do not add up to the type's");
                }
                Ok(self.ok(self.composite(parts)))
            }
            Op::Extend(n) => {
                let (l, t) = &inputs[0];
                if !t.is_basic() {
                    return self.ill("DIOpExtend of a non-basic type");
                }
                if *n > MAX_PARTS {
                    return unsupported("more lanes than interp::MAX_PARTS");
                }
                let w = self.bits(t)?;
                Ok(self.ok(self.composite((0..*n).map(|_| (l.clone(), w)).collect())))
            }
            Op::Select => self.select(&inputs[0], &inputs[1], &inputs[2]),
            Op::AddrOf(_) => {
                self.bits(ty)?;
                Ok(self.ok(SLoc::one(vec![SSingle {
                    storage: SStorage::ImplicitAddress(Box::new(inputs[0].0.clone())),
                    offset: bv::zeros(self.enc.offw as u64),
                }])))
            }
            Op::Deref(_) => self.deref(&inputs[0]),
            Op::Read => {
                let r = self.read(&inputs[0].0, &inputs[0].1)?;
                Ok(self.value(r.value.clone(), &[&r], None))
            }
            Op::Add
            | Op::Sub
            | Op::Mul
            | Op::Div
            | Op::Mod
            | Op::And
            | Op::Or
            | Op::Xor
            | Op::Shr
            | Op::LShr
            | Op::AShr
            | Op::Shl => self.binary(op, &inputs[0], &inputs[1]),
            Op::ZExt(to) | Op::SExt(to) => {
                let (l, t) = &inputs[0];
                let (Some(a), Some(b)) = (t.int_width(), to.int_width()) else {
                    return self.ill("an extension of non-integers");
                };
                if b <= a {
                    return self.ill("an extension that does not widen");
                }
                let r = self.read(l, t)?;
                let v = resize(&r.value, b as u32, matches!(op, Op::SExt(_)));
                Ok(self.value(v, &[&r], None))
            }
            Op::PushLane(t) => {
                let Type::Int(w) = t else {
                    return self.ill("DIOpPushLane of a non-integer");
                };
                let Some(lane) = &self.inp.lane else {
                    return Ok(Applied::Always("no lane".into()));
                };
                let w = *w;
                let v = resize(lane, w as u32, false);
                let fits = if w >= 64 {
                    tt()
                } else {
                    lane.bvlshr(num_u(w, 64)).eq(num_u(0, 64))
                };
                Ok(self.value(v, &[], Some(fits.not())))
            }
            Op::Fragment(..) => unsupported("DIOpFragment as a stack operation"),
        }
    }

    fn composite(&self, parts: Vec<(SLoc, u64)>) -> SLoc {
        SLoc::one(vec![SSingle {
            storage: SStorage::Composite(parts),
            offset: bv::zeros(self.enc.offw as u64),
        }])
    }

    fn referrer(&self, t: &Type) -> R<Applied> {
        let tb = self.bits(t)?;
        match &self.env.referrer {
            ReferrerInfo::Forbidden => {
                return self.ill("DIOpReferrer in a computed lifetime segment")
            }
            ReferrerInfo::Known { ty, bits } => {
                let rb = match (bits, ty) {
                    (Some(b), _) => Some(*b),
                    (None, Some(rt)) => Some(self.bits(rt)?),
                    _ => None,
                };
                if rb.is_some_and(|rb| rb != tb) {
                    return self.ill("the referrer's size differs");
                }
            }
            ReferrerInfo::Absent => {}
        }
        if let Some(x) = &self.inp.referrer {
            return Ok(self.input(x));
        }
        if self.dialect == Dialect::DiExpression {
            // Without a referrer, the live dialect's referrer is argument 0.
            if self
                .env
                .args
                .and_then(|a| a.first())
                .is_some_and(|a| a.poison)
            {
                return Ok(self.ok(SLoc::one(vec![self.undefined()])));
            }
            if let Some(x) = self.inp.args.get(&0) {
                return Ok(self.input(x));
            }
        }
        Ok(Applied::Always("no referrer".into()))
    }

    fn undefined(&self) -> SSingle {
        SSingle {
            storage: SStorage::Undefined,
            offset: bv::zeros(self.enc.offw as u64),
        }
    }

    fn arg(&self, n: u64, t: &Type) -> R<Applied> {
        let tb = self.bits(t)?;
        if let Some(args) = self.env.args {
            let Some(a) = usize::try_from(n).ok().and_then(|i| args.get(i)) else {
                return self.ill("DIOpArg index out of range");
            };
            if a.poison {
                return Ok(self.ok(SLoc::one(vec![self.undefined()])));
            }
            let ab = match (&a.bits, &a.ty) {
                (Some(b), _) => Some(*b),
                (None, Some(at)) => Some(self.bits(at)?),
                _ => None,
            };
            if ab.is_some_and(|ab| ab != tb) {
                return self.ill("DIOpArg size differs from the argument's");
            }
        }
        Ok(match self.inp.args.get(&n) {
            Some(x) => self.input(x),
            None => Applied::Always(format!("no argument {n}")),
        })
    }

    fn constant(&self, t: &Type, lit: &Literal) -> R<Applied> {
        let l = location::literal_location(t, lit, &self.enc.dl, &self.enc.types).map_err(|e| {
            EncodeError::IllFormed {
                op: self.i,
                message: e.to_string(),
            }
        })?;
        Ok(self.ok(self.lit_loc(&l)?))
    }

    /// A literal's location (implicit, undefined, or a composite of those).
    fn lit_loc(&self, l: &LocDesc) -> R<SLoc> {
        let mut singles = Vec::new();
        for s in &l.singles {
            let storage = match &s.storage {
                Storage::Implicit { value } if value.width() > 0 => {
                    SStorage::Implicit(bv::bits_num(value))
                }
                Storage::Implicit { .. } => return unsupported("a constant of zero bits"),
                Storage::Undefined => SStorage::Undefined,
                Storage::Composite { parts } => {
                    let mut ps = Vec::new();
                    for p in parts {
                        ps.push((self.lit_loc(&p.loc)?, p.bits));
                    }
                    SStorage::Composite(ps)
                }
                _ => return unsupported("a literal in unexpected storage"),
            };
            singles.push(SSingle {
                storage,
                offset: num(&s.offset, self.enc.offw as u64),
            });
        }
        Ok(SLoc::one(singles))
    }

    fn convert(&self, (l, from): &(SLoc, Type), to: &Type) -> R<Applied> {
        let r = self.read(l, from)?;
        let v = &r.value;
        match (from, to) {
            (Type::Int(a), Type::Int(b)) => {
                if b > a && self.dialect == Dialect::DiExpression {
                    return self.ill("DIOpConvert to a wider integer in the live dialect");
                }
                Ok(self.value(resize(v, *b as u32, false), &[&r], None))
            }
            (Type::Int(_), Type::Float(k)) => {
                // An integer never converts to NaN.
                let x = bv::float_of_sint(v, k.0);
                Ok(self.value(x, &[&r], None))
            }
            (Type::Float(k), Type::Int(w)) => {
                if *w == 0 {
                    return unsupported("a conversion to i0");
                }
                let (x, ok) = bv::float_to_sint(v, k.0, *w as u32);
                Ok(self.value(x, &[&r], Some(ok.not())))
            }
            (Type::Float(a), Type::Float(b)) => {
                // Exactly APFloat's bits, NaN payloads included.
                let y = bv::float_convert(v, a.0, b.0);
                Ok(self.value(y, &[&r], None))
            }
            (Type::Ptr { .. } | Type::Int(_), Type::Ptr { .. })
            | (Type::Ptr { .. }, Type::Int(_)) => {
                let w = self.bits(to)?;
                Ok(self.value(resize(v, w as u32, false), &[&r], None))
            }
            _ => self.ill("DIOpConvert between these types"),
        }
    }

    fn deref(&self, (l, t): &(SLoc, Type)) -> R<Applied> {
        // The implicit-address shortcut, per alternative.
        let mut alts = Vec::new();
        let mut shortcut = Vec::new();
        for a in &l.alts {
            if let [SSingle {
                storage: SStorage::ImplicitAddress(target),
                offset,
            }] = a.singles.as_slice()
            {
                let g = Bool::and(&[&a.guard, &offset.eq(bv::zeros(self.enc.offw as u64))]);
                alts.extend(target.guarded(&g).alts);
                shortcut.push(g);
            }
        }
        let short = or(&shortcut);
        if bv::as_bool(&short) == Some(true) {
            return Ok(self.ok(SLoc { alts }));
        }
        let Some(n) = t.addrspace() else {
            return self.ill("DIOpDeref of a non-pointer");
        };
        let r = self.read(l, t)?;
        let addr = resize(&r.value, self.enc.offw, false).bvshl(num_u(3, self.enc.offw as u64));
        alts.push(SAlt {
            guard: short.not(),
            singles: vec![SSingle {
                storage: SStorage::Memory(n),
                offset: addr,
            }],
        });
        Ok(Applied::Loc {
            loc: SLoc { alts },
            err: Bool::and(&[&short.not(), &r.err]),
            inc: Bool::and(&[&short.not(), &r.incons]),
        })
    }

    fn select(&self, l1: &(SLoc, Type), l0: &(SLoc, Type), lm: &(SLoc, Type)) -> R<Applied> {
        let Type::Vector { len: n, elem } = &l1.1 else {
            return self.ill("DIOpSelect of a non-vector");
        };
        if !elem.is_basic() {
            return self.ill("DIOpSelect of vectors of non-basic types");
        }
        if *n > MAX_PARTS {
            return unsupported("more lanes than interp::MAX_PARTS");
        }
        if self.bits(&lm.1)? < *n {
            return self.ill("the mask has fewer bits than lanes");
        }
        let m = self.read(&lm.0, &lm.1)?;
        let w = self.bits(elem)?;
        // Each lane copies both vectors' alternatives.
        self.enc
            .charge((*n as usize).saturating_mul(l1.0.alts.len() + l0.0.alts.len()));
        let mut parts = Vec::new();
        for i in 0..*n {
            let bit = m.value.extract(i as u32, i as u32).eq(num_u(1, 1));
            let d = num_u(i * w, self.enc.offw as u64);
            let mut alts = l1.0.shifted(&d).guarded(&bit).alts;
            alts.extend(l0.0.shifted(&d).guarded(&bit.not()).alts);
            parts.push((SLoc { alts }, w));
        }
        Ok(Applied::Loc {
            loc: self.composite(parts),
            err: m.err,
            inc: m.incons,
        })
    }

    fn binary(&self, op: &Op, l1: &(SLoc, Type), l2: &(SLoc, Type)) -> R<Applied> {
        let r1 = self.read(&l1.0, &l1.1)?;
        let r2 = self.read(&l2.0, &l2.1)?;
        let (lanes, scalar) = match &l1.1 {
            Type::Vector { len, elem } => (*len, (**elem).clone()),
            t => (1, t.clone()),
        };
        let w = self.bits(&scalar)?;
        if w == 0 {
            return unsupported("arithmetic on zero-bit lanes");
        }
        let mut out: Option<BV> = None;
        let mut div0 = Vec::new();
        for i in 0..lanes {
            let (hi, lo) = (((i + 1) * w - 1) as u32, (i * w) as u32);
            let (v2, v1) = (r2.value.extract(hi, lo), r1.value.extract(hi, lo));
            let x = self.lane(op, &scalar, &v2, &v1, &mut div0)?;
            out = Some(match out {
                None => x,
                Some(o) => x.concat(&o),
            });
        }
        let Some(v) = out else {
            return unsupported("a vector of no lanes");
        };
        let e = or(&div0);
        Ok(self.value(v, &[&r1, &r2], Some(e)))
    }

    /// `v2 op v1` on one lane of type `t`.
    fn lane(&self, op: &Op, t: &Type, v2: &BV, v1: &BV, div0: &mut Vec<Bool>) -> R<BV> {
        let name = op.name();
        match t {
            Type::Int(w) => {
                let zero = num_u(0, *w);
                if op.is_shift() {
                    self.enc.shift_amounts.borrow_mut().push((v1.clone(), *w));
                }
                Ok(match op {
                    Op::Add => v2.bvadd(v1),
                    Op::Sub => v2.bvsub(v1),
                    Op::Mul => v2.bvmul(v1),
                    Op::Div => {
                        div0.push(v1.eq(&zero));
                        v2.bvsdiv(v1)
                    }
                    Op::Mod => {
                        div0.push(v1.eq(&zero));
                        v2.bvsrem(v1)
                    }
                    Op::And => v2.bvand(v1),
                    Op::Or => v2.bvor(v1),
                    Op::Xor => v2.bvxor(v1),
                    Op::Shr | Op::LShr => v2.bvlshr(v1),
                    Op::AShr => v2.bvashr(v1),
                    Op::Shl => v2.bvshl(v1),
                    _ => return self.ill(format!("{name} is not binary")),
                })
            }
            Type::Float(k) => {
                let fop = match op {
                    Op::Add => bv::FpOp::Add,
                    Op::Sub => bv::FpOp::Sub,
                    Op::Mul => bv::FpOp::Mul,
                    Op::Div => bv::FpOp::Div,
                    _ => return self.ill(format!("{name} on floats")),
                };
                Ok(bv::float_bin(fop, v2, v1, k.0))
            }
            _ => self.ill(format!("{name} on `{t}`")),
        }
    }
}

/// The addresses of `a` then those of `b` not in `a`, each once.
///
/// Both sides of a merge grew from one state and so share its addresses:
/// concatenating them doubled that common part at every merge, and a write
/// through a location that merges once per lane (a `DIOpSelect` of
/// composites) grew the list as 4^lanes (2^33 entries, more than 4 GB, on
/// `fuzz/regressions/smt/encoding-memory-blowup.case`). Equal addresses are
/// the same Z3 term (hash-consed), so identity finds the shared ones.
fn union_written(a: &[(u32, BV)], b: &[(u32, BV)]) -> Vec<(u32, BV)> {
    let mut seen: std::collections::HashSet<(u32, BV)> = std::collections::HashSet::new();
    let mut out = Vec::with_capacity(a.len().max(b.len()));
    for w in a.iter().chain(b) {
        if seen.insert(w.clone()) {
            out.push(w.clone());
        }
    }
    out
}

/// Whether two states grown by writes from the same initial state are equal:
/// the same bytes at every address either may have written, and the same
/// entities.
pub fn same_state(enc: &Encoder, a: &SState, b: &SState) -> Bool {
    let mut eqs: Vec<Bool> = Vec::new();
    for (s, addr) in union_written(&a.written, &b.written) {
        let (x, y) = (enc.mem_byte(a, s, &addr), enc.mem_byte(b, s, &addr));
        eqs.push(x.eq(&y));
    }
    eqs.extend(a.ents.iter().zip(&b.ents).map(|(x, y)| x.eq(y)));
    and(&eqs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use diopter_semantics::types::{DataLayout, TypeTable};
    use z3::{SatResult, Solver};

    /// `Encoder::split` of an offset `concat(X, y) + R` (the prover's memory
    /// hole plus what an expression adds) is the byte address and bit of the
    /// plain formula `(off >>s 3) mod 2^p`, `off mod 8`, for all values:
    /// checked by Z3 for 64- and 32-bit pointers.
    #[test]
    fn split_of_a_concat_offset_is_exact() {
        let offw = 92;
        let enc = Encoder::new(DataLayout::llvm_default(), TypeTable::default(), offw);
        let x = BV::new_const("x", offw - 3);
        let y = BV::new_const("y", 3);
        let c = BV::new_const("c", 32);
        let d = BV::new_const("d", offw - 3);
        let offs = [
            x.concat(&y),
            x.concat(&y).bvadd(c.sign_ext(offw - 32)),
            x.concat(&y)
                .bvadd(c.sign_ext(offw - 32))
                .bvadd(num_u(1234567, offw as u64))
                .bvadd(d.concat(num_u(0, 3))),
        ];
        for a in [0u32, 5] {
            let p = enc.ptr_bits(a) as u32;
            for off in &offs {
                let (mut bases, mut rest) = (Vec::new(), Vec::new());
                bv::summands(off, &mut bases, &mut rest);
                assert!(!bases.is_empty(), "{off}: the concat form is recognised");
                let (addr, bit) = enc.split(a, off);
                let plain = resize(&off.bvashr(enc.off(3)), p, false);
                let s = Solver::new();
                s.assert(Bool::or(&[
                    &addr.eq(&plain).not(),
                    &bit.eq(off.extract(2, 0)).not(),
                ]));
                assert_eq!(s.check(), SatResult::Unsat, "{off} in address space {a}");
            }
        }
    }

    /// The prover recognises `bvadd`, `concat` (here, `summands`), `and` and
    /// `=` (`prove::pinned`) by name: the names the linked Z3 gives them.
    #[test]
    fn builtins_are_recognised_by_name() {
        let x = BV::new_const("x", 8);
        let y = BV::new_const("y", 8);
        let p = Bool::new_const("p");
        assert_eq!(bv::app_name(&x.bvadd(&y)).as_deref(), Some("bvadd"));
        assert_eq!(bv::app_name(&x.concat(&y)).as_deref(), Some("concat"));
        assert_eq!(bv::app_name(&x.eq(&y)).as_deref(), Some("="));
        assert_eq!(
            bv::app_name(&Bool::and(&[&p, &x.eq(&y)])).as_deref(),
            Some("and")
        );
        assert_eq!(bv::app_name(&x).as_deref(), Some("x"));
    }
}
