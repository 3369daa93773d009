//! Counterexamples: a Z3 model turned into a concrete context, both sides
//! evaluated in it by the reference interpreter, and the result printed
//! Alive-style (each input's storage and bits, the memory bytes that matter,
//! the two outcomes, where the sides part).

use super::{arg_infos, env, HoleInput, Query, Shape};
use crate::{bv, SLoc, SStorage};
use diopter_rules::instance::{HoleKind, Instance, Relation};
use diopter_semantics::access;
use diopter_semantics::ast::Expr;
use diopter_semantics::context::Context;
use diopter_semantics::interp::{self, ErrorKind, Outcome};
use diopter_semantics::location::{LocDesc, Part, Single, Storage};
use diopter_semantics::show::LocatedView;
use diopter_semantics::types::{DataLayout, Type};
use diopter_semantics::value::Bits;
use num_bigint::BigUint;
use std::fmt::Write as _;
use z3::ast::BV;
use z3::Model;

/// One input of the counterexample.
#[derive(Clone, Debug)]
pub struct InputDesc {
    /// `?x : i32`.
    pub name: String,
    pub ty: Type,
    /// The storage shape Z3 chose.
    pub shape: String,
    /// The location given to the reference (context syntax), or `None` for a
    /// failing subexpression.
    pub location: Option<String>,
    /// The bits read at the location, or why reading fails.
    pub bits: Result<Bits, String>,
}

/// A counterexample, as the reference interpreter sees it.
#[derive(Clone, Debug)]
pub struct Counterexample {
    pub rule: String,
    pub relation: Relation,
    pub inputs: Vec<InputDesc>,
    /// `(address space, address, byte)`: the bytes the sides look at.
    pub memory: Vec<(u32, BigUint, u8)>,
    pub entities: Vec<(String, Bits)>,
    pub lane: Option<u64>,
    /// The value written through both results.
    pub written: Option<Bits>,
    pub lhs: String,
    pub rhs: String,
    /// What the reference says differs (empty: it does not confirm Z3).
    pub differences: Vec<String>,
    /// Where the two sides part.
    pub first_difference: String,
    /// The context, in the context file format (replayable with `diopter eval`).
    pub context: String,
    /// Each side's location and the value read there, in the shared view
    /// (`docs/schema/location.json`); `None` when that side fails.
    pub left_location: Option<LocatedView>,
    pub right_location: Option<LocatedView>,
}

/// `o`'s location and the value read there, when `o` is a location.
fn located_view(ctx: &Context, o: &Outcome) -> Option<LocatedView> {
    let l = o.as_ref().ok()?;
    let (read, unlisted) = access::read_noting_unlisted(ctx, &l.loc, l.bits);
    Some(LocatedView::new(l, Some(&read), &unlisted))
}

impl Counterexample {
    pub fn confirmed(&self) -> bool {
        !self.differences.is_empty()
    }

    /// The Alive-style report.
    pub fn render(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "  counterexample:");
        for i in &self.inputs {
            let _ = writeln!(s, "    {} : {}   {}", i.name, i.ty, i.shape);
            if let Some(l) = &i.location {
                let _ = writeln!(s, "      location {l}");
            }
            match &i.bits {
                Ok(b) => {
                    let _ = writeln!(s, "      bits {}", number(b));
                }
                Err(e) => {
                    let _ = writeln!(s, "      bits: {e}");
                }
            }
        }
        if let Some(l) = self.lane {
            let _ = writeln!(s, "    lane = {l}");
        }
        for (n, b) in &self.entities {
            let _ = writeln!(s, "    entity {n} = {}", b.to_hex());
        }
        if !self.memory.is_empty() {
            let _ = writeln!(s, "    memory bytes that matter:");
            for (a, addr, b) in &self.memory {
                let _ = writeln!(s, "      mem({a}, 0x{addr:x}) = 0x{b:02x}");
            }
        }
        if let Some(w) = &self.written {
            let _ = writeln!(s, "    value written: {}", number(w));
        }
        let _ = writeln!(s, "  left:  {}", self.lhs);
        let _ = writeln!(s, "  right: {}", self.rhs);
        let _ = writeln!(s, "  first difference: {}", self.first_difference);
        if self.differences.is_empty() {
            let _ = writeln!(s, "  THE REFERENCE INTERPRETER SEES NO DIFFERENCE");
        } else {
            for d in &self.differences {
                let _ = writeln!(s, "  differs: {d}");
            }
        }
        s
    }
}

/// `0x..  (unsigned U, signed S)`.
pub fn number(b: &Bits) -> String {
    if b.width() == 0 {
        return "(no bits)".into();
    }
    format!(
        "{} (unsigned {}, signed {})",
        b.to_hex(),
        b.to_biguint(),
        b.to_bigint()
    )
}

fn eval_bv(m: &Model, b: &BV) -> Result<Bits, String> {
    let v = m.eval(b, true).ok_or("the model has no value")?;
    bv::as_bits(&v).ok_or_else(|| format!("not a numeral: {v}"))
}

fn eval_bool(m: &Model, b: &z3::ast::Bool) -> Result<bool, String> {
    m.eval(b, true)
        .and_then(|v| v.as_bool())
        .ok_or_else(|| "a boolean without a value".to_string())
}

/// The concrete location an alternative-list denotes in the model.
fn concretize(m: &Model, q: &Query, l: &SLoc, ptr_ty: &Type) -> Result<LocDesc, String> {
    for a in &l.alts {
        if !eval_bool(m, &a.guard)? {
            continue;
        }
        let mut singles = Vec::new();
        for s in &a.singles {
            let off = eval_bv(m, &s.offset)?.to_bigint();
            let storage = match &s.storage {
                SStorage::Memory(a) => Storage::Memory { addrspace: *a },
                SStorage::Entity(i) => Storage::Entity {
                    name: q.enc.entities[*i].name.clone(),
                },
                SStorage::Implicit(v) => Storage::Implicit {
                    value: eval_bv(m, v)?,
                },
                SStorage::ImplicitAddress(t) => {
                    let bits = q.enc.dl.bitsizeof(ptr_ty, &q.enc.types).map_err(|e| e.0)?;
                    Storage::ImplicitAddress {
                        target: Box::new(concretize(m, q, t, ptr_ty)?),
                        target_ty: Type::Int(8),
                        ptr_ty: ptr_ty.clone(),
                        bits,
                    }
                }
                SStorage::Undefined => Storage::Undefined,
                SStorage::Composite(parts) => Storage::Composite {
                    parts: parts
                        .iter()
                        .map(|(pl, n)| {
                            Ok(Part {
                                loc: concretize(m, q, pl, ptr_ty)?,
                                bits: *n,
                            })
                        })
                        .collect::<Result<_, String>>()?,
                },
            };
            singles.push(Single {
                storage,
                offset: off,
            });
        }
        return Ok(LocDesc { singles });
    }
    Err("no alternative of a location holds in the model".into())
}

fn shape_of(m: &Model, h: &HoleInput) -> Result<Option<Shape>, String> {
    match &h.selector {
        None => Ok(None),
        Some(sel) => {
            let i = eval_bv(m, sel)?.to_u64().ok_or("a selector")? as usize;
            Ok(Shape::ALL.get(i).copied())
        }
    }
}

fn describe_outcome(ctx: &Context, o: &Outcome, w: Option<&Bits>) -> String {
    match o {
        Err(e) => format!(
            "fails: {:?} at operation #{} ({})",
            e.kind, e.op_index, e.message
        ),
        Ok(l) => {
            let read = match interp::read_value(ctx, l) {
                Ok(b) => format!("reads {}", number(&b)),
                Err(e) => format!("read fails ({e})"),
            };
            let write = match w {
                Some(w) if w.width() == l.bits => {
                    let mut after = ctx.clone();
                    match interp::write_value(&mut after, l, w) {
                        Ok(()) => {
                            let d = ctx.state_diff(&after);
                            if d.is_empty() {
                                "; the write changes nothing".to_string()
                            } else {
                                format!("; the write changes {}", d.join(", "))
                            }
                        }
                        Err(e) => format!("; the write is refused ({e})"),
                    }
                }
                _ => String::new(),
            };
            format!("{} : {}; {read}{write}", l.loc, l.ty)
        }
    }
}

/// What the reference says differs between the outcomes, by the relation.
pub fn reference_differences(
    rel: Relation,
    ctx: &Context,
    l: &Outcome,
    r: &Outcome,
    w: Option<&Bits>,
) -> Vec<String> {
    let mut d = Vec::new();
    for (side, o) in [("left", l), ("right", r)] {
        if let Err(e) = o {
            if e.kind == ErrorKind::Inconsistent {
                d.push(format!(
                    "(the {side} side meets an inconsistent context, which the query excludes)"
                ));
            }
        }
    }
    if !d.is_empty() {
        // Not a confirmation: the encoding assumed this cannot happen.
        return Vec::new();
    }
    let lossy = rel == Relation::Lossy;
    let (l, r) = match (l, r) {
        (Err(_), Err(_)) => return d,
        (Ok(_), Err(_)) if lossy => return d,
        (Err(e), Ok(r)) if lossy => {
            // A lossy right side must give nothing where the left side fails.
            if let Ok(b) = interp::read_value(ctx, r) {
                d.push(format!(
                    "the left side fails ({:?}), the right side reads {}",
                    e.kind,
                    b.to_hex()
                ));
            }
            if let Some(w) = w.filter(|w| w.width() == r.bits) {
                let mut b = ctx.clone();
                if interp::write_value(&mut b, r, w).is_ok() {
                    d.push(format!(
                        "the left side fails ({:?}), the right side accepts a write",
                        e.kind
                    ));
                }
            }
            return d;
        }
        (Ok(_), Err(e)) => {
            return vec![format!(
                "the left side succeeds, the right side fails ({:?})",
                e.kind
            )]
        }
        (Err(e), Ok(_)) => {
            return vec![format!(
                "the left side fails ({:?}), the right side succeeds",
                e.kind
            )]
        }
        (Ok(l), Ok(r)) => (l, r),
    };
    if l.ty != r.ty || l.bits != r.bits {
        d.push(format!("types `{}` and `{}`", l.ty, r.ty));
        return d;
    }
    if l.fragment != r.fragment {
        d.push(format!("fragments {:?} and {:?}", l.fragment, r.fragment));
        return d;
    }
    match (interp::read_value(ctx, l), interp::read_value(ctx, r)) {
        (Ok(a), Ok(b)) if a != b => d.push(format!("reads {} and {}", a.to_hex(), b.to_hex())),
        (Ok(_), Err(_)) if lossy => {}
        (Ok(_), Err(e)) => d.push(format!("only the right side's read fails ({e})")),
        (Err(e), Ok(_)) => d.push(format!("only the left side's read fails ({e})")),
        _ => {}
    }
    if let Some(w) = w {
        let (mut a, mut b) = (ctx.clone(), ctx.clone());
        match (
            interp::write_value(&mut a, l, w),
            interp::write_value(&mut b, r, w),
        ) {
            (Ok(()), Ok(())) if !a.same_state(&b) => {
                d.push(format!(
                    "the write has different effects: left vs right {}",
                    a.state_diff(&b).join(", ")
                ));
            }
            (Ok(()), Err(e)) if rel == Relation::Equivalent => {
                d.push(format!("only the right side refuses the write ({e})"))
            }
            (Err(e), Ok(())) => d.push(format!("only the left side refuses the write ({e})")),
            _ => {}
        }
    }
    d
}

fn first_difference(lhs: &Expr, rhs: &Expr, l: &Outcome, r: &Outcome) -> String {
    let common = lhs.ops().zip(rhs.ops()).take_while(|(a, b)| a == b).count();
    let at = |e: &Expr, i: usize| {
        e.ops
            .get(i)
            .map_or("the end".to_string(), |n| format!("#{i} {}", n.op.name()))
    };
    let mut s = format!(
        "the sides share operations #0..#{common} (exclusive); they part at left {} / right {}",
        at(lhs, common),
        at(rhs, common)
    );
    match (l, r) {
        (Err(a), Ok(_)) => {
            let _ = write!(
                s,
                "; the left side fails at operation #{} ({:?})",
                a.op_index, a.kind
            );
        }
        (Ok(_), Err(b)) => {
            let _ = write!(
                s,
                "; the right side fails at operation #{} ({:?})",
                b.op_index, b.kind
            );
        }
        _ => {}
    }
    s
}

/// Rebuilds the counterexample of a model and asks the reference about it.
pub(crate) fn extract(
    inst: &Instance,
    dl: &DataLayout,
    q: &Query,
    m: &Model,
) -> Result<Counterexample, String> {
    let mut ctx = Context::new(dl.clone());
    // Memory: every byte the encoding read from the initial memory.
    let mut memory = Vec::new();
    for x in q.enc.initial_bytes() {
        let at = eval_bv(m, &x.addr)?;
        let b = eval_bv(m, &x.byte)?.to_u64().ok_or("a byte")? as u8;
        memory.push((x.space, at.to_biguint(), b));
    }
    memory.sort();
    memory.dedup();
    for (a, addr, b) in &memory {
        ctx.set_byte(*a, addr.clone(), *b);
    }
    let mut entities = Vec::new();
    for e in &q.enc.entities {
        let v = eval_bv(m, &e.value)?;
        ctx.set_entity(&e.name, v.clone());
        entities.push((e.name.clone(), v));
    }
    let lane = match &q.inputs.lane {
        Some(l) => Some(eval_bv(m, l)?.to_u64().ok_or("the lane")?),
        None => None,
    };
    ctx.lane = lane;
    let mut inputs = Vec::new();
    let mut place =
        |name: String, h: &HoleInput, ctx: &mut Context| -> Result<Option<LocDesc>, String> {
            let shape = shape_of(m, h)?;
            let failing = shape == Some(Shape::Failing);
            let loc = if failing {
                None
            } else {
                Some(concretize(m, q, &h.input.loc, &h.ty)?)
            };
            let bits = match &loc {
                None => Err("fails".to_string()),
                Some(l) => {
                    let n = dl.bitsizeof(&h.ty, &q.enc.types).map_err(|e| e.0)?;
                    access::read(ctx, l, n).map_err(|e| e.to_string())
                }
            };
            inputs.push(InputDesc {
                name,
                ty: h.ty.clone(),
                shape: shape.map_or("constant (implicit value)".to_string(), |s| {
                    s.name().to_string()
                }),
                location: loc.as_ref().map(|l| l.to_string()),
                bits,
            });
            Ok(loc)
        };
    for (k, (hole, h)) in inst.holes.iter().zip(&q.holes).enumerate() {
        let prefix = if hole.kind == HoleKind::Const {
            "constant "
        } else {
            ""
        };
        if let Some(l) = place(format!("{prefix}?{}", hole.name), h, &mut ctx)? {
            ctx.args.insert(k as u64, l);
        }
    }
    if let Some(h) = &q.referrer {
        ctx.referrer = place("referrer".into(), h, &mut ctx)?;
    }
    if let Some(h) = &q.object {
        ctx.object = place("object".into(), h, &mut ctx)?;
    }
    let written = match &q.write {
        Some(w) => Some(eval_bv(m, w)?),
        None => None,
    };
    let args = arg_infos(inst);
    let env = env(inst, dl, &args);
    let l = interp::eval(&inst.lhs, &env, &ctx);
    let r = interp::eval(&inst.rhs, &env, &ctx);
    let differences = reference_differences(inst.relation, &ctx, &l, &r, written.as_ref());
    let lhs = describe_outcome(&ctx, &l, written.as_ref());
    let rhs = describe_outcome(&ctx, &r, written.as_ref());
    // The bytes that matter: those without which (the byte reading as the
    // context's default fill instead) either outcome changes.
    let memory: Vec<(u32, BigUint, u8)> = memory
        .into_iter()
        .filter(|(a, addr, _)| {
            let mut c2 = ctx.clone();
            c2.state.memory.remove(*a, addr);
            let l2 = interp::eval(&inst.lhs, &env, &c2);
            let r2 = interp::eval(&inst.rhs, &env, &c2);
            describe_outcome(&c2, &l2, written.as_ref()) != lhs
                || describe_outcome(&c2, &r2, written.as_ref()) != rhs
        })
        .collect();
    // The entities some input's location names.
    let entities: Vec<(String, Bits)> = entities
        .into_iter()
        .filter(|(n, _)| {
            inputs
                .iter()
                .any(|i| i.location.as_ref().is_some_and(|l| l.contains(n.as_str())))
        })
        .collect();
    let lane = lane.filter(|_| {
        [&inst.lhs, &inst.rhs].iter().any(|e| {
            e.ops()
                .any(|o| matches!(o, diopter_semantics::ast::Op::PushLane(_)))
        })
    });
    Ok(Counterexample {
        rule: inst.rule.clone(),
        relation: inst.relation,
        inputs,
        memory,
        entities,
        lane,
        lhs,
        rhs,
        first_difference: first_difference(&inst.lhs, &inst.rhs, &l, &r),
        differences,
        written,
        left_location: located_view(&ctx, &l),
        right_location: located_view(&ctx, &r),
        context: ctx.to_string(),
    })
}
