//! Debug-information updates of optimizations, as the spec's examples make
//! them, each checked to keep every variable's location: before and after,
//! at every instruction, in random contexts.
//!
//! A pass rewrites the IR text (new debug intrinsics and metadata; the
//! program's own instructions are left alone, except that `cse` deletes the
//! load it makes redundant, which [`Transformed::removed`] records, so that
//! the k-th remaining non-debug instruction before is the k-th after) and
//! says how the optimized program's storage relates to the original's: a
//! [`StateMap`] turns a context of the original into the context the
//! optimized program would run in (the split halves of `%x`, the promoted
//! value of a stack slot, the spill slot holding the register's value).
//! Equivalence (DESIGN.md) is then checked at every non-debug instruction
//! (debug intrinsics are not program points: they have no code) for every
//! `DIVariable`: the same outcome of reading it (same bits, or the same
//! error class; an undefined location reads as `Undefined`), the same
//! writability, and the same effect of a write ([`check_equivalent`]).
//!
//! Passes (`--pass NAME`):
//!
//! * `sroa` — spec "Variable Broken Into Two Scalars" (l. 1192-1243): a
//!   bounded `DIOpReferrer(iN)` lifetime of `%x` becomes a computed composite
//!   of two new `DIFragment`s with bounded lifetimes on `%x.lo`, `%x.hi`.
//!   The composite is written in DESIGN.md's operand order (the part pushed
//!   first is at bit 0), i.e. `DIOpArg(0), DIOpArg(1)` with `argObjects:
//!   {lo, hi}`, not the spec's `DIOpArg(1), DIOpArg(0)` (an erratum).
//! * `mem2reg` — spec "Variable Promoted To An SSA Register" (l. 1048-1077):
//!   a `DIOpReferrer(T addrspace(5)*), DIOpDeref()` (or `DIOpReferrer(ptr
//!   addrspace(5)), DIOpDeref(T)`) lifetime of a stack slot `%a` becomes
//!   `DIOpReferrer(T)` of the promoted value `%a.val`.
//! * `spill` — spec "Multiple Live Ranges" (l. 1296-1345) and "Spilling"
//!   (l. 1750-1776): beside a bounded `DIOpReferrer(T)` lifetime of `%x`, a
//!   second bounded lifetime with the same def and kills locates the
//!   variable in the spill slot `%x.spill` too (the multi-location case).
//!
//! * `proven-constant` — spec "Proven Constant" (l. 1440-1463): a bounded
//!   `DIOpReferrer(iN)` lifetime of `%x`, where the program itself says
//!   `%x = iN K` or `%x = add iN A, B` of literals, becomes `DIOpConstant(iN
//!   K)` with an `undef` referrer. A read-only refinement (the variable can no
//!   longer be assigned); the random contexts keep the program's constants.
//! * `flatten` — the inverse of the spec's "shallow update" (l. 1246-1294):
//!   a computed lifetime whose argument is a `DIFragment` described only by
//!   another computed lifetime takes that lifetime's expression in place of
//!   the argument; the fragment and its lifetime are removed.
//!
//! * `induction` — spec "Induction Variable" (l. 1374-1430): a bounded
//!   `DIOpReferrer(iN)` lifetime of `%i`, where the program says `%i = add iN
//!   %x, %y` and `%x`, `%y` are the referrers of other variables' simple
//!   bounded lifetimes that are active wherever i's is ("computable so long
//!   as both `x` and `y` are live"), becomes `DIOpArg(0), DIOpArg(1),
//!   DIOpAdd()` over those variables with an `undef` referrer. A read-only
//!   refinement.
//! * `cse` — spec "Common Subexpression Elimination (CSE)" (l. 1465-1673): a
//!   load `%b = load T, P %p` that repeats `%a = load T, P %p` of the same
//!   block with nothing between that may write memory ([`repeated_loads`])
//!   is deleted and `%b` replaced by `%a`; every lifetime def'd with `%a` or
//!   `%b` (each must be `DIOpReferrer(T)`) becomes `DIOpReferrer(T),
//!   DIOpRead()` of `%a`: "the location for both `redundant` and `loaded` is
//!   `%0`, and … they are both read-only" (l. 1568-1571). A read-only
//!   refinement: were both left writable, assigning one variable in a
//!   debugger would change the other, which the write-effect check catches.
//!
//! The program's own facts (`%v = iN K`, `%v = add iN A, B`, two loads of
//! one pointer with no store between) are read from its opaque instruction
//! text ([`definitions`], [`repeated_loads`]); random contexts respect them.
//!
//! The passes' local rewrites, written as rules, are proved by the rule
//! prover in [`schemas`].

pub mod schemas;

use diopter_semantics::access;
use diopter_semantics::ast::{Dialect, Op};
use diopter_semantics::context::{splitmix64, Context};
use diopter_semantics::interp::{read_value, write_value};
use diopter_semantics::ir::{InstKind, InstRef, Module, Value};
use diopter_semantics::lifetimes::LifetimeKind;
use diopter_semantics::location::{self, LocDesc, ReadError, WriteError};
use diopter_semantics::objloc::{Model, ObjLoc};
use diopter_semantics::syntax::module::parse_module;
use diopter_semantics::types::{DataLayout, Type};
use diopter_semantics::value::Bits;
use num_bigint::BigInt;
use std::collections::BTreeSet;
use std::fmt;

/// The passes, by name.
pub const PASSES: &[&str] = &[
    "sroa",
    "mem2reg",
    "spill",
    "proven-constant",
    "induction",
    "flatten",
    "cse",
];

/// How one entity of the optimized program is derived from the original's state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Derived {
    /// Bits `[offset, offset + width)` of an original entity.
    Slice {
        entity: String,
        offset: u64,
        width: u64,
    },
    /// `width` bits read from memory at the address an original pointer
    /// entity holds (a promoted stack slot). The optimized program no longer
    /// has those memory bytes: the write-effect check leaves them out.
    Load {
        pointer: String,
        addrspace: u32,
        width: u64,
    },
    /// A new stack slot at `address` of `addrspace` holding a copy of an
    /// original entity (a spill): the entity holds the address, the memory
    /// the copy.
    SpillOf {
        entity: String,
        addrspace: u32,
        address: u64,
        ptr_bits: u64,
    },
}

/// The optimized program's new entities.
pub type StateMap = Vec<(String, Derived)>;

/// A pass's result.
#[derive(Clone, Debug)]
pub struct Transformed {
    pub text: String,
    pub state: StateMap,
    /// What was rewritten, for the user.
    pub summary: String,
    /// The pass claims a read-only refinement (DESIGN.md "Equivalence"):
    /// reads must agree, a location may lose writability (a variable that
    /// becomes a constant cannot be assigned any more).
    pub read_only_refinement: bool,
    /// Program instructions of the original the pass deleted (the redundant
    /// loads of `cse`): they have no counterpart after, and the check skips
    /// them.
    pub removed: Vec<InstRef>,
}

/// Why a context of the original program does not map ([`map_context`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MapError {
    #[error("the context has no entity {0}")]
    NoEntity(String),
    /// The entity is narrower than the slice taken of it.
    #[error("{entity} has no bits {start}..{end}")]
    NoBits {
        entity: String,
        start: usize,
        end: usize,
    },
    /// The promoted slot's memory does not read.
    #[error(transparent)]
    Read(#[from] ReadError),
    /// The spill slot's memory does not take the copy.
    #[error(transparent)]
    Write(#[from] WriteError),
}

/// Applies `state` to a context of the original program.
pub fn map_context(ctx: &Context, state: &StateMap) -> Result<Context, MapError> {
    let mut out = ctx.clone();
    for (name, d) in state {
        match d {
            Derived::Slice {
                entity,
                offset,
                width,
            } => {
                let b = ctx
                    .entity(entity)
                    .ok_or_else(|| MapError::NoEntity(entity.clone()))?;
                let list = location::bits_to_list(b);
                let start = *offset as usize;
                let end = start + *width as usize;
                let part = list.get(start..end).ok_or_else(|| MapError::NoBits {
                    entity: entity.clone(),
                    start,
                    end,
                })?;
                out.set_entity(name, location::list_to_bits(part));
            }
            Derived::Load {
                pointer,
                addrspace,
                width,
            } => {
                let p = ctx
                    .entity(pointer)
                    .ok_or_else(|| MapError::NoEntity(pointer.clone()))?;
                let loc = LocDesc::memory(*addrspace, BigInt::from(p.to_biguint()));
                let v = access::read(ctx, &loc, *width)?;
                out.set_entity(name, v);
            }
            Derived::SpillOf {
                entity,
                addrspace,
                address,
                ptr_bits,
            } => {
                let v = ctx
                    .entity(entity)
                    .ok_or_else(|| MapError::NoEntity(entity.clone()))?;
                out.set_entity(name, Bits::from_u64(*ptr_bits, *address));
                let loc = LocDesc::memory(*addrspace, *address);
                access::write(&mut out, &loc, v)?;
            }
        }
    }
    Ok(out)
}

/// Why a pass does not apply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotApplicable(pub String);

impl fmt::Display for NotApplicable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A text edit: replace bytes `start..end` with `text`.
struct Edit {
    start: usize,
    end: usize,
    text: String,
}

fn apply_edits(src: &str, mut edits: Vec<Edit>) -> String {
    edits.sort_by_key(|e| std::cmp::Reverse((e.start, e.end)));
    let mut s = src.to_string();
    for e in edits {
        s.replace_range(e.start..e.end, &e.text);
    }
    s
}

/// The end of the line holding byte `at` (the offset of its `\n`, or the end).
fn line_end(src: &str, at: usize) -> usize {
    src[at..].find('\n').map_or(src.len(), |i| at + i)
}

/// The start of the line holding byte `at`.
fn line_start(src: &str, at: usize) -> usize {
    src[..at].rfind('\n').map_or(0, |i| i + 1)
}

/// The source line of one instruction: its byte range (without the `\n`)
/// and its indentation, which new lines beside it copy.
struct Line {
    start: usize,
    end: usize,
    indent: String,
}

impl Line {
    fn of(m: &Module, src: &str, r: InstRef) -> Line {
        let span = m.inst(r).map(|i| *i.span).unwrap_or_default();
        let start = line_start(src, span.start);
        let indent: String = src[start..]
            .chars()
            .take_while(|c| *c == ' ' || *c == '\t')
            .collect();
        Line {
            start,
            end: line_end(src, span.end.max(span.start)),
            indent,
        }
    }

    /// Replaces the line by `lines` (each indented like it).
    fn replace_by(&self, lines: &[String]) -> Edit {
        Edit {
            start: self.start,
            end: self.end,
            text: lines
                .iter()
                .map(|l| format!("{}{l}", self.indent))
                .collect::<Vec<_>>()
                .join("\n"),
        }
    }

    /// Inserts `line` (indented like this one) after it.
    fn insert_after(&self, line: &str) -> Edit {
        Edit {
            start: self.end,
            end: self.end,
            text: format!("\n{}{line}", self.indent),
        }
    }

    /// Replaces the first `from` of the line by `to`; `None` when the line
    /// has no `from` (the def is not written as the pass expects).
    fn substitute(&self, src: &str, from: &str, to: &str) -> Option<Edit> {
        let old = &src[self.start..self.end];
        let text = old.replacen(from, to, 1);
        (text != old).then_some(Edit {
            start: self.start,
            end: self.end,
            text,
        })
    }

    /// Deletes the line with its `\n`.
    fn delete(&self, src: &str) -> Edit {
        Edit {
            start: self.start,
            end: (self.end + 1).min(src.len()),
            text: String::new(),
        }
    }
}

/// A bounded lifetime a pass may rewrite: its object has no other lifetime,
/// it has exactly one def, and it is not an argument of another lifetime
/// (so the rewrite is local).
struct Candidate {
    lifetime: u64,
    object: u64,
    def: InstRef,
    kills: Vec<InstRef>,
    referrer: String,
    referrer_ty: Option<Type>,
}

impl Candidate {
    /// The referrer's type when the lifetime's location is exactly
    /// `!DIExpr(DIOpReferrer(T))` of it.
    fn plain_referrer(&self, m: &Module) -> Option<Type> {
        let e = m.lifetime_expr(self.lifetime)?;
        let ty = self.referrer_ty.clone()?;
        match e.ops.as_slice() {
            [r] if e.dialect == Dialect::DiExpr && r.op == Op::Referrer(ty.clone()) => Some(ty),
            _ => None,
        }
    }

    /// `N` when the lifetime's location is `!DIExpr(DIOpReferrer(iN))` of an
    /// `iN` referrer (what sroa, proven-constant and induction rewrite).
    fn plain_int(&self, m: &Module) -> Option<u64> {
        match self.plain_referrer(m)? {
            Type::Int(n) => Some(n),
            _ => None,
        }
    }

    /// The pointee and address space when the location is a stack slot's
    /// contents: `DIOpReferrer(T addrspace(N)*), DIOpDeref()` or
    /// `DIOpReferrer(ptr addrspace(N)), DIOpDeref(T)` of the referrer.
    fn slot(&self, m: &Module) -> Option<(Type, u32)> {
        let e = m.lifetime_expr(self.lifetime)?;
        let rt = self.referrer_ty.as_ref()?;
        let Type::Ptr { addrspace, pointee } = rt else {
            return None;
        };
        let [r, d] = e.ops.as_slice() else {
            return None;
        };
        if e.dialect != Dialect::DiExpr || r.op != Op::Referrer(rt.clone()) {
            return None;
        }
        match (pointee, &d.op) {
            (Some(p), Op::Deref(None)) => Some(((**p).clone(), *addrspace)),
            (None, Op::Deref(Some(t))) => Some((t.clone(), *addrspace)),
            _ => None,
        }
    }
}

fn candidates(m: &Module) -> Vec<Candidate> {
    let model = Model::new(m);
    let mut out = Vec::new();
    for (id, l) in m.lifetimes() {
        if model.kind(id) != Some(LifetimeKind::Bounded) {
            continue;
        }
        let Some(obj) = l.object else { continue };
        if model.lifetimes.of_object(obj).len() != 1 {
            continue;
        }
        let u = &model.lifetimes.uses[&id];
        let [def] = u.defs.as_slice() else { continue };
        let Some(InstKind::DbgDef { referrer, .. }) = m.inst(*def).map(|i| &i.kind) else {
            continue;
        };
        let Value::Local(name) = &referrer.value else {
            continue;
        };
        out.push(Candidate {
            lifetime: id,
            object: obj,
            def: *def,
            kills: u.kills.clone(),
            referrer: format!("%{name}"),
            referrer_ty: referrer.ty.clone(),
        });
    }
    out
}

fn next_id(m: &Module) -> u64 {
    m.metadata.keys().next_back().map_or(1, |k| k + 1).max(1000)
}

fn node_edit(m: &Module, id: u64, text: String) -> Option<Edit> {
    let n = m.metadata.get(&id)?;
    Some(Edit {
        start: n.span.start,
        end: n.span.end,
        text,
    })
}

/// The text of lifetime `!id` of `!object` at `!DIExpr(location)`, with
/// `argObjects` when `args` is not empty.
fn lifetime_node(id: u64, object: u64, location: &str, args: &[u64]) -> String {
    let mut s =
        format!("!{id} = distinct !DILifetime(object: !{object}, location: !DIExpr({location})");
    if !args.is_empty() {
        let list: Vec<String> = args.iter().map(|a| format!("!{a}")).collect();
        s += &format!(", argObjects: {{{}}}", list.join(", "));
    }
    s.push(')');
    s
}

/// What the candidate passes build up: edits of the source, the state map,
/// new metadata appended at the end, and the summary.
struct Build<'m> {
    m: &'m Module,
    src: &'m str,
    dl: DataLayout,
    edits: Vec<Edit>,
    state: StateMap,
    extra_md: String,
    summary: Vec<String>,
    fresh: u64,
    done: usize,
}

impl Build<'_> {
    /// Gives lifetime `c` a new location (and argument objects).
    fn relocate(&mut self, c: &Candidate, location: &str, args: &[u64]) {
        let node = lifetime_node(c.lifetime, c.object, location, args);
        self.edits.extend(node_edit(self.m, c.lifetime, node));
    }

    /// Changes the referrer operand of `c`'s def from `from` to `to`;
    /// `false` (and no edit) when the def is not written that way.
    fn redef(&mut self, c: &Candidate, from: &str, to: &str) -> bool {
        let line = Line::of(self.m, self.src, c.def);
        match line.substitute(self.src, from, to) {
            Some(e) => {
                self.edits.push(e);
                true
            }
            None => false,
        }
    }

    /// A fresh metadata number.
    fn fresh(&mut self) -> u64 {
        self.fresh += 1;
        self.fresh - 1
    }

    /// `sroa`: x in iN becomes the composite of x.lo and x.hi.
    fn sroa(&mut self, c: &Candidate) -> bool {
        let Some(n) = c.plain_int(self.m).filter(|n| n.is_multiple_of(2)) else {
            return false;
        };
        let h = n / 2;
        let (f1, l1, f2, l2) = (self.fresh(), self.fresh(), self.fresh(), self.fresh());
        let (lo, hi) = (format!("{}.lo", c.referrer), format!("{}.hi", c.referrer));
        let def = Line::of(self.m, self.src, c.def);
        self.edits.push(def.replace_by(&[
            format!("call void @llvm.dbg.def(metadata !{l1}, metadata i{h} {lo})"),
            format!("call void @llvm.dbg.def(metadata !{l2}, metadata i{h} {hi})"),
        ]));
        for k in &c.kills {
            self.edits.push(Line::of(self.m, self.src, *k).replace_by(&[
                format!("call void @llvm.dbg.kill(metadata !{l2})"),
                format!("call void @llvm.dbg.kill(metadata !{l1})"),
            ]));
        }
        self.relocate(
            c,
            &format!("DIOpArg(0, i{h}), DIOpArg(1, i{h}), DIOpComposite(2, i{n})"),
            &[f1, f2],
        );
        for (f, l) in [(f1, l1), (f2, l2)] {
            self.extra_md += &format!("!{f} = distinct !DIFragment()\n");
            self.extra_md += &lifetime_node(l, f, &format!("DIOpReferrer(i{h})"), &[]);
            self.extra_md.push('\n');
        }
        for (name, offset) in [(lo, 0), (hi, h)] {
            self.state.push((
                name,
                Derived::Slice {
                    entity: c.referrer.clone(),
                    offset,
                    width: h,
                },
            ));
        }
        self.summary.push(format!(
            "sroa: !{} ({} as i{n}) -> fragments !{f1} ({}.lo) and !{f2} ({}.hi)",
            c.lifetime, c.referrer, c.referrer, c.referrer
        ));
        true
    }

    /// `mem2reg`: the slot's contents become the promoted value `%a.val`.
    fn mem2reg(&mut self, c: &Candidate) -> bool {
        let Some((ty, addrspace)) = c.slot(self.m) else {
            return false;
        };
        let Ok(width) = self.dl.bitsizeof(&ty, &self.m.types) else {
            return false;
        };
        let rt = c
            .referrer_ty
            .as_ref()
            .map(Type::to_string)
            .unwrap_or_default();
        let val = format!("{}.val", c.referrer);
        let from = format!("metadata {rt} {}", c.referrer);
        if !self.redef(c, &from, &format!("metadata {ty} {val}")) {
            return false;
        }
        self.relocate(c, &format!("DIOpReferrer({ty})"), &[]);
        self.state.push((
            val.clone(),
            Derived::Load {
                pointer: c.referrer.clone(),
                addrspace,
                width,
            },
        ));
        self.summary.push(format!(
            "mem2reg: !{} ({} in address space {addrspace}) -> {val}",
            c.lifetime, c.referrer
        ));
        true
    }

    /// `proven-constant`: x is the constant the program gives it.
    fn proven_constant(&mut self, c: &Candidate) -> bool {
        let Some(n) = c.plain_int(self.m) else {
            return false;
        };
        let Some(k) = constant_definitions(self.m)
            .into_iter()
            .find(|(name, w, _)| *name == c.referrer && *w == n)
            .map(|(_, _, v)| v)
        else {
            return false;
        };
        let from = format!("metadata i{n} {}", c.referrer);
        if !self.redef(c, &from, &format!("metadata i{n} undef")) {
            return false;
        }
        self.relocate(c, &format!("DIOpConstant(i{n} {k})"), &[]);
        self.summary.push(format!(
            "proven-constant: !{} ({} = {k}) -> DIOpConstant(i{n} {k})",
            c.lifetime, c.referrer
        ));
        true
    }

    /// `induction`: i is the sum of the variables x and y located at the
    /// program's operands.
    fn induction(&mut self, c: &Candidate) -> bool {
        let m = self.m;
        let Some(n) = c.plain_int(m) else {
            return false;
        };
        // `%i = add iN %x, %y`, x and y located by simple bounded lifetimes.
        let Some(terms) = definitions(m)
            .into_iter()
            .find(|(name, w, _)| *name == c.referrer && *w == n)
            .map(|(_, _, t)| t)
        else {
            return false;
        };
        let [Term::Ent(x), Term::Ent(y)] = terms.as_slice() else {
            return false;
        };
        let all = candidates(m);
        let find = |e: &str| {
            all.iter()
                .find(|o| o.referrer == e && o.lifetime != c.lifetime && o.plain_int(m) == Some(n))
        };
        let (Some(cx), Some(cy)) = (find(x), find(y)) else {
            return false;
        };
        // "the value of `i` is computable so long as both `x` and `y`
        // are live" (l. 1425-1426): wherever i's lifetime is active,
        // theirs must be.
        let model = Model::new(m);
        let covered = (0..m.functions.len()).all(|f| {
            model.layout(f).iter().all(|r| {
                !model.is_active(c.lifetime, *r)
                    || (model.is_active(cx.lifetime, *r) && model.is_active(cy.lifetime, *r))
            })
        });
        let from = format!("metadata i{n} {}", c.referrer);
        if !covered || !self.redef(c, &from, &format!("metadata i{n} undef")) {
            return false;
        }
        self.relocate(
            c,
            &format!("DIOpArg(0, i{n}), DIOpArg(1, i{n}), DIOpAdd()"),
            &[cx.object, cy.object],
        );
        self.summary.push(format!(
            "induction: !{} ({} = {x} + {y}) -> the sum of objects !{} and !{}",
            c.lifetime, c.referrer, cx.object, cy.object
        ));
        true
    }

    /// `spill`: a second lifetime with the same def and kills locates x in
    /// the spill slot too.
    fn spill(&mut self, c: &Candidate) -> bool {
        let Some(ty) = c.plain_referrer(self.m) else {
            return false;
        };
        if matches!(ty, Type::Ptr { .. }) {
            return false;
        }
        let l = self.fresh();
        let slot = format!("{}.spill", c.referrer);
        let def = Line::of(self.m, self.src, c.def);
        self.edits.push(def.insert_after(&format!(
            "call void @llvm.dbg.def(metadata !{l}, metadata ptr addrspace(5) {slot})"
        )));
        for k in &c.kills {
            let kill = Line::of(self.m, self.src, *k);
            self.edits
                .push(kill.insert_after(&format!("call void @llvm.dbg.kill(metadata !{l})")));
        }
        self.extra_md += &lifetime_node(
            l,
            c.object,
            &format!("DIOpReferrer(ptr addrspace(5)), DIOpDeref({ty})"),
            &[],
        );
        self.extra_md.push('\n');
        self.state.push((
            slot.clone(),
            Derived::SpillOf {
                entity: c.referrer.clone(),
                addrspace: 5,
                address: SPILL_BASE + 0x100 * self.done as u64,
                ptr_bits: self.dl.pointer_bits(5),
            },
        ));
        self.summary.push(format!(
            "spill: !{} ({}) also in {slot} (lifetime !{l})",
            c.lifetime, c.referrer
        ));
        true
    }
}

/// Where `spill` puts its slots: above every address [`random_context`]
/// gives a pointer, so that a spill slot never aliases a variable's memory.
const SPILL_BASE: u64 = 0x4000_0000;

fn unknown_pass(name: &str) -> NotApplicable {
    NotApplicable(format!(
        "unknown pass `{name}` (passes: {})",
        PASSES.join(", ")
    ))
}

fn nothing_to_do(name: &str) -> NotApplicable {
    NotApplicable(format!("pass `{name}` finds nothing to rewrite"))
}

/// The result of a pass that changes no storage (`flatten`, `cse`): its
/// edits applied, or why nothing was done.
fn finish(
    name: &str,
    src: &str,
    edits: Vec<Edit>,
    summary: &[String],
    read_only_refinement: bool,
    removed: Vec<InstRef>,
) -> Result<Transformed, NotApplicable> {
    if summary.is_empty() {
        return Err(nothing_to_do(name));
    }
    Ok(Transformed {
        text: apply_edits(src, edits),
        state: StateMap::new(),
        summary: summary.join("\n"),
        read_only_refinement,
        removed,
    })
}

/// Applies pass `name` to every lifetime it can rewrite (at most `limit`).
pub fn apply(name: &str, src: &str, limit: usize) -> Result<Transformed, NotApplicable> {
    let (m, ds) = parse_module(src);
    if !ds.is_empty() {
        return Err(NotApplicable("the input does not parse cleanly".into()));
    }
    match name {
        "flatten" => return flatten(&m, src, limit),
        "cse" => return cse(&m, src, limit),
        "sroa" | "mem2reg" | "spill" | "proven-constant" | "induction" => {}
        other => return Err(unknown_pass(other)),
    }
    let mut b = Build {
        m: &m,
        src,
        dl: m
            .datalayout
            .as_ref()
            .map(|(d, _)| d.clone())
            .unwrap_or_default(),
        edits: Vec::new(),
        state: StateMap::new(),
        extra_md: String::new(),
        summary: Vec::new(),
        fresh: next_id(&m),
        done: 0,
    };
    for c in candidates(&m) {
        if b.done >= limit {
            break;
        }
        let rewritten = match name {
            "sroa" => b.sroa(&c),
            "mem2reg" => b.mem2reg(&c),
            "spill" => b.spill(&c),
            "proven-constant" => b.proven_constant(&c),
            _ => b.induction(&c),
        };
        if rewritten {
            b.done += 1;
        }
    }
    if b.done == 0 {
        return Err(nothing_to_do(name));
    }
    let mut text = apply_edits(src, b.edits);
    if !text.ends_with('\n') {
        text.push('\n');
    }
    text.push_str(&b.extra_md);
    Ok(Transformed {
        text,
        state: b.state,
        summary: b.summary.join("\n"),
        read_only_refinement: matches!(name, "proven-constant" | "induction"),
        removed: Vec::new(),
    })
}

/// One term of a program definition's sum.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Term {
    Lit(BigInt),
    /// An entity, with its `%`.
    Ent(String),
}

/// The facts the program itself states, in layout order: `%v = iN K` (the
/// spec's pseudo IR with a literal for `...`) and `%v = add [nuw] [nsw] iN A,
/// B` of literals or values, as (name with `%`, N, the terms summed mod 2^N).
pub fn definitions(m: &Module) -> Vec<(String, u64, Vec<Term>)> {
    let mut out = Vec::new();
    for (_, inst) in m.insts() {
        if inst.kind != InstKind::Opaque {
            continue;
        }
        let Some((lhs, rhs)) = inst.text.split_once('=') else {
            continue;
        };
        let name = lhs.trim();
        if !name.starts_with('%') || name.contains(' ') {
            continue;
        }
        let words: Vec<&str> = rhs
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|w| !w.is_empty() && *w != "nsw" && *w != "nuw")
            .collect();
        let term = |w: &str| -> Option<Term> {
            if w.starts_with('%') {
                Some(Term::Ent(w.to_string()))
            } else {
                w.parse::<BigInt>().ok().map(Term::Lit)
            }
        };
        let width = |w: &str| w.strip_prefix('i').and_then(|n| n.parse::<u64>().ok());
        let (w, terms) = match words.as_slice() {
            [t, k] => match (width(t), k.parse::<BigInt>().ok()) {
                (Some(w), Some(k)) => (w, vec![Term::Lit(k)]),
                _ => continue,
            },
            ["add", t, a, b] => match (width(t), term(a), term(b)) {
                (Some(w), Some(a), Some(b)) => (w, vec![a, b]),
                _ => continue,
            },
            _ => continue,
        };
        if w == 0 || w > 4096 {
            continue;
        }
        out.push((name.to_string(), w, terms));
    }
    out
}

/// The definitions whose terms are all literals, evaluated (mod 2^N).
pub fn constant_definitions(m: &Module) -> Vec<(String, u64, BigInt)> {
    definitions(m)
        .into_iter()
        .filter_map(|(name, w, terms)| {
            let mut v = BigInt::from(0);
            for t in terms {
                match t {
                    Term::Lit(k) => v += k,
                    Term::Ent(_) => return None,
                }
            }
            let modulus = BigInt::from(1) << w;
            Some((name, w, ((v % &modulus) + &modulus) % &modulus))
        })
        .collect()
}

/// `flatten`: a computed lifetime whose argument is a `DIFragment` described
/// only by another computed lifetime (the spec's "shallow update",
/// l. 1246-1294) gets that lifetime's expression substituted for the
/// argument, and the fragment and its lifetime are removed. The arguments of
/// the inner expression are appended to the outer `argObjects`.
fn flatten(m: &Module, src: &str, limit: usize) -> Result<Transformed, NotApplicable> {
    use diopter_semantics::ast::Op;
    use diopter_semantics::check::{check_expr, ArgInfo, Env, ReferrerInfo};
    use diopter_semantics::ir::MdKind;
    use diopter_semantics::syntax::print_op;
    let dl = m
        .datalayout
        .as_ref()
        .map(|(d, _)| d.clone())
        .unwrap_or_default();
    let model = Model::new(m);
    let mut touched: Vec<u64> = Vec::new();
    let mut edits = Vec::new();
    let mut summary = Vec::new();
    let delete = |id: u64| -> Option<Edit> {
        let n = m.metadata.get(&id)?;
        let line = Line {
            start: line_start(src, n.span.start),
            end: line_end(src, n.span.end),
            indent: String::new(),
        };
        Some(line.delete(src))
    };
    for (id, l) in m.lifetimes() {
        if summary.len() >= limit {
            break;
        }
        if model.kind(id) != Some(LifetimeKind::Computed) || touched.contains(&id) {
            continue;
        }
        let (Some(outer), Some(args)) = (m.lifetime_expr(id), l.arg_objects.clone()) else {
            continue;
        };
        for (k, a) in args.iter().enumerate() {
            if !matches!(m.kind(*a), Some(MdKind::Fragment))
                || args.iter().filter(|x| *x == a).count() != 1
                || m.lifetimes()
                    .any(|(i2, l2)| i2 != id && l2.arg_objects.unwrap_or_default().contains(a))
            {
                continue;
            }
            let [inner_id] = model.lifetimes.of_object(*a) else {
                continue;
            };
            let inner_id = *inner_id;
            if model.kind(inner_id) != Some(LifetimeKind::Computed) || touched.contains(&inner_id) {
                continue;
            }
            let Some(inner) = m.lifetime_expr(inner_id) else {
                continue;
            };
            let inner_args = m
                .lifetime(inner_id)
                .and_then(|l| l.arg_objects)
                .unwrap_or_default();
            if inner.dialect != outer.dialect
                || inner.ops.iter().any(|o| matches!(o.op, Op::Referrer(_)))
            {
                continue;
            }
            let infos: Vec<ArgInfo> = inner_args
                .iter()
                .map(|o| ArgInfo {
                    ty: None,
                    bits: diopter_semantics::ir::object_bits(m, *o, &dl),
                    poison: false,
                })
                .collect();
            let env = Env {
                dialect: inner.dialect,
                dl: &dl,
                types: &m.types,
                args: Some(&infos),
                referrer: &ReferrerInfo::Forbidden,
                var_bits: None,
            };
            let Ok(checked) = check_expr(inner, &env) else {
                continue;
            };
            if checked.fragment.is_some()
                || outer.ops.iter().any(
                    |o| matches!(&o.op, Op::Arg(j, t) if *j == k as u64 && *t != checked.result),
                )
            {
                continue;
            }
            let base = (args.len() - 1) as u64;
            let mut ops: Vec<String> = Vec::new();
            for o in &outer.ops {
                match &o.op {
                    Op::Arg(j, _) if *j == k as u64 => {
                        for io in &inner.ops {
                            ops.push(match &io.op {
                                Op::Arg(i, t) => print_op(&Op::Arg(base + i, t.clone())),
                                op => print_op(op),
                            });
                        }
                    }
                    Op::Arg(j, t) if *j > k as u64 => {
                        ops.push(print_op(&Op::Arg(j - 1, t.clone())))
                    }
                    op => ops.push(print_op(op)),
                }
            }
            let mut new_args: Vec<String> = args
                .iter()
                .filter(|x| *x != a)
                .map(|x| format!("!{x}"))
                .collect();
            new_args.extend(inner_args.iter().map(|x| format!("!{x}")));
            let Some(obj) = l.object else { continue };
            if let Some(e) = node_edit(
                m,
                id,
                format!(
                    "!{id} = distinct !DILifetime(object: !{obj}, location: !{}({}), argObjects: {{{}}})",
                    outer.dialect.node_name(),
                    ops.join(", "),
                    new_args.join(", ")
                ),
            ) {
                edits.push(e);
            }
            edits.extend(delete(*a));
            edits.extend(delete(inner_id));
            touched.extend([id, inner_id]);
            summary.push(format!(
                "flatten: !{id} takes the expression of !{inner_id} for its argument !{a}; !{a} and !{inner_id} removed"
            ));
            break;
        }
    }
    finish("flatten", src, edits, &summary, false, Vec::new())
}

// ------------------------------------------------------------ cse

/// A load the program repeats: `%second = load T, P %ptr` after `%first =
/// load T, P %ptr` in the same block, with nothing between that may write
/// memory, so both hold the same value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RepeatedLoad {
    /// With its `%`.
    pub first: String,
    pub second: String,
    /// The loaded type, as written.
    pub ty: String,
    /// The second load.
    pub at: InstRef,
}

/// Opcodes of instructions that cannot write memory: a load of the same
/// pointer after them reads what it read before them. Anything else that
/// is not a debug intrinsic (`store`, `call`, `atomicrmw`, a volatile load,
/// text diopter does not know) may write memory and ends the search.
const PURE_OPCODES: &[&str] = &[
    "load",
    "add",
    "sub",
    "mul",
    "udiv",
    "sdiv",
    "urem",
    "srem",
    "and",
    "or",
    "xor",
    "shl",
    "lshr",
    "ashr",
    "icmp",
    "fcmp",
    "fadd",
    "fsub",
    "fmul",
    "fdiv",
    "frem",
    "fneg",
    "select",
    "getelementptr",
    "zext",
    "sext",
    "trunc",
    "bitcast",
    "inttoptr",
    "ptrtoint",
    "addrspacecast",
    "fptrunc",
    "fpext",
    "fptoui",
    "fptosi",
    "uitofp",
    "sitofp",
    "extractelement",
    "insertelement",
    "shufflevector",
    "extractvalue",
    "insertvalue",
    "freeze",
    "phi",
    "alloca",
];

/// `(result, loaded type, pointer operand)` of `%r = load T, P %p[, ...]`
/// (not volatile, not atomic).
fn parse_load(text: &str) -> Option<(String, String, String)> {
    let (lhs, rhs) = text.split_once('=')?;
    let name = lhs.trim();
    let rest = rhs.trim().strip_prefix("load ")?;
    if !name.starts_with('%') || name.contains(' ') {
        return None;
    }
    let mut parts = rest.split(',');
    let ty = parts.next()?.trim();
    let ptr = parts.next()?.split_whitespace().last()?;
    if ty.is_empty() || ty.starts_with("volatile") || ty.starts_with("atomic") {
        return None;
    }
    Some((name.to_string(), ty.to_string(), ptr.to_string()))
}

/// Whether an opaque instruction cannot write memory: `%v = OPCODE ...` with
/// a [`PURE_OPCODES`] opcode other than a volatile or atomic load, or the
/// spec's pseudo IR `%v = iN ...`.
fn is_pure(text: &str) -> bool {
    let Some((lhs, rhs)) = text.split_once('=') else {
        return false;
    };
    let mut words = rhs.split_whitespace();
    let op = words.next().unwrap_or("");
    let next = words.next().unwrap_or("");
    lhs.trim().starts_with('%')
        && ((PURE_OPCODES.contains(&op)
            && !(op == "load" && matches!(next, "volatile" | "atomic")))
            || op
                .strip_prefix('i')
                .is_some_and(|n| n.parse::<u64>().is_ok()))
}

/// Every [`RepeatedLoad`] of the module, in layout order. A third load of
/// the same pointer repeats the first.
pub fn repeated_loads(m: &Module) -> Vec<RepeatedLoad> {
    let mut out = Vec::new();
    for (f, func) in m.functions.iter().enumerate() {
        for (b, block) in func.blocks.iter().enumerate() {
            // (type, pointer) -> the first load's result, since the last
            // instruction that may write memory.
            let mut seen: Vec<((String, String), String)> = Vec::new();
            for (i, inst) in block.insts.iter().enumerate() {
                match inst.kind {
                    InstKind::DbgDef { .. } | InstKind::DbgKill { .. } | InstKind::DbgRecord(_) => {
                        continue
                    }
                    InstKind::Opaque => {}
                    _ => {
                        seen.clear();
                        continue;
                    }
                }
                if !is_pure(&inst.text) {
                    seen.clear();
                    continue;
                }
                let Some((name, ty, ptr)) = parse_load(&inst.text) else {
                    continue;
                };
                let key = (ty.clone(), ptr);
                match seen.iter().find(|(k, _)| *k == key) {
                    Some((_, first)) => out.push(RepeatedLoad {
                        first: first.clone(),
                        second: name,
                        ty,
                        at: InstRef {
                            function: f,
                            block: b,
                            inst: i,
                        },
                    }),
                    None => seen.push((key, name)),
                }
            }
        }
    }
    out
}

/// `text` with every whole-name occurrence of local `from` (`%b`, not a
/// prefix of `%b2`) replaced by `to`.
fn replace_local(text: &str, from: &str, to: &str) -> String {
    let is_name = |c: char| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-' | '$');
    let mut out = String::new();
    let mut rest = text;
    while let Some(i) = rest.find(from) {
        let after = &rest[i + from.len()..];
        out += &rest[..i];
        out += if after.starts_with(is_name) { from } else { to };
        rest = after;
    }
    out + rest
}

/// `cse`: deletes each [`RepeatedLoad`]'s second load, uses the first in its
/// place, and makes the lifetimes of both read-only (module docs). A repeated
/// load whose values locate a variable any other way than
/// `!DIExpr(DIOpReferrer(T))` (or through a `llvm.dbg.value`-style record)
/// is left alone: such a location could stay writable and let a debugger
/// change one variable through the other.
fn cse(m: &Module, src: &str, limit: usize) -> Result<Transformed, NotApplicable> {
    let mut edits = Vec::new();
    let mut summary = Vec::new();
    let mut removed = Vec::new();
    let mut relocated: BTreeSet<u64> = BTreeSet::new();
    let mut renamed: BTreeSet<String> = BTreeSet::new();
    'loads: for r in repeated_loads(m) {
        if summary.len() >= limit {
            break;
        }
        // A value already renamed, or replaced: its lines have edits.
        if renamed.contains(&r.first) || renamed.contains(&r.second) {
            continue;
        }
        let names = [r.first.as_str(), r.second.as_str()];
        let mut lifetimes: Vec<(u64, u64)> = Vec::new();
        let mut uses: Vec<InstRef> = Vec::new();
        for (at, inst) in m.insts().filter(|(at, _)| at.function == r.at.function) {
            if at == r.at {
                continue;
            }
            let mentions = names
                .iter()
                .any(|n| replace_local(&inst.text, n, "%_") != inst.text);
            match &inst.kind {
                InstKind::DbgDef {
                    lifetime, referrer, ..
                } if matches!(&referrer.value, Value::Local(v) if names.contains(&format!("%{v}").as_str())) =>
                {
                    let plain = m.lifetime_expr(*lifetime).is_some_and(|e| {
                        e.dialect == Dialect::DiExpr
                            && matches!(e.ops.as_slice(), [o] if matches!(&o.op, Op::Referrer(t) if t.to_string() == r.ty))
                    });
                    let Some(object) = m.lifetime(*lifetime).and_then(|l| l.object) else {
                        continue 'loads;
                    };
                    if !plain || relocated.contains(lifetime) {
                        continue 'loads;
                    }
                    lifetimes.push((*lifetime, object));
                }
                InstKind::DbgRecord(_) if mentions => continue 'loads,
                _ => {}
            }
            if mentions && replace_local(&inst.text, &r.second, "%_") != inst.text {
                uses.push(at);
            }
        }
        edits.push(Line::of(m, src, r.at).delete(src));
        for u in &uses {
            let line = Line::of(m, src, *u);
            edits.push(Edit {
                start: line.start,
                end: line.end,
                text: replace_local(&src[line.start..line.end], &r.second, &r.first),
            });
        }
        lifetimes.sort_unstable();
        lifetimes.dedup();
        for (l, object) in &lifetimes {
            let node = lifetime_node(
                *l,
                *object,
                &format!("DIOpReferrer({}), DIOpRead()", r.ty),
                &[],
            );
            edits.extend(node_edit(m, *l, node));
            relocated.insert(*l);
        }
        renamed.extend([r.first.clone(), r.second.clone()]);
        removed.push(r.at);
        let ls: Vec<String> = lifetimes.iter().map(|(l, _)| format!("!{l}")).collect();
        summary.push(format!(
            "cse: {} repeats {} (load {}); the load is removed, {} used in its place; lifetimes read-only: {}",
            r.second,
            r.first,
            r.ty,
            r.first,
            if ls.is_empty() { "none".into() } else { ls.join(", ") }
        ));
    }
    finish("cse", src, edits, &summary, true, removed)
}

// ------------------------------------------------------------ equivalence

/// What reading a variable gives, for comparison.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReadOutcome {
    Bits(Bits),
    /// The error class (`Undefined` for an undefined location).
    Error(String),
}

/// One disagreement between before and after.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    pub variable: u64,
    /// The non-debug instruction (k-th of the function), and its layout
    /// indices before and after.
    pub instruction: usize,
    pub before_index: usize,
    pub after_index: usize,
    pub seed: u64,
    pub before: ReadOutcome,
    pub after: ReadOutcome,
    pub what: &'static str,
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "!{} at program instruction {} (#{} before, #{} after), context seed {}: {} {:?} before, {:?} after",
            self.variable,
            self.instruction,
            self.before_index,
            self.after_index,
            self.seed,
            self.what,
            self.before,
            self.after
        )
    }
}

/// The layout indices of the non-debug instructions of function `f`.
fn program_points(m: &Module, model: &Model, f: usize) -> Vec<(usize, InstRef)> {
    model
        .layout(f)
        .iter()
        .enumerate()
        .filter(|(_, r)| {
            !matches!(
                m.inst(**r).map(|i| &i.kind),
                Some(InstKind::DbgDef { .. } | InstKind::DbgKill { .. } | InstKind::DbgRecord(_))
            )
        })
        .map(|(i, r)| (i, *r))
        .collect()
}

/// How a variable's location behaves at one program point in one context:
/// what reading it gives, and the context after writing
/// [`write_pattern`](diopter_semantics::case::write_pattern) through it (or why the write is refused).
struct Probe {
    read: ReadOutcome,
    written: Result<Context, String>,
}

fn probe(model: &Model, obj: u64, at: InstRef, ctx: &Context) -> Probe {
    match model.locate(obj, Some(at), ctx) {
        Ok(ObjLoc::Undefined) => Probe {
            read: ReadOutcome::Error("ReadUndefined".into()),
            written: Err("undefined".into()),
        },
        Ok(ObjLoc::Located(r)) => {
            let read = match read_value(ctx, &r) {
                Ok(b) => ReadOutcome::Bits(b),
                Err(e) => ReadOutcome::Error(format!("Read{:?}", e.kind)),
            };
            let mut w = ctx.clone();
            let written = write_value(&mut w, &r, &diopter_semantics::case::write_pattern(r.bits))
                .map(|()| w)
                .map_err(|e| format!("{:?}", e.kind));
            Probe { read, written }
        }
        Err(e) => {
            let class = e.kind.map_or("Model".into(), |k| format!("{k:?}"));
            Probe {
                read: ReadOutcome::Error(class.clone()),
                written: Err(class),
            }
        }
    }
}

/// A random context for the original program: every entity a def names gets
/// random bits of its type, memory is seeded. Pointers get addresses in
/// disjoint 64 KiB windows below [`SPILL_BASE`] (distinct stack slots do not
/// overlap, and a promoted slot reads seeded memory); the program's facts
/// hold: two loads of one pointer ([`repeated_loads`]) give the same value,
/// and a [`definitions`] sum is the sum.
pub fn random_context(m: &Module, seed: u64) -> Context {
    let mut c = Context {
        seed,
        ..Context::default()
    };
    if let Some((dl, _)) = &m.datalayout {
        c.datalayout = dl.clone();
    }
    let mut h = splitmix64(seed);
    let mut pointers = 0u64;
    for (_, inst) in m.insts() {
        let InstKind::DbgDef { referrer, .. } = &inst.kind else {
            continue;
        };
        let Value::Local(n) = &referrer.value else {
            continue;
        };
        let Some(ty) = &referrer.ty else { continue };
        let Ok(bits) = c.datalayout.bitsizeof(ty, &m.types) else {
            continue;
        };
        let name = format!("%{n}");
        if c.entity(&name).is_some() {
            // Named by several defs: one value.
            continue;
        }
        h = splitmix64(h);
        let v = match ty {
            Type::Ptr { .. } => {
                pointers += 1;
                let window = 0x1_0000 * (pointers % (SPILL_BASE / 0x1_0000 - 1));
                Bits::from_u64(bits, window + (h & 0x7ff8))
            }
            _ => {
                let mut words = Vec::new();
                let mut k = h;
                for _ in 0..bits.div_ceil(64) {
                    words.push(k);
                    k = splitmix64(k);
                }
                let big = words
                    .iter()
                    .rev()
                    .fold(BigInt::from(0), |acc, w| (acc << 64) + BigInt::from(*w));
                Bits::from_bigint(bits, &big)
            }
        };
        c.set_entity(&name, v);
    }
    // A context of the program keeps the program's own facts.
    for r in repeated_loads(m) {
        match (c.entity(&r.first).cloned(), c.entity(&r.second).cloned()) {
            (Some(v), _) => c.set_entity(&r.second, v),
            (None, Some(v)) => c.set_entity(&r.first, v),
            (None, None) => {}
        }
    }
    for (name, w, terms) in definitions(m) {
        let mut v = BigInt::from(0);
        let mut known = true;
        for t in &terms {
            match t {
                Term::Lit(k) => v += k,
                Term::Ent(e) => match c.entity(e) {
                    Some(b) if b.width() == w => v += BigInt::from(b.to_biguint()),
                    _ => known = false,
                },
            }
        }
        if known {
            c.set_entity(&name, Bits::from_bigint(w, &v));
        }
    }
    c
}

/// The entities the debug information of `m` names (its defs' referrers).
fn named_entities(m: &Module) -> BTreeSet<String> {
    m.insts()
        .filter_map(|(_, i)| match &i.kind {
            InstKind::DbgDef { referrer, .. } => match &referrer.value {
                Value::Local(n) => Some(format!("%{n}")),
                _ => None,
            },
            _ => None,
        })
        .collect()
}

/// The part of a context the optimized program still has: entities its
/// debug information names, and memory except the bytes of promoted stack
/// slots (a [`Derived::Load`] at the address its pointer holds in
/// `original`, the context before any write). What lies outside is dead
/// after the pass, so a write's effect there does not count.
fn live_part(
    ctx: &Context,
    live: &BTreeSet<String>,
    state: &StateMap,
    original: &Context,
) -> Context {
    let mut c = ctx.clone();
    c.state.entities.retain(|n, _| live.contains(n));
    for (_, d) in state {
        if let Derived::Load {
            pointer,
            addrspace,
            width,
        } = d
        {
            let Some(p) = original.entity(pointer) else {
                continue;
            };
            let base = p.to_biguint();
            for i in 0..width.div_ceil(8) {
                c.state.memory.remove(*addrspace, &(&base + i));
            }
        }
    }
    c
}

/// Checks that `t` keeps every variable's reads, writability and the effect
/// of a write at every program instruction, in `contexts` random contexts.
///
/// The effect of writing [`write_pattern`](diopter_semantics::case::write_pattern) through a variable's
/// location (DESIGN.md: "the same effect on the context for every value
/// written"): the written original context, mapped by `t.state`, must have
/// the state the write leaves in the optimized program's context
/// ([`Context::state_diff`] on the storage the optimized program still has,
/// [`live_part`]). This catches two variables left sharing one writable
/// value after CSE (writing `loaded` changes `%1` before, `%0` after). It
/// is a property of each location, as DESIGN.md's relation is, and not "every
/// other variable reads the same after the write": after `induction`, i is
/// `x + y`, so assigning x in a debugger changes i, which is what the
/// optimized program (computing i from x) does too. A read-only refinement
/// may refuse a write the original accepts; when both accept, the effect
/// must still agree.
pub fn check_equivalent(
    before_src: &str,
    t: &Transformed,
    contexts: u64,
) -> Result<(), Vec<Mismatch>> {
    let (mb, _) = parse_module(before_src);
    let (ma, da) = parse_module(&t.text);
    let mut out = Vec::new();
    if !da.is_empty() {
        out.push(Mismatch {
            variable: 0,
            instruction: 0,
            before_index: 0,
            after_index: 0,
            seed: 0,
            before: ReadOutcome::Error("parses".into()),
            after: ReadOutcome::Error(format!("does not parse: {da:?}")),
            what: "the transformed text",
        });
        return Err(out);
    }
    let (b, a) = (Model::new(&mb), Model::new(&ma));
    let vars: Vec<u64> = b
        .objects()
        .into_iter()
        .filter(|o| mb.is_variable(*o))
        .collect();
    let live = named_entities(&ma);
    for seed in 0..contexts {
        let cb = random_context(&mb, seed);
        let Ok(ca) = map_context(&cb, &t.state) else {
            continue;
        };
        for f in 0..mb.functions.len().min(ma.functions.len()) {
            let mut pb = program_points(&mb, &b, f);
            pb.retain(|(_, r)| !t.removed.contains(r));
            let pa = program_points(&ma, &a, f);
            for (k, ((ib, rb), (ia, ra))) in pb.iter().zip(&pa).enumerate() {
                for v in &vars {
                    let mk = |before, after, what| Mismatch {
                        variable: *v,
                        instruction: k,
                        before_index: *ib,
                        after_index: *ia,
                        seed,
                        before,
                        after,
                        what,
                    };
                    let (xb, xa) = (probe(&b, *v, *rb, &cb), probe(&a, *v, *ra, &ca));
                    if xb.read != xa.read {
                        out.push(mk(xb.read, xa.read, "reads"));
                        continue;
                    }
                    let (wb, wa) = match (xb.written, xa.written) {
                        (Ok(wb), Ok(wa)) => (wb, wa),
                        (Err(_), Err(_)) => continue,
                        (Ok(_), Err(_)) if t.read_only_refinement => continue,
                        (wb, wa) => {
                            out.push(mk(
                                ReadOutcome::Error(format!("writable: {}", wb.is_ok())),
                                ReadOutcome::Error(format!("writable: {}", wa.is_ok())),
                                "writes",
                            ));
                            continue;
                        }
                    };
                    let diff = match map_context(&wb, &t.state) {
                        Ok(mapped) => live_part(&mapped, &live, &t.state, &cb)
                            .state_diff(&live_part(&wa, &live, &t.state, &cb)),
                        Err(e) => vec![format!("the written context does not map: {e}")],
                    };
                    if !diff.is_empty() {
                        out.push(mk(
                            ReadOutcome::Error(format!(
                                "written state, mapped: {}",
                                diff.join("; ")
                            )),
                            ReadOutcome::Error("the optimized program's written state".into()),
                            "write effect",
                        ));
                    }
                }
            }
            if pb.len() != pa.len() {
                out.push(Mismatch {
                    variable: 0,
                    instruction: pb.len().min(pa.len()),
                    before_index: 0,
                    after_index: 0,
                    seed,
                    before: ReadOutcome::Error(format!("{} instructions", pb.len())),
                    after: ReadOutcome::Error(format!("{} instructions", pa.len())),
                    what: "the program's instructions",
                });
            }
        }
    }
    if out.is_empty() {
        Ok(())
    } else {
        Err(out)
    }
}
