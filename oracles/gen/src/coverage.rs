//! What the generators reach: counts over N generated cases of every
//! operation (with the two spellings of `DIOpBitOffset` and `DIOpDeref`
//! apart), every storage kind in the contexts (multi-locations classified by
//! reading their single locations), integer widths, float kinds, type
//! shapes, literal kinds, edge values, dialects and the reference's
//! outcomes. `oracles/gen/tests/gen_coverage.rs` asserts that everything is
//! reached and prints the table.

use super::swarm::{OpKind, StorageKind};
use super::{Case, GenConfig};
use crate::Generate;
use diopter_semantics::access;
use diopter_semantics::ast::{Bare, Dialect, Literal, Op};
use diopter_semantics::context::Context;
use diopter_semantics::interp;
use diopter_semantics::location::{LocDesc, Storage};
use diopter_semantics::types::{DataLayout, Type, TypeTable};
use num_bigint::BigInt;
use num_traits::{One, Zero};
use std::collections::BTreeMap;
use std::fmt;

/// Counts of features over generated cases. Each count is the number of
/// cases in which the feature occurs at least once.
#[derive(Clone, Debug, Default)]
pub struct Coverage {
    pub cases: usize,
    pub ops: BTreeMap<&'static str, usize>,
    pub storage: BTreeMap<&'static str, usize>,
    pub widths: BTreeMap<String, usize>,
    pub types: BTreeMap<&'static str, usize>,
    pub literals: BTreeMap<&'static str, usize>,
    pub edges: BTreeMap<&'static str, usize>,
    pub dialects: BTreeMap<&'static str, usize>,
    pub outcomes: BTreeMap<String, usize>,
    /// Operations per expression: the largest seen and the total.
    pub max_ops: usize,
    pub total_ops: usize,
}

/// The features of one case, as sets of labels.
#[derive(Default)]
struct Seen {
    ops: BTreeMap<&'static str, ()>,
    storage: BTreeMap<&'static str, ()>,
    widths: BTreeMap<String, ()>,
    types: BTreeMap<&'static str, ()>,
    literals: BTreeMap<&'static str, ()>,
    edges: BTreeMap<&'static str, ()>,
}

fn bump<K: Ord + Clone>(m: &mut BTreeMap<K, usize>, k: K) {
    *m.entry(k).or_insert(0) += 1;
}

/// The width bucket of an integer type.
fn width_label(w: u64) -> String {
    match w {
        1 | 8 | 16 | 32 | 64 | 128 => format!("i{w}"),
        2..=7 => "i2..i7".into(),
        9..=63 => "i9..i63 (odd)".into(),
        65..=127 => "i65..i127".into(),
        129..=256 => "i129..i256".into(),
        _ => "i257+".into(),
    }
}

impl Seen {
    fn ty(&mut self, t: &Type, table: &TypeTable, depth: usize) {
        if depth > 8 {
            return;
        }
        match t {
            Type::Int(w) => {
                self.widths.insert(width_label(*w), ());
            }
            Type::Float(k) => {
                self.types.insert(k.0.name(), ());
            }
            Type::Ptr { pointee, addrspace } => {
                self.types.insert(
                    if pointee.is_some() {
                        "typed pointer"
                    } else {
                        "opaque pointer"
                    },
                    (),
                );
                if *addrspace != 0 {
                    self.types.insert("pointer in addrspace != 0", ());
                }
                if let Some(p) = pointee {
                    self.ty(p, table, depth + 1);
                }
            }
            Type::Vector { elem, .. } => {
                self.types.insert("vector", ());
                self.ty(elem, table, depth + 1);
            }
            Type::Array { elem, .. } => {
                self.types.insert("array", ());
                self.ty(elem, table, depth + 1);
            }
            Type::Struct { fields, packed } => {
                self.types.insert(
                    match (packed, fields.is_empty()) {
                        (_, true) => "empty struct",
                        (true, _) => "packed struct",
                        _ => "struct",
                    },
                    (),
                );
                for f in fields {
                    self.ty(f, table, depth + 1);
                }
            }
            Type::Named(n) => {
                self.types.insert("named struct", ());
                if let Some(Some(b)) = table.named.get(n) {
                    self.ty(b, table, depth + 1);
                }
            }
            Type::Target { .. } => {}
        }
    }

    fn literal(&mut self, l: &Literal) {
        let label = match l {
            Literal::Int(_) => "int",
            Literal::Float(_) => "float",
            Literal::Undef => "undef",
            Literal::Poison => "poison",
            Literal::Null => "null",
            Literal::ZeroInitializer => "zeroinitializer",
            Literal::Vector(es) | Literal::Array(es) => {
                for (_, e) in es {
                    self.literal(e);
                }
                if matches!(l, Literal::Vector(_)) {
                    "vector"
                } else {
                    "array"
                }
            }
        };
        self.literals.insert(label, ());
    }

    fn expr(&mut self, b: &Bare, table: &TypeTable) {
        let ops: Vec<&Op> = b.expr.ops().collect();
        for (i, op) in ops.iter().enumerate() {
            self.ops.insert(OpKind::of(op).label(), ());
            if let Some(t) = op.type_param() {
                self.ty(t, table, 0);
            }
            if let Op::Constant(t, l) = op {
                self.literal(l);
                if let (Type::Int(w), Literal::Int(v)) = (t, l) {
                    self.int_edges(*w, v, ops.get(i + 1).copied());
                }
            }
        }
        for a in b.args.iter().flatten() {
            self.ty(&a.ty, table, 0);
            if a.poison {
                self.edges.insert("poison argument", ());
            }
        }
        if b.args.is_none() {
            self.edges.insert("[?] arguments", ());
        }
        for (t, _) in b.referrer.iter().chain(b.var_type.iter()) {
            self.ty(t, table, 0);
        }
    }

    /// Edge values of an integer constant, and what its consumer makes of it.
    fn int_edges(&mut self, w: u64, v: &BigInt, next: Option<&Op>) {
        let m = BigInt::one() << w;
        let u = ((v % &m) + &m) % &m;
        if u.is_zero() {
            self.edges.insert("constant 0", ());
        }
        if u.is_one() {
            self.edges.insert("constant 1", ());
        }
        if u == &m - 1 {
            self.edges.insert("constant -1 (all ones)", ());
        }
        if w > 1 && u == BigInt::one() << (w - 1) {
            self.edges.insert("constant INT_MIN", ());
        }
        match next {
            Some(Op::Shl | Op::Shr | Op::LShr | Op::AShr) if u >= BigInt::from(w) => {
                self.edges.insert("shift amount >= width", ());
            }
            Some(Op::Div | Op::Mod) if u.is_zero() => {
                self.edges.insert("zero divisor", ());
            }
            Some(Op::Offset | Op::BitOffset(_) | Op::ByteOffset(_)) if u >= &m >> 1u8 => {
                self.edges.insert("negative offset", ());
            }
            _ => {}
        }
    }

    /// The storage kinds of a location of `bits` bits (when known).
    fn loc(&mut self, ctx: &Context, l: &LocDesc, bits: Option<u64>, depth: usize) {
        if depth > 6 {
            return;
        }
        if l.singles.len() > 1 {
            let label = match bits {
                Some(b) => {
                    let reads: Vec<_> = l
                        .singles
                        .iter()
                        .map(|s| {
                            access::read(
                                ctx,
                                &LocDesc {
                                    singles: vec![s.clone()],
                                },
                                b,
                            )
                        })
                        .collect();
                    if reads.iter().any(|r| r.is_err()) {
                        "multi (unreadable)"
                    } else if reads.windows(2).all(|w| w[0] == w[1]) {
                        StorageKind::MultiConsistent.label()
                    } else {
                        StorageKind::MultiInconsistent.label()
                    }
                }
                None => "multi (size unknown)",
            };
            self.storage.insert(label, ());
        }
        for s in &l.singles {
            let label = match &s.storage {
                Storage::Memory { .. } => StorageKind::Memory.label(),
                Storage::Entity { .. } => StorageKind::Entity.label(),
                Storage::Implicit { .. } => StorageKind::Implicit.label(),
                Storage::ImplicitAddress {
                    target, target_ty, ..
                } => {
                    let tb = ctx
                        .datalayout
                        .bitsizeof(target_ty, &TypeTable::default())
                        .ok();
                    self.loc(ctx, target, tb, depth + 1);
                    StorageKind::ImplicitAddress.label()
                }
                Storage::Undefined => StorageKind::Undefined.label(),
                Storage::Composite { parts } => {
                    for p in parts {
                        self.loc(ctx, &p.loc, Some(p.bits), depth + 1);
                    }
                    StorageKind::Composite.label()
                }
            };
            self.storage.insert(label, ());
            if let Storage::Memory { addrspace } = s.storage {
                self.storage.insert(
                    match addrspace {
                        0 => "memory, addrspace 0",
                        1 => "memory, addrspace 1",
                        3 => "memory, addrspace 3",
                        5 => "memory, addrspace 5",
                        7 => "memory, addrspace 7 (160-bit in amdgpu)",
                        _ => "memory, other addrspace",
                    },
                    (),
                );
            }
        }
    }

    fn context(&mut self, case: &Case) {
        let dl: &DataLayout = &case.ctx.datalayout;
        let size = |t: &Type| dl.bitsizeof(t, &case.types).ok();
        let args = case.bare.args.clone().unwrap_or_default();
        for (n, l) in &case.ctx.args {
            let bits = args.get(*n as usize).and_then(|a| size(&a.ty));
            self.loc(&case.ctx, l, bits, 0);
        }
        if let Some(l) = &case.ctx.referrer {
            let t = case
                .bare
                .referrer
                .as_ref()
                .map(|r| &r.0)
                .or_else(|| args.first().map(|a| &a.ty));
            self.loc(&case.ctx, l, t.and_then(size), 0);
        }
        if let Some(l) = &case.ctx.object {
            self.loc(&case.ctx, l, None, 0);
        }
    }
}

impl Coverage {
    /// Adds one case (and its reference outcome).
    pub fn add(&mut self, case: &Case) {
        let mut seen = Seen::default();
        seen.expr(&case.bare, &case.types);
        seen.context(case);
        self.cases += 1;
        let n = case.bare.expr.ops.len();
        self.max_ops = self.max_ops.max(n);
        self.total_ops += n;
        for k in seen.ops.into_keys() {
            bump(&mut self.ops, k);
        }
        for k in seen.storage.into_keys() {
            bump(&mut self.storage, k);
        }
        for k in seen.widths.into_keys() {
            bump(&mut self.widths, k);
        }
        for k in seen.types.into_keys() {
            bump(&mut self.types, k);
        }
        for k in seen.literals.into_keys() {
            bump(&mut self.literals, k);
        }
        let outcome = interp::eval_bare(&case.bare, &case.types, &case.ctx);
        let label = match &outcome {
            Ok(r) => match interp::read_value(&case.ctx, r) {
                Ok(_) => "ok, readable".to_string(),
                Err(e) => format!("ok, read fails: {:?}", e.kind),
            },
            Err(e) => format!("error: {:?}", e.kind),
        };
        if matches!(&outcome, Err(e) if e.kind == interp::ErrorKind::DivisionByZero) {
            seen.edges.insert("division by zero (evaluated)", ());
        }
        for k in seen.edges.into_keys() {
            bump(&mut self.edges, k);
        }
        bump(&mut self.outcomes, label);
        bump(
            &mut self.dialects,
            match case.bare.expr.dialect {
                Dialect::DiExpr => "diexpr",
                Dialect::DiExpression => "diexpression",
            },
        );
    }

    /// Operations the cases never used.
    pub fn missing_ops(&self) -> Vec<&'static str> {
        OpKind::ALL
            .iter()
            .map(|k| k.label())
            .filter(|l| !self.ops.contains_key(l))
            .collect()
    }

    /// Storage kinds the contexts never used.
    pub fn missing_storage(&self) -> Vec<&'static str> {
        StorageKind::ALL
            .iter()
            .map(|k| k.label())
            .filter(|l| !self.storage.contains_key(l))
            .collect()
    }
}

/// Generates `n` cases from seeds `seed, seed+1, ...` and counts them.
pub fn coverage(n: usize, seed: u64, cfg: &GenConfig) -> Coverage {
    let mut c = Coverage::default();
    for i in 0..n as u64 {
        c.add(&Case::from_seed(seed.wrapping_add(i), cfg));
    }
    c
}

impl fmt::Display for Coverage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.cases.max(1);
        let section =
            |f: &mut fmt::Formatter<'_>, title: &str, rows: Vec<(String, usize)>| -> fmt::Result {
                writeln!(f, "{title}")?;
                for (k, v) in rows {
                    writeln!(f, "  {k:<42} {v:>7}  {:>5.1}%", 100.0 * v as f64 / n as f64)?;
                }
                Ok(())
            };
        writeln!(
            f,
            "{} cases; operations per expression: mean {:.1}, max {}",
            self.cases,
            self.total_ops as f64 / n as f64,
            self.max_ops
        )?;
        let ops = OpKind::ALL
            .iter()
            .map(|k| {
                (
                    k.label().to_string(),
                    *self.ops.get(k.label()).unwrap_or(&0),
                )
            })
            .collect();
        section(f, "operations (cases using it)", ops)?;
        let owned = |m: &BTreeMap<&'static str, usize>| {
            m.iter()
                .map(|(k, v)| (k.to_string(), *v))
                .collect::<Vec<_>>()
        };
        section(
            f,
            "storage kinds (cases whose context has it)",
            owned(&self.storage),
        )?;
        section(
            f,
            "integer widths",
            self.widths.iter().map(|(k, v)| (k.clone(), *v)).collect(),
        )?;
        section(f, "types", owned(&self.types))?;
        section(f, "constant literals", owned(&self.literals))?;
        section(f, "edge values", owned(&self.edges))?;
        section(f, "dialects", owned(&self.dialects))?;
        section(
            f,
            "reference outcomes",
            self.outcomes.iter().map(|(k, v)| (k.clone(), *v)).collect(),
        )
    }
}
