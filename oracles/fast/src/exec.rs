//! The run-time half: compact locations, the machine that runs a
//! [`Compiled`] program, and the conversion of its result into the
//! reference's `Located`/`EvalError`.
//!
//! # Compact locations
//!
//! A location is a [`Loc`]: one single location inline (the common case), or
//! a range of the `singles` arena (several single locations, or none). A
//! single location is a storage [`St`] and an offset `O` (`i128`, or `BigInt`
//! after a bail-out, see [`super::offset`]). Storages neither own heap data
//! nor borrow: implicit values and entities of at most 128 bits are inline,
//! wider ones live in the `words` arena (a wide context value is copied
//! there when it is loaded), composite parts and implicit addresses are
//! ranges/indices of arenas, and what must be borrowed (an entity's name,
//! an implicit address's types) is an index of the `refs` arena, the only
//! one whose entries have the lifetime `'a` of the program and the context.
//! So the arenas live in the [`super::Scratch`] and each run borrows them,
//! and a run allocates nothing once the scratch has grown to the program's
//! needs, as long as values stay within 128 bits and nothing fails. A
//! context location is loaded (converted to compact form) once per run,
//! however often the expression names it, or
//! once per context by a [`PreparedContext`](super::PreparedContext), whose
//! arenas a run then starts from.
//!
//! Arena ranges are never modified after they are made (an offset operation
//! on a multi-location makes a new range), so copies of a `Loc` (`DIOpExtend`
//! makes N) can share them.

use super::arith::{self, BinOp};
use super::compile::{Compiled, Conv, Fallback, Ins, Lane};
use super::failure::Msg;
use super::offset::Off;
use super::words::{self, mask128, sext128};
use diopter_semantics::context::{splitmix64, Context};
use diopter_semantics::interp::{ErrorKind, EvalError, Located, Outcome};
use diopter_semantics::location::{LocDesc, Part, Single, Storage, MAX_LOC_NODES};
use diopter_semantics::types::Type;
use diopter_semantics::value::{self, Bits};

/// A storage, without its offset. Nothing in it borrows (entity names and
/// the types of implicit addresses are indices of the run's `refs`), so the
/// arenas of compact locations can live in the [`super::Scratch`] from run
/// to run and be borrowed by each, rather than moved in and out of it.
#[derive(Clone, Copy, Debug)]
pub(crate) enum St {
    Mem(u32),
    /// An entity of the context (`refs` index of its name and value) that
    /// is not in the context, or whose value is too wide for the words
    /// arena.
    Ent(u32),
    /// An entity of at most 128 bits (`refs` index, width, value): read as
    /// an implicit value is.
    EntS(u32, u32, u128),
    /// An entity wider than 128 bits whose value was copied to the words
    /// arena when it was loaded (`refs` index, first word, width).
    EntW(u32, u32, u32),
    /// An implicit value of at most 128 bits (value, width).
    Imp(u128, u32),
    /// An implicit value in the words arena (first word, width).
    ImpW(u32, u64),
    Undef,
    /// An implicit address: index into the `addrs` arena.
    Addr(u32),
    /// A composite: range of the `parts` arena.
    Comp(u32, u32),
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct Sgl<O> {
    pub st: St,
    pub off: O,
}

#[derive(Clone, Copy, Debug)]
pub(crate) enum Loc<O> {
    One(Sgl<O>),
    /// A range of the `singles` arena; never of length 1.
    Many(u32, u32),
}

impl<O> Loc<O> {
    /// One single location of a storage without parts: one node of the
    /// reference's `LocDesc::node_count`, counted without a walk.
    #[inline(always)]
    pub(crate) fn is_one_node(&self) -> bool {
        !matches!(
            self,
            Loc::One(Sgl {
                st: St::Comp(..) | St::Addr(_),
                ..
            }) | Loc::Many(..)
        )
    }
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct PartC<O> {
    pub loc: Loc<O>,
    pub bits: u64,
    /// The reference's `LocDesc::node_count` of `loc`, kept so that the
    /// size of a location is found without walking shared parts again.
    pub nodes: u64,
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct AddrC<O> {
    pub target: Loc<O>,
    /// [`TyR`]s of the target's and the pointer's types.
    pub target_ty: u32,
    pub ptr_ty: u32,
    pub bits: u64,
}

/// What a compact location refers to outside the run's arenas: an entity
/// (its name in the context or a constant, and its value), or a type of an
/// implicit address the context or a constant gives.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Ref<'a> {
    Ent(&'a str, Option<&'a Bits>),
    Ty(&'a Type),
}

impl<'a> Ref<'a> {
    /// An entity's name and value.
    #[inline]
    pub(crate) fn entity(self) -> (&'a str, Option<&'a Bits>) {
        match self {
            Ref::Ent(name, b) => (name, b),
            Ref::Ty(_) => unreachable!("an entity's index"),
        }
    }
}

/// A type of an `AddrC`: `PROG_TY | i` is the program's type `i` (what
/// `DIOpAddrOf` makes), anything else an index of the run's `refs`.
pub(crate) const PROG_TY: u32 = 1 << 31;

/// Why a run stopped early.
#[derive(Debug)]
pub(crate) enum Stop {
    /// An offset outgrew `i128`: run again with `BigInt` offsets.
    Bail,
    /// The evaluation error (the operation index is attached by the loop);
    /// its message is written on demand (`Machine::message`).
    Fail(ErrorKind, Msg),
}

pub(crate) type R<T> = Result<T, Stop>;

pub(crate) fn fail<T>(kind: ErrorKind, m: Msg) -> R<T> {
    Err(Stop::Fail(kind, m))
}

/// `location::MAX_LOC_NODES` for a location about to be built.
fn check_loc_size(nodes: u64) -> R<()> {
    if nodes > MAX_LOC_NODES {
        return fail(ErrorKind::ResourceLimit, Msg::LocNodes(nodes));
    }
    Ok(())
}

/// An arena of a run: the prepared context's part (borrowed, never written)
/// followed by the run's own (`V`: the scratch's vector, borrowed, or a
/// vector of the run). Indices run on across the two, and a range is
/// always inside one of them (it is made all at once), so a run in a
/// prepared context finds the context's locations where the preparation
/// put them without copying them.
pub(crate) struct Arena<'a, T, V> {
    pub pre: &'a [T],
    pub own: V,
}

/// An arena whose own part is the scratch's vector.
pub(crate) type Lent<'a, 'r, T> = Arena<'a, T, &'r mut Vec<T>>;

impl<T, V: AsRef<Vec<T>> + AsMut<Vec<T>>> Arena<'_, T, V> {
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.pre.len() + self.own.as_ref().len()
    }
    #[inline]
    pub(crate) fn push(&mut self, t: T) {
        self.own.as_mut().push(t);
    }
    #[inline]
    pub(crate) fn extend(&mut self, it: impl IntoIterator<Item = T>) {
        self.own.as_mut().extend(it);
    }
}

impl<T, V: AsRef<Vec<T>>> std::ops::Index<usize> for Arena<'_, T, V> {
    type Output = T;
    #[inline]
    fn index(&self, i: usize) -> &T {
        match i.checked_sub(self.pre.len()) {
            None => &self.pre[i],
            Some(j) => &self.own.as_ref()[j],
        }
    }
}

impl<T, V: AsRef<Vec<T>> + AsMut<Vec<T>>> std::ops::IndexMut<usize> for Arena<'_, T, V> {
    /// Only the run's own part is written.
    #[inline]
    fn index_mut(&mut self, i: usize) -> &mut T {
        let n = self.pre.len();
        &mut self.own.as_mut()[i - n]
    }
}

impl<T, V: AsRef<Vec<T>>> std::ops::Index<std::ops::Range<usize>> for Arena<'_, T, V> {
    type Output = [T];
    #[inline]
    fn index(&self, r: std::ops::Range<usize>) -> &[T] {
        let n = self.pre.len();
        if r.start < n {
            &self.pre[r]
        } else {
            &self.own.as_ref()[r.start - n..r.end - n]
        }
    }
}

impl<'v, T> Arena<'v, T, &'v Vec<T>> {
    /// A range, borrowed for as long as the arena's parts are.
    #[inline]
    pub(crate) fn range(&self, r: std::ops::Range<usize>) -> &'v [T] {
        let (pre, own): (&'v [T], &'v Vec<T>) = (self.pre, self.own);
        let n = pre.len();
        if r.start < n {
            &pre[r]
        } else {
            &own[r.start - n..r.end - n]
        }
    }
}

/// A read-only arena of the same parts.
fn lend<'v, T, V: AsRef<Vec<T>>>(a: &'v Arena<'_, T, V>) -> Arena<'v, T, &'v Vec<T>> {
    Arena {
        pre: a.pre,
        own: a.own.as_ref(),
    }
}

/// The vectors of a run's compact locations, kept in the [`super::Scratch`]
/// (one set for `i128` offsets, one for `BigInt`) and borrowed by each run:
/// nothing in them borrows, so they outlive the run without being moved.
pub(crate) struct Bufs<O> {
    pub stack: Vec<Loc<O>>,
    pub singles: Vec<Sgl<O>>,
    pub parts: Vec<PartC<O>>,
    pub addrs: Vec<AddrC<O>>,
    pub words: Vec<u64>,
    /// How the last run ended (its location is the stack's one entry),
    /// and the storage a failed read was about.
    pub done: Ended,
    pub fault: Sgl<O>,
}

/// How a run ended: with its location as the stack's one entry (left
/// there rather than moved out: the result is read where it lies), or with
/// the error and the index of the instruction that stopped it.
pub(crate) type Ended = Result<(), (usize, Stop)>;

/// A finished run's result as the view reads it.
pub(crate) type Finished<'v, O> = Result<&'v Loc<O>, &'v (usize, Stop)>;

impl<O> Bufs<O> {
    /// Empties the arenas for a run; its words start with the prepared
    /// context's (`pre_words`), whose regions the prepared locations name.
    #[inline(always)]
    pub(crate) fn begin(&mut self, pre_words: &[u64]) {
        self.stack.clear();
        self.singles.clear();
        self.parts.clear();
        self.addrs.clear();
        self.words.clear();
        if !pre_words.is_empty() {
            self.words.extend_from_slice(pre_words);
        }
    }

    /// The last run's result: the location it left, or how it failed.
    #[inline]
    pub(crate) fn finished(&self) -> Finished<'_, O> {
        match &self.done {
            Ok(()) => Ok(self
                .stack
                .last()
                .expect("a finished run leaves its location")),
            Err(e) => Err(e),
        }
    }
}

impl<O: Off> Default for Bufs<O> {
    fn default() -> Self {
        Bufs {
            stack: Vec::new(),
            singles: Vec::new(),
            parts: Vec::new(),
            addrs: Vec::new(),
            words: Vec::new(),
            done: Err((0, Stop::Bail)),
            fault: Sgl {
                st: St::Undef,
                off: O::zero(),
            },
        }
    }
}

/// A value just read: at most 128 bits inline, else the first bit of a
/// region of the words arena.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Val {
    S(u128),
    W(u64),
}

impl Val {
    /// The implicit storage holding the value (of width `w`).
    #[inline(always)]
    fn storage(self, w: u64) -> St {
        match self {
            Val::S(v) => St::Imp(v, w as u32),
            Val::W(p) => St::ImpW((p / 64) as u32, w),
        }
    }
}

/// The run-time state. Its vectors are the scratch's, borrowed for the
/// run; what it learns of the context lives in the scratch too (`run`), so
/// that the machine, which the result keeps and so is moved with it, stays
/// small.
pub(crate) struct Machine<'a, 'r, O> {
    pub prog: &'a Compiled,
    pub ctx: &'a Context,
    pub stack: &'r mut Vec<Loc<O>>,
    pub singles: Lent<'a, 'r, Sgl<O>>,
    pub parts: Lent<'a, 'r, PartC<O>>,
    pub addrs: Lent<'a, 'r, AddrC<O>>,
    pub words: &'r mut Vec<u64>,
    /// Entity names and values, implicit addresses' types: the prepared
    /// context's, then the run's own, in a vector taken from the scratch
    /// (`refs_home`) only when a run makes one (loading a raw context or a
    /// constant), because its entries borrow and it must be moved to be lent.
    pub refs: Arena<'a, Ref<'a>, Vec<Ref<'a>>>,
    pub refs_home: &'r mut Vec<Ref<'static>>,
    pub run: &'r mut RunState,
    /// The context prepared beforehand, if it was: its memory map's spans
    /// and pages (`RunState::given` caches a span and the context's
    /// `Memory` is searched otherwise).
    pub pre: Option<&'a PreparedContext<'a>>,
    /// The storage a failed read was about, at the offset it read (for
    /// `Msg::NotInContext` and `Msg::OutOfBounds`): the scratch's, written
    /// only by the failure that reads it, so never cleared.
    pub fault: &'r mut Sgl<O>,
    /// How the run ended: the scratch's, written once, at the end.
    pub done: &'r mut Ended,
}

/// The arenas of a run, read-only: what a finished run's result is read
/// from (the result keeps the scratch and builds one when asked, rather
/// than keeping the machine), and what the machine's own reading of
/// locations (sizes, messages) goes through.
pub(crate) struct View<'v, O> {
    pub prog: &'v Compiled,
    pub singles: Arena<'v, Sgl<O>, &'v Vec<Sgl<O>>>,
    pub parts: Arena<'v, PartC<O>, &'v Vec<PartC<O>>>,
    pub addrs: Arena<'v, AddrC<O>, &'v Vec<AddrC<O>>>,
    pub words: &'v [u64],
    pub refs: Arena<'v, Ref<'v>, &'v Vec<Ref<'v>>>,
    /// The storage a failed read was about, at the offset it read.
    pub fault: &'v Sgl<O>,
}

/// The per-context part of a machine, small and `Copy` so that a prepared
/// context's is copied into each run as it is.
#[derive(Clone, Copy, Debug)]
pub(crate) struct CtxInfo {
    /// `splitmix64(seed)`: the first step of every seeded byte.
    pub seed_hash: u64,
    /// Pointer bits of address spaces 0..8 (0: not looked up yet).
    pub ptr_bits: [u64; 8],
    /// The context's locations already loaded: `arg 0` to `arg 7`, the
    /// referrer, the object, each as a range of the `singles` arena
    /// (`NOT_LOADED`: not yet). Arena ranges are immutable, so a loaded
    /// location can be pushed again.
    pub loaded: [(u32, u32); 10],
}

impl CtxInfo {
    /// Nothing known yet but the seed's hash.
    #[inline(always)]
    pub(crate) fn fresh(ctx: &Context) -> CtxInfo {
        CtxInfo {
            seed_hash: splitmix64(ctx.seed),
            ptr_bits: [0; 8],
            loaded: [(NOT_LOADED, 0); 10],
        }
    }
}

/// What a run learns of its context as it goes: kept in the `Scratch`
/// (nothing in it borrows), lent to the machine for one run.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RunState {
    pub info: CtxInfo,
    /// For the address space of the last memory read beyond 2^64, the
    /// lowest and highest address the context gives a byte for (`None`:
    /// none), so that reads elsewhere skip the range search of the memory
    /// map (reads below 2^64 look their pages up by key).
    pub given: Option<(u32, Option<(u128, u128)>)>,
}

impl Default for RunState {
    fn default() -> Self {
        RunState {
            info: CtxInfo {
                seed_hash: 0,
                ptr_bits: [0; 8],
                loaded: [(NOT_LOADED, 0); 10],
            },
            given: None,
        }
    }
}

pub(crate) const NOT_LOADED: u32 = u32::MAX;
pub(crate) const REFERRER: usize = 8;
pub(crate) const OBJECT: usize = 9;

impl<'a, 'r, O: Off> Machine<'a, 'r, O> {
    /// A machine in a context prepared beforehand (`pre`; it reads the
    /// prepared `CtxInfo` then, and `run` only caches), or in a context it
    /// has learnt nothing of yet. The scratch's arenas start as
    /// [`Bufs::begin`] leaves them.
    #[inline(always)]
    pub(crate) fn new(
        prog: &'a Compiled,
        ctx: &'a Context,
        bufs: &'r mut Bufs<O>,
        refs_home: &'r mut Vec<Ref<'static>>,
        run: &'r mut RunState,
        pre: Option<&'a PreparedContext<'a>>,
    ) -> Self {
        // A prepared context answers reads from its own pages: `given`
        // serves only runs without one.
        if pre.is_none() {
            run.info = CtxInfo::fresh(ctx);
            run.given = None;
        }
        bufs.begin(pre.map_or(&[], |p| &p.words[..]));
        let Bufs {
            stack,
            singles,
            parts,
            addrs,
            words,
            fault,
            done,
        } = bufs;
        Machine {
            prog,
            ctx,
            stack,
            singles: Arena {
                pre: &[],
                own: singles,
            },
            parts: Arena {
                pre: &[],
                own: parts,
            },
            addrs: Arena {
                pre: &[],
                own: addrs,
            },
            words,
            refs: Arena {
                pre: &[],
                own: Vec::new(),
            },
            refs_home,
            run,
            pre,
            fault,
            done,
        }
    }

    /// Records what a compact location refers to: its `refs` index. The
    /// run's own part is the scratch's vector, taken at the first entry.
    pub(crate) fn push_ref(&mut self, r: Ref<'a>) -> u32 {
        if self.refs.own.capacity() == 0 {
            self.refs.own = recycle(std::mem::take(self.refs_home));
        }
        self.refs.push(r);
        (self.refs.len() - 1) as u32
    }

    /// The name and value of the entity of `refs` index `r`.
    pub(crate) fn entity(&self, r: u32) -> (&'a str, Option<&'a Bits>) {
        self.refs[r as usize].entity()
    }

    /// [`View::loc_nodes`], without building a view for a location of one
    /// node.
    #[inline(always)]
    fn loc_nodes(&self, loc: &Loc<O>) -> u64 {
        if loc.is_one_node() {
            1
        } else {
            self.view().loc_nodes_walk(loc)
        }
    }

    /// The machine's arenas, read-only.
    #[inline]
    pub(crate) fn view(&self) -> View<'_, O> {
        View {
            prog: self.prog,
            singles: lend(&self.singles),
            parts: lend(&self.parts),
            addrs: lend(&self.addrs),
            words: self.words,
            refs: lend(&self.refs),
            fault: self.fault,
        }
    }

    // ------------------------------------------------------------ the loop

    /// Runs the program, and writes how it ended into the scratch (`done`):
    /// on failure, the error and the instruction index. Written there
    /// rather than returned, so that the error is not copied again.
    pub(crate) fn run(&mut self) {
        let code = &self.prog.code;
        for ins in code.iter() {
            if let Err(s) = self.step(ins) {
                // The instruction's index from its address: a counter kept
                // for every instruction is a register or a store the loop
                // pays for the rare failure (and counting what is left of
                // the iterator measured slower than this).
                let k = (ins as *const Ins as usize - code.as_ptr() as usize)
                    / std::mem::size_of::<Ins>();
                *self.done = Err((k, s));
                return;
            }
        }
        // A program that does not end in `Fail` leaves exactly one entry:
        // the result, read where it lies.
        debug_assert_eq!(self.stack.len(), 1);
        *self.done = Ok(());
    }

    fn pop(&mut self) -> Loc<O> {
        self.stack
            .pop()
            .expect("the compiler checked the stack depth")
    }

    fn push_one(&mut self, st: St, off: O) {
        self.stack.push(Loc::One(Sgl { st, off }));
    }

    /// Replaces the top entry with an implicit location holding `v` (of
    /// width `w`): what popping it and [`Machine::push_val`] would leave.
    #[inline(always)]
    fn set_top_val(&mut self, v: Val, w: u64) {
        let st = v.storage(w);
        *self
            .stack
            .last_mut()
            .expect("the compiler checked the stack depth") = Loc::One(Sgl { st, off: O::zero() });
    }

    fn step(&mut self, ins: &'a Ins) -> R<()> {
        let ctx = self.ctx;
        match *ins {
            // A loaded slot says the context has the argument.
            Ins::Arg(n) if n < 8 && self.info().loaded[n as usize].0 != NOT_LOADED => {
                let loc = self.slot_loc(self.info().loaded[n as usize]);
                self.stack.push(loc);
            }
            Ins::Arg(n) => match ctx.args.get(&n) {
                Some(l) => self.push_ctx((n < 8).then_some(n as usize), l)?,
                None => return fail(ErrorKind::NoArgument, Msg::NoArg(n)),
            },
            Ins::Undef => self.push_one(St::Undef, O::zero()),
            Ins::Referrer(fb) => match (&ctx.referrer, fb) {
                (Some(l), _) => self.push_ctx(Some(REFERRER), l)?,
                (None, Fallback::Poison) => self.push_one(St::Undef, O::zero()),
                (None, Fallback::Arg0) => match ctx.args.get(&0) {
                    Some(l) => self.push_ctx(Some(0), l)?,
                    None => {
                        return fail(
                            ErrorKind::NoReferrer,
                            Msg::Text("the context gives neither a referrer nor arg 0"),
                        )
                    }
                },
                (None, Fallback::None) => {
                    return fail(
                        ErrorKind::NoReferrer,
                        Msg::Text("the context gives no referrer"),
                    )
                }
            },
            Ins::Object => match &ctx.object {
                Some(l) => self.push_ctx(Some(OBJECT), l)?,
                None => {
                    return fail(
                        ErrorKind::NoObject,
                        Msg::Text("the context gives no object"),
                    )
                }
            },
            Ins::Imm { v, w } => self.push_one(St::Imp(v, w), O::zero()),
            Ins::ImmW { at, w } => {
                let start = self.words.len();
                let nw = w.div_ceil(64) as usize;
                let at = at as usize;
                self.words.extend_from_slice(&self.prog.words[at..at + nw]);
                self.push_one(St::ImpW(start as u32, w), O::zero());
            }
            Ins::Const(i) => {
                let l = self.load(&self.prog.consts[i as usize])?;
                self.stack.push(l);
            }
            Ins::Convert { from_w, to_w, conv } => {
                let l = self.pop();
                let v = self.read_val(&l, from_w)?;
                let r = self.convert(v, from_w, to_w, conv)?;
                self.push_val(r, to_w);
            }
            Ins::Offset { bw, bytes } => {
                let v = self.read_entry(0, bw)?;
                let mut delta = match v {
                    Val::S(v) if diopter_faults::planted!("fast-offset-zext") => {
                        O::small(v as i128)
                    }
                    Val::S(v) => O::small(sext128(v, bw)),
                    Val::W(p) => O::from_wide_signed(self.words, p, bw).ok_or(Stop::Bail)?,
                };
                if bytes {
                    delta = delta.times8().ok_or(Stop::Bail)?;
                }
                self.stack.pop();
                let l = self.pop();
                let l = self.with_offset(&l, &delta)?;
                self.stack.push(l);
            }
            Ins::Composite { n, at } => {
                let n = n as usize;
                let start = self.parts.len() as u32;
                let base = self.stack.len() - n;
                let mut total = 1u64;
                for j in 0..n {
                    let loc = self.stack[base + j].clone();
                    let bits = self.prog.part_bits[at as usize + j];
                    let nodes = self.loc_nodes(&loc);
                    total = total.saturating_add(nodes);
                    self.parts.push(PartC { loc, bits, nodes });
                }
                check_loc_size(total)?;
                self.stack.truncate(base);
                self.push_one(St::Comp(start, n as u32), O::zero());
            }
            Ins::Extend { n, w } => {
                let l = self.pop();
                let nodes = self.loc_nodes(&l);
                check_loc_size(nodes.saturating_mul(u64::from(n)).saturating_add(1))?;
                let start = self.parts.len() as u32;
                self.parts.extend(std::iter::repeat_n(
                    PartC {
                        loc: l,
                        bits: w,
                        nodes,
                    },
                    n as usize,
                ));
                self.push_one(St::Comp(start, n), O::zero());
            }
            Ins::Select { n, w, mask_w } => {
                let l1 = self.pop();
                let l0 = self.pop();
                let lm = self.pop();
                let m = self.read_val(&lm, mask_w)?;
                let bit = |words: &[u64], i: u64| match m {
                    Val::S(v) => (v >> i) & 1 == 1,
                    Val::W(p) => words::get(words, p + i, 1) == 1,
                };
                let (n1, n0) = (self.loc_nodes(&l1), self.loc_nodes(&l0));
                let total = (0..u64::from(n)).fold(1u64, |acc, i| {
                    acc.saturating_add(if bit(self.words, i) { n1 } else { n0 })
                });
                check_loc_size(total)?;
                let start = self.parts.len() as u32;
                for i in 0..u64::from(n) {
                    let pick =
                        bit(self.words, i) != diopter_faults::planted!("fast-select-inverted");
                    let (pl, nodes) = if pick { (&l1, n1) } else { (&l0, n0) };
                    let loc = self.with_offset(pl, &O::small(i128::from(i * w)))?;
                    self.parts.push(PartC {
                        loc,
                        bits: w,
                        nodes,
                    });
                }
                self.push_one(St::Comp(start, n), O::zero());
            }
            Ins::AddrOf {
                target_ty,
                ptr_ty,
                bits,
            } => {
                let target = self.pop();
                self.addrs.push(AddrC {
                    target,
                    target_ty: PROG_TY | target_ty,
                    ptr_ty: PROG_TY | ptr_ty,
                    bits,
                });
                self.push_one(St::Addr((self.addrs.len() - 1) as u32), O::zero());
            }
            Ins::Deref {
                addrspace,
                ptr_w,
                not_ptr,
            } => {
                let l = self.pop();
                // The implicit-address shortcut: exactly one single location,
                // in implicit-address storage, at offset 0.
                if let Loc::One(Sgl {
                    st: St::Addr(k),
                    off,
                }) = &l
                {
                    if off.is_zero() {
                        let t = self.addrs[*k as usize].target.clone();
                        self.stack.push(t);
                        return Ok(());
                    }
                }
                if let Some(m) = not_ptr {
                    return fail(ErrorKind::IllFormed, Msg::Prog(m));
                }
                let off = match self.read_val(&l, ptr_w)? {
                    Val::S(a) => O::from_address(a).ok_or(Stop::Bail)?,
                    Val::W(p) => O::from_wide_address(self.words, p, ptr_w).ok_or(Stop::Bail)?,
                };
                self.push_one(St::Mem(addrspace), off);
            }
            Ins::Read { w } => {
                let l = self.pop();
                let v = self.read_val(&l, w)?;
                self.push_val(v, w);
            }
            Ins::Bin { op, lane, lanes, w } => {
                let total = lanes * w;
                let v1 = self.read_entry(0, total)?;
                let v2 = self.read_entry(1, total)?;
                let r = self.binary(op, lane, lanes, w, v1, v2)?;
                // The operands stay on the stack until the result replaces
                // them (a failure leaves them: nothing reads the stack then).
                self.stack.pop();
                self.set_top_val(r, total);
            }
            Ins::Ext { from, to, signed } => {
                let l = self.pop();
                let v = self.read_val(&l, from)?;
                let r = match v {
                    Val::S(v) if to <= 128 => Val::S(
                        if signed && !diopter_faults::planted!("fast-sext-as-zext") {
                            (sext128(v, from) as u128) & mask128(to)
                        } else {
                            v
                        },
                    ),
                    _ => {
                        let out = self.alloc(to);
                        match v {
                            Val::S(x) => words::put128(self.words, out, x, from),
                            Val::W(p) => words::copy(self.words, p, out, from),
                        }
                        if signed && words::get(self.words, out + from - 1, 1) == 1 {
                            words::fill_ones(self.words, out + from, to - from);
                        }
                        Val::W(out)
                    }
                };
                self.push_val(r, to);
            }
            Ins::PushLane { w } => {
                let Some(lane) = ctx.lane else {
                    return fail(ErrorKind::NoLane, Msg::Text("the context gives no lane"));
                };
                if w < 64 && lane >> w != 0 {
                    return fail(ErrorKind::ConvertOutOfRange, Msg::LaneRange { lane, w });
                }
                let v = if w <= 128 {
                    Val::S(u128::from(lane))
                } else {
                    let out = self.alloc(w);
                    words::put(self.words, out, lane, 64);
                    Val::W(out)
                };
                self.push_val(v, w);
            }
            Ins::Fail { kind, msg } => {
                return fail(kind, Msg::Prog(msg));
            }
        }
        Ok(())
    }

    // ------------------------------------------------------------- values

    /// Pushes an implicit location holding `v` (of width `w`).
    fn push_val(&mut self, v: Val, w: u64) {
        self.push_one(v.storage(w), O::zero());
    }

    /// A fresh zeroed region of `n` bits in the words arena (word-aligned).
    pub(crate) fn alloc(&mut self, n: u64) -> u64 {
        let start = self.words.len();
        self.words.resize(start + n.div_ceil(64) as usize, 0);
        start as u64 * 64
    }

    /// A value as a `Bits` (allocates; for the wide paths).
    fn val_bits(&self, v: Val, w: u64) -> Bits {
        match v {
            Val::S(v) => Bits::from_u128(w, v),
            Val::W(p) => words::to_bits(self.words, p, w),
        }
    }

    /// A `Bits` as a value (at most 128 bits inline).
    fn bits_val(&mut self, b: &Bits) -> Val {
        if b.width() <= 128 {
            Val::S(b.to_u128().unwrap_or(0))
        } else {
            let p = self.alloc(b.width());
            words::put_bits(self.words, p, b);
            Val::W(p)
        }
    }

    /// `V2 op V1`, lane by lane.
    fn binary(&mut self, op: BinOp, lane: Lane, lanes: u64, w: u64, v1: Val, v2: Val) -> R<Val> {
        let total = lanes * w;
        // An ill-formed lane fails at its first lane, in `lane` (so with
        // no lanes it does not fail).
        if let (Val::S(b), Val::S(a)) = (v1, v2) {
            if lanes == 1 {
                return Ok(Val::S(self.lane(op, lane, w, a, b)?));
            }
            let mut r = 0u128;
            for i in 0..lanes {
                let m = mask128(w);
                let x = (a >> (i * w)) & m;
                let y = (b >> (i * w)) & m;
                r |= self.lane(op, lane, w, x, y)? << (i * w);
            }
            return Ok(Val::S(r));
        }
        if let Lane::Ill(m) = lane {
            if lanes > 0 {
                return fail(ErrorKind::IllFormed, Msg::Prog(m));
            }
        }
        // Wider than 128 bits in all. One wide integer: on the words.
        if let (Lane::Int, 1, Val::W(b), Val::W(a)) = (lane, lanes, v1, v2) {
            if let Some(out) = arith::wide_int(self.words, op, a, b, w) {
                return Ok(Val::W(out));
            }
            if let Some(r) = arith::wide_divrem(self.words, op, a, b, w) {
                return r.map(Val::W).map_err(|_| by_zero(op));
            }
        }
        let out = self.alloc(total);
        // Integer lanes wider than 128 bits go through the words: each lane's
        // operands are copied to word-aligned regions made once for the
        // operation (each copy overwrites the whole region), the word
        // operation puts its result after them, and that is copied into place.
        let wide = match (lane, v2, v1) {
            (Lane::Int, Val::W(p2), Val::W(p1))
                if w > 128 && (!matches!(op, BinOp::Div | BinOp::Mod) || w <= arith::DIV_BITS) =>
            {
                Some((p2, p1, self.alloc(w), self.alloc(w)))
            }
            _ => None,
        };
        let mark = self.words.len();
        for i in 0..lanes {
            let at = i * w;
            if w <= 128 {
                let x = self.get_lane(v2, at, w);
                let y = self.get_lane(v1, at, w);
                let r = self.lane(op, lane, w, x, y)?;
                words::put128(self.words, out + at, r, w);
            } else if let Some((p2, p1, x, y)) = wide {
                words::copy_over(self.words, p2 + at, x, w);
                words::copy_over(self.words, p1 + at, y, w);
                let r = match arith::wide_int(self.words, op, x, y, w) {
                    Some(r) => r,
                    None => arith::wide_divrem(self.words, op, x, y, w)
                        .expect("Div or Mod of at most DIV_BITS")
                        .map_err(|_| by_zero(op))?,
                };
                words::copy(self.words, r, out + at, w);
                self.words.truncate(mark);
            } else {
                let (x, y) = (self.lane_bits(v2, at, w), self.lane_bits(v1, at, w));
                let r = arith::wide_int_lane(op, &x, &y).map_err(|_| by_zero(op))?;
                words::put_bits(self.words, out + at, &r);
            }
        }
        Ok(Val::W(out))
    }

    #[inline]
    fn lane(&self, op: BinOp, lane: Lane, w: u64, a: u128, b: u128) -> R<u128> {
        match lane {
            Lane::Int => arith::int_lane(op, w, a, b).map_err(|_| by_zero(op)),
            Lane::Float(k) => Ok(arith::float_lane(k, op, a, b).unwrap_or(0)),
            Lane::Ill(m) => fail(ErrorKind::IllFormed, Msg::Prog(m)),
        }
    }

    fn get_lane(&self, v: Val, at: u64, w: u64) -> u128 {
        match v {
            Val::S(x) => (x >> at) & mask128(w),
            Val::W(p) => words::get128(self.words, p + at, w),
        }
    }

    fn lane_bits(&self, v: Val, at: u64, w: u64) -> Bits {
        match v {
            Val::S(x) => Bits::from_u128(w, x >> at),
            Val::W(p) => words::to_bits(self.words, p + at, w),
        }
    }

    /// `DIOpConvert`'s value.
    fn convert(&mut self, v: Val, from_w: u64, to_w: u64, conv: Conv) -> R<Val> {
        match conv {
            Conv::Trunc => Ok(match v {
                Val::S(x) if to_w <= 128 => Val::S(x & mask128(to_w)),
                Val::W(p) if to_w <= 128 => Val::S(words::get128(self.words, p, to_w)),
                _ => {
                    let out = self.alloc(to_w);
                    let n = from_w.min(to_w);
                    match v {
                        Val::S(x) => words::put128(self.words, out, x, n),
                        Val::W(p) => words::copy(self.words, p, out, n),
                    }
                    Val::W(out)
                }
            }),
            Conv::IntToFloat(k) => Ok(Val::S(match v {
                Val::S(x) if from_w <= 128 => arith::int_to_float(k, x, from_w),
                _ => {
                    let b = self.val_bits(v, from_w);
                    value::int_to_float(k, &b).to_u128().unwrap_or(0)
                }
            })),
            Conv::FloatToInt(k) => {
                let Val::S(raw) = v else {
                    unreachable!("floats have at most 128 bits")
                };
                let r = if to_w <= 128 {
                    arith::float_to_int(k, raw, to_w).map(Val::S)
                } else {
                    value::float_to_int(k, &Bits::from_u128(from_w, raw), to_w)
                        .map(|b| self.bits_val(&b))
                };
                r.ok_or(Stop::Fail(
                    ErrorKind::ConvertOutOfRange,
                    Msg::ConvertRange {
                        kind: k,
                        w: to_w,
                        raw,
                        from_w,
                    },
                ))
            }
            Conv::FloatToFloat(a, b) => {
                let Val::S(raw) = v else {
                    unreachable!("floats have at most 128 bits")
                };
                Ok(Val::S(arith::float_to_float(a, b, raw)))
            }
            Conv::Ill(m) => fail(ErrorKind::IllFormed, Msg::Prog(m)),
        }
    }

    // ---------------------------------------------------------- locations

    /// `loc` with `delta` added to the offset of every single location.
    pub(crate) fn with_offset(&mut self, loc: &Loc<O>, delta: &O) -> R<Loc<O>> {
        match loc {
            Loc::One(s) => Ok(Loc::One(Sgl {
                st: s.st,
                off: s.off.checked_add(delta).ok_or(Stop::Bail)?,
            })),
            Loc::Many(start, len) => {
                let new = self.singles.len() as u32;
                for j in *start..*start + *len {
                    let s = self.singles[j as usize].clone();
                    let off = s.off.checked_add(delta).ok_or(Stop::Bail)?;
                    self.singles.push(Sgl { st: s.st, off });
                }
                Ok(Loc::Many(new, *len))
            }
        }
    }

    /// A location description of the context (or a constant) in compact form.
    pub(crate) fn load(&mut self, l: &'a LocDesc) -> R<Loc<O>> {
        if let [s] = l.singles.as_slice() {
            return Ok(Loc::One(self.load_single(s)?));
        }
        let (start, len) = self.load_many(l)?;
        Ok(Loc::Many(start, len))
    }

    /// [`Machine::load`] of several singles: their range.
    #[inline(never)]
    fn load_many(&mut self, l: &'a LocDesc) -> R<(u32, u32)> {
        let start = self.singles.len();
        let len = l.singles.len();
        // Reserve the range first: loading a single may push other ranges.
        self.singles.extend(std::iter::repeat_n(
            Sgl {
                st: St::Undef,
                off: O::zero(),
            },
            len,
        ));
        for (j, s) in l.singles.iter().enumerate() {
            self.singles[start + j] = self.load_single(s)?;
        }
        Ok((start as u32, len as u32))
    }

    /// One single location in compact form. The usual storages are taken
    /// here, inlined into `load`; the rest (wide values, implicit
    /// addresses, composites: they load other locations) out of line, so
    /// that the usual single does not pay for their frame.
    #[inline(always)]
    fn load_single(&mut self, s: &'a Single) -> R<Sgl<O>> {
        let off = O::from_context(&s.offset).ok_or(Stop::Bail)?;
        let st = match &s.storage {
            Storage::Memory { addrspace } => St::Mem(*addrspace),
            Storage::Entity { name } => self.load_entity(name),
            Storage::Implicit { value } if value.width() <= 128 => {
                St::Imp(words::small_bits(value), value.width() as u32)
            }
            Storage::Undefined => St::Undef,
            storage => self.load_storage(storage)?,
        };
        Ok(Sgl { st, off })
    }

    /// An entity's storage: its value, looked up once per run.
    #[inline(never)]
    fn load_entity(&mut self, name: &'a str) -> St {
        let b = self.ctx.entity(name);
        let r = self.push_ref(Ref::Ent(name, b));
        match b {
            Some(b) if b.width() <= 128 => St::EntS(r, b.width() as u32, words::small_bits(b)),
            Some(b) if b.width() <= u64::from(u32::MAX) => {
                let start = words::push_bits(self.words, b);
                St::EntW(r, start as u32, b.width() as u32)
            }
            _ => St::Ent(r),
        }
    }

    /// The storages `load_single` leaves out of line.
    #[inline(never)]
    fn load_storage(&mut self, storage: &'a Storage) -> R<St> {
        Ok(match storage {
            Storage::Implicit { value } => {
                let start = words::push_bits(self.words, value);
                St::ImpW(start as u32, value.width())
            }
            Storage::ImplicitAddress {
                target,
                target_ty,
                ptr_ty,
                bits,
            } => {
                let target = self.load(target)?;
                let target_ty = self.push_ref(Ref::Ty(target_ty));
                let ptr_ty = self.push_ref(Ref::Ty(ptr_ty));
                self.addrs.push(AddrC {
                    target,
                    target_ty,
                    ptr_ty,
                    bits: *bits,
                });
                St::Addr((self.addrs.len() - 1) as u32)
            }
            Storage::Composite { parts } => {
                let start = self.parts.len();
                self.parts.extend(std::iter::repeat_n(
                    PartC {
                        loc: Loc::Many(0, 0),
                        bits: 0,
                        nodes: 0,
                    },
                    parts.len(),
                ));
                for (j, p) in parts.iter().enumerate() {
                    let loc = self.load(&p.loc)?;
                    let nodes = self.loc_nodes(&loc);
                    self.parts[start + j] = PartC {
                        loc,
                        bits: p.bits,
                        nodes,
                    };
                }
                St::Comp(start as u32, parts.len() as u32)
            }
            Storage::Memory { .. } | Storage::Entity { .. } | Storage::Undefined => {
                unreachable!("taken by load_single")
            }
        })
    }

    // --------------------------------------------------------------- memory

    /// What the run knows of its context: a prepared context's, which a
    /// run only reads (every slot loaded, every pointer size looked up), or
    /// what this run has learnt.
    #[inline(always)]
    fn info(&self) -> &CtxInfo {
        match self.pre {
            Some(pre) => &pre.info,
            None => &self.run.info,
        }
    }

    /// Pointer bits of an address space (cached: a datalayout lookup).
    /// A prepared context knows them for spaces 0 to 7: that lookup is
    /// inline, the others a call.
    #[inline(always)]
    pub(crate) fn pointer_bits(&mut self, a: u32) -> u64 {
        if let Some(&p) = self.pre.and_then(|p| p.info.ptr_bits.get(a as usize)) {
            return p;
        }
        self.pointer_bits_cached(a)
    }

    #[inline(never)]
    fn pointer_bits_cached(&mut self, a: u32) -> u64 {
        match self.run.info.ptr_bits.get_mut(a as usize) {
            Some(p) => {
                if *p == 0 {
                    *p = self.ctx.datalayout.pointer_bits(a);
                }
                *p
            }
            None => self.ctx.datalayout.pointer_bits(a),
        }
    }

    /// Pushes a location of the context, loading it once per run.
    #[inline(always)]
    fn push_ctx(&mut self, slot: Option<usize>, l: &'a LocDesc) -> R<()> {
        // Loaded already (always, in a prepared context): no call.
        if let Some(k) = slot {
            let range = self.info().loaded[k];
            if range.0 != NOT_LOADED {
                let loc = self.slot_loc(range);
                self.stack.push(loc);
                return Ok(());
            }
        }
        self.push_ctx_load(slot, l)
    }

    #[inline(never)]
    fn push_ctx_load(&mut self, slot: Option<usize>, l: &'a LocDesc) -> R<()> {
        let loc = match slot {
            Some(k) => match self.info().loaded[k] {
                (NOT_LOADED, _) => self.load_slot(k, l)?,
                range => self.slot_loc(range),
            },
            None => self.load(l)?,
        };
        self.stack.push(loc);
        Ok(())
    }

    /// The location a loaded slot holds.
    #[inline(always)]
    fn slot_loc(&self, (start, len): (u32, u32)) -> Loc<O> {
        // A range of one is a `Loc::One` (a `Many` never has one).
        if len == 1 {
            Loc::One(self.singles[start as usize].clone())
        } else {
            Loc::Many(start, len)
        }
    }

    /// Loads a location of the context into its slot.
    #[inline(always)]
    pub(crate) fn load_slot(&mut self, k: usize, l: &'a LocDesc) -> R<Loc<O>> {
        // A single is loaded here rather than through `load`, whose result
        // would be unwrapped only to be matched again.
        if let [s] = l.singles.as_slice() {
            let s = self.load_single(s)?;
            self.singles.push(s.clone());
            self.run.info.loaded[k] = ((self.singles.len() - 1) as u32, 1);
            return Ok(Loc::One(s));
        }
        let (start, len) = self.load_many(l)?;
        self.run.info.loaded[k] = (start, len);
        Ok(Loc::Many(start, len))
    }

    /// Bytes `addr..addr+out.len()` (at most 64) of an address space (the
    /// caller checked that the end does not overflow): given or written
    /// bytes from the context, the others `seeded_byte`'s. The context's
    /// bytes are looked up first, so that the hashing is done only for the
    /// bytes it does not give (inputs placed in memory are given whole).
    pub(crate) fn fetch_bytes(&mut self, a: u32, addr: u128, out: &mut [u8]) {
        let given = self.overlay(a, addr, out);
        let mut seeded = !given & (u64::MAX >> (64 - out.len().max(1)));
        if out.is_empty() || seeded == 0 {
            return;
        }
        let h = match self.pre {
            Some(p) if a < 8 => p.space_hash[a as usize],
            _ => splitmix64(self.info().seed_hash ^ u64::from(a)),
        };
        // Below 2^64 every byte's address is one limb: no carry into a
        // second limb to test for, and the bytes are visited in order (a
        // test per byte costs less than finding the next seeded one).
        if addr + out.len() as u128 <= 1 << 64 {
            let lo = addr as u64;
            for (j, b) in out.iter_mut().enumerate() {
                let seeded = splitmix64(h ^ lo.wrapping_add(j as u64)) as u8;
                *b = if given >> j & 1 == 0 { seeded } else { *b };
            }
            return;
        }
        while seeded != 0 {
            let j = seeded.trailing_zeros();
            seeded &= seeded - 1;
            let x = addr + u128::from(j);
            let lo = x as u64;
            let hi = (x >> 64) as u64;
            // One limb per 64 bits of the address, least significant first;
            // address 0 has no limbs, which hashes like a zero limb.
            let mut v = splitmix64(h ^ lo);
            if hi != 0 {
                v = splitmix64(v ^ hi);
            }
            out[j as usize] = v as u8;
        }
    }

    /// The context's bytes among `addr..addr+out.len()` written into `out`;
    /// which ones they are (bit `j`: `out[j]`).
    fn overlay(&mut self, a: u32, addr: u128, out: &mut [u8]) -> u64 {
        if let Some(pre) = self.pre {
            return pre.overlay(a, addr, out);
        }
        let mem = &self.ctx.state.memory;
        if mem.is_empty() {
            return 0;
        }
        // Below 2^64 the map finds a read's pages by key, for less than it
        // takes to find the space's span (a range search from both ends).
        if addr + (out.len() as u128) <= u128::from(u64::MAX) {
            return mem.overlay_u128(a, addr, out);
        }
        let span = match self.run.given {
            Some((space, span)) if space == a => span,
            _ => {
                let span = mem.span_u128(a);
                self.run.given = Some((a, span));
                span
            }
        };
        // The highest address is u128::MAX when it is beyond u128: then the
        // map is always searched.
        match span {
            Some((first, last)) if last >= addr && first < addr + out.len() as u128 => {
                mem.overlay_u128(a, addr, out)
            }
            _ => 0,
        }
    }
}

impl<'v, O: Off> View<'v, O> {
    /// The name and value of the entity of `refs` index `r`.
    pub(crate) fn entity(&self, r: u32) -> (&'v str, Option<&'v Bits>) {
        self.refs[r as usize].entity()
    }

    /// The type an `AddrC` names (see [`PROG_TY`]).
    pub(crate) fn addr_ty(&self, t: u32) -> &'v Type {
        if t & PROG_TY != 0 {
            return &self.prog.types[(t & !PROG_TY) as usize];
        }
        match self.refs[t as usize] {
            Ref::Ty(ty) => ty,
            Ref::Ent(..) => unreachable!("a type's index"),
        }
    }

    /// `LocDesc::node_count` of the location `loc` converts to.
    #[inline(always)]
    pub(crate) fn loc_nodes(&self, loc: &Loc<O>) -> u64 {
        if loc.is_one_node() {
            1
        } else {
            self.loc_nodes_walk(loc)
        }
    }

    #[inline(never)]
    pub(crate) fn loc_nodes_walk(&self, loc: &Loc<O>) -> u64 {
        self.singles_of(loc).iter().fold(0u64, |acc, s| {
            let inner = match s.st {
                St::Comp(start, len) => self.parts[start as usize..(start + len) as usize]
                    .iter()
                    .fold(0u64, |a, p| a.saturating_add(p.nodes)),
                St::Addr(k) => self.loc_nodes(&self.addrs[k as usize].target),
                _ => 0,
            };
            acc.saturating_add(1).saturating_add(inner)
        })
    }

    /// The singles of a location, as a slice of the arena or of one.
    pub(crate) fn singles_of<'s>(&self, loc: &'s Loc<O>) -> &'s [Sgl<O>]
    where
        'v: 's,
    {
        match loc {
            Loc::One(s) => std::slice::from_ref(s),
            Loc::Many(start, len) => self
                .singles
                .range(*start as usize..(*start + *len) as usize),
        }
    }

    /// The reference's form of a compact location (allocates).
    pub(crate) fn to_locdesc(&self, loc: &Loc<O>) -> LocDesc {
        LocDesc {
            singles: self
                .singles_of(loc)
                .iter()
                .map(|s| self.to_single(s))
                .collect(),
        }
    }

    pub(crate) fn to_single(&self, s: &Sgl<O>) -> Single {
        let storage = match s.st {
            St::Mem(addrspace) => Storage::Memory { addrspace },
            St::Ent(r) | St::EntS(r, ..) | St::EntW(r, ..) => Storage::Entity {
                name: self.entity(r).0.to_string(),
            },
            St::Imp(v, w) => Storage::Implicit {
                // `From<u64>` for `BigUint` is cheaper than `From<u128>`.
                value: match u64::try_from(v) {
                    Ok(small) => Bits::from_u64(u64::from(w), small),
                    Err(_) => Bits::from_u128(u64::from(w), v),
                },
            },
            St::ImpW(start, w) => Storage::Implicit {
                value: words::to_bits(self.words, u64::from(start) * 64, w),
            },
            St::Undef => Storage::Undefined,
            St::Addr(k) => {
                let a = &self.addrs[k as usize];
                Storage::ImplicitAddress {
                    target: Box::new(self.to_locdesc(&a.target)),
                    target_ty: self.addr_ty(a.target_ty).clone(),
                    ptr_ty: self.addr_ty(a.ptr_ty).clone(),
                    bits: a.bits,
                }
            }
            St::Comp(start, len) => Storage::Composite {
                parts: self.parts[start as usize..(start + len) as usize]
                    .iter()
                    .map(|p| Part {
                        loc: self.to_locdesc(&p.loc),
                        bits: p.bits,
                    })
                    .collect(),
            },
        };
        Single {
            storage,
            offset: s.off.to_bigint(),
        }
    }

    /// The outcome of a finished run (`None`: bailed out).
    pub(crate) fn outcome(&self, r: Finished<'_, O>) -> Option<Outcome> {
        match r {
            Ok(loc) => {
                let (ty, bits) = self
                    .prog
                    .result
                    .clone()
                    .expect("a program without a result ends in Fail");
                Some(Ok(Located {
                    loc: self.to_locdesc(loc),
                    ty,
                    bits,
                    fragment: self.prog.fragment,
                }))
            }
            Err((_, Stop::Bail)) => None,
            Err((k, Stop::Fail(kind, m))) => Some(Err(EvalError {
                kind: *kind,
                op_index: self.prog.op_index(*k),
                message: self.message(m),
            })),
        }
    }
}

/// `DIOpDiv`/`DIOpMod` by zero.
fn by_zero(op: BinOp) -> Stop {
    Stop::Fail(
        ErrorKind::DivisionByZero,
        Msg::Text(if op == BinOp::Div {
            "DIOpDiv by zero"
        } else {
            "DIOpMod by zero"
        }),
    )
}

/// Moves the (cleared) buffers of a vector into a vector of another element
/// type of the same size and alignment. std collects a `map`ped `into_iter`
/// in place, so the allocation is reused: this is how the scratch buffers,
/// which cannot name the lifetime of a run, are lent to one.
pub(crate) fn recycle<T, U>(mut v: Vec<T>) -> Vec<U> {
    v.clear();
    v.into_iter()
        .map(|_| unreachable!("the vector is empty"))
        .collect()
}

/// A context with its locations in compact form (see the module
/// documentation of `prepared`); borrow it for as many [`Compiled::run_prepared`] as
/// the context stays unchanged.
pub struct PreparedContext<'c> {
    pub(crate) ctx: &'c Context,
    /// The per-context state a run starts from: the loaded locations'
    /// ranges (all of them loaded), the seed's hash, the pointer sizes.
    pub(crate) info: CtxInfo,
    /// The memory map's pages whose addresses fit in 128 bits, in order of
    /// address space and address: a binary search finds the first a read
    /// needs (the map's own search compares big page numbers).
    pub(crate) pages: Vec<Page<'c>>,
    /// `splitmix64(seed_hash ^ a)` for address spaces 0 to 7: the first
    /// step of every seeded byte of the space.
    pub(crate) space_hash: [u64; 8],
    pub(crate) singles: Vec<Sgl<i128>>,
    pub(crate) parts: Vec<PartC<i128>>,
    pub(crate) addrs: Vec<AddrC<i128>>,
    pub(crate) words: Vec<u64>,
    pub(crate) refs: Vec<Ref<'c>>,
    /// An offset of the context does not fit an `i128`: runs take the lazy
    /// path.
    pub(crate) lazy: bool,
}

/// A page of the context's memory map.
pub(crate) struct Page<'c> {
    pub space: u32,
    pub base: u128,
    /// Which of its bytes are set.
    pub set: u64,
    pub bytes: &'c [u8; 64],
}
