//! The location of a `DIObject` at an instruction: which lifetime segments
//! make it up, the location list over a function's instructions, and the
//! evaluated location (with `argObjects` evaluated recursively through their
//! own lifetimes) in a context.
//!
//! The spec ("DILifetime"): "The location description of a `DIObject` is a
//! function of the current program location's instruction and the, possibly
//! empty, set of lifetime segments with an `object` field that references the
//! `DIObject`:
//! - If there is a computed lifetime segment, then the location description
//!   is comprised of the location description of the computed lifetime
//!   segment. […]
//! - If the current program location is defined, and any bounded lifetime
//!   segment is active, then the location description is comprised of all of
//!   the location descriptions of all active bounded lifetime segments.
//! - Otherwise, if there is a default lifetime segment, then the location
//!   description is comprised of the location description of that default
//!   lifetime segment.
//! - Otherwise, the location description is the undefined location
//!   description."
//!
//! Where a bounded segment is active is [`crate::dataflow`]'s business; which
//! kind a segment is, [`crate::lifetimes`]'. Decisions where the spec is
//! silent (each one tested):
//!
//! * A lifetime that matches no single kind (ill-formed) takes no part in any
//!   location; neither does a type lifetime segment (it has no object).
//! * Several computed segments, or several default segments, of one object
//!   (the first is ill-formed, the second the spec does not forbid but speaks
//!   of "that default lifetime segment") are all taken, as several single
//!   locations, like several active bounded segments.
//! * The referrer of a bounded segment is the operand of its first
//!   `llvm.dbg.def` (a well-formed one has exactly one): `%x`, `$r0`, `@g`
//!   name the context's entity of that name, `undef`/`poison` is the undefined
//!   location ("A value of `undef` is allowed and specifies the undefined
//!   location description"), an integer or `null` constant an implicit value.
//!   The referrer of a default segment is the global's entity `@g` (its
//!   address, as the contexts of `corpus/spec/contexts/` give it).
//! * When several segments make up a location they must agree on the size of
//!   their result; otherwise evaluating the object is an error (the spec says
//!   they "must all describe the same object").
//! * An object whose location is undefined, used as an argument, is the
//!   undefined location (so reading it is an evaluation error).

use crate::ast::Expr;
use crate::check::{ArgInfo, Env, ReferrerInfo};
use crate::context::Context;
use crate::dataflow::{self, Activity, Cfg};
use crate::interp::{self, ErrorKind, Located};
use crate::ir::{self, InstKind, InstRef, Module, Operand, Value};
use crate::lifetimes::{self, LifetimeKind, Lifetimes};
use crate::location::LocDesc;
use crate::types::{DataLayout, Type};
use crate::value::Bits;
use num_bigint::BigInt;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

/// Which clause of the spec's rule gives an object's location.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Rule {
    Computed,
    Bounded,
    Default,
    Undefined,
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Rule::Computed => "computed",
            Rule::Bounded => "bounded",
            Rule::Default => "default",
            Rule::Undefined => "undefined",
        })
    }
}

/// The lifetime segments that make up an object's location at one program
/// location, and the clause that chose them (`Undefined` has none).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Segments {
    pub rule: Rule,
    pub lifetimes: Vec<u64>,
}

/// One entry of a location list: lifetime segment `lifetime` gives (part of)
/// the location over the instructions `start..end` of the function's layout
/// order (see [`Model::layout`]). Entries may overlap (the multi-location
/// case), as DWARF 5 location lists permit.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Entry {
    pub start: usize,
    pub end: usize,
    pub lifetime: u64,
    pub rule: Rule,
}

/// An object's evaluated location.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ObjLoc {
    /// "the undefined location description": no segment applies.
    Undefined,
    Located(Located),
}

/// Why an object's location could not be evaluated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LocError {
    /// The object whose location failed (an argument's, when the failure is
    /// in an `argObjects` entry).
    pub object: u64,
    /// The lifetime segment whose expression failed, if one did.
    pub lifetime: Option<u64>,
    /// The interpreter's error class, when the interpreter raised it.
    pub kind: Option<ErrorKind>,
    pub message: String,
}

impl fmt::Display for LocError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.lifetime, self.kind) {
            (Some(l), Some(k)) => write!(
                f,
                "object !{}, lifetime !{l}: {k:?}: {}",
                self.object, self.message
            ),
            (Some(l), None) => write!(
                f,
                "object !{}, lifetime !{l}: {}",
                self.object, self.message
            ),
            (None, _) => write!(f, "object !{}: {}", self.object, self.message),
        }
    }
}

/// Resource limit: `argObjects` nest at most this deep (a well-formed
/// lifetime graph is acyclic, so only a malformed or absurd file reaches it).
pub const MAX_DEPTH: usize = 256;

/// A module with its lifetime analysis and, per function, where every bounded
/// lifetime is active. Build once, query many times.
pub struct Model<'m> {
    pub module: &'m Module,
    pub lifetimes: Lifetimes,
    activity: Vec<Activity>,
    layout: Vec<Vec<InstRef>>,
}

impl<'m> Model<'m> {
    pub fn new(module: &'m Module) -> Model<'m> {
        let lifetimes = lifetimes::analyze(module);
        let activity = module
            .functions
            .iter()
            .map(|f| dataflow::active(&Cfg::of_function(f)))
            .collect();
        let layout = module
            .functions
            .iter()
            .enumerate()
            .map(|(fi, f)| {
                f.blocks
                    .iter()
                    .enumerate()
                    .flat_map(|(bi, b)| {
                        (0..b.insts.len()).map(move |ii| InstRef {
                            function: fi,
                            block: bi,
                            inst: ii,
                        })
                    })
                    .collect()
            })
            .collect();
        Model {
            module,
            lifetimes,
            activity,
            layout,
        }
    }

    /// The instructions of function `f` in layout order (blocks as written,
    /// instructions in block order): the index space of [`Entry`].
    pub fn layout(&self, f: usize) -> &[InstRef] {
        self.layout.get(f).map_or(&[], |v| v.as_slice())
    }

    /// The kind of lifetime `!id` (`None`: not a `DILifetime`, or ill-formed).
    pub fn kind(&self, id: u64) -> Option<LifetimeKind> {
        self.lifetimes.kind(id)
    }

    /// Whether bounded lifetime `!lifetime` is active at `at`.
    pub fn is_active(&self, lifetime: u64, at: InstRef) -> bool {
        self.activity
            .get(at.function)
            .is_some_and(|a| a.is_active(lifetime, at.block, at.inst))
    }

    /// The bounded lifetimes active at `at` (every lifetime a def/kill names,
    /// whatever its kind).
    pub fn active_at(&self, at: InstRef) -> BTreeSet<u64> {
        self.activity
            .get(at.function)
            .map(|a| a.active(at.block, at.inst).clone())
            .unwrap_or_default()
    }

    /// Every `DIObject` of the module (variables and fragments), in id order.
    pub fn objects(&self) -> Vec<u64> {
        self.module
            .metadata
            .keys()
            .copied()
            .filter(|id| self.module.is_object(*id))
            .collect()
    }

    /// The segments that make up `obj`'s location at `at`; `None` is an
    /// undefined program location (outside every instruction), where no
    /// bounded segment is active.
    pub fn segments(&self, obj: u64, at: Option<InstRef>) -> Segments {
        let of = self.lifetimes.of_object(obj);
        let with = |k: LifetimeKind| -> Vec<u64> {
            of.iter()
                .copied()
                .filter(|l| self.kind(*l) == Some(k))
                .collect()
        };
        let computed = with(LifetimeKind::Computed);
        if !computed.is_empty() {
            return Segments {
                rule: Rule::Computed,
                lifetimes: computed,
            };
        }
        if let Some(at) = at {
            let bounded: Vec<u64> = with(LifetimeKind::Bounded)
                .into_iter()
                .filter(|l| self.is_active(*l, at))
                .collect();
            if !bounded.is_empty() {
                return Segments {
                    rule: Rule::Bounded,
                    lifetimes: bounded,
                };
            }
        }
        let default = with(LifetimeKind::Default);
        if !default.is_empty() {
            return Segments {
                rule: Rule::Default,
                lifetimes: default,
            };
        }
        Segments {
            rule: Rule::Undefined,
            lifetimes: Vec::new(),
        }
    }

    /// `obj`'s location list over function `f`: for each segment, the maximal
    /// runs of consecutive instructions (layout order) where it is part of
    /// the location. Sorted by start, then lifetime.
    pub fn location_list(&self, f: usize, obj: u64) -> Vec<Entry> {
        let mut out: Vec<Entry> = Vec::new();
        // The entry each lifetime is extending, if it was part of the location
        // at the previous instruction.
        let mut open: BTreeMap<u64, usize> = BTreeMap::new();
        for (i, at) in self.layout(f).iter().enumerate() {
            let s = self.segments(obj, Some(*at));
            let mut next = BTreeMap::new();
            for l in s.lifetimes {
                match open.get(&l) {
                    Some(&e) if out[e].end == i && out[e].rule == s.rule => {
                        out[e].end = i + 1;
                        next.insert(l, e);
                    }
                    _ => {
                        out.push(Entry {
                            start: i,
                            end: i + 1,
                            lifetime: l,
                            rule: s.rule,
                        });
                        next.insert(l, out.len() - 1);
                    }
                }
            }
            open = next;
        }
        out.sort_by_key(|e| (e.start, e.lifetime, e.end));
        out
    }

    /// `obj`'s location at `at` (`None`: an undefined program location) in
    /// `ctx`, evaluated with the reference interpreter.
    pub fn locate(&self, obj: u64, at: Option<InstRef>, ctx: &Context) -> Result<ObjLoc, LocError> {
        let mut stack = Vec::new();
        self.locate_in(obj, at, ctx, &mut stack)
    }

    fn locate_in(
        &self,
        obj: u64,
        at: Option<InstRef>,
        ctx: &Context,
        stack: &mut Vec<u64>,
    ) -> Result<ObjLoc, LocError> {
        let err = |message: String| LocError {
            object: obj,
            lifetime: None,
            kind: None,
            message,
        };
        if stack.contains(&obj) {
            let mut path: Vec<String> = stack.iter().map(|o| format!("!{o}")).collect();
            path.push(format!("!{obj}"));
            return Err(err(format!(
                "the object's location depends on itself through argObjects: {}",
                path.join(" -> ")
            )));
        }
        if stack.len() >= MAX_DEPTH {
            return Err(err(format!(
                "argObjects nest deeper than diopter's limit of {MAX_DEPTH}"
            )));
        }
        let segs = self.segments(obj, at);
        if segs.rule == Rule::Undefined {
            return Ok(ObjLoc::Undefined);
        }
        stack.push(obj);
        let mut parts: Vec<(u64, Located)> = Vec::new();
        for l in &segs.lifetimes {
            match self.eval_lifetime(obj, *l, at, ctx, stack) {
                Ok(r) => parts.push((*l, r)),
                Err(e) => {
                    stack.pop();
                    return Err(e);
                }
            }
        }
        stack.pop();
        let (first_l, first) = parts[0].clone();
        if let Some((l, r)) = parts.iter().find(|(_, r)| r.bits != first.bits) {
            return Err(err(format!(
                "the {} lifetime segments !{first_l} and !{l} give locations of different sizes (`{}`, {} bits, and `{}`, {} bits); they must describe the same object",
                segs.rule, first.ty, first.bits, r.ty, r.bits
            )));
        }
        let fragment = if parts.iter().all(|(_, r)| r.fragment == first.fragment) {
            first.fragment
        } else {
            None
        };
        Ok(ObjLoc::Located(Located {
            loc: LocDesc::multi(parts.into_iter().map(|(_, r)| r.loc).collect()),
            ty: first.ty,
            bits: first.bits,
            fragment,
        }))
    }

    /// Evaluates the location expression of lifetime `lt` (of object `obj`)
    /// at `at`: its arguments are the locations of its `argObjects` there,
    /// its referrer the def's operand or the global.
    fn eval_lifetime(
        &self,
        obj: u64,
        lt: u64,
        at: Option<InstRef>,
        ctx: &Context,
        stack: &mut Vec<u64>,
    ) -> Result<Located, LocError> {
        let m = self.module;
        let err = |kind: Option<ErrorKind>, message: String| LocError {
            object: obj,
            lifetime: Some(lt),
            kind,
            message,
        };
        let expr: &Expr = m.lifetime_expr(lt).ok_or_else(|| {
            err(
                None,
                "the lifetime has no DIOp `location` expression".into(),
            )
        })?;
        let dl: &DataLayout = &ctx.datalayout;
        let mut arg_locs = BTreeMap::new();
        let mut arg_infos = Vec::new();
        let arg_objects = m
            .lifetime(lt)
            .and_then(|l| l.arg_objects)
            .unwrap_or_default();
        for (i, o) in arg_objects.iter().enumerate() {
            let (loc, bits) = match self.locate_in(*o, at, ctx, stack)? {
                ObjLoc::Undefined => (LocDesc::undefined(), ir::object_bits(m, *o, dl)),
                ObjLoc::Located(r) => (r.loc, Some(r.bits)),
            };
            arg_locs.insert(i as u64, loc);
            arg_infos.push(ArgInfo {
                ty: None,
                bits,
                poison: false,
            });
        }
        let (referrer, info) = match self.kind(lt) {
            Some(LifetimeKind::Bounded) => {
                let op = self
                    .lifetimes
                    .uses
                    .get(&lt)
                    .and_then(|u| u.defs.first())
                    .and_then(|d| match &m.inst(*d)?.kind {
                        InstKind::DbgDef { referrer, .. } => Some(referrer.clone()),
                        _ => None,
                    })
                    .ok_or_else(|| err(None, "the bounded lifetime has no llvm.dbg.def".into()))?;
                let loc = operand_location(&op, dl)
                    .map_err(|e| err(None, format!("its referrer: {e}")))?;
                let ty = if op.is_undef() || op.is_poison() {
                    None
                } else {
                    op.ty.clone()
                };
                (Some(loc), ReferrerInfo::Known { ty, bits: None })
            }
            Some(LifetimeKind::Default) => {
                let g = self
                    .lifetimes
                    .uses
                    .get(&lt)
                    .and_then(|u| u.globals.first())
                    .and_then(|g| m.globals.get(*g))
                    .ok_or_else(|| err(None, "the default lifetime has no global".into()))?;
                (
                    Some(LocDesc::entity(&format!("@{}", g.name), 0)),
                    ReferrerInfo::Known {
                        ty: g.address_space.map(Type::opaque_ptr),
                        bits: None,
                    },
                )
            }
            // "A computed lifetime segment does not have a referrer."
            _ => (None, ReferrerInfo::Forbidden),
        };
        let env = Env {
            dialect: expr.dialect,
            dl,
            types: &m.types,
            args: Some(&arg_infos),
            referrer: &info,
            var_bits: ir::object_bits(m, obj, dl),
        };
        let mut c = ctx.clone();
        c.args = arg_locs;
        c.referrer = referrer;
        interp::eval(expr, &env, &c).map_err(|e| {
            err(
                Some(e.kind),
                format!("at operation #{}: {}", e.op_index, e.message),
            )
        })
    }
}

/// A constant operand diopter cannot read as a referrer's value.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OperandError {
    #[error("the constant `{0}` has no integer or pointer type diopter can read")]
    Untyped(String),
    #[error("diopter cannot read the constant `{0}` as a value")]
    Unreadable(String),
}

/// The location of an IR operand used as a referrer (see the module's
/// decisions).
pub fn operand_location(o: &Operand, dl: &DataLayout) -> Result<LocDesc, OperandError> {
    match &o.value {
        Value::Local(n) => Ok(LocDesc::entity(&format!("%{n}"), 0)),
        Value::Global(n) => Ok(LocDesc::entity(&format!("@{n}"), 0)),
        Value::Reg(n) => Ok(LocDesc::entity(&format!("${n}"), 0)),
        Value::Undef | Value::Poison => Ok(LocDesc::undefined()),
        Value::Const(s) => {
            let width = match &o.ty {
                Some(Type::Int(w)) => *w,
                Some(Type::Ptr { addrspace, .. }) => dl.pointer_bits(*addrspace),
                _ => return Err(OperandError::Untyped(s.clone())),
            };
            let v: BigInt = match s.as_str() {
                "null" | "false" | "zeroinitializer" => BigInt::from(0),
                "true" => BigInt::from(1),
                _ => s.parse().map_err(|_| OperandError::Unreadable(s.clone()))?,
            };
            Ok(LocDesc::implicit(Bits::from_bigint(width, &v)))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::module::parse_module;

    fn module(s: &str) -> Module {
        let (m, ds) = parse_module(s);
        assert!(ds.is_empty(), "{ds:?}");
        m
    }

    #[test]
    fn constant_and_undefined_referrers() {
        let dl = DataLayout::default();
        let m = module("call void @llvm.dbg.def(metadata !2, metadata i16 -1)\ncall void @llvm.dbg.def(metadata !3, metadata ptr null)\ncall void @llvm.dbg.def(metadata !4, metadata i1 undef)\ncall void @llvm.dbg.def(metadata !5, metadata float 1.0)\n");
        let ops: Vec<Operand> = m
            .insts()
            .filter_map(|(_, i)| match &i.kind {
                InstKind::DbgDef { referrer, .. } => Some(referrer.clone()),
                _ => None,
            })
            .collect();
        assert_eq!(
            operand_location(&ops[0], &dl),
            Ok(LocDesc::implicit(Bits::from_u64(16, 0xffff)))
        );
        assert_eq!(
            operand_location(&ops[1], &dl),
            Ok(LocDesc::implicit(Bits::zero(64)))
        );
        assert_eq!(operand_location(&ops[2], &dl), Ok(LocDesc::undefined()));
        assert!(operand_location(&ops[3], &dl).is_err());
    }
}
