//! The IR-level well-formedness rules of the spec's `DILifetime`,
//! `DICompositeType`, global-variable and intrinsic sections: which kind each
//! lifetime segment is, what its fields may reference, the reachable lifetime
//! graph, and that every `llvm.dbg.kill` follows an `llvm.dbg.def` of the same
//! lifetime along control flow.
//!
//! Only the graph rules live here; where a bounded lifetime is active (the
//! dataflow over the CFG) is the business of the location model.
//!
//! One decision the spec does not make: a type lifetime segment has no
//! `object`, so no `DIVariable` leads to it and the graph rule as written
//! would make every type lifetime ill-formed. diopter treats type lifetime
//! segments as roots of the reachable lifetime graph (their referrer is the
//! instance of the type), so their `argObjects` are reachable.

use crate::ast::{Op, Span};
use crate::diag::Diagnostic;
use crate::ir::{Form, InstKind, InstRef, MdKind, MdValue, Module};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt;

/// The four kinds of lifetime segment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum LifetimeKind {
    /// Referenced by a `DICompositeType`'s `dataLocation`/`associated`/`rank`.
    Type,
    /// Referenced by a global's `!dbg.default`.
    Default,
    /// Referenced by `llvm.dbg.def`/`llvm.dbg.kill` (`DBG_DEF`/`DBG_KILL`).
    Bounded,
    /// Not referenced.
    Computed,
}

impl fmt::Display for LifetimeKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            LifetimeKind::Type => "type",
            LifetimeKind::Default => "default",
            LifetimeKind::Bounded => "bounded",
            LifetimeKind::Computed => "computed",
        })
    }
}

/// What references one `DILifetime`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LifetimeUses {
    /// `DICompositeType` nodes naming it in `dataLocation`/`associated`/`rank`.
    pub composites: Vec<u64>,
    /// Indices of globals whose `!dbg.default` is it.
    pub globals: Vec<usize>,
    pub defs: Vec<InstRef>,
    pub kills: Vec<InstRef>,
}

impl LifetimeUses {
    /// Every kind the references make the lifetime; well-formed lifetimes have exactly one.
    pub fn kinds(&self) -> Vec<LifetimeKind> {
        let mut k = Vec::new();
        if !self.composites.is_empty() {
            k.push(LifetimeKind::Type);
        }
        if !self.globals.is_empty() {
            k.push(LifetimeKind::Default);
        }
        if !self.defs.is_empty() || !self.kills.is_empty() {
            k.push(LifetimeKind::Bounded);
        }
        if k.is_empty() {
            k.push(LifetimeKind::Computed);
        }
        k
    }
}

/// The references to every `DILifetime` and the lifetimes of every object.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Lifetimes {
    /// Every `DILifetime` node, by id.
    pub uses: BTreeMap<u64, LifetimeUses>,
    /// For each `object:` target, the lifetimes naming it, in id order.
    pub by_object: BTreeMap<u64, Vec<u64>>,
}

impl Lifetimes {
    /// The kind of lifetime `!id`; `None` if it is not a `DILifetime` or
    /// matches more than one kind (ill-formed).
    pub fn kind(&self, id: u64) -> Option<LifetimeKind> {
        match self.uses.get(&id)?.kinds().as_slice() {
            [k] => Some(*k),
            _ => None,
        }
    }

    /// The lifetime segments whose `object` is `!obj`.
    pub fn of_object(&self, obj: u64) -> &[u64] {
        self.by_object.get(&obj).map_or(&[], |v| v.as_slice())
    }
}

/// Collects the references to every `DILifetime`.
pub fn analyze(m: &Module) -> Lifetimes {
    let mut a = Lifetimes::default();
    for (id, l) in m.lifetimes() {
        a.uses.insert(id, LifetimeUses::default());
        if let Some(o) = l.object {
            a.by_object.entry(o).or_default().push(id);
        }
    }
    for (id, node) in &m.metadata {
        if let MdKind::CompositeType {
            data_location,
            associated,
            rank,
            ..
        } = node.kind(m)
        {
            for f in [data_location, associated, rank].into_iter().flatten() {
                if let Some(u) = f.value.as_ref_id().and_then(|r| a.uses.get_mut(&r)) {
                    if !u.composites.contains(id) {
                        u.composites.push(*id);
                    }
                }
            }
        }
    }
    for (gi, g) in m.globals.iter().enumerate() {
        for d in g.dbg_default() {
            if let Some(u) = a.uses.get_mut(&d) {
                if !u.globals.contains(&gi) {
                    u.globals.push(gi);
                }
            }
        }
    }
    for (at, inst) in m.insts() {
        match &inst.kind {
            InstKind::DbgDef { lifetime, .. } => {
                if let Some(u) = a.uses.get_mut(lifetime) {
                    u.defs.push(at);
                }
            }
            InstKind::DbgKill { lifetime, .. } => {
                if let Some(u) = a.uses.get_mut(lifetime) {
                    u.kills.push(at);
                }
            }
            _ => {}
        }
    }
    a
}

/// The kind of lifetime `!id` (see [`Lifetimes::kind`]).
pub fn lifetime_kind(m: &Module, id: u64) -> Option<LifetimeKind> {
    analyze(m).kind(id)
}

/// The lifetime segments whose `object` is `!obj`.
pub fn object_lifetimes(m: &Module, obj: u64) -> Vec<u64> {
    analyze(m).of_object(obj).to_vec()
}

/// At most this many cycle diagnostics per module: one cycle can be entered
/// from many places.
const MAX_CYCLE_REPORTS: usize = 100;

/// Checks the lifetime rules; every diagnostic names its rule and points at
/// the offending node, field, operation or instruction.
pub fn check_lifetimes(m: &Module) -> Vec<Diagnostic> {
    let a = analyze(m);
    let mut ds = Vec::new();
    let node_span = |id: u64| m.metadata.get(&id).map_or(Span::default(), |n| *n.span);
    let describe = |id: u64| -> String {
        match m.metadata.get(&id) {
            None => format!("!{id} is not defined"),
            Some(n) => match n.name() {
                Some(name) => format!("!{id} is a {name}"),
                None => format!("!{id} is not a node"),
            },
        }
    };

    // References from instructions and globals must name DILifetimes.
    for (_, inst) in m.insts() {
        let (lt, what) = match &inst.kind {
            InstKind::DbgDef { lifetime, form, .. } => (*lifetime, def_name(form)),
            InstKind::DbgKill { lifetime, form } => (*lifetime, kill_name(form)),
            _ => continue,
        };
        if !a.uses.contains_key(&lt) {
            ds.push(Diagnostic::error(
                *inst.span,
                format!(
                    "the first argument of {what} must be a DILifetime, but {}",
                    describe(lt)
                ),
            ));
        }
    }
    for g in &m.globals {
        let defaults: Vec<u64> = g.dbg_default().collect();
        if defaults.len() > 1 {
            ds.push(Diagnostic::error(
                *g.span,
                format!("global @{} has {} `!dbg.default` attachments; a global has at most one default lifetime segment", g.name, defaults.len()),
            ));
        }
        for d in defaults {
            if !a.uses.contains_key(&d) {
                ds.push(Diagnostic::error(
                    *g.span,
                    format!(
                        "`!dbg.default` of @{} must reference a DILifetime, but {}",
                        g.name,
                        describe(d)
                    ),
                ));
            }
        }
    }

    for (id, l) in m.lifetimes() {
        let u = &a.uses[&id];
        let span = node_span(id);
        let kinds = u.kinds();
        if u.composites.len() > 1 {
            ds.push(Diagnostic::error(
                span,
                format!(
                    "type lifetime segment !{id} is referenced by more than one DICompositeType ({}); it must be referenced by one",
                    list(&u.composites)
                ),
            ));
        }
        if u.globals.len() > 1 {
            let names: Vec<String> = u
                .globals
                .iter()
                .map(|g| format!("@{}", m.globals[*g].name))
                .collect();
            ds.push(Diagnostic::error(
                span,
                format!(
                    "default lifetime segment !{id} is the `!dbg.default` of more than one global variable ({}); it must be referenced by one",
                    names.join(", ")
                ),
            ));
        }
        // The rule is the IR's: a machine function may define one lifetime
        // by `DBG_DEF` in several blocks (instruction selection and block
        // placement copy it), as AMD's MIR tests do; and a MIR file's IR
        // document and its bodies are two representations, counted apart.
        let ir_defs = u.defs.iter().filter(|r| !is_mir(m, **r)).count();
        let ir_uses = ir_defs + u.kills.iter().filter(|r| !is_mir(m, **r)).count();
        let mir_uses = u.defs.len() + u.kills.len() - ir_uses;
        if kinds.contains(&LifetimeKind::Bounded) && ir_defs != 1 && (ir_uses > 0 || mir_uses == 0)
        {
            ds.push(Diagnostic::error(
                span,
                format!(
                    "bounded lifetime segment !{id} is defined by {ir_defs} llvm.dbg.def calls; it must be referenced by exactly one",
                ),
            ));
        }
        if kinds.len() > 1 {
            let names: Vec<String> = kinds.iter().map(|k| k.to_string()).collect();
            ds.push(Diagnostic::error(
                span,
                format!(
                    "DILifetime !{id} is referenced as a {} lifetime segment at once; a DILifetime must match exactly one kind",
                    names.join(" and a ")
                ),
            ));
        }
        let kind = a.kind(id);

        // The object field.
        let object_field = l.node.field("object");
        if kind == Some(LifetimeKind::Type) {
            if let Some(f) = object_field {
                ds.push(Diagnostic::error(
                    *f.span,
                    format!("type lifetime segment !{id} has an `object` field; it must be omitted (the object is the instance of the type)"),
                ));
            }
        } else if let Some(k) = kind {
            if object_field.is_none() {
                ds.push(Diagnostic::error(
                    span,
                    format!("{k} lifetime segment !{id} has no `object` field; it is required for default, bounded and computed lifetime segments"),
                ));
            }
        }
        if let (Some(f), Some(o)) = (object_field, l.object) {
            if !m.is_object(o) {
                ds.push(Diagnostic::error(
                    *f.span,
                    format!("`object` of DILifetime !{id} must reference a DIObject (DILocalVariable, DIGlobalVariable or DIFragment), but {}", describe(o)),
                ));
            }
        }
        let args = l.arg_objects.clone().unwrap_or_default();
        if let Some(f) = l.node.field("argObjects") {
            for o in &args {
                if !m.is_object(*o) {
                    ds.push(Diagnostic::error(
                        *f.span,
                        format!("`argObjects` of DILifetime !{id} must reference DIObjects (DILocalVariable, DIGlobalVariable or DIFragment), but {}", describe(*o)),
                    ));
                }
            }
        }

        // The location expression.
        match l.location {
            None => ds.push(Diagnostic::error(
                span,
                format!("DILifetime !{id} has no `location` field; it is required"),
            )),
            Some(v) => match m.resolve_expr(v) {
                None => {
                    let field_span = l.node.field("location").map_or(span, |f| *f.span);
                    let why = match v {
                        MdValue::Ref(n) => describe(*n),
                        _ => "it is not a DIOp expression".to_string(),
                    };
                    ds.push(Diagnostic::error(
                        field_span,
                        format!("`location` of DILifetime !{id} must be a DIExpr, but {why}"),
                    ));
                }
                Some(e) => {
                    for (i, op) in e.ops.iter().enumerate() {
                        match &op.op {
                            Op::Referrer(_) if kind == Some(LifetimeKind::Computed) => ds.push(
                                Diagnostic::error(
                                    op.span,
                                    format!("DIOpReferrer in computed lifetime segment !{id}: a computed lifetime segment has no referrer"),
                                )
                                .at_op(i),
                            ),
                            Op::Arg(n, _) if *n >= args.len() as u64 => ds.push(
                                Diagnostic::error(
                                    op.span,
                                    format!(
                                        "DIOpArg({n}) but DILifetime !{id} has {} argObjects; the index must be less than the number of argObjects",
                                        args.len()
                                    ),
                                )
                                .at_op(i),
                            ),
                            _ => {}
                        }
                    }
                }
            },
        }
    }

    // A DIObject with a computed lifetime has no other lifetime.
    for (obj, lts) in &a.by_object {
        if lts.len() < 2 {
            continue;
        }
        for lt in lts {
            if a.kind(*lt) == Some(LifetimeKind::Computed) {
                let others: Vec<u64> = lts.iter().copied().filter(|x| x != lt).collect();
                ds.push(Diagnostic::error(
                    node_span(*lt),
                    format!(
                        "DIObject !{obj} has the computed lifetime segment !{lt} and other lifetime segments ({}); an object with a computed lifetime segment must have no other",
                        list(&others)
                    ),
                ));
            }
        }
    }

    check_graph(m, &a, &mut ds);
    check_kills(m, &a, &mut ds);
    ds.sort_by_key(|d| (d.span.start, d.span.end));
    ds
}

/// Whether the instruction at `r` is a machine instruction (`DBG_DEF`/`DBG_KILL`).
fn is_mir(m: &Module, r: InstRef) -> bool {
    m.inst(r).is_some_and(|i| {
        matches!(
            i.kind,
            InstKind::DbgDef {
                form: Form::Mir { .. },
                ..
            } | InstKind::DbgKill {
                form: Form::Mir { .. },
                ..
            }
        )
    })
}

fn list(ids: &[u64]) -> String {
    ids.iter()
        .map(|i| format!("!{i}"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn def_name(form: &Form) -> &'static str {
    match form {
        Form::Mir { .. } => "DBG_DEF",
        _ => "llvm.dbg.def",
    }
}

fn kill_name(form: &Form) -> &'static str {
    match form {
        Form::Mir { .. } => "DBG_KILL",
        _ => "llvm.dbg.kill",
    }
}

/// The reachable lifetime graph: from each `DIVariable` (and, by diopter's
/// decision, each type lifetime segment) to the lifetimes whose object it is,
/// from each lifetime to its `argObjects`, and so on.
fn check_graph(m: &Module, a: &Lifetimes, ds: &mut Vec<Diagnostic>) {
    let succs = |n: u64| -> Vec<u64> {
        if a.uses.contains_key(&n) {
            m.lifetime(n)
                .and_then(|l| l.arg_objects)
                .unwrap_or_default()
        } else {
            a.of_object(n).to_vec()
        }
    };
    let mut roots: Vec<u64> = m
        .metadata
        .keys()
        .copied()
        .filter(|id| m.is_variable(*id))
        .collect();
    roots.extend(
        a.uses
            .keys()
            .copied()
            .filter(|id| a.kind(*id) == Some(LifetimeKind::Type)),
    );

    // Iterative depth-first search (the graph may be large): 1 = on the path, 2 = done.
    let mut color: HashMap<u64, u8> = HashMap::new();
    let mut reported = 0;
    let mut seen_cycles: BTreeSet<(u64, u64)> = BTreeSet::new();
    for root in roots {
        if color.contains_key(&root) {
            continue;
        }
        color.insert(root, 1);
        let mut stack: Vec<(u64, Vec<u64>, usize)> = vec![(root, succs(root), 0)];
        while let Some((node, next, i)) = stack.last_mut() {
            let node = *node;
            if *i >= next.len() {
                color.insert(node, 2);
                stack.pop();
                continue;
            }
            let v = next[*i];
            *i += 1;
            match color.get(&v) {
                None => {
                    color.insert(v, 1);
                    let s = succs(v);
                    stack.push((v, s, 0));
                }
                Some(1) => {
                    if reported < MAX_CYCLE_REPORTS && seen_cycles.insert((node, v)) {
                        reported += 1;
                        let start = stack.iter().position(|(n, _, _)| *n == v).unwrap_or(0);
                        let mut path: Vec<String> = stack[start..]
                            .iter()
                            .map(|(n, _, _)| format!("!{n}"))
                            .collect();
                        path.push(format!("!{v}"));
                        // Point at the lifetime whose reference closes the cycle.
                        let (at, span) = if a.uses.contains_key(&node) {
                            let s = m
                                .lifetime(node)
                                .and_then(|l| l.node.field("argObjects"))
                                .map(|f| *f.span);
                            (node, s)
                        } else {
                            let s = m
                                .lifetime(v)
                                .and_then(|l| l.node.field("object"))
                                .map(|f| *f.span);
                            (v, s)
                        };
                        let span = span.unwrap_or_else(|| {
                            m.metadata.get(&at).map_or(Span::default(), |n| *n.span)
                        });
                        ds.push(Diagnostic::error(
                            span,
                            format!(
                                "the reachable lifetime graph has a cycle: {}",
                                path.join(" -> ")
                            ),
                        ));
                    }
                }
                Some(_) => {}
            }
        }
    }

    for (id, node) in &m.metadata {
        let what = match node.kind(m) {
            MdKind::Lifetime(_) => "DILifetime",
            MdKind::Fragment => "DIFragment",
            _ => continue,
        };
        if !color.contains_key(id) {
            ds.push(Diagnostic::error(
                *node.span,
                format!("{what} !{id} is not in the reachable lifetime graph: no DIVariable leads to it through `object`/`argObjects` references"),
            ));
        }
    }
}

/// Every kill must be reachable along control flow from a def of the same lifetime.
fn check_kills(m: &Module, a: &Lifetimes, ds: &mut Vec<Diagnostic>) {
    // Blocks reachable by one or more edges from a block, computed on demand.
    let mut reach: HashMap<(usize, usize), Vec<bool>> = HashMap::new();
    for u in a.uses.values() {
        for k in &u.kills {
            let ok = u.defs.iter().any(|d| {
                if d.function != k.function {
                    return false;
                }
                if d.block == k.block && d.inst < k.inst {
                    return true;
                }
                let r = reach
                    .entry((d.function, d.block))
                    .or_insert_with(|| reachable_from(m, d.function, d.block));
                r.get(k.block).copied().unwrap_or(false)
            });
            if !ok {
                if let Some(inst) = m.inst(*k) {
                    let (lt, what, def) = match &inst.kind {
                        InstKind::DbgKill { lifetime, form } => {
                            (*lifetime, kill_name(form), def_name(form))
                        }
                        _ => continue,
                    };
                    ds.push(Diagnostic::error(
                        *inst.span,
                        format!("{what} of !{lt} is not reachable along control flow from a {def} of the same DILifetime"),
                    ));
                }
            }
        }
    }
}

/// Blocks reachable from `block` by at least one edge.
fn reachable_from(m: &Module, function: usize, block: usize) -> Vec<bool> {
    let Some(f) = m.functions.get(function) else {
        return Vec::new();
    };
    let mut seen = vec![false; f.blocks.len()];
    let mut work: Vec<usize> = f.blocks.get(block).map_or(Vec::new(), |b| b.succs.clone());
    while let Some(b) = work.pop() {
        if b < seen.len() && !seen[b] {
            seen[b] = true;
            work.extend(f.blocks[b].succs.iter().copied());
        }
    }
    seen
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::Source;
    use crate::syntax::module::parse_module;

    /// The lifetime diagnostics of a file that parses cleanly, as `line: message`.
    fn check(s: &str) -> Vec<String> {
        let (m, ds) = parse_module(s);
        assert!(ds.is_empty(), "parse diagnostics: {ds:?}");
        let src = Source::new("t.ll", s);
        check_lifetimes(&m)
            .iter()
            .map(|d| format!("{}: {}", src.line_col(d.span.start).0, d))
            .collect()
    }

    fn valid(s: &str) {
        let ds = check(s);
        assert!(ds.is_empty(), "{ds:#?}");
    }

    /// Exactly one diagnostic, on `line`, containing `text`.
    fn invalid(s: &str, line: usize, text: &str) {
        let ds = check(s);
        assert_eq!(ds.len(), 1, "{ds:#?}");
        assert!(
            ds[0].starts_with(&format!("{line}: ")) && ds[0].contains(text),
            "{ds:#?}"
        );
    }

    const VAR: &str = "!1 = !DILocalVariable(name: \"x\")\n";

    #[test]
    fn kinds() {
        let s = "@g = global i32 0, !dbg.default !3\n\
                 call void @llvm.dbg.def(metadata !4, metadata i32 %x)\n\
                 !1 = !DILocalVariable(name: \"x\")\n\
                 !2 = !DIGlobalVariable(name: \"g\")\n\
                 !3 = distinct !DILifetime(object: !2, location: !DIExpr(DIOpReferrer(ptr), DIOpDeref(i32)))\n\
                 !4 = distinct !DILifetime(object: !1, location: !DIExpr(DIOpReferrer(i32)))\n\
                 !5 = !DICompositeType(tag: DW_TAG_array_type, dataLocation: !6)\n\
                 !6 = distinct !DILifetime(location: !DIExpr(DIOpReferrer(ptr)))\n\
                 !7 = !DILocalVariable(name: \"y\")\n\
                 !8 = distinct !DILifetime(object: !7, location: !DIExpr(DIOpConstant(i32 1)))\n";
        valid(s);
        let (m, _) = parse_module(s);
        let a = analyze(&m);
        assert_eq!(a.kind(3), Some(LifetimeKind::Default));
        assert_eq!(a.kind(4), Some(LifetimeKind::Bounded));
        assert_eq!(a.kind(6), Some(LifetimeKind::Type));
        assert_eq!(a.kind(8), Some(LifetimeKind::Computed));
        assert_eq!(a.kind(1), None);
        assert_eq!(lifetime_kind(&m, 4), Some(LifetimeKind::Bounded));
        assert_eq!(object_lifetimes(&m, 1), vec![4]);
        assert_eq!(a.of_object(2), &[3]);
        assert_eq!(a.uses[&6].composites, vec![5]);
    }

    #[test]
    fn type_lifetime_referenced_by_two_composites() {
        let s = "!1 = !DICompositeType(tag: DW_TAG_array_type, dataLocation: !3)\n\
                 !2 = !DICompositeType(tag: DW_TAG_array_type, rank: !3)\n\
                 !3 = distinct !DILifetime(location: !DIExpr(DIOpReferrer(ptr)))\n";
        invalid(
            s,
            3,
            "type lifetime segment !3 is referenced by more than one DICompositeType (!1, !2)",
        );
        // Two fields of one composite are one reference.
        valid(
            "!1 = !DICompositeType(tag: DW_TAG_array_type, dataLocation: !3, associated: !3)\n\
               !3 = distinct !DILifetime(location: !DIExpr(DIOpReferrer(ptr)))\n",
        );
    }

    #[test]
    fn type_lifetime_has_no_object() {
        let s = format!(
            "{VAR}!2 = !DICompositeType(tag: DW_TAG_array_type, dataLocation: !3)\n\
             !3 = distinct !DILifetime(object: !1, location: !DIExpr(DIOpReferrer(ptr)))\n"
        );
        invalid(
            &s,
            3,
            "type lifetime segment !3 has an `object` field; it must be omitted",
        );
    }

    #[test]
    fn default_lifetime_of_two_globals() {
        let s = "@a = global i32 0, !dbg.default !2\n@b = global i32 0, !dbg.default !2\n\
                 !1 = !DIGlobalVariable(name: \"g\")\n\
                 !2 = distinct !DILifetime(object: !1, location: !DIExpr(DIOpReferrer(ptr)))\n";
        invalid(s, 4, "default lifetime segment !2 is the `!dbg.default` of more than one global variable (@a, @b)");
        let s = "@a = global i32 0, !dbg.default !1\n!1 = !DIGlobalVariable(name: \"g\")\n";
        invalid(
            s,
            1,
            "`!dbg.default` of @a must reference a DILifetime, but !1 is a DIGlobalVariable",
        );
        let s = "@a = global i32 0, !dbg.default !2, !dbg.default !3\n\
                 !1 = !DIGlobalVariable(name: \"g\")\n\
                 !2 = distinct !DILifetime(object: !1, location: !DIExpr(DIOpReferrer(ptr)))\n\
                 !3 = distinct !DILifetime(object: !1, location: !DIExpr(DIOpReferrer(ptr)))\n";
        invalid(s, 1, "global @a has 2 `!dbg.default` attachments");
    }

    #[test]
    fn bounded_lifetime_needs_exactly_one_def() {
        let lt = "!2 = distinct !DILifetime(object: !1, location: !DIExpr(DIOpReferrer(i32)))\n";
        let two = format!(
            "call void @llvm.dbg.def(metadata !2, metadata i32 %a)\ncall void @llvm.dbg.def(metadata !2, metadata i32 %b)\n{VAR}{lt}"
        );
        invalid(&two, 4, "bounded lifetime segment !2 is defined by 2 llvm.dbg.def calls; it must be referenced by exactly one");
        let none = format!("call void @llvm.dbg.kill(metadata !2)\n{VAR}{lt}");
        let ds = check(&none);
        assert_eq!(ds.len(), 2, "{ds:#?}");
        assert!(
            ds[0].starts_with("1: llvm.dbg.kill of !2 is not reachable"),
            "{ds:#?}"
        );
        assert!(
            ds[1].starts_with("3: bounded lifetime segment !2 is defined by 0"),
            "{ds:#?}"
        );
        valid(&format!("DBG_DEF !2, $r0\nDBG_KILL !2\n{VAR}{lt}"));
    }

    #[test]
    fn a_lifetime_matches_exactly_one_kind() {
        let s = format!(
            "@g = global i32 0, !dbg.default !2\ncall void @llvm.dbg.def(metadata !2, metadata i32 %a)\n{VAR}\
             !2 = distinct !DILifetime(object: !1, location: !DIExpr(DIOpReferrer(i32)))\n"
        );
        invalid(
            &s,
            4,
            "DILifetime !2 is referenced as a default and a bounded lifetime segment at once",
        );
    }

    #[test]
    fn object_is_required_except_for_type_lifetimes() {
        let s = "!2 = distinct !DILifetime(location: !DIExpr(DIOpConstant(i32 0)))\n";
        let ds = check(s);
        // Without an object nothing reaches it either.
        assert_eq!(ds.len(), 2, "{ds:#?}");
        assert!(
            ds[0].contains("computed lifetime segment !2 has no `object` field; it is required"),
            "{ds:#?}"
        );
        assert!(
            ds[1].contains("not in the reachable lifetime graph"),
            "{ds:#?}"
        );
    }

    #[test]
    fn object_and_arg_objects_reference_diobjects() {
        let s = "!1 = !DIBasicType(name: \"int\", size: 32)\n\
                 !2 = distinct !DILifetime(object: !1, location: !DIExpr(DIOpConstant(i32 0)))\n";
        let ds = check(s);
        assert_eq!(ds.len(), 2, "{ds:#?}");
        assert!(ds[1].contains("`object` of DILifetime !2 must reference a DIObject (DILocalVariable, DIGlobalVariable or DIFragment), but !1 is a DIBasicType"), "{ds:#?}");
        let s = format!(
            "{VAR}!2 = distinct !DILifetime(object: !1, location: !DIExpr(DIOpArg(0, i32)), argObjects: {{!9}})\n"
        );
        invalid(&s, 2, "`argObjects` of DILifetime !2 must reference DIObjects (DILocalVariable, DIGlobalVariable or DIFragment), but !9 is not defined");
        // Every DIObject kind is accepted, also in a `!{}` tuple node.
        valid(&format!(
            "{VAR}!2 = !DIGlobalVariable(name: \"g\")\n!3 = distinct !DIFragment()\n\
             !4 = distinct !DILifetime(object: !1, location: !DIExpr(DIOpArg(0, i32), DIOpArg(1, i32), DIOpAdd()), argObjects: !5)\n\
             !5 = !{{!2, !3}}\n\
             !6 = distinct !DILifetime(object: !3, location: !DIExpr(DIOpConstant(i32 1)))\n\
             !7 = distinct !DILifetime(object: !2, location: !DIExpr(DIOpConstant(i32 2)))\n"
        ));
    }

    #[test]
    fn an_object_with_a_computed_lifetime_has_no_other() {
        let s = format!(
            "call void @llvm.dbg.def(metadata !3, metadata i32 %a)\n{VAR}\
             !2 = distinct !DILifetime(object: !1, location: !DIExpr(DIOpConstant(i32 0)))\n\
             !3 = distinct !DILifetime(object: !1, location: !DIExpr(DIOpReferrer(i32)))\n"
        );
        invalid(
            &s,
            3,
            "DIObject !1 has the computed lifetime segment !2 and other lifetime segments (!3)",
        );
    }

    #[test]
    fn referrer_in_a_computed_lifetime() {
        let s = format!("{VAR}!2 = distinct !DILifetime(object: !1, location: !DIExpr(DIOpConstant(i32 0), DIOpReferrer(i32), DIOpAdd()))\n");
        let (m, _) = parse_module(&s);
        let ds = check_lifetimes(&m);
        assert_eq!(ds.len(), 1, "{ds:#?}");
        assert!(ds[0]
            .message
            .contains("DIOpReferrer in computed lifetime segment !2"));
        assert_eq!(ds[0].op_index, Some(1));
        assert_eq!(&s[ds[0].span.start..ds[0].span.end], "DIOpReferrer(i32)");
    }

    #[test]
    fn arg_index_within_arg_objects() {
        let s = format!(
            "{VAR}!2 = distinct !DIFragment()\n\
             !3 = distinct !DILifetime(object: !1, location: !DIExpr(DIOpArg(0, i32), DIOpArg(1, i32), DIOpAdd()), argObjects: {{!2}})\n\
             !4 = distinct !DILifetime(object: !2, location: !DIExpr(DIOpConstant(i32 0)))\n"
        );
        let (m, _) = parse_module(&s);
        let ds = check_lifetimes(&m);
        assert_eq!(ds.len(), 1, "{ds:#?}");
        assert!(ds[0]
            .message
            .contains("DIOpArg(1) but DILifetime !3 has 1 argObjects"));
        assert_eq!(&s[ds[0].span.start..ds[0].span.end], "DIOpArg(1, i32)");
    }

    #[test]
    fn location_is_a_diop_expression() {
        let s = format!("{VAR}!2 = distinct !DILifetime(object: !1)\n");
        invalid(
            &s,
            2,
            "DILifetime !2 has no `location` field; it is required",
        );
        let s = format!(
            "{VAR}!2 = distinct !DILifetime(object: !1, location: !3)\n!3 = !DIExpression()\n"
        );
        invalid(
            &s,
            2,
            "`location` of DILifetime !2 must be a DIExpr, but !3 is a DIExpression",
        );
    }

    #[test]
    fn cycles_in_the_reachable_lifetime_graph() {
        let s = format!(
            "{VAR}!2 = distinct !DIFragment()\n\
             !3 = distinct !DILifetime(object: !1, location: !DIExpr(DIOpArg(0, i32)), argObjects: {{!2}})\n\
             !4 = distinct !DILifetime(object: !2, location: !DIExpr(DIOpArg(0, i32)), argObjects: {{!2}})\n"
        );
        invalid(
            &s,
            4,
            "the reachable lifetime graph has a cycle: !2 -> !4 -> !2",
        );
        let s = "!1 = !DILocalVariable(name: \"x\")\n!2 = !DILocalVariable(name: \"y\")\n\
                 !3 = distinct !DILifetime(object: !1, location: !DIExpr(DIOpArg(0, i32)), argObjects: {!2})\n\
                 !4 = distinct !DILifetime(object: !2, location: !DIExpr(DIOpArg(0, i32)), argObjects: {!1})\n";
        let ds = check(s);
        assert!(
            !ds.is_empty() && ds.iter().all(|d| d.contains("cycle")),
            "{ds:#?}"
        );
        assert!(ds[0].contains("!1 -> !3 -> !2 -> !4 -> !1"), "{ds:#?}");
        // Sharing without a cycle (a diamond) is fine.
        valid(&format!(
            "{VAR}!2 = distinct !DIFragment()\n\
             !3 = distinct !DILifetime(object: !1, location: !DIExpr(DIOpArg(0, i32), DIOpArg(1, i32), DIOpAdd()), argObjects: {{!2, !2}})\n\
             !4 = distinct !DILifetime(object: !2, location: !DIExpr(DIOpConstant(i32 1)))\n"
        ));
    }

    #[test]
    fn everything_is_reachable() {
        let s = format!(
            "{VAR}!2 = distinct !DIFragment()\n\
             !3 = distinct !DILifetime(object: !2, location: !DIExpr(DIOpConstant(i32 1)))\n"
        );
        let ds = check(&s);
        assert_eq!(ds.len(), 2, "{ds:#?}");
        assert!(
            ds[0].starts_with("2: DIFragment !2 is not in the reachable lifetime graph"),
            "{ds:#?}"
        );
        assert!(
            ds[1].starts_with("3: DILifetime !3 is not in the reachable lifetime graph"),
            "{ds:#?}"
        );
        // A type lifetime is a root (diopter's decision), so its argObjects are reachable.
        valid(
            "!1 = !DICompositeType(tag: DW_TAG_array_type, dataLocation: !2)\n\
               !2 = distinct !DILifetime(location: !DIExpr(DIOpArg(0, ptr)), argObjects: {!3})\n\
               !3 = distinct !DIFragment()\n\
               !4 = distinct !DILifetime(object: !3, location: !DIExpr(DIOpConstant(ptr null)))\n",
        );
    }

    #[test]
    fn kills_follow_defs_along_control_flow() {
        let md = format!(
            "{VAR}!2 = distinct !DILifetime(object: !1, location: !DIExpr(DIOpReferrer(i32)))\n"
        );
        let before = format!("call void @llvm.dbg.kill(metadata !2)\ncall void @llvm.dbg.def(metadata !2, metadata i32 %a)\n{md}");
        invalid(&before, 1, "llvm.dbg.kill of !2 is not reachable along control flow from a llvm.dbg.def of the same DILifetime");
        let branches = format!(
            "define void @f(i1 %c) {{\nentry:\n  br i1 %c, label %a, label %b\na:\n  call void @llvm.dbg.def(metadata !2, metadata i32 0)\n  ret void\nb:\n  call void @llvm.dbg.kill(metadata !2)\n  ret void\n}}\n{md}"
        );
        invalid(&branches, 8, "llvm.dbg.kill of !2 is not reachable");
        let other_fn = format!(
            "define void @f() {{\n  call void @llvm.dbg.def(metadata !2, metadata i32 0)\n  ret void\n}}\ndefine void @g() {{\n  call void @llvm.dbg.kill(metadata !2)\n  ret void\n}}\n{md}"
        );
        invalid(&other_fn, 6, "not reachable");
        let loop_ = format!(
            "define void @f(i1 %c) {{\nentry:\n  br label %l\nl:\n  call void @llvm.dbg.kill(metadata !2)\n  call void @llvm.dbg.def(metadata !2, metadata i32 0)\n  br i1 %c, label %l, label %e\ne:\n  ret void\n}}\n{md}"
        );
        // The kill precedes the def in its block, but the back edge reaches it.
        valid(&loop_);
        let fallthrough = format!("define void @f() {{\na:\n  call void @llvm.dbg.def(metadata !2, metadata i32 0)\nb:\n  call void @llvm.dbg.kill(metadata !2)\n  ret void\n}}\n{md}");
        valid(&fallthrough);
        let mir = format!("DBG_KILL !2\nDBG_DEF !2, $r0\n{md}");
        invalid(
            &mir,
            1,
            "DBG_KILL of !2 is not reachable along control flow from a DBG_DEF",
        );
    }

    #[test]
    fn defs_and_kills_name_lifetimes() {
        let s =
            format!("call void @llvm.dbg.def(metadata !1, metadata i32 %a)\nDBG_KILL !7\n{VAR}");
        let ds = check(&s);
        assert_eq!(ds.len(), 2, "{ds:#?}");
        assert!(ds[0].starts_with("1: the first argument of llvm.dbg.def must be a DILifetime, but !1 is a DILocalVariable"), "{ds:#?}");
        assert!(
            ds[1].starts_with(
                "2: the first argument of DBG_KILL must be a DILifetime, but !7 is not defined"
            ),
            "{ds:#?}"
        );
    }

    #[test]
    fn the_spec_examples_as_printed() {
        // "Implicit Pointer Location Description", last simplification: !2 is
        // defined twice and !4 not at all.
        let s = "%x = i64 ...\n\
                 call void @llvm.dbg.def(metadata !2, metadata i64 %x)\n\
                 call void @llvm.dbg.def(metadata !2, metadata i64 %x)\n\
                 return i64 %x\n\
                 !1 = !DILocalVariable(\"x\", ...)\n\
                 !2 = distinct !DILifetime(object: !1, location: !DIExpr(DIOpReferrer(i64)))\n\
                 !3 = !DILocalVariable(\"p\", ...)\n\
                 !4 = distinct !DILifetime(object: !3, location: !DIExpr(DIOpReferrer(i64), DIOpAddrOf(5)))\n";
        let ds = check(s);
        assert_eq!(ds.len(), 2, "{ds:#?}");
        assert!(
            ds[0].starts_with("6: bounded lifetime segment !2 is defined by 2"),
            "{ds:#?}"
        );
        assert!(
            ds[1].starts_with("8: DIOpReferrer in computed lifetime segment !4"),
            "{ds:#?}"
        );
    }
}
