//! Debug-information updates of optimizations, as the spec's examples make
//! them, each checked to keep every variable's location: before and after,
//! at every instruction, in random contexts.
//!
//! A pass rewrites the IR text (new debug intrinsics and metadata; the
//! program's own instructions are left alone, so the k-th non-debug
//! instruction before is the k-th after) and says how the optimized program's
//! storage relates to the original's: a [`StateMap`] turns a context of the
//! original into the context the optimized program would run in (the split
//! halves of `%x`, the promoted value of a stack slot, the spill slot holding
//! the register's value). Equivalence (DESIGN.md) is then checked at every
//! non-debug instruction (debug intrinsics are not program points: they have
//! no code) for every `DIVariable`: the same outcome of reading it (same bits,
//! or the same error class; an undefined location reads as `Undefined`), and
//! the same writability.
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
//!
//! The program's own facts (`%v = iN K`, `%v = add iN A, B`) are read from
//! its opaque instruction text ([`definitions`]); random contexts respect
//! them.
//!
//! Not done yet: CSE (it needs loads and stores, which the IR model keeps as
//! opaque text, and memory that changes between program points).

use diopter_semantics::context::{splitmix64, Context};
use diopter_semantics::interp::{read_value, write_value};
use diopter_semantics::ir::{InstKind, InstRef, Module, Value};
use diopter_semantics::lifetimes::LifetimeKind;
use diopter_semantics::location::{self, LocDesc};
use diopter_semantics::objloc::{Model, ObjLoc};
use diopter_semantics::syntax::module::parse_module;
use diopter_semantics::syntax::print_expr;
use diopter_semantics::types::Type;
use diopter_semantics::value::Bits;
use num_bigint::BigInt;
use std::fmt;

/// The passes, by name.
pub const PASSES: &[&str] = &[
    "sroa",
    "mem2reg",
    "spill",
    "proven-constant",
    "induction",
    "flatten",
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
    /// entity holds (a promoted stack slot).
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
}

/// Applies `state` to a context of the original program.
pub fn map_context(ctx: &Context, state: &StateMap) -> Result<Context, String> {
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
                    .ok_or_else(|| format!("the context has no entity {entity}"))?;
                let list = location::bits_to_list(b);
                let start = *offset as usize;
                let end = start + *width as usize;
                let part = list
                    .get(start..end)
                    .ok_or_else(|| format!("{entity} has no bits {start}..{end}"))?;
                out.set_entity(name, location::list_to_bits(part));
            }
            Derived::Load {
                pointer,
                addrspace,
                width,
            } => {
                let p = ctx
                    .entity(pointer)
                    .ok_or_else(|| format!("the context has no entity {pointer}"))?;
                let loc = LocDesc::memory(*addrspace, BigInt::from(p.to_biguint()));
                let v = location::read(ctx, &loc, *width).map_err(|e| e.message)?;
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
                    .ok_or_else(|| format!("the context has no entity {entity}"))?;
                out.set_entity(name, Bits::from_u64(*ptr_bits, *address));
                let loc = LocDesc::memory(*addrspace, *address);
                location::write(&mut out, &loc, v).map_err(|e| e.message)?;
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

fn inst_line(m: &Module, src: &str, r: InstRef) -> (usize, usize, String) {
    let span = m.inst(r).map(|i| *i.span).unwrap_or_default();
    let start = line_start(src, span.start);
    let indent: String = src[start..]
        .chars()
        .take_while(|c| *c == ' ' || *c == '\t')
        .collect();
    (start, line_end(src, span.end.max(span.start)), indent)
}

fn node_edit(m: &Module, id: u64, text: String) -> Option<Edit> {
    let n = m.metadata.get(&id)?;
    Some(Edit {
        start: n.span.start,
        end: n.span.end,
        text,
    })
}

/// Applies pass `name` to every lifetime it can rewrite (at most `limit`).
pub fn apply(name: &str, src: &str, limit: usize) -> Result<Transformed, NotApplicable> {
    let (m, ds) = parse_module(src);
    if !ds.is_empty() {
        return Err(NotApplicable("the input does not parse cleanly".into()));
    }
    let dl = m
        .datalayout
        .as_ref()
        .map(|(d, _)| d.clone())
        .unwrap_or_default();
    if name == "flatten" {
        return flatten(&m, src, limit);
    }
    let mut edits = Vec::new();
    let mut state = StateMap::new();
    let mut extra_md = String::new();
    let mut summary = Vec::new();
    let mut fresh = next_id(&m);
    let mut done = 0;
    for c in candidates(&m) {
        if done >= limit {
            break;
        }
        let Some(expr) = m.lifetime_expr(c.lifetime) else {
            continue;
        };
        let printed = print_expr(expr);
        let (dstart, dend, indent) = inst_line(&m, src, c.def);
        let def_text = &src[dstart..dend];
        let kill_lines: Vec<(usize, usize, String)> =
            c.kills.iter().map(|k| inst_line(&m, src, *k)).collect();
        match name {
            "sroa" => {
                let Some(Type::Int(n)) = c.referrer_ty.clone() else {
                    continue;
                };
                if !n.is_multiple_of(2) || printed != format!("!DIExpr(DIOpReferrer(i{n}))") {
                    continue;
                }
                let h = n / 2;
                let (f1, l1, f2, l2) = (fresh, fresh + 1, fresh + 2, fresh + 3);
                fresh += 4;
                let (lo, hi) = (format!("{}.lo", c.referrer), format!("{}.hi", c.referrer));
                edits.push(Edit {
                    start: dstart,
                    end: dend,
                    text: format!(
                        "{indent}call void @llvm.dbg.def(metadata !{l1}, metadata i{h} {lo})\n{indent}call void @llvm.dbg.def(metadata !{l2}, metadata i{h} {hi})"
                    ),
                });
                for (s, e, ind) in &kill_lines {
                    edits.push(Edit {
                        start: *s,
                        end: *e,
                        text: format!(
                            "{ind}call void @llvm.dbg.kill(metadata !{l2})\n{ind}call void @llvm.dbg.kill(metadata !{l1})"
                        ),
                    });
                }
                if let Some(e) = node_edit(
                    &m,
                    c.lifetime,
                    format!(
                        "!{} = distinct !DILifetime(object: !{}, location: !DIExpr(DIOpArg(0, i{h}), DIOpArg(1, i{h}), DIOpComposite(2, i{n})), argObjects: {{!{f1}, !{f2}}})",
                        c.lifetime, c.object
                    ),
                ) {
                    edits.push(e);
                }
                extra_md.push_str(&format!(
                    "!{f1} = distinct !DIFragment()\n!{l1} = distinct !DILifetime(object: !{f1}, location: !DIExpr(DIOpReferrer(i{h})))\n!{f2} = distinct !DIFragment()\n!{l2} = distinct !DILifetime(object: !{f2}, location: !DIExpr(DIOpReferrer(i{h})))\n"
                ));
                state.push((
                    lo,
                    Derived::Slice {
                        entity: c.referrer.clone(),
                        offset: 0,
                        width: h,
                    },
                ));
                state.push((
                    hi,
                    Derived::Slice {
                        entity: c.referrer.clone(),
                        offset: h,
                        width: h,
                    },
                ));
                summary.push(format!(
                    "sroa: !{} ({} as i{n}) -> fragments !{f1} ({}.lo) and !{f2} ({}.hi)",
                    c.lifetime, c.referrer, c.referrer, c.referrer
                ));
            }
            "mem2reg" => {
                let (ty, addrspace) = match (&c.referrer_ty, expr.ops.as_slice()) {
                    (
                        Some(Type::Ptr {
                            addrspace,
                            pointee: Some(p),
                        }),
                        _,
                    ) if printed
                        == format!(
                            "!DIExpr(DIOpReferrer({}), DIOpDeref())",
                            c.referrer_ty
                                .as_ref()
                                .map(|t| t.to_string())
                                .unwrap_or_default()
                        ) =>
                    {
                        ((**p).clone(), *addrspace)
                    }
                    (
                        Some(Type::Ptr {
                            addrspace,
                            pointee: None,
                        }),
                        [_, d],
                    ) => match &d.op {
                        diopter_semantics::ast::Op::Deref(Some(t))
                            if printed
                                == format!(
                                    "!DIExpr(DIOpReferrer({}), DIOpDeref({t}))",
                                    c.referrer_ty
                                        .as_ref()
                                        .map(|t| t.to_string())
                                        .unwrap_or_default()
                                ) =>
                        {
                            (t.clone(), *addrspace)
                        }
                        _ => continue,
                    },
                    _ => continue,
                };
                let Ok(width) = dl.bitsizeof(&ty, &m.types) else {
                    continue;
                };
                let val = format!("{}.val", c.referrer);
                let new_def = def_text.replacen(
                    &format!(
                        "metadata {} {}",
                        c.referrer_ty
                            .as_ref()
                            .map(|t| t.to_string())
                            .unwrap_or_default(),
                        c.referrer
                    ),
                    &format!("metadata {ty} {val}"),
                    1,
                );
                if new_def == def_text {
                    continue;
                }
                edits.push(Edit {
                    start: dstart,
                    end: dend,
                    text: new_def,
                });
                if let Some(e) = node_edit(
                    &m,
                    c.lifetime,
                    format!(
                        "!{} = distinct !DILifetime(object: !{}, location: !DIExpr(DIOpReferrer({ty})))",
                        c.lifetime, c.object
                    ),
                ) {
                    edits.push(e);
                }
                state.push((
                    val.clone(),
                    Derived::Load {
                        pointer: c.referrer.clone(),
                        addrspace,
                        width,
                    },
                ));
                summary.push(format!(
                    "mem2reg: !{} ({} in address space {addrspace}) -> {val}",
                    c.lifetime, c.referrer
                ));
            }
            "proven-constant" => {
                let Some(Type::Int(n)) = c.referrer_ty.clone() else {
                    continue;
                };
                if printed != format!("!DIExpr(DIOpReferrer(i{n}))") {
                    continue;
                }
                let Some(k) = constant_definitions(&m)
                    .into_iter()
                    .find(|(name, w, _)| *name == c.referrer && *w == n)
                    .map(|(_, _, v)| v)
                else {
                    continue;
                };
                let new_def = def_text.replacen(
                    &format!("metadata i{n} {}", c.referrer),
                    &format!("metadata i{n} undef"),
                    1,
                );
                if new_def == def_text {
                    continue;
                }
                edits.push(Edit {
                    start: dstart,
                    end: dend,
                    text: new_def,
                });
                if let Some(e) = node_edit(
                    &m,
                    c.lifetime,
                    format!(
                        "!{} = distinct !DILifetime(object: !{}, location: !DIExpr(DIOpConstant(i{n} {k})))",
                        c.lifetime, c.object
                    ),
                ) {
                    edits.push(e);
                }
                summary.push(format!(
                    "proven-constant: !{} ({} = {k}) -> DIOpConstant(i{n} {k})",
                    c.lifetime, c.referrer
                ));
            }
            "induction" => {
                let Some(Type::Int(n)) = c.referrer_ty.clone() else {
                    continue;
                };
                let simple = |t: &str| format!("!DIExpr(DIOpReferrer(i{n}))") == t;
                if !simple(&printed) {
                    continue;
                }
                // `%i = add iN %x, %y`, x and y located by simple bounded lifetimes.
                let Some(terms) = definitions(&m)
                    .into_iter()
                    .find(|(name, w, _)| *name == c.referrer && *w == n)
                    .map(|(_, _, t)| t)
                else {
                    continue;
                };
                let [Term::Ent(x), Term::Ent(y)] = terms.as_slice() else {
                    continue;
                };
                let all = candidates(&m);
                let find = |e: &str| {
                    all.iter().find(|o| {
                        o.referrer == e
                            && o.lifetime != c.lifetime
                            && o.referrer_ty == Some(Type::Int(n))
                            && m.lifetime_expr(o.lifetime).map(print_expr).as_deref()
                                == Some(&format!("!DIExpr(DIOpReferrer(i{n}))"))
                    })
                };
                let (Some(cx), Some(cy)) = (find(x), find(y)) else {
                    continue;
                };
                // "the value of `i` is computable so long as both `x` and `y`
                // are live" (l. 1425-1426): wherever i's lifetime is active,
                // theirs must be.
                let model = Model::new(&m);
                let covered = (0..m.functions.len()).all(|f| {
                    model.layout(f).iter().all(|r| {
                        !model.is_active(c.lifetime, *r)
                            || (model.is_active(cx.lifetime, *r)
                                && model.is_active(cy.lifetime, *r))
                    })
                });
                if !covered {
                    continue;
                }
                let new_def = def_text.replacen(
                    &format!("metadata i{n} {}", c.referrer),
                    &format!("metadata i{n} undef"),
                    1,
                );
                if new_def == def_text {
                    continue;
                }
                edits.push(Edit {
                    start: dstart,
                    end: dend,
                    text: new_def,
                });
                if let Some(e) = node_edit(
                    &m,
                    c.lifetime,
                    format!(
                        "!{} = distinct !DILifetime(object: !{}, location: !DIExpr(DIOpArg(0, i{n}), DIOpArg(1, i{n}), DIOpAdd()), argObjects: {{!{}, !{}}})",
                        c.lifetime, c.object, cx.object, cy.object
                    ),
                ) {
                    edits.push(e);
                }
                summary.push(format!(
                    "induction: !{} ({} = {x} + {y}) -> the sum of objects !{} and !{}",
                    c.lifetime, c.referrer, cx.object, cy.object
                ));
            }
            "spill" => {
                let Some(ty) = c.referrer_ty.clone() else {
                    continue;
                };
                if matches!(ty, Type::Ptr { .. })
                    || printed != format!("!DIExpr(DIOpReferrer({ty}))")
                {
                    continue;
                }
                let l = fresh;
                fresh += 1;
                let slot = format!("{}.spill", c.referrer);
                edits.push(Edit {
                    start: dend,
                    end: dend,
                    text: format!(
                        "\n{indent}call void @llvm.dbg.def(metadata !{l}, metadata ptr addrspace(5) {slot})"
                    ),
                });
                for (_, e, ind) in &kill_lines {
                    edits.push(Edit {
                        start: *e,
                        end: *e,
                        text: format!("\n{ind}call void @llvm.dbg.kill(metadata !{l})"),
                    });
                }
                extra_md.push_str(&format!(
                    "!{l} = distinct !DILifetime(object: !{}, location: !DIExpr(DIOpReferrer(ptr addrspace(5)), DIOpDeref({ty})))\n",
                    c.object
                ));
                state.push((
                    slot.clone(),
                    Derived::SpillOf {
                        entity: c.referrer.clone(),
                        addrspace: 5,
                        address: 0x10_0000 + 0x100 * done as u64,
                        ptr_bits: dl.pointer_bits(5),
                    },
                ));
                summary.push(format!(
                    "spill: !{} ({}) also in {slot} (lifetime !{l})",
                    c.lifetime, c.referrer
                ));
            }
            other => {
                return Err(NotApplicable(format!(
                    "unknown pass `{other}` (passes: {})",
                    PASSES.join(", ")
                )))
            }
        }
        done += 1;
    }
    if done == 0 {
        if !PASSES.contains(&name) {
            return Err(NotApplicable(format!(
                "unknown pass `{name}` (passes: {})",
                PASSES.join(", ")
            )));
        }
        return Err(NotApplicable(format!(
            "pass `{name}` finds nothing to rewrite"
        )));
    }
    let mut text = apply_edits(src, edits);
    if !text.ends_with('\n') {
        text.push('\n');
    }
    text.push_str(&extra_md);
    Ok(Transformed {
        text,
        state,
        summary: summary.join("\n"),
        read_only_refinement: matches!(name, "proven-constant" | "induction"),
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
        let end = line_end(src, n.span.end);
        Some(Edit {
            start: line_start(src, n.span.start),
            end: (end + 1).min(src.len()),
            text: String::new(),
        })
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
                referrer: ReferrerInfo::Forbidden,
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
    if summary.is_empty() {
        return Err(NotApplicable(
            "pass `flatten` finds nothing to rewrite".into(),
        ));
    }
    Ok(Transformed {
        text: apply_edits(src, edits),
        state: StateMap::new(),
        summary: summary.join("\n"),
        read_only_refinement: false,
    })
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

fn read_outcome(model: &Model, obj: u64, at: InstRef, ctx: &Context) -> (ReadOutcome, bool) {
    match model.locate(obj, Some(at), ctx) {
        Ok(ObjLoc::Undefined) => (ReadOutcome::Error("ReadUndefined".into()), false),
        Ok(ObjLoc::Located(r)) => {
            let read = match read_value(ctx, &r) {
                Ok(b) => ReadOutcome::Bits(b),
                Err(e) => ReadOutcome::Error(format!("Read{:?}", e.kind)),
            };
            let mut w = ctx.clone();
            let writable = write_value(&mut w, &r, &Bits::zero(r.bits)).is_ok();
            (read, writable)
        }
        Err(e) => (
            ReadOutcome::Error(e.kind.map_or("Model".into(), |k| format!("{k:?}"))),
            false,
        ),
    }
}

/// A random context for the original program: every entity a def names gets
/// random bits of its type (a pointer an address in its low 2^20 bytes, so
/// that a promoted slot reads seeded memory), memory is seeded.
pub fn random_context(m: &Module, seed: u64) -> Context {
    let mut c = Context {
        seed,
        ..Context::default()
    };
    if let Some((dl, _)) = &m.datalayout {
        c.datalayout = dl.clone();
    }
    let mut h = splitmix64(seed);
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
        h = splitmix64(h);
        let v = match ty {
            Type::Ptr { .. } => Bits::from_u64(bits, (h & 0xf_fff8) + 0x1000),
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
        c.set_entity(&format!("%{n}"), v);
    }
    // A context of the program keeps the program's own facts.
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

/// Checks that `t` keeps every variable's reads and writability at every
/// program instruction, in `contexts` random contexts.
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
    for seed in 0..contexts {
        let cb = random_context(&mb, seed);
        let Ok(ca) = map_context(&cb, &t.state) else {
            continue;
        };
        for f in 0..mb.functions.len().min(ma.functions.len()) {
            let pb = program_points(&mb, &b, f);
            let pa = program_points(&ma, &a, f);
            for (k, ((ib, rb), (ia, ra))) in pb.iter().zip(&pa).enumerate() {
                for v in &vars {
                    let (rdb, wb) = read_outcome(&b, *v, *rb, &cb);
                    let (rda, wa) = read_outcome(&a, *v, *ra, &ca);
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
                    if rdb != rda {
                        out.push(mk(rdb, rda, "reads"));
                    } else if wb != wa && !(t.read_only_refinement && wb && !wa) {
                        out.push(mk(
                            ReadOutcome::Error(format!("writable: {wb}")),
                            ReadOutcome::Error(format!("writable: {wa}")),
                            "writes",
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

// ------------------------------------------------------------ fuzzing

/// What a random program's lifetime `!l` locates: an integer SSA value of
/// `bits` bits, or an `i{bits}` in a stack slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VarKind {
    Value(u64),
    Slot(u64),
}

/// A random program for the passes: a random CFG (from
/// [`crate::lifetimes_naive::arbitrary_cfg`]) whose lifetime `!l` (1..=3)
/// locates variable `!(100 + l)` as `kinds[l - 1]` says, with referrer `%r{l}`.
pub fn render_program(cfg: &diopter_semantics::dataflow::Cfg, kinds: &[VarKind; 3]) -> String {
    use diopter_semantics::dataflow::Event;
    use std::fmt::Write;
    let operand = |l: u64| match kinds[(l - 1) as usize] {
        VarKind::Value(b) => format!("i{b} %r{l}"),
        VarKind::Slot(_) => format!("ptr addrspace(5) %r{l}"),
    };
    let mut s = String::from("define void @f(i1 %c) {\n");
    let mut constant_given = false;
    let mut sum_given = false;
    for (b, blk) in cfg.blocks.iter().enumerate() {
        let _ = writeln!(s, "b{b}:");
        for (i, e) in blk.events.iter().enumerate() {
            let _ = match e {
                Event::Def(l) => writeln!(
                    s,
                    "  call void @llvm.dbg.def(metadata !{l}, metadata {})",
                    operand(*l)
                ),
                Event::Kill(l) => writeln!(s, "  call void @llvm.dbg.kill(metadata !{l})"),
                // The first other instruction gives `%r1` a constant, so
                // that `proven-constant` has something to prove.
                Event::Other if !constant_given => {
                    constant_given = true;
                    match kinds[0] {
                        VarKind::Value(w) => writeln!(s, "  %r1 = add i{w} 40, 2"),
                        VarKind::Slot(_) => writeln!(s, "  %v{b}.{i} = add i32 0, 0"),
                    }
                }
                // The second one makes `%r3` the sum of `%r1` and `%r2`
                // when all three are values of one width (`induction`).
                Event::Other if !sum_given => {
                    sum_given = true;
                    match kinds {
                        [VarKind::Value(a), VarKind::Value(b), VarKind::Value(c)]
                            if a == b && b == c =>
                        {
                            writeln!(s, "  %r3 = add i{a} %r1, %r2")
                        }
                        _ => writeln!(s, "  %v{b}.{i} = add i32 0, 0"),
                    }
                }
                Event::Other => writeln!(s, "  %v{b}.{i} = add i32 0, 0"),
            };
        }
        let _ = match blk.succs.as_slice() {
            [] => writeln!(s, "  ret void"),
            [t] => writeln!(s, "  br label %b{t}"),
            [t, u, ..] => writeln!(s, "  br i1 %c, label %b{t}, label %b{u}"),
        };
    }
    s.push_str("}\n");
    // Variable w is v1 and v2 side by side, through a fragment with its own
    // computed lifetime (what `flatten` undoes).
    let bits = |k: VarKind| match k {
        VarKind::Value(b) | VarKind::Slot(b) => b,
    };
    let (b1, b2) = (bits(kinds[0]), bits(kinds[1]));
    let _ = writeln!(
        s,
        "!200 = !DILocalVariable(name: \"w\")\n!201 = distinct !DILifetime(object: !200, location: !DIExpr(DIOpArg(0, i{})), argObjects: {{!202}})\n!202 = distinct !DIFragment()\n!203 = distinct !DILifetime(object: !202, location: !DIExpr(DIOpArg(0, i{b1}), DIOpArg(1, i{b2}), DIOpComposite(2, i{})), argObjects: {{!101, !102}})",
        b1 + b2,
        b1 + b2
    );
    for l in 1..=3u64 {
        let expr = match kinds[(l - 1) as usize] {
            VarKind::Value(b) => format!("DIOpReferrer(i{b})"),
            VarKind::Slot(b) => format!("DIOpReferrer(ptr addrspace(5)), DIOpDeref(i{b})"),
        };
        let _ = writeln!(
            s,
            "!{} = !DILocalVariable(name: \"v{l}\")\n!{l} = distinct !DILifetime(object: !{}, location: !DIExpr({expr}))",
            100 + l,
            100 + l
        );
    }
    s
}

/// The body of the `transform_diff` fuzz target: a random program, a random
/// pass; the pass's result must be readable and equivalent to the program in
/// a few random contexts. A pass that finds nothing to do is no failure.
pub fn transform_diff(data: &[u8]) -> Result<(), String> {
    transform_diff_pass(data).map(|_| ())
}

/// [`transform_diff`], also saying which pass rewrote something (`None`:
/// the input was too short, or the pass found nothing to rewrite).
pub fn transform_diff_pass(data: &[u8]) -> Result<Option<&'static str>, String> {
    use arbitrary::Unstructured;
    let mut u = Unstructured::new(data);
    // Half the time every variable is an SSA value of one width, so that
    // `induction` finds sums.
    let pick = |u: &mut Unstructured, same: Option<u64>| -> arbitrary::Result<VarKind> {
        if let Some(b) = same {
            return Ok(VarKind::Value(b));
        }
        let b = [8u64, 16, 32, 64][u.int_in_range(0..=3usize)?];
        Ok(if u.arbitrary::<bool>()? {
            VarKind::Slot(b)
        } else {
            VarKind::Value(b)
        })
    };
    let (Ok(pass), Ok(uniform), Ok(k1)) = (
        u.int_in_range(0..=PASSES.len() - 1),
        u.arbitrary::<bool>(),
        pick(&mut u, None),
    ) else {
        return Ok(None);
    };
    let same = match k1 {
        VarKind::Value(b) if uniform => Some(b),
        _ => None,
    };
    let (Ok(k2), Ok(k3)) = (pick(&mut u, same), pick(&mut u, same)) else {
        return Ok(None);
    };
    let Ok(mut cfg) = crate::lifetimes_naive::arbitrary_cfg(&mut u) else {
        return Ok(None);
    };
    if PASSES[pass] == "induction" {
        // x and y (`!1`, `!2`) live from the entry on, so that i (`!3`)
        // often lies inside their lifetimes, as the pass requires.
        use diopter_semantics::dataflow::Event;
        // And i has one def (the first of the random ones).
        let mut i_defined = false;
        for b in &mut cfg.blocks {
            for e in &mut b.events {
                if matches!(e, Event::Def(1 | 2) | Event::Kill(1 | 2))
                    || (*e == Event::Def(3) && i_defined)
                {
                    *e = Event::Other;
                } else if *e == Event::Def(3) {
                    i_defined = true;
                }
            }
        }
        if let Some(b) = cfg.blocks.first_mut() {
            b.events.splice(0..0, [Event::Def(1), Event::Def(2)]);
        }
    }
    let src = render_program(&cfg, &[k1, k2, k3]);
    let (_, ds) = parse_module(&src);
    if !ds.is_empty() {
        return Err(format!(
            "the generated program does not parse: {ds:?}\n{src}"
        ));
    }
    let t = match apply(PASSES[pass], &src, 3) {
        Ok(t) => t,
        Err(_) => return Ok(None),
    };
    check_equivalent(&src, &t, 3)
        .map(|()| Some(PASSES[pass]))
        .map_err(|ms| {
            format!(
                "pass {} changes a location: {}\n--- before\n{src}--- after\n{}",
                PASSES[pass], ms[0], t.text
            )
        })
}
