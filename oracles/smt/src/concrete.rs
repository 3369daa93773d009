//! The encoding run on a concrete context, compared with the reference
//! interpreter: how the encoding itself is checked (`tests/smt_encoding.rs`).
//!
//! Every input is a Z3 numeral taken from the context, so every term the
//! encoding builds simplifies to a numeral. Memory is the one input that is
//! not finite: the context's memory has a byte at every address. The
//! encoding's memory is therefore built from the bytes it has asked for so
//! far (every address it selected, once simplified to a numeral), and the
//! evaluation is repeated until it asks for no new byte.

use super::{bv, EncodeError, Encoder, Input, Inputs, SState, Side};
use diopter_semantics::ast::Bare;
use diopter_semantics::case::write_pattern;
use diopter_semantics::check::BareInputs;
use diopter_semantics::context::Context;
use diopter_semantics::interp::{self, ErrorKind};
use diopter_semantics::location::{LocDesc, Storage};
use diopter_semantics::types::{Type, TypeTable};
use num_bigint::BigUint;
use std::collections::BTreeMap;
use z3::ast::Ast;

/// The work (`Encoder::work`) one evaluation and comparison may do: far
/// above what generated cases need (at most 1,366 among the 1,500 cases of
/// `tests/smt_encoding.rs`, 6,005 for
/// `fuzz/regressions/smt/encoding-memory-blowup.case`), and low enough that
/// memory stays small: that case, with the growth it had, stopped at this
/// budget after 0.2 s and under 100 MB instead of exceeding 4 GB. A case
/// above it is `Unsupported` (`replay --smt` and the campaign say
/// "skipped"), never agreement.
pub const WORK_BUDGET: u64 = 1_000_000;

/// How the encoding's outcome relates to the reference's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Comparison {
    /// Same failure or success, type, fragment, bits read and write effect.
    Agree,
    /// The reference says the case is outside what the encoding models
    /// (inconsistent context, resource limit): not counted either way.
    Skipped(String),
    /// The encoding cannot express the case.
    Unsupported(String),
    /// They differ: one line per difference.
    Disagree(Vec<String>),
}

/// The widest bits any location of the context holds (implicit values,
/// entities), so that offsets into them cannot overflow.
fn widest_in(l: &LocDesc, ctx: &Context) -> u64 {
    l.singles
        .iter()
        .map(|s| match &s.storage {
            Storage::Implicit { value } => value.width(),
            Storage::Entity { name } => ctx.entity(name).map_or(0, |b| b.width()),
            Storage::ImplicitAddress { target, bits, .. } => widest_in(target, ctx).max(*bits),
            Storage::Composite { parts } => parts
                .iter()
                .map(|p| widest_in(&p.loc, ctx).max(p.bits))
                .sum::<u64>(),
            _ => 0,
        })
        .max()
        .unwrap_or(0)
}

struct Run {
    enc: Encoder,
    side: Result<Side, EncodeError>,
    st: SState,
}

fn run(
    bare: &Bare,
    types: &TypeTable,
    ctx: &Context,
    offw: u32,
    mem: &BTreeMap<(u32, BigUint), u8>,
    budget: u64,
) -> Result<Run, EncodeError> {
    let dl = ctx.datalayout.clone();
    let mut enc = Encoder::new(dl.clone(), types.clone(), offw);
    enc.concrete_mem = Some(mem.clone());
    enc.budget = Some(budget);
    let value = |name: &str| ctx.entity(name).filter(|b| b.width() > 0).map(bv::bits_num);
    let mut inputs = Inputs::default();
    for (k, l) in &ctx.args {
        let loc = enc.concrete_loc(l, &value)?;
        inputs.args.insert(
            *k,
            Input {
                loc,
                fail: bv::ff(),
            },
        );
    }
    if let Some(l) = &ctx.referrer {
        let loc = enc.concrete_loc(l, &value)?;
        inputs.referrer = Some(Input {
            loc,
            fail: bv::ff(),
        });
    }
    if let Some(l) = &ctx.object {
        let loc = enc.concrete_loc(l, &value)?;
        inputs.object = Some(Input {
            loc,
            fail: bv::ff(),
        });
    }
    inputs.lane = ctx.lane.map(|l| bv::num_u(l, 64));
    // Entities no location names are still part of the state a write may
    // change; an entity of zero bits cannot be a Z3 bit-vector and is left
    // out (no location can hold a bit of it).
    for (name, b) in &ctx.state.entities {
        if b.width() > 0 && !enc.entities.iter().any(|e| &e.name == name) {
            enc.add_entity(name, bv::bits_num(b));
        }
    }
    let st = enc.initial_state();
    let bi = BareInputs::of(bare, &dl, types);
    let env = bi.env(bare.expr.dialect, &dl, types);
    let side = enc.eval(&bare.expr, &env, &inputs, &st);
    Ok(Run { enc, side, st })
}

/// Evaluates `bare` in `ctx` through the encoding and through the reference,
/// and compares the outcomes (DESIGN.md's equivalence, observed with the
/// differential driver's write pattern).
pub fn compare_with_reference(bare: &Bare, types: &TypeTable, ctx: &Context) -> Comparison {
    compare_within(bare, types, ctx, WORK_BUDGET)
}

/// [`compare_with_reference`] with at most `budget` units of work per
/// evaluation (each round of memory discovery starts afresh).
pub fn compare_within(bare: &Bare, types: &TypeTable, ctx: &Context, budget: u64) -> Comparison {
    let reference = interp::eval_bare(bare, types, ctx);
    if let Err(e) = &reference {
        if matches!(e.kind, ErrorKind::Inconsistent | ErrorKind::ResourceLimit) {
            return Comparison::Skipped(format!("{:?}", e.kind));
        }
    }
    let mut extra: Vec<Type> = bare.args.iter().flatten().map(|a| a.ty.clone()).collect();
    extra.extend(bare.referrer.iter().map(|r| r.0.clone()));
    let mut widest = 0u64;
    for l in ctx
        .args
        .values()
        .chain(ctx.referrer.iter())
        .chain(ctx.object.iter())
    {
        widest = widest.max(widest_in(l, ctx));
    }
    for b in ctx.state.entities.values() {
        widest = widest.max(b.width());
    }
    let offw = Encoder::offset_width(&ctx.datalayout, types, &[&bare.expr], &extra)
        .max(widest as u32 + 24);
    // A context per comparison, dropped with its terms; no models, since
    // every term simplifies to a numeral and nothing is solved.
    let mut cfg = z3::Config::new();
    cfg.set_model_generation(false);
    z3::with_z3_config(&cfg, || {
        let mut mem: BTreeMap<(u32, BigUint), u8> = BTreeMap::new();
        for _round in 0..16 {
            let r = match run(bare, types, ctx, offw, &mem, budget) {
                Ok(r) => r,
                Err(e) => return from_encode_error(e, &reference),
            };
            let side = match &r.side {
                Ok(s) => s.clone(),
                Err(e) => return from_encode_error(e.clone(), &reference),
            };
            let verdict = compare(&r, &side, &reference, ctx);
            // The bytes asked for; a new one means another round.
            let mut new = false;
            for (a, addr) in r.enc.touched.borrow().iter() {
                if let Some(u) = bv::as_biguint(addr) {
                    if let std::collections::btree_map::Entry::Vacant(v) =
                        mem.entry((*a, u.clone()))
                    {
                        v.insert(ctx.byte(*a, &u));
                        new = true;
                    }
                }
            }
            if !new {
                return verdict;
            }
        }
        Comparison::Unsupported("the memory addresses did not settle in 16 rounds".into())
    })
}

fn from_encode_error(e: EncodeError, reference: &interp::Outcome) -> Comparison {
    match (e, reference) {
        (EncodeError::IllFormed { .. }, Err(r)) if r.kind == ErrorKind::IllFormed => {
            Comparison::Agree
        }
        (EncodeError::Unsupported(m), _) => Comparison::Unsupported(m),
        (EncodeError::IllFormed { op, message }, r) => Comparison::Disagree(vec![format!(
            "the encoding says ill-formed at #{op} ({message}), the reference gives {}",
            describe(r)
        )]),
    }
}

fn describe(r: &interp::Outcome) -> String {
    match r {
        Ok(l) => format!("{} : {}", l.loc, l.ty),
        Err(e) => format!("{e}"),
    }
}

fn known(b: &z3::ast::Bool) -> Result<bool, String> {
    bv::as_bool(b).ok_or_else(|| format!("not a constant: {}", b.simplify()))
}

fn compare(r: &Run, side: &Side, reference: &interp::Outcome, ctx: &Context) -> Comparison {
    let approx = r
        .enc
        .approx
        .borrow()
        .iter()
        .any(|a| bv::as_bool(a) != Some(false));
    let inner = compare_inner(r, side, reference, ctx);
    // The read or write compared ran out of budget: not a difference.
    if let Err(EncodeError::Unsupported(m)) = r.enc.within_budget() {
        return Comparison::Unsupported(m);
    }
    match inner {
        Ok(d) if d.is_empty() => Comparison::Agree,
        Ok(_) | Err(_) if approx => {
            Comparison::Unsupported("a NaN converted between float kinds".into())
        }
        Ok(d) => Comparison::Disagree(d),
        Err(m) => Comparison::Disagree(vec![m]),
    }
}

fn compare_inner(
    r: &Run,
    side: &Side,
    reference: &interp::Outcome,
    ctx: &Context,
) -> Result<Vec<String>, String> {
    let mut d = Vec::new();
    let fail = known(&side.fail)?;
    let located = match (reference, fail) {
        (Err(_), true) => return Ok(d),
        (Err(e), false) => {
            d.push(format!("the reference fails ({e}), the encoding succeeds"));
            return Ok(d);
        }
        (Ok(l), true) => {
            d.push(format!(
                "the encoding fails, the reference gives {} : {}",
                l.loc, l.ty
            ));
            return Ok(d);
        }
        (Ok(l), false) => l,
    };
    let Some(res) = &side.result else {
        return Err("the encoding has no result but does not fail".into());
    };
    if res.ty != located.ty || res.bits != located.bits || res.fragment != located.fragment {
        d.push(format!(
            "type {} ({} bits, fragment {:?}) vs the reference's {} ({} bits, {:?})",
            res.ty, res.bits, res.fragment, located.ty, located.bits, located.fragment
        ));
        return Ok(d);
    }
    if res.bits == 0 {
        // Nothing to read or write through a zero-bit location.
        return Ok(d);
    }
    // Read.
    let ro = r
        .enc
        .read(&r.st, &res.loc, res.bits)
        .map_err(|e| e.to_string())?;
    let rerr = known(&ro.err)? || known(&ro.incons)?;
    match (interp::read_value(ctx, located), rerr) {
        (Ok(_), true) => d.push("the encoding's read fails, the reference's does not".into()),
        (Err(e), false) => d.push(format!(
            "the reference's read fails ({e}), the encoding's does not"
        )),
        (Ok(v), false) => {
            let mine = bv::as_bits(&ro.value).ok_or("the value read is not a numeral")?;
            if mine != v {
                d.push(format!(
                    "read {} vs the reference's {}",
                    mine.to_hex(),
                    v.to_hex()
                ));
            }
        }
        (Err(_), true) => {}
    }
    // Write.
    let pattern = write_pattern(res.bits);
    let (st2, refused) = r
        .enc
        .write(&r.st, &res.loc, &bv::bits_num(&pattern))
        .map_err(|e| e.to_string())?;
    let refused = known(&refused)?;
    let mut after = ctx.clone();
    match (interp::write_value(&mut after, located, &pattern), refused) {
        (Ok(()), true) => d.push("the encoding refuses the write, the reference does not".into()),
        (Err(e), false) => d.push(format!(
            "the reference refuses the write ({e}), the encoding does not"
        )),
        (Err(_), true) => {}
        (Ok(()), false) => {
            for (i, e) in r.enc.entities.iter().enumerate() {
                let mine = bv::as_bits(&st2.ents[i]).ok_or("an entity is not a numeral")?;
                match after.entity(&e.name) {
                    Some(v) if *v == mine => {}
                    other => d.push(format!(
                        "entity {} after the write: {} vs the reference's {:?}",
                        e.name,
                        mine.to_hex(),
                        other.map(|b| b.to_hex())
                    )),
                }
            }
            let mut addrs: Vec<(u32, BigUint)> = Vec::new();
            for (a, addr) in r.enc.touched.borrow().iter() {
                if let Some(u) = bv::as_biguint(addr) {
                    addrs.push((*a, u));
                }
            }
            for (a, addr, b) in after.state.memory.iter() {
                if b != ctx.byte(a, &addr) {
                    addrs.push((a, addr));
                }
            }
            addrs.sort();
            addrs.dedup();
            for (a, addr) in addrs {
                let p = r.enc.ptr_bits(a);
                let sel = r.enc.mem_byte(&st2, a, &bv::num(&addr.clone().into(), p));
                let mine = bv::as_biguint(&sel).ok_or("a memory byte is not a numeral")?;
                let theirs = after.byte(a, &addr);
                if mine != BigUint::from(theirs) {
                    d.push(format!(
                        "memory {a}:0x{addr:x} after the write: 0x{mine:x} vs the reference's 0x{theirs:02x}"
                    ));
                }
            }
        }
    }
    Ok(d)
}
