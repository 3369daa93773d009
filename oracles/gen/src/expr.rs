//! Well-typed random expressions, built bottom-up on a typed stack.
//!
//! The generator keeps the types of the entries its operations leave on the
//! stack. Each step draws an operation kind (weighted by the case's swarm),
//! applies it to the entries on top when their types fit its stack effect,
//! and otherwise first pushes operands of fitting types: a sub-expression
//! producing a wanted type ([`ExprGen::produce`]) is itself drawn from every
//! operation whose result can have that type. At the end the entries left
//! are combined by one `DIOpComposite`, so that exactly one remains.
//!
//! Every operation is applied through the checker's own engine
//! ([`check::result_type`]) to learn the type it pushes, and the rules the
//! signatures do not express (argument and referrer sizes, only `DIOpDeref`
//! consuming an `DIOpAddrOf`, one `DIOpFragment` inside the variable) are
//! kept by construction, so `check_bare` accepts every expression made here;
//! `oracles/gen/tests/gen_props.rs` checks that it does.

use super::entropy::{Choices, Entropy};
use super::swarm::{OpKind, Swarm};
use super::types::{self, TypeGen};
use super::values::{self, Hint};
use super::GenConfig;
use diopter_semantics::ast::{Dialect, Op};
use diopter_semantics::check;
use diopter_semantics::interp::MAX_PARTS;
use diopter_semantics::types::{Type, MAX_INT_WIDTH};
use std::sync::atomic::{AtomicBool, Ordering};

/// Whether the generator confirms the type of every operation it applies
/// with [`check::result_type`] (panicking on a mismatch). On by default in
/// builds with debug assertions (the tests, and `cargo fuzz` builds); the
/// `eval_diff` fuzz target turns it off, since checking costs as much as
/// generating and the `check_eval` target and the tests cover it.
pub static CROSS_CHECK: AtomicBool = AtomicBool::new(cfg!(debug_assertions));

/// Operations kept free at the end for the final `DIOpComposite`, an
/// optional trailing `DIOpAddrOf` and a `DIOpFragment`.
const RESERVE: usize = 3;

/// What the expression refers to outside itself: its inputs' types.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shape {
    pub dialect: Dialect,
    /// Argument types in `DIOpArg` order, each with its poison flag.
    pub args: Vec<(Type, bool)>,
    /// The `referrer: T` item.
    pub referrer: Option<Type>,
    /// The described variable's type (`-> T`).
    pub var_type: Option<Type>,
}

/// What the expression asks of its context, so the context generator can
/// give it (or, on purpose, leave it out).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Uses {
    /// Types `DIOpTypeObject` was used with.
    pub object: Vec<Type>,
    /// Types `DIOpPushLane` was used with.
    pub lane: Vec<Type>,
    /// Whether `DIOpReferrer` is used.
    pub referrer: bool,
}

pub struct ExprGen<'a, 'e> {
    pub e: &'e mut dyn Entropy,
    pub tg: TypeGen<'a>,
    pub swarm: &'a Swarm,
    pub cfg: &'a GenConfig,
    pub shape: &'a Shape,
    /// Whether operations of the other dialect may appear.
    pub cross: bool,
    pub ops: Vec<Op>,
    stack: Vec<Type>,
    pub uses: Uses,
    fragment: bool,
    /// `bitsizeof` of each stack entry, kept beside `stack`.
    stack_bits: Vec<u64>,
    /// `bitsizeof` of each argument, and of the referrer.
    arg_bits: Vec<Option<u64>>,
    referrer_bits: Option<u64>,
}

/// What a production makes: the kinds `produce` chooses between.
fn is_arith(t: &Type) -> bool {
    let s = t.scalar();
    s.is_int() || s.is_float()
}

fn is_int_like(t: &Type) -> bool {
    t.scalar().is_int()
}

fn is_basic_vector(t: &Type) -> Option<(u64, &Type)> {
    match t {
        Type::Vector { len, elem } if elem.is_basic() && *len <= MAX_PARTS => Some((*len, elem)),
        _ => None,
    }
}

impl<'a, 'e> ExprGen<'a, 'e> {
    pub fn new(
        e: &'e mut dyn Entropy,
        tg: TypeGen<'a>,
        swarm: &'a Swarm,
        cfg: &'a GenConfig,
        shape: &'a Shape,
        cross: bool,
    ) -> Self {
        ExprGen {
            e,
            tg,
            swarm,
            cfg,
            shape,
            cross,
            ops: Vec::new(),
            stack: Vec::new(),
            uses: Uses::default(),
            fragment: false,
            stack_bits: Vec::new(),
            arg_bits: Vec::new(),
            referrer_bits: None,
        }
    }

    fn dialect(&self) -> Dialect {
        self.shape.dialect
    }

    /// The swarm's weight for a kind, 0 when the kind belongs to the other
    /// dialect and this case does not mix them.
    fn weight(&self, k: OpKind) -> u32 {
        let foreign = match self.dialect() {
            Dialect::DiExpr => k.live_only(),
            Dialect::DiExpression => k.seed_only(),
        };
        if foreign && !self.cross {
            0
        } else {
            self.swarm.op_weight(k)
        }
    }

    /// `bitsizeof(t)`.
    fn bits_of(&self, t: &Type) -> Option<u64> {
        self.tg.dl.bitsizeof(t, self.tg.table).ok()
    }

    fn size(&self, t: &Type) -> u64 {
        self.bits_of(t).expect("generated types are sized")
    }

    /// Operations still free before the reserve.
    fn room(&self) -> usize {
        self.cfg.max_ops.saturating_sub(self.ops.len() + RESERVE)
    }

    /// Applies `op` to the top of the stack. The type it pushes is what its
    /// stack effect says ([`pushed_type`]); with [`CROSS_CHECK`] on, every
    /// one is confirmed with the checker's own engine
    /// ([`check::result_type`]).
    fn apply(&mut self, op: Op) {
        self.apply_sized(op, None)
    }

    /// [`Self::apply`], given the size of the type `op` pushes when the
    /// caller knows it (a leaf of a type it sized).
    fn apply_sized(&mut self, op: Op, bits: Option<u64>) {
        // Arity comes from the parsed stack-effect lines, like everywhere else.
        let n = check::arity(&op, self.dialect());
        assert!(self.stack.len() >= n, "generator bug: {op:?} pops {n}");
        let base = self.stack.len() - n;
        let (t, input) = pushed_type(&op, &self.stack[base..], self.dialect());
        // A type passed through from an input has that input's size.
        let bits = bits.or_else(|| input.map(|i| self.stack_bits[base + i]));
        if CROSS_CHECK.load(Ordering::Relaxed) {
            let inputs: Vec<Type> = self.stack[base..].iter().rev().cloned().collect();
            let want = check::result_type(&op, self.dialect(), &inputs, self.tg.dl, self.tg.table)
                .unwrap_or_else(|m| panic!("generator bug: {op:?} on {inputs:?}: {m}"));
            debug_assert_eq!(t, want, "result type of {op:?} on {inputs:?}");
        }
        let bits = bits.unwrap_or_else(|| self.size(&t));
        debug_assert_eq!(Some(bits), self.bits_of(&t), "size of {t}");
        self.stack.truncate(base);
        self.stack_bits.truncate(base);
        self.stack_bits.push(bits);
        self.stack.push(t);
        self.ops.push(op);
    }

    // ------------------------------------------------------------ leaves

    /// The referrer's type, when `DIOpReferrer` can be used.
    fn referrer_type(&self) -> Option<&Type> {
        match (&self.shape.referrer, self.dialect()) {
            (Some(t), _) => Some(t),
            (None, Dialect::DiExpression) => self.shape.args.first().map(|a| &a.0),
            (None, Dialect::DiExpr) => None,
        }
    }

    /// Pushes one leaf of type `t`.
    fn leaf(&mut self, t: &Type, hint: Hint) {
        let bits = self.size(t);
        let mut kinds: Choices<OpKind, 5> = Choices::new(OpKind::Constant);
        kinds.push(OpKind::Constant, self.weight(OpKind::Constant));
        // The arguments of this size (or poison), counted rather than listed.
        let arg_fits = |g: &Self, i: usize| g.shape.args[i].1 || g.arg_bits[i] == Some(bits);
        let nargs = (0..self.shape.args.len())
            .filter(|i| arg_fits(self, *i))
            .count();
        if nargs > 0 {
            kinds.push(OpKind::Arg, self.weight(OpKind::Arg));
        }
        if self
            .referrer_type()
            .is_some_and(|_| self.referrer_bits == Some(bits))
        {
            kinds.push(OpKind::Referrer, self.weight(OpKind::Referrer));
        }
        kinds.push(OpKind::TypeObject, self.weight(OpKind::TypeObject));
        if t.is_int() {
            kinds.push(OpKind::PushLane, self.weight(OpKind::PushLane));
        }
        // Constants carry the value hints; prefer them when a hint is given.
        if hint != Hint::None {
            let w = kinds.weight_mut(0);
            *w = (*w).max(1) * 4;
        }
        let kind = if kinds.all_zero() {
            OpKind::Constant
        } else {
            kinds.draw(self.e)
        };
        let op = match kind {
            OpKind::Arg => {
                // `pick` over the fitting arguments: the `k`th of them.
                let k = self.e.index(nargs);
                let a = (0..self.shape.args.len())
                    .filter(|i| arg_fits(self, *i))
                    .nth(k)
                    .expect("k < nargs");
                Op::Arg(a as u64, t.clone())
            }
            OpKind::Referrer => {
                self.uses.referrer = true;
                Op::Referrer(t.clone())
            }
            OpKind::TypeObject => {
                self.uses.object.push(t.clone());
                Op::TypeObject(t.clone())
            }
            OpKind::PushLane => {
                self.uses.lane.push(t.clone());
                Op::PushLane(t.clone())
            }
            _ => {
                // undef/poison in about one constant in 48 (the value has
                // no bits to read, so most expressions would stop there).
                let undef = if self.swarm.edge > 0 && self.e.chance(1, 3) {
                    1
                } else {
                    0
                };
                let lit = values::literal(self.e, t, hint, self.swarm.edge, undef);
                Op::Constant(t.clone(), lit)
            }
        };
        self.apply_sized(op, Some(bits));
    }

    // -------------------------------------------------------- productions

    /// Pushes operations that leave exactly one new entry, of type `t`, using
    /// at most `budget` operations (at least one).
    pub fn produce(&mut self, t: &Type, budget: usize, hint: Hint) {
        let budget = budget.max(1);
        // A value with a hint (an offset, a divisor, a shift amount) is
        // usually the constant the hint shapes.
        let hinted = hint != Hint::None && !self.e.chance(1, 4);
        if budget == 1 || self.stack.len() > 24 || hinted {
            return self.leaf(t, hint);
        }
        let bits = self.size(t);
        let mut cands: Choices<OpKind, 32> = Choices::new(OpKind::Constant);
        let mut add = |k: OpKind, cost: usize, ok: bool, w: u32| {
            if ok && cost <= budget && w > 0 {
                cands.push(k, w);
            }
        };
        let w = |k| self.weight(k);
        // Leaves weigh in with every leaf kind at once.
        add(OpKind::Constant, 1, true, 4);
        add(OpKind::Read, 2, true, w(OpKind::Read));
        add(OpKind::Reinterpret, 2, true, w(OpKind::Reinterpret));
        add(OpKind::Convert, 2, t.is_basic(), w(OpKind::Convert));
        add(OpKind::ByteOffset, 3, true, w(OpKind::ByteOffset));
        add(OpKind::BitOffsetTyped, 3, true, w(OpKind::BitOffsetTyped));
        add(OpKind::Offset, 3, true, w(OpKind::Offset));
        add(OpKind::BitOffsetSeed, 3, true, w(OpKind::BitOffsetSeed));
        add(OpKind::DerefTyped, 2, true, w(OpKind::DerefTyped));
        add(OpKind::DerefSeed, 2, true, w(OpKind::DerefSeed));
        add(OpKind::AddrOf, 3, true, w(OpKind::AddrOf));
        for k in [OpKind::Add, OpKind::Sub, OpKind::Mul, OpKind::Div] {
            add(k, 3, is_arith(t), w(k));
        }
        for k in [
            OpKind::Mod,
            OpKind::And,
            OpKind::Or,
            OpKind::Xor,
            OpKind::Shr,
            OpKind::LShr,
            OpKind::AShr,
            OpKind::Shl,
        ] {
            add(k, 3, is_int_like(t), w(k));
        }
        let int_w = t.int_width().unwrap_or(0);
        add(OpKind::ZExt, 2, int_w >= 2, w(OpKind::ZExt));
        add(OpKind::SExt, 2, int_w >= 2, w(OpKind::SExt));
        add(OpKind::Composite, 3, bits > 1, w(OpKind::Composite));
        let vec = is_basic_vector(t).is_some();
        add(OpKind::Extend, 2, vec, w(OpKind::Extend));
        add(OpKind::Select, 4, vec, w(OpKind::Select));
        let kind = cands.draw(self.e);
        let rest = budget - 1;
        match kind {
            OpKind::Constant => self.leaf(t, hint),
            OpKind::Read => {
                self.produce(t, rest, hint);
                self.apply(Op::Read);
            }
            OpKind::Reinterpret => {
                let u = self.tg.of_size(self.e, bits);
                self.produce(&u, rest, Hint::None);
                self.apply(Op::Reinterpret(t.clone()));
            }
            OpKind::Convert => {
                let u = self.convert_source(t);
                self.produce(&u, rest, Hint::None);
                self.apply(Op::Convert(t.clone()));
            }
            OpKind::ByteOffset | OpKind::BitOffsetTyped => {
                let u = self.tg.any(self.e, 0);
                let b = self.split(rest, 2);
                self.produce(&u, b, Hint::None);
                let i = self.tg.int(self.e);
                self.produce(&i, rest - b, Hint::Offset);
                self.apply(if kind == OpKind::ByteOffset {
                    Op::ByteOffset(t.clone())
                } else {
                    Op::BitOffset(Some(t.clone()))
                });
            }
            OpKind::Offset | OpKind::BitOffsetSeed => {
                let b = self.split(rest, 2);
                self.produce(t, b, Hint::None);
                let i = self.tg.int(self.e);
                self.produce(&i, rest - b, Hint::Offset);
                self.apply(if kind == OpKind::Offset {
                    Op::Offset
                } else {
                    Op::BitOffset(None)
                });
            }
            OpKind::DerefTyped => {
                let p = if self.e.chance(1, 8) {
                    // A typed pointer works too: only its address space counts.
                    self.tg.ptr(self.e, 1)
                } else {
                    Type::opaque_ptr(self.tg.addrspace(self.e))
                };
                self.produce(&p, rest, Hint::Address);
                self.apply(Op::Deref(Some(t.clone())));
            }
            OpKind::DerefSeed => {
                let p = types::typed_ptr(t.clone(), self.tg.addrspace(self.e));
                self.produce(&p, rest, Hint::Address);
                self.apply(Op::Deref(None));
            }
            OpKind::AddrOf => self.addr_of_deref(t, rest - 1),
            OpKind::Add
            | OpKind::Sub
            | OpKind::Mul
            | OpKind::Div
            | OpKind::Mod
            | OpKind::And
            | OpKind::Or
            | OpKind::Xor
            | OpKind::Shr
            | OpKind::LShr
            | OpKind::AShr
            | OpKind::Shl => {
                let b = self.split(rest, 2);
                self.produce(t, b, Hint::None);
                self.produce(t, rest - b, top_hint(kind));
                self.apply(binary_op(kind));
            }
            OpKind::ZExt | OpKind::SExt => {
                let from = self.narrower(int_w);
                self.produce(&Type::Int(from), rest, Hint::None);
                self.apply(if kind == OpKind::ZExt {
                    Op::ZExt(t.clone())
                } else {
                    Op::SExt(t.clone())
                });
            }
            OpKind::Composite => self.composite_of(t, bits, rest),
            OpKind::Extend => {
                let (n, elem) = is_basic_vector(t).expect("checked");
                let elem = elem.clone();
                self.produce(&elem, rest, Hint::None);
                self.apply(Op::Extend(n));
            }
            OpKind::Select => {
                let (n, _) = is_basic_vector(t).expect("checked");
                let mask = Type::Int(self.mask_width(n));
                let b1 = self.split(rest, 3);
                let b2 = self.split(rest - b1, 2);
                self.produce(&mask, b1, Hint::None);
                self.produce(t, b2, Hint::None);
                self.produce(t, rest - b1 - b2, Hint::None);
                self.apply(Op::Select);
            }
            _ => unreachable!("not a production: {kind:?}"),
        }
    }

    /// A share of `budget` for the first of `parts` sub-expressions, leaving
    /// at least one operation for each of the others.
    fn split(&mut self, budget: usize, parts: usize) -> usize {
        let max = budget.saturating_sub(parts - 1).max(1);
        self.e.range(1, max as u64) as usize
    }

    /// A source type `DIOpConvert(t)` accepts in this dialect.
    fn convert_source(&mut self, t: &Type) -> Type {
        let diexpression = self.dialect() == Dialect::DiExpression;
        let mut cands: Vec<Type> = Vec::new();
        match t {
            Type::Int(w) => {
                let u = self.tg.int(self.e);
                if !diexpression || u.int_width() >= Some(*w) {
                    cands.push(u);
                }
                cands.push(Type::Int(*w + self.e.below(3)));
                cands.push(self.tg.float(self.e));
                cands.push(Type::opaque_ptr(self.tg.addrspace(self.e)));
            }
            Type::Float(_) => {
                cands.push(self.tg.int(self.e));
                cands.push(self.tg.float(self.e));
            }
            _ => {
                cands.push(self.tg.int(self.e));
                cands.push(self.tg.ptr(self.e, 1));
            }
        }
        cands.retain(|c| self.tg.size(c).is_some());
        if cands.is_empty() {
            return t.clone();
        }
        self.e.pick(&cands).clone()
    }

    /// An integer width below `w` (at least 1).
    fn narrower(&mut self, w: u64) -> u64 {
        pick_where(self.e, [1, 8, 16, 32, 64, 7, 33, w - 1], |x| {
            x < w && x >= 1
        })
    }

    /// A mask width of at least `n` bits.
    fn mask_width(&mut self, n: u64) -> u64 {
        pick_where(self.e, [n, 8, 16, 32, 64], |x| x >= n)
    }

    /// `t` as `DIOpAddrOf(N)` then `DIOpDeref`: the implicit pointer made and
    /// consumed at once (only `DIOpDeref` may consume it).
    fn addr_of_deref(&mut self, t: &Type, budget: usize) {
        let n = self.tg.addrspace(self.e);
        match self.dialect() {
            Dialect::DiExpr if !self.cross || self.e.chance(3, 4) => {
                self.produce(t, budget, Hint::None);
                self.apply(Op::AddrOf(u64::from(n)));
                self.apply(Op::Deref(None));
            }
            _ => {
                // The live Deref(T) may give the location another type.
                let u = if self.e.chance(1, 4) {
                    self.tg.any(self.e, 0)
                } else {
                    t.clone()
                };
                self.produce(&u, budget, Hint::None);
                self.apply(Op::AddrOf(u64::from(n)));
                self.apply(Op::Deref(Some(t.clone())));
            }
        }
    }

    /// `t` (of `bits` bits) as a `DIOpComposite` of 2 to 4 parts.
    fn composite_of(&mut self, t: &Type, bits: u64, budget: usize) {
        let k = (self.e.range(2, 4) as usize)
            .min(budget)
            .min(bits as usize)
            .max(1);
        // Cut points: k-1 distinct bits inside (0, bits), byte-aligned
        // when the size allows, so parts often are ordinary types.
        let mut cuts: Vec<u64> = Vec::new();
        let aligned = bits.is_multiple_of(8) && bits / 8 >= k as u64 && self.e.chance(3, 4);
        let (step, last) = if aligned {
            (8, bits / 8 - 1)
        } else {
            (1, bits - 1)
        };
        while cuts.len() + 1 < k {
            // A drawn cut already taken moves to the next free one (an
            // exhausted input draws the same cut every time).
            let mut c = self.e.range(1, last);
            while cuts.contains(&(c * step)) {
                c = if c == last { 1 } else { c + 1 };
            }
            cuts.push(c * step);
        }
        cuts.sort_unstable();
        cuts.push(bits);
        let mut sizes = Vec::new();
        let mut at = 0;
        for c in cuts {
            sizes.push(c - at);
            at = c;
        }
        // The first part pushed (the deepest, L_N) starts at bit 0.
        let mut left = budget;
        for (i, s) in sizes.iter().enumerate() {
            let part = self.tg.of_size(self.e, *s);
            let share = if i + 1 == sizes.len() {
                left
            } else {
                self.split(left, sizes.len() - i)
            };
            self.produce(&part, share, Hint::None);
            left -= share.min(left);
            left = left.max(1);
        }
        self.apply(Op::Composite(sizes.len() as u64, t.clone()));
    }

    // ------------------------------------------------------- stack steps

    /// One bottom-up step: an operation applied to what is on the stack,
    /// with operands pushed first when what is there does not fit.
    pub fn step(&mut self) {
        let kinds = &OpKind::ALL;
        let w: [u32; OpKind::ALL.len()] = std::array::from_fn(|i| self.weight(kinds[i]));
        if w.iter().all(|x| *x == 0) {
            let t = self.tg.any(self.e, 0);
            return self.leaf(&t, Hint::None);
        }
        let kind = kinds[self.e.weighted(&w)];
        // Every step uses at most `room` operations, its own and its
        // operands': a few, so that the stack, not one deep tree, shapes
        // the expression.
        let room = self.room().min(self.e.range(5, 10) as usize).max(5);
        let top = self.stack.last().cloned();
        match kind {
            k if k.is_leaf() => {
                let t = match k {
                    OpKind::Arg if !self.shape.args.is_empty() => {
                        let (at, _) = self.e.pick(&self.shape.args).clone();
                        if self.e.chance(1, 3) {
                            let bits = self.size(&at);
                            self.tg.of_size(self.e, bits)
                        } else {
                            at
                        }
                    }
                    OpKind::Referrer if self.referrer_type().is_some() => {
                        self.referrer_type().expect("checked").clone()
                    }
                    OpKind::PushLane => self.tg.int(self.e),
                    _ => self.tg.any(self.e, 0),
                };
                self.leaf(&t, Hint::None)
            }
            OpKind::Fragment => self.fragment(),
            OpKind::Read => {
                if top.is_none() {
                    let t = self.tg.any(self.e, 0);
                    self.produce(&t, room.saturating_sub(1), Hint::None);
                }
                self.apply(Op::Read);
            }
            OpKind::Reinterpret => {
                let t = self.ensure_top(room - 1, |_| true);
                let bits = self.size(&t);
                let u = self.tg.of_size(self.e, bits);
                self.apply(Op::Reinterpret(u));
            }
            OpKind::Convert => {
                let t = self.ensure_top(room - 1, Type::is_basic);
                let to = self.convert_target(&t);
                self.apply(Op::Convert(to));
            }
            OpKind::ByteOffset
            | OpKind::BitOffsetTyped
            | OpKind::Offset
            | OpKind::BitOffsetSeed => {
                let fits = self.stack.len() >= 2 && top.as_ref().is_some_and(Type::is_int);
                if !fits {
                    if self.stack.is_empty() {
                        let t = self.tg.any(self.e, 0);
                        self.produce(&t, (room - 1) / 2, Hint::None);
                    }
                    let i = self.tg.int(self.e);
                    self.produce(&i, (room - 1) / 2, Hint::Offset);
                }
                let op = match kind {
                    OpKind::ByteOffset => Op::ByteOffset(self.tg.any(self.e, 0)),
                    OpKind::BitOffsetTyped => Op::BitOffset(Some(self.tg.any(self.e, 0))),
                    OpKind::Offset => Op::Offset,
                    _ => Op::BitOffset(None),
                };
                self.apply(op);
            }
            OpKind::DerefTyped => {
                self.ensure_top(room - 1, Type::is_ptr);
                let t = self.tg.any(self.e, 0);
                self.apply(Op::Deref(Some(t)));
            }
            OpKind::DerefSeed => {
                let typed = |t: &Type| {
                    matches!(
                        t,
                        Type::Ptr {
                            pointee: Some(_),
                            ..
                        }
                    )
                };
                if !top.as_ref().is_some_and(typed) {
                    let pointee = self.tg.any(self.e, 0);
                    let p = types::typed_ptr(pointee, self.tg.addrspace(self.e));
                    self.produce(&p, room.saturating_sub(1), Hint::Address);
                }
                self.apply(Op::Deref(None));
            }
            OpKind::AddrOf => {
                let t = self.ensure_top(room - 2, |_| true);
                let n = u64::from(self.tg.addrspace(self.e));
                self.apply(Op::AddrOf(n));
                if self.dialect() == Dialect::DiExpr && (!self.cross || self.e.chance(3, 4)) {
                    self.apply(Op::Deref(None));
                } else {
                    let u = if self.e.chance(3, 4) {
                        t
                    } else {
                        self.tg.any(self.e, 0)
                    };
                    self.apply(Op::Deref(Some(u)));
                }
            }
            OpKind::ZExt | OpKind::SExt => {
                let t = self.ensure_top(room - 1, |t| t.int_width().is_some_and(|w| w < 4096));
                let w = t.int_width().expect("an integer");
                let to =
                    Type::Int(
                        *self
                            .e
                            .pick(&[w + 1, 64.max(w + 1), 128.max(w + 1), w * 2, w + 63]),
                    );
                let to = if self.tg.size(&to).is_some() {
                    to
                } else {
                    Type::Int(w + 1)
                };
                self.apply(if kind == OpKind::ZExt {
                    Op::ZExt(to)
                } else {
                    Op::SExt(to)
                });
            }
            OpKind::Extend => {
                let t = self.ensure_top(room - 1, Type::is_basic);
                let bits = self.size(&t).max(1);
                let max_n = (self.cfg.max_type_bits / bits).clamp(1, 16);
                let n = self.e.range(1, max_n);
                self.apply(Op::Extend(n));
            }
            OpKind::Composite => {
                if self.stack.is_empty() {
                    let t = self.tg.any(self.e, 0);
                    return self.produce(&t, room, Hint::None);
                }
                let max_k = self.stack.len().min(4);
                let mut k = self.e.range(1, max_k as u64) as usize;
                while k > 1 && self.top_bits(k) > self.cfg.max_type_bits {
                    k -= 1;
                }
                let bits = self.top_bits(k);
                let t = self.tg.of_size(self.e, bits);
                self.apply(Op::Composite(k as u64, t));
            }
            OpKind::Select => {
                let fits = self.stack.len() >= 3 && {
                    let n = self.stack.len();
                    let (v1, v0, m) = (&self.stack[n - 1], &self.stack[n - 2], &self.stack[n - 3]);
                    v1 == v0
                        && is_basic_vector(v1)
                            .is_some_and(|(lanes, _)| m.int_width().is_some_and(|w| w >= lanes))
                };
                if fits {
                    self.apply(Op::Select);
                } else {
                    let t = match top.filter(|t| is_basic_vector(t).is_some()) {
                        Some(t) => t,
                        None => self.tg.basic_vector(self.e),
                    };
                    // Through `produce`, which pushes mask, L0 and L1.
                    self.produce_kind(&t, room, OpKind::Select);
                }
            }
            _ => {
                // Binary operations.
                let int_only =
                    !matches!(kind, OpKind::Add | OpKind::Sub | OpKind::Mul | OpKind::Div);
                let ok = |t: &Type| {
                    if int_only {
                        is_int_like(t)
                    } else {
                        is_arith(t)
                    }
                };
                let n = self.stack.len();
                let both =
                    n >= 2 && self.stack[n - 1] == self.stack[n - 2] && ok(&self.stack[n - 1]);
                if !both {
                    match top.filter(|t| ok(t)) {
                        Some(t) => self.produce(&t, room - 1, top_hint(kind)),
                        None => {
                            let t = self.tg.arith(self.e, int_only);
                            let b = (room - 1) / 2;
                            self.produce(&t, b, Hint::None);
                            self.produce(&t, room - 1 - b, top_hint(kind));
                        }
                    }
                }
                self.apply(binary_op(kind));
            }
        }
    }

    /// Like `produce`, but with the production chosen.
    fn produce_kind(&mut self, t: &Type, budget: usize, kind: OpKind) {
        if kind == OpKind::Select && budget >= 4 {
            let (n, _) = is_basic_vector(t).expect("a vector of basic elements");
            let mask = Type::Int(self.mask_width(n));
            let rest = budget - 1;
            let b1 = self.split(rest, 3);
            let b2 = self.split(rest - b1, 2);
            self.produce(&mask, b1, Hint::None);
            self.produce(t, b2, Hint::None);
            self.produce(t, rest - b1 - b2, Hint::None);
            self.apply(Op::Select);
        } else {
            self.produce(t, budget, Hint::None);
        }
    }

    /// The bits of the top `k` entries.
    fn top_bits(&self, k: usize) -> u64 {
        self.stack_bits[self.stack_bits.len() - k..].iter().sum()
    }

    /// The top entry when `ok` accepts it; else pushes a new entry that it
    /// accepts (of a type drawn to fit) and returns that.
    fn ensure_top(&mut self, budget: usize, ok: impl Fn(&Type) -> bool) -> Type {
        if let Some(t) = self.stack.last().filter(|t| ok(t)) {
            return t.clone();
        }
        let mut t = self.tg.any(self.e, 0);
        for _ in 0..8 {
            if ok(&t) {
                break;
            }
            t = self.tg.basic(self.e, 0);
        }
        if !ok(&t) {
            t = Type::Int(32);
            if !ok(&t) {
                t = Type::opaque_ptr(0);
            }
        }
        self.produce(&t, budget.max(1), Hint::None);
        t
    }

    /// A type `DIOpConvert` may convert `from` to in this dialect.
    fn convert_target(&mut self, from: &Type) -> Type {
        let diexpression = self.dialect() == Dialect::DiExpression;
        let cands: Vec<Type> = match from {
            Type::Int(w) => {
                let mut c = vec![
                    self.tg.float(self.e),
                    Type::opaque_ptr(self.tg.addrspace(self.e)),
                ];
                let narrower = Type::Int(self.narrower((*w).max(2)));
                c.push(narrower);
                if !diexpression {
                    c.push(self.tg.int(self.e));
                }
                c
            }
            Type::Float(_) => vec![self.tg.int(self.e), self.tg.float(self.e)],
            _ => vec![self.tg.int(self.e), self.tg.ptr(self.e, 1)],
        };
        let cands: Vec<Type> = cands
            .into_iter()
            .filter(|c| self.tg.size(c).is_some())
            .collect();
        if cands.is_empty() {
            return match from {
                Type::Float(_) => Type::Int(32),
                _ => Type::opaque_ptr(0),
            };
        }
        self.e.pick(&cands).clone()
    }

    /// Inserts the one `DIOpFragment`, inside the variable when its type is
    /// known.
    fn fragment(&mut self) {
        if self.fragment {
            return;
        }
        let var_bits = self
            .shape
            .var_type
            .as_ref()
            .and_then(|t| self.tg.dl.bitsizeof(t, self.tg.table).ok());
        let (off, size) = match var_bits {
            Some(0) => return,
            Some(v) => {
                let size = self.e.range(1, v);
                (self.e.range(0, v - size), size)
            }
            None => (8 * self.e.below(8), 8 * self.e.range(1, 8)),
        };
        self.fragment = true;
        self.ops.push(Op::Fragment(off, size));
    }

    /// The steps and the final combination: the whole expression.
    pub fn run(&mut self) {
        self.arg_bits = self
            .shape
            .args
            .iter()
            .map(|(t, _)| self.bits_of(t))
            .collect();
        self.referrer_bits = self.referrer_type().and_then(|t| self.bits_of(t));
        let max = self.cfg.max_ops.max(1);
        // Small expressions are the common case; large ones still appear.
        let target = if self.e.chance(1, 4) {
            self.e.range(1, max as u64) as usize
        } else {
            self.e.range(1, (max as u64 / 4).max(1)) as usize
        };
        // A step may add nothing (a second DIOpFragment), so the number of
        // steps is bounded too.
        let mut steps = 0;
        // The entries left are combined at the end, so their sizes add up:
        // stop once they fill a type of the maximum size.
        while self.ops.len() < target
            && self.room() >= 5
            && steps < 4 * max
            && self.top_bits(self.stack.len()) < self.cfg.max_type_bits
        {
            self.step();
            steps += 1;
        }
        if self.stack.is_empty() {
            let t = self.tg.any(self.e, 0);
            let room = self.room().max(1);
            self.produce(&t, room, Hint::None);
        }
        // Fold equal arithmetic entries on top while what is left is larger
        // than a type may be (a binary operation halves them).
        while self.stack.len() > 1
            && self.top_bits(self.stack.len()) > self.cfg.max_type_bits
            && self.ops.len() + RESERVE <= max
        {
            let n = self.stack.len();
            if self.stack[n - 1] == self.stack[n - 2] && is_int_like(&self.stack[n - 1]) {
                self.apply(Op::Xor);
            } else if self.stack[n - 1] == self.stack[n - 2] && is_arith(&self.stack[n - 1]) {
                self.apply(Op::Add);
            } else {
                break;
            }
        }
        if self.stack.len() > 1 {
            let k = self.stack.len();
            let bits = self.top_bits(k);
            let t = if bits <= self.cfg.max_type_bits {
                self.tg.of_size(self.e, bits)
            } else {
                Type::Int(bits.min(MAX_INT_WIDTH))
            };
            self.apply(Op::Composite(k as u64, t));
        }
        // The implicit-pointer example ends in an AddrOf; so may we.
        if self.ops.len() < max && self.weight(OpKind::AddrOf) > 0 && self.e.chance(1, 16) {
            let n = u64::from(self.tg.addrspace(self.e));
            self.apply(Op::AddrOf(n));
        }
        if self.ops.len() < max
            && !self.fragment
            && self.weight(OpKind::Fragment) > 0
            && self.e.chance(1, 6)
        {
            self.fragment();
        }
        // Where the fragment goes does not matter to the stack: anywhere.
        if let Some(i) = self.ops.iter().position(|o| matches!(o, Op::Fragment(..))) {
            let op = self.ops.remove(i);
            let at = self.e.below(self.ops.len() as u64 + 1) as usize;
            self.ops.insert(at, op);
        }
    }
}

/// The type `op` pushes when applied to `inputs` (bottom first), read off
/// its specification line: the type parameter for the operations that have
/// one, the input's type for the seed's `DIOpOffset()`/`DIOpBitOffset()`
/// and the binary operations, `<N x T>` for `DIOpExtend`, the pointee for
/// the seed's `DIOpDeref()`, a pointer for `DIOpAddrOf`. With it, the index
/// in `inputs` of the input whose type it is, when it is one's.
fn pushed_type(op: &Op, inputs: &[Type], dialect: Dialect) -> (Type, Option<usize>) {
    let top = || inputs.last().expect("an input").clone();
    let t = match op {
        Op::Referrer(t)
        | Op::Arg(_, t)
        | Op::TypeObject(t)
        | Op::Constant(t, _)
        | Op::PushLane(t)
        | Op::Convert(t)
        | Op::Reinterpret(t)
        | Op::BitOffset(Some(t))
        | Op::ByteOffset(t)
        | Op::Deref(Some(t))
        | Op::ZExt(t)
        | Op::SExt(t)
        | Op::Composite(_, t) => t.clone(),
        // `{ B:I L:T -> L':T }`: the location's type, below the offset.
        Op::Offset | Op::BitOffset(None) => return (inputs[0].clone(), Some(0)),
        Op::Extend(n) => Type::Vector {
            len: *n,
            elem: Box::new(top()),
        },
        Op::AddrOf(n) => match dialect {
            Dialect::DiExpr => Type::typed_ptr(top(), *n as u32),
            Dialect::DiExpression => Type::opaque_ptr(*n as u32),
        },
        Op::Deref(None) => match top() {
            Type::Ptr {
                pointee: Some(p), ..
            } => *p,
            t => panic!("generator bug: DIOpDeref() of `{t}`"),
        },
        // Read, Select (the vectors on top) and the binary operations.
        _ => return (top(), Some(inputs.len() - 1)),
    };
    (t, None)
}

/// `pick` from the items `keep` accepts (at least one), counted rather than
/// collected: the same choice from the same stream, without a `Vec`.
fn pick_where<const N: usize>(
    e: &mut dyn Entropy,
    items: [u64; N],
    keep: impl Fn(u64) -> bool,
) -> u64 {
    let n = items.iter().filter(|x| keep(**x)).count();
    let k = e.index(n);
    items
        .into_iter()
        .filter(|x| keep(*x))
        .nth(k)
        .expect("k < n")
}

/// The operation of a binary kind.
fn binary_op(k: OpKind) -> Op {
    match k {
        OpKind::Add => Op::Add,
        OpKind::Sub => Op::Sub,
        OpKind::Mul => Op::Mul,
        OpKind::Div => Op::Div,
        OpKind::Mod => Op::Mod,
        OpKind::And => Op::And,
        OpKind::Or => Op::Or,
        OpKind::Xor => Op::Xor,
        OpKind::Shr => Op::Shr,
        OpKind::LShr => Op::LShr,
        OpKind::AShr => Op::AShr,
        _ => Op::Shl,
    }
}

/// The hint for the top operand (`V1`) of a binary operation: the divisor
/// or the shift amount.
fn top_hint(k: OpKind) -> Hint {
    match k {
        OpKind::Div | OpKind::Mod => Hint::Divisor,
        OpKind::Shr | OpKind::LShr | OpKind::AShr | OpKind::Shl => Hint::ShiftAmount,
        _ => Hint::None,
    }
}
