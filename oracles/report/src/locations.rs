//! What `diopter locations` reports: each object's location list over a
//! function's instructions, like a DWARF location list, and with a context
//! the location and value at every instruction ([`build`]), as JSON (the
//! [`Report`] serialized) or as text ([`render_text`]). The computation is
//! `diopter_semantics::objloc`; the command reads the inputs and prints.

use diopter_semantics::access::read_noting_unlisted;
use diopter_semantics::context::Context;
use diopter_semantics::diag::{Diagnostic, Source};
use diopter_semantics::ir::{InstRef, MdKind, Module};
use diopter_semantics::objloc::{Entry, Model, ObjLoc, Rule};
use diopter_semantics::show::{loc_text, LocatedView};
use diopter_semantics::syntax::print_expr;
use serde::Serialize;
use std::fmt::Write;

/// What `diopter locations` reports on one file: its diagnostics, each
/// function's instructions and location lists, and each object's location
/// elsewhere (with a context, the values too).
#[derive(Serialize)]
pub struct Report {
    pub file: String,
    pub diagnostics: Vec<DiagOut>,
    pub functions: Vec<FunctionOut>,
    pub objects: Vec<ObjectOut>,
}

#[derive(Serialize)]
pub struct DiagOut {
    pub line: usize,
    pub column: usize,
    pub message: String,
}

#[derive(Serialize)]
pub struct FunctionOut {
    pub name: String,
    pub instructions: Vec<InstOut>,
    pub objects: Vec<ObjectInFunction>,
}

#[derive(Serialize)]
pub struct InstOut {
    pub index: usize,
    pub line: usize,
    pub text: String,
}

#[derive(Serialize)]
pub struct ObjectInFunction {
    pub id: u64,
    pub entries: Vec<EntryOut>,
    /// With a context: the location and value at each instruction.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub values: Option<Vec<ValueOut>>,
}

#[derive(Serialize)]
pub struct EntryOut {
    pub start: usize,
    pub end: usize,
    pub lifetime: u64,
    pub rule: Rule,
    pub expression: Option<String>,
}

#[derive(Serialize)]
pub struct ObjectOut {
    pub id: u64,
    pub kind: &'static str,
    pub name: Option<String>,
    pub elsewhere: ElsewhereOut,
}

#[derive(Serialize)]
pub struct ElsewhereOut {
    pub rule: Rule,
    pub lifetimes: Vec<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<ValueOut>,
}

#[derive(Serialize)]
pub struct ValueOut {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub index: Option<usize>,
    pub rule: Rule,
    pub lifetimes: Vec<u64>,
    /// How the text output shows the location: `undefined`, or the single
    /// locations, `|`-separated.
    pub text: String,
    /// The typed location and the value read there (`docs/schema/location.json`);
    /// `null` when the variable has no location here.
    pub location: Option<LocatedView>,
    /// Why the location could not be evaluated or read.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

fn diag_out(src: &Source, d: &Diagnostic) -> DiagOut {
    let (line, column) = src.line_col(d.span.start);
    DiagOut {
        line,
        column,
        message: d.to_string(),
    }
}

fn value_out(
    model: &Model,
    obj: u64,
    at: Option<InstRef>,
    index: Option<usize>,
    ctx: &Context,
) -> ValueOut {
    let segs = model.segments(obj, at);
    let mut out = ValueOut {
        index,
        rule: segs.rule,
        lifetimes: segs.lifetimes,
        text: "undefined".into(),
        location: None,
        error: None,
    };
    match model.locate(obj, at, ctx) {
        Ok(ObjLoc::Undefined) => {}
        Ok(ObjLoc::Located(r)) => {
            out.text = loc_text(&r.loc, Some(&r.ty));
            let (read, unlisted) = read_noting_unlisted(ctx, &r.loc, r.bits);
            if let Err(e) = &read {
                out.error = Some(format!("unreadable: {:?}: {}", e.kind, e.message));
            }
            out.location = Some(LocatedView::new(&r, Some(&read), &unlisted));
        }
        Err(e) => {
            out.text = "?".into();
            out.error = Some(e.to_string());
        }
    }
    out
}

/// The report on module `m` read from `src`, with the lifetime rules'
/// diagnostics `diags`; with `ctx`, every object's location is evaluated and
/// read at every instruction.
pub fn build(src: &Source, m: &Module, ctx: Option<&Context>, diags: &[Diagnostic]) -> Report {
    let model = Model::new(m);
    let objects = model.objects();
    let expr_text = |l: u64| m.lifetime_expr(l).map(print_expr);
    let functions = m
        .functions
        .iter()
        .enumerate()
        .map(|(fi, f)| {
            let layout = model.layout(fi);
            let instructions = layout
                .iter()
                .enumerate()
                .filter_map(|(i, r)| {
                    let inst = m.inst(*r)?;
                    Some(InstOut {
                        index: i,
                        line: src.line_col(inst.span.start).0,
                        text: inst.text.lines().next().unwrap_or("").trim().to_string(),
                    })
                })
                .collect();
            let objs = objects
                .iter()
                .filter_map(|o| {
                    let entries: Vec<Entry> = model.location_list(fi, *o);
                    if entries.is_empty() {
                        return None;
                    }
                    Some(ObjectInFunction {
                        id: *o,
                        entries: entries
                            .into_iter()
                            .map(|e| EntryOut {
                                start: e.start,
                                end: e.end,
                                lifetime: e.lifetime,
                                rule: e.rule,
                                expression: expr_text(e.lifetime),
                            })
                            .collect(),
                        values: ctx.map(|c| {
                            layout
                                .iter()
                                .enumerate()
                                .map(|(i, r)| value_out(&model, *o, Some(*r), Some(i), c))
                                .collect()
                        }),
                    })
                })
                .collect();
            FunctionOut {
                name: f.name.clone(),
                instructions,
                objects: objs,
            }
        })
        .collect();
    let objects = objects
        .iter()
        .map(|o| {
            let (kind, name) = match m.kind(*o) {
                Some(MdKind::LocalVariable { name, .. }) => ("local variable", name),
                Some(MdKind::GlobalVariable { name, .. }) => ("global variable", name),
                _ => ("fragment", None),
            };
            let segs = model.segments(*o, None);
            ObjectOut {
                id: *o,
                kind,
                name: name.map(str::to_string).or_else(|| positional_name(m, *o)),
                elsewhere: ElsewhereOut {
                    rule: segs.rule,
                    lifetimes: segs.lifetimes,
                    value: ctx.map(|c| value_out(&model, *o, None, None, c)),
                },
            }
        })
        .collect();
    Report {
        file: src.name.clone(),
        diagnostics: diags.iter().map(|d| diag_out(src, d)).collect(),
        functions,
        objects,
    }
}

/// The spec writes `!DILocalVariable("x", ...)`: a positional name.
fn positional_name(m: &Module, o: u64) -> Option<String> {
    use diopter_semantics::ir::MdValue;
    let MdValue::Node(n) = &m.metadata.get(&o)?.value else {
        return None;
    };
    n.fields.iter().find_map(|f| match (&f.key, &f.value) {
        (None, MdValue::Str(s)) => Some(s.clone()),
        _ => None,
    })
}

fn lifetimes_text(ls: &[u64]) -> String {
    ls.iter()
        .map(|l| format!("!{l}"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn value_text(v: &ValueOut) -> String {
    if v.rule == Rule::Undefined {
        return "undefined".into();
    }
    let mut s = format!("{}", v.rule);
    if !v.lifetimes.is_empty() {
        s.push_str(&format!(" {}", lifetimes_text(&v.lifetimes)));
    }
    s.push_str(&format!(": {}", v.text));
    if let Some(l) = &v.location {
        s.push_str(&format!(" : {}", l.ty));
        if let Some(x) = &l.value {
            s.push_str(&format!(" = {}", x.text()));
        }
        if !l.unlisted_memory.is_empty() {
            s.push_str(" (read memory the context does not list)");
        }
    }
    if let Some(e) = &v.error {
        s.push_str(&format!("  error: {e}"));
    }
    s
}

/// The report as `diopter locations` prints it without `--format json`.
pub fn render_text(r: &Report) -> String {
    let mut t = String::new();
    let name_of = |id: u64| -> String {
        match r.objects.iter().find(|o| o.id == id) {
            Some(ObjectOut {
                name: Some(n),
                kind,
                ..
            }) => format!("!{id} \"{n}\" ({kind})"),
            Some(o) => format!("!{id} ({})", o.kind),
            None => format!("!{id}"),
        }
    };
    for f in &r.functions {
        let _ = writeln!(
            t,
            "function {} ({} instructions)",
            f.name,
            f.instructions.len()
        );
        for i in &f.instructions {
            let _ = writeln!(t, "  #{:<3} line {:<4} {}", i.index, i.line, i.text);
        }
        for o in &f.objects {
            let _ = writeln!(t, "  {}", name_of(o.id));
            for e in &o.entries {
                let _ = writeln!(
                    t,
                    "    [#{}, #{})  {} !{}  {}",
                    e.start,
                    e.end,
                    e.rule,
                    e.lifetime,
                    e.expression.as_deref().unwrap_or("(no expression)")
                );
            }
            if let Some(vs) = &o.values {
                for v in vs {
                    let _ = writeln!(t, "      #{:<3} {}", v.index.unwrap_or(0), value_text(v));
                }
            }
        }
    }
    if r.objects.is_empty() {
        return t;
    }
    let _ = writeln!(t, "elsewhere (outside every instruction)");
    for o in &r.objects {
        let _ = match &o.elsewhere.value {
            Some(v) => writeln!(t, "  {}: {}", name_of(o.id), value_text(v)),
            None if o.elsewhere.lifetimes.is_empty() => {
                writeln!(t, "  {}: {}", name_of(o.id), o.elsewhere.rule)
            }
            None => writeln!(
                t,
                "  {}: {} {}",
                name_of(o.id),
                o.elsewhere.rule,
                lifetimes_text(&o.elsewhere.lifetimes)
            ),
        };
    }
    t
}
