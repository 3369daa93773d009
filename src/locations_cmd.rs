//! `diopter locations`: each object's location list over a function's
//! instructions, like a DWARF location list, and with a context the location
//! and value at every instruction.
//!
//! The computation is `diopter_semantics::objloc`; this module only reads the
//! inputs, reports their problems, and prints.

use crate::inputs;
use crate::Format;
use crate::{out, outln};
use diopter_semantics::access::read_noting_unlisted;
use diopter_semantics::context::Context;
use diopter_semantics::diag::{Diagnostic, Severity, Source};
use diopter_semantics::ir::{InstRef, MdKind, Module};
use diopter_semantics::lifetimes::check_lifetimes;
use diopter_semantics::objloc::{Entry, Model, ObjLoc, Rule};
use diopter_semantics::show::{loc_text, LocatedView};
use diopter_semantics::syntax::module::parse_module;
use diopter_semantics::syntax::print_expr;
use diopter_semantics::types::DataLayout;
use serde::Serialize;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

pub const LOCATIONS_HELP: &str = "\
OUTPUT
  For each function (the spec's top-level instruction lines form the function
  <top-level>), its instructions numbered #0, #1, ... in layout order, then for
  each DIObject (variable or DIFragment) with a location somewhere in it, its
  location list: entries [#START, #END) naming the lifetime segment that gives
  the location over those instructions and the clause of the spec's rule that
  chose it (computed, bounded or default). Entries may overlap: two bounded
  segments active at once are the multi-location case, as DWARF 5 location
  lists allow. Instructions no entry covers have the undefined location.

  A bounded segment is active from its llvm.dbg.def, along every path, up to
  and including an llvm.dbg.kill of it (DESIGN.md: some path from the def
  reaches the instruction without passing a kill).

  `elsewhere` is each object's location outside every instruction (no bounded
  segment applies there): its computed or default segment, or undefined.

  With --context, every object's location at every instruction is evaluated
  (argObjects through their own lifetimes, referrers from the context's
  entities: `%x`, `$r0`, and `@g` for a global's address) and read: the single
  locations, the type and the value, or the error (Inconsistent when several
  locations disagree).

EXIT STATUS
  0 done; 1 the lifetime rules are broken (diagnostics on stderr, locations
  printed anyway); 2 unreadable input, or a file with no variable to locate
  (no DILocalVariable, DIGlobalVariable or DIFragment node: not the IR of a
  program with debug information, e.g. a text file).

BIT RANGES
  Written LO..HI: bits LO up to but not including HI, bit 0 the least
  significant (half-open). Locations and values print as in `diopter eval
  --help`; in JSON they are the objects of docs/schema/location.json.";

#[derive(clap::Args)]
pub struct Args {
    /// An IR file (.ll/.mir).
    pub file: PathBuf,
    /// An evaluation context (see `diopter eval --help`): also print the
    /// location and value of every object at every instruction.
    #[arg(short, long, value_name = "FILE")]
    pub context: Option<PathBuf>,
    /// Data layout, overriding the context's and the file's.
    #[arg(long, value_name = "LAYOUT")]
    pub datalayout: Option<String>,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

#[derive(Serialize)]
struct Report {
    file: String,
    diagnostics: Vec<DiagOut>,
    functions: Vec<FunctionOut>,
    objects: Vec<ObjectOut>,
}

#[derive(Serialize)]
struct DiagOut {
    line: usize,
    column: usize,
    message: String,
}

#[derive(Serialize)]
struct FunctionOut {
    name: String,
    instructions: Vec<InstOut>,
    objects: Vec<ObjectInFunction>,
}

#[derive(Serialize)]
struct InstOut {
    index: usize,
    line: usize,
    text: String,
}

#[derive(Serialize)]
struct ObjectInFunction {
    id: u64,
    entries: Vec<EntryOut>,
    /// With a context: the location and value at each instruction.
    #[serde(skip_serializing_if = "Option::is_none")]
    values: Option<Vec<ValueOut>>,
}

#[derive(Serialize)]
struct EntryOut {
    start: usize,
    end: usize,
    lifetime: u64,
    rule: Rule,
    expression: Option<String>,
}

#[derive(Serialize)]
struct ObjectOut {
    id: u64,
    kind: &'static str,
    name: Option<String>,
    elsewhere: ElsewhereOut,
}

#[derive(Serialize)]
struct ElsewhereOut {
    rule: Rule,
    lifetimes: Vec<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    value: Option<ValueOut>,
}

#[derive(Serialize)]
struct ValueOut {
    #[serde(skip_serializing_if = "Option::is_none")]
    index: Option<usize>,
    rule: Rule,
    lifetimes: Vec<u64>,
    /// How the text output shows the location: `undefined`, or the single
    /// locations, `|`-separated.
    text: String,
    /// The typed location and the value read there (`docs/schema/location.json`);
    /// `null` when the variable has no location here.
    location: Option<LocatedView>,
    /// Why the location could not be evaluated or read.
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
}

fn fail(werr: &mut dyn Write, msg: String) -> u8 {
    outln!(werr, "diopter locations: {msg}");
    2
}

pub fn run(a: &Args) -> ExitCode {
    crate::run_std(|o, e| run_to(a, o, e))
}

/// [`run`], printing to `out` and `err`; returns the exit status.
pub fn run_to(a: &Args, wout: &mut dyn Write, werr: &mut dyn Write) -> u8 {
    let text = match inputs::read(&a.file) {
        Ok(t) => t,
        Err(e) => return fail(werr, e),
    };
    let src = Source::new(a.file.display().to_string(), text);
    let (m, diags) = parse_module(&src.text);
    let mut unreadable = false;
    for d in &diags {
        out!(werr, "{}", src.render(d));
        unreadable |= d.severity == Severity::Error;
    }
    if unreadable {
        return 2;
    }
    // A text that is not IR reads as the lines of an implicit function (the
    // spec's pseudo-IR examples have no `define`): with no variable in it,
    // there is nothing to locate, and printing its lines as instructions
    // would pass for a result.
    if Model::new(&m).objects().is_empty() {
        return fail(
            werr,
            format!(
                "{}: no variable to locate (no DILocalVariable, DIGlobalVariable or DIFragment \
                 node): is it LLVM IR with debug information?",
                src.name
            ),
        );
    }
    let mut ctx = match &a.context {
        None => None,
        Some(p) => {
            let text = match inputs::read(p) {
                Ok(t) => t,
                Err(e) => return fail(werr, e),
            };
            match Context::parse(&text) {
                Ok(c) => Some(c),
                Err(ds) => {
                    let csrc = Source::new(p.display().to_string(), text);
                    for d in &ds {
                        out!(werr, "{}", csrc.render(d));
                    }
                    return 2;
                }
            }
        }
    };
    match a.datalayout.as_deref().map(DataLayout::from_name_or_string) {
        Some(Ok(dl)) => {
            if let Some(c) = ctx.as_mut() {
                c.datalayout = dl;
            }
        }
        Some(Err(e)) => return fail(werr, format!("--datalayout: {e}")),
        None => {
            // A context that names no layout takes the file's.
            if let (Some(c), Some((dl, _))) = (ctx.as_mut(), &m.datalayout) {
                if c.datalayout == DataLayout::default() {
                    c.datalayout = dl.clone();
                }
            }
        }
    }
    let lifetime_diags = check_lifetimes(&m);
    for d in &lifetime_diags {
        out!(werr, "{}", src.render(d));
    }
    let report = build(&src, &m, ctx.as_ref(), &lifetime_diags);
    match a.format {
        Format::Json => outln!(
            wout,
            "{}",
            serde_json::to_string_pretty(&report).unwrap_or_default()
        ),
        Format::Text => print_text(wout, &report),
    }
    if lifetime_diags.is_empty() {
        0
    } else {
        1
    }
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

fn build(src: &Source, m: &Module, ctx: Option<&Context>, diags: &[Diagnostic]) -> Report {
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

fn print_text(wout: &mut dyn Write, r: &Report) {
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
        outln!(
            wout,
            "function {} ({} instructions)",
            f.name,
            f.instructions.len()
        );
        for i in &f.instructions {
            outln!(wout, "  #{:<3} line {:<4} {}", i.index, i.line, i.text);
        }
        for o in &f.objects {
            outln!(wout, "  {}", name_of(o.id));
            for e in &o.entries {
                outln!(
                    wout,
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
                    outln!(wout, "      #{:<3} {}", v.index.unwrap_or(0), value_text(v));
                }
            }
        }
    }
    if r.objects.is_empty() {
        return;
    }
    outln!(wout, "elsewhere (outside every instruction)");
    for o in &r.objects {
        match &o.elsewhere.value {
            Some(v) => outln!(wout, "  {}: {}", name_of(o.id), value_text(v)),
            None if o.elsewhere.lifetimes.is_empty() => {
                outln!(wout, "  {}: {}", name_of(o.id), o.elsewhere.rule)
            }
            None => outln!(
                wout,
                "  {}: {} {}",
                name_of(o.id),
                o.elsewhere.rule,
                lifetimes_text(&o.elsewhere.lifetimes)
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn spec(name: &str) -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("corpus/spec")
            .join(name)
    }

    fn args(file: PathBuf, context: Option<PathBuf>) -> Args {
        Args {
            file,
            context,
            datalayout: None,
            format: Format::Json,
        }
    }

    fn report(name: &str, ctx: Option<&str>) -> serde_json::Value {
        let path = spec(name);
        let src = Source::new(name, std::fs::read_to_string(path).unwrap());
        let (m, ds) = parse_module(&src.text);
        assert!(ds.is_empty());
        let c = ctx.map(|t| Context::parse(t).unwrap());
        serde_json::to_value(build(&src, &m, c.as_ref(), &check_lifetimes(&m))).unwrap()
    }

    /// Spec l. 1306-1331: x's three bounded segments overlap; y's starts
    /// where x's `$r0` segment ends (see `semantics/tests/locations_spec.rs`).
    #[test]
    fn json_location_list() {
        let r = report("14-multiple-live-ranges.ll", None);
        let f = &r["functions"][0];
        assert_eq!(f["instructions"].as_array().unwrap().len(), 17);
        assert_eq!(f["instructions"][6]["text"], "$r0 = MOV");
        let x = &f["objects"][0];
        assert_eq!(x["id"], 1);
        let entries: Vec<(u64, u64, u64)> = x["entries"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| {
                (
                    e["start"].as_u64().unwrap(),
                    e["end"].as_u64().unwrap(),
                    e["lifetime"].as_u64().unwrap(),
                )
            })
            .collect();
        assert_eq!(entries, vec![(1, 8, 2), (4, 16, 3), (11, 15, 4)]);
        assert_eq!(x["entries"][0]["rule"], "bounded");
        assert_eq!(x["entries"][0]["expression"], "!DIExpr(DIOpReferrer(i32))");
        assert!(x.get("values").is_none());
        assert_eq!(r["objects"][0]["name"], "x");
        assert_eq!(r["objects"][0]["elsewhere"]["rule"], "undefined");
    }

    /// Slide "Supports Multiple Locations" with a context that breaks the
    /// promise at #3-#4: `Inconsistent` there, values elsewhere.
    #[test]
    fn json_values() {
        let r = report(
            "slides-02-multiple-locations.ll",
            Some("%var.alloca = ptr 0x3000\nmem 0 0x3000 = 78 56 34 12\n%var = i32 7\n"),
        );
        let vs = &r["functions"][0]["objects"][0]["values"];
        assert_eq!(vs[0]["text"], "undefined");
        assert!(vs[0]["location"].is_null());
        assert_eq!(vs[1]["location"]["value"]["hex"], "0x12345678");
        assert_eq!(vs[1]["location"]["type"], "i32");
        assert_eq!(vs[3]["text"], "as0 @0x3000 | %var");
        assert_eq!(vs[3]["location"]["singles"][0]["kind"], "memory");
        assert_eq!(vs[3]["location"]["singles"][0]["address"], "0x3000");
        assert_eq!(vs[3]["location"]["singles"][1]["entity"], "%var");
        assert!(vs[3]["error"]
            .as_str()
            .unwrap()
            .starts_with("unreadable: Inconsistent"));
        assert_eq!(vs[5]["location"]["value"]["hex"], "0x00000007");
        assert_eq!(vs[5]["lifetimes"], serde_json::json!([2]));
    }

    /// Globals only (spec l. 1358-1368): no function, locations elsewhere.
    #[test]
    fn globals_have_locations_elsewhere() {
        let r = report(
            "16-global-two-scalars-after.ll",
            Some("@g.lo = i32 addrspace(1)* 0x2000\n@g.hi = i32 addrspace(1)* 0x2004\nmem 1 0x2000 = 0d f0 ad 0b ef be ad de\n"),
        );
        assert_eq!(r["functions"].as_array().unwrap().len(), 0);
        let g = &r["objects"][0];
        assert_eq!(g["elsewhere"]["rule"], "computed");
        assert_eq!(g["elsewhere"]["value"]["location"]["type"], "i64");
        assert!(g["elsewhere"]["value"]["location"]["value"]["hex"].is_string());
        assert_eq!(r["objects"][1]["elsewhere"]["rule"], "default");
    }

    #[test]
    fn exit_codes() {
        let dir = std::env::temp_dir().join(format!("diopter-locations-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let write = |n: &str, t: &str| {
            let p = dir.join(n);
            std::fs::write(&p, t).unwrap();
            p
        };
        assert_eq!(run(&args(spec("01-alloca.ll"), None)), ExitCode::SUCCESS);
        let bad_ir = write("bad.ll", "call void @llvm.dbg.def(metadata !2\n");
        assert_eq!(run(&args(bad_ir, None)), ExitCode::from(2));
        let ill = write(
            "ill.ll",
            "call void @llvm.dbg.kill(metadata !2)\n!1 = !DILocalVariable(name: \"x\")\n!2 = distinct !DILifetime(object: !1, location: !DIExpr(DIOpReferrer(i32)))\n",
        );
        assert_eq!(run(&args(ill, None)), ExitCode::from(1));
        let bad_ctx = write("bad.ctx", "mem 5 = zz\n");
        assert_eq!(
            run(&args(spec("01-alloca.ll"), Some(bad_ctx))),
            ExitCode::from(2)
        );
        assert_eq!(run(&args(dir.join("missing.ll"), None)), ExitCode::from(2));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
