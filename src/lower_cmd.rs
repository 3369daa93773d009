//! `diopter lower`: lower expressions to DWARF 5 and print the operations in
//! `llvm-dwarfdump`'s syntax with the bytes in hex, or the reason an
//! expression does not lower.

use crate::inputs;
use crate::outln;
use crate::Format;
use diopter_dwarf::coverage::register_context;
use diopter_dwarf::lower::{IMPLICIT_DIE_BASE, LOCLIST_DIE_BASE};
use diopter_dwarf::ops::{hex, print_ops};
use diopter_dwarf::{lower, lower_ext, Lowered, NotLowerable};
use diopter_semantics::access::read_noting_unlisted;
use diopter_semantics::ast::Bare;
use diopter_semantics::context::Context;
use diopter_semantics::diag::Source;
use diopter_semantics::interp::eval_bare;
use diopter_semantics::location::LocDesc;
use diopter_semantics::show::LocatedView;
use diopter_semantics::syntax::{parse_expr_file, print_bare};
use diopter_semantics::types::{DataLayout, TypeTable};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

pub const LOWER_HELP: &str = "\
WHERE THE INPUTS ARE
  DWARF bakes an operand's location into the expression, so lowering needs
  one for every input. Without --context, argument N is the register holding
  the entity %argN, the referrer %referrer, DIOpTypeObject's object %object
  (registers are numbered in order of first use and listed under the
  expression). With --context FILE (the format of `diopter eval --help`),
  the inputs are where that context puts them: memory becomes an address,
  an implicit value a constant, undef an empty piece, addrof(...) an
  implicit pointer.

OUTPUT
  text: per expression, FILE:LINE and the expression, then the operations
  as llvm-dwarfdump prints them, the bytes (DWARF 5, 32-bit format, 8-byte
  addresses; base types are the DIEs 0x1..0xa of a synthetic unit), the
  register table, the DIEs the bytes refer to (an implicit pointer's object,
  the location list of an input in several places), or `not lowerable:
  REASON`; then a summary. Lines marked
  `#! parse-only` or `#! expect invalid` are skipped.
  json: an array of objects {file, line, expression, lowered, ops (one
  string per operation), dwarfdump (the operations joined as llvm-dwarfdump
  prints them), bytes, registers, dies (the DIEs the bytes refer to: each
  {offset, describes}, the object of an implicit pointer or the location
  list of an input in several places), fragment, reason, reason_class, location
  (the reference interpreter's location and value in the same context, in
  the schema of docs/schema/location.json; null when it fails, then
  evaluation_error says why)}.

EXIT STATUS
  0 every expression lowered; 1 some did not; 2 unreadable input.

BIT RANGES
  Written LO..HI: bits LO up to but not including HI, bit 0 the least
  significant (half-open). Locations and values print as in `diopter eval
  --help`; in JSON they are the objects of docs/schema/location.json.";

#[derive(clap::Args)]
pub struct Args {
    /// `.expr` files or directories (searched recursively for `.expr` files).
    pub paths: Vec<PathBuf>,
    /// Lower one expression in the one-line form (may be repeated).
    #[arg(short = 'e', long = "expr", value_name = "ONE-LINE")]
    pub exprs: Vec<String>,
    /// A context giving the inputs' locations (see `diopter eval --help`).
    #[arg(long, value_name = "FILE")]
    pub context: Option<PathBuf>,
    /// Data layout: `default`, `amdgpu` or an LLVM datalayout string
    /// (overrides the input's `target datalayout`).
    #[arg(long, value_name = "LAYOUT")]
    pub datalayout: Option<String>,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Where DWARF 5 has no operation, use AMD's heterogeneous-debugging
    /// extensions (`DW_OP_LLVM_form_aspace_address` for memory outside
    /// address space 0, `DW_OP_LLVM_push_lane`; without `--context` the lane
    /// is 0). Such bytes are for AMD's consumers, not DWARF 5 ones.
    #[arg(long)]
    pub ext: bool,
}

/// One expression's result.
struct Item {
    file: String,
    line: usize,
    expression: String,
    result: Result<Lowered, NotLowerable>,
    /// The reference interpreter's location in the lowering's context.
    location: Result<LocatedView, String>,
}

/// The context an expression is lowered in: `ctx` with the layout `dl`, or
/// without one the registers of [`register_context`] (which the lowering
/// coverage of `reports/lowering.md` uses too).
fn lowering_context(b: &Bare, dl: &DataLayout, ctx: Option<&Context>, ext: bool) -> Context {
    match ctx {
        Some(c) => {
            let mut c = c.clone();
            c.datalayout = dl.clone();
            c
        }
        None => register_context(b, dl, ext),
    }
}

/// The lowering of `b`, and the location the reference interpreter gives it
/// in the same context (what the DWARF must describe), or why it gives none.
fn lower_one(
    b: &Bare,
    types: &TypeTable,
    dl: &DataLayout,
    ctx: Option<&Context>,
    ext: bool,
) -> (Result<Lowered, NotLowerable>, Result<LocatedView, String>) {
    let lower_fn = if ext { lower_ext } else { lower };
    let c = lowering_context(b, dl, ctx, ext);
    let lowered = lower_fn(b, types, &c);
    let located = match eval_bare(b, types, &c) {
        Ok(r) => {
            let (read, unlisted) = read_noting_unlisted(&c, &r.loc, r.bits);
            Ok(LocatedView::new(&r, Some(&read), &unlisted))
        }
        Err(e) => Err(format!(
            "{:?} at operation #{}: {}",
            e.kind, e.op_index, e.message
        )),
    };
    (lowered, located)
}

pub fn run(a: &Args) -> ExitCode {
    crate::run_std(|o, e| run_to(a, o, e))
}

/// [`run`], printing to `out` and `err`; returns the exit status.
pub fn run_to(a: &Args, wout: &mut dyn Write, werr: &mut dyn Write) -> u8 {
    let forced_dl = match a.datalayout.as_deref().map(DataLayout::from_name_or_string) {
        None => None,
        Some(Ok(d)) => Some(d),
        Some(Err(e)) => {
            outln!(werr, "error: --datalayout: {e}");
            return 2;
        }
    };
    let ctx = match &a.context {
        None => None,
        Some(p) => {
            let text = match inputs::read(p) {
                Ok(t) => t,
                Err(e) => {
                    outln!(werr, "error: {e}");
                    return 2;
                }
            };
            match Context::parse(&text) {
                Ok(c) => Some(c),
                Err(ds) => {
                    let src = Source::new(p.display().to_string(), text);
                    for d in &ds {
                        outln!(werr, "{}", src.render(d));
                    }
                    return 2;
                }
            }
        }
    };
    let mut items = Vec::new();
    let mut unreadable = false;
    let mut sources: Vec<(String, String)> = a
        .exprs
        .iter()
        .map(|e| ("<-e>".to_string(), e.clone()))
        .collect();
    let files = match inputs::expand(&a.paths) {
        Ok(f) => f,
        Err(e) => {
            outln!(werr, "error: {e}");
            return 2;
        }
    };
    for f in files {
        if f.extension().and_then(|e| e.to_str()) != Some("expr") {
            continue;
        }
        match inputs::read(&f) {
            Ok(t) => sources.push((f.display().to_string(), t)),
            Err(e) => {
                outln!(werr, "error: {e}");
                unreadable = true;
            }
        }
    }
    for (name, text) in sources {
        let src = Source::new(name.clone(), text);
        let (file, diags) = parse_expr_file(&src);
        for d in &diags {
            outln!(werr, "{}", src.render(d));
            unreadable = true;
        }
        if diags.is_empty() && name == "<-e>" && file.entries.is_empty() {
            outln!(werr, "diopter lower: <-e>: no expression");
            unreadable = true;
        }
        let dl = forced_dl
            .clone()
            .or_else(|| {
                ctx.as_ref()
                    .filter(|_| file.datalayout.is_none())
                    .map(|c| c.datalayout.clone())
            })
            .or_else(|| file.datalayout.as_ref().map(|(d, _)| d.clone()))
            .unwrap_or_default();
        for e in &file.entries {
            // Parse-only lines and those meant to be ill-formed (AMD's
            // verifier's rejects) describe no location to lower.
            if !e.describes_a_location() {
                continue;
            }
            let (result, location) = lower_one(&e.bare, &file.types, &dl, ctx.as_ref(), a.ext);
            items.push(Item {
                file: name.clone(),
                line: e.line,
                expression: print_bare(&e.bare),
                result,
                location,
            });
        }
    }
    if items.is_empty() && !unreadable {
        outln!(
            werr,
            "diopter lower: no expression (give .expr files or -e 'ONE-LINE')"
        );
        return 2;
    }
    match a.format {
        Format::Text => print_text(wout, &items),
        Format::Json => print_json(wout, &items),
    }
    if unreadable {
        2
    } else if items.iter().all(|i| i.result.is_ok()) {
        0
    } else {
        1
    }
}

fn print_text(wout: &mut dyn Write, items: &[Item]) {
    let mut reasons: BTreeMap<String, usize> = BTreeMap::new();
    for i in items {
        outln!(wout, "{}:{}: {}", i.file, i.line, i.expression);
        match &i.result {
            Ok(l) => {
                outln!(wout, "  {}", print_ops(&l.ops));
                outln!(wout, "  bytes: {}", hex(&l.bytes));
                if !l.registers.is_empty() {
                    let regs: Vec<String> = l
                        .registers
                        .iter()
                        .enumerate()
                        .map(|(n, r)| format!("0x{n:x} = {r}"))
                        .collect();
                    outln!(wout, "  registers: {}", regs.join(", "));
                }
                for (die, what) in dies(l) {
                    outln!(wout, "  DIE 0x{die:x}: {what}");
                }
                if let Some((o, s)) = l.fragment {
                    outln!(
                        wout,
                        "  fragment: bits {o}..{} of the variable (DIOpFragment, not in the bytes)",
                        o + s
                    );
                }
            }
            Err(e) => {
                outln!(wout, "  not lowerable: {e}");
                *reasons.entry(e.class()).or_default() += 1;
            }
        }
    }
    let ok = items.iter().filter(|i| i.result.is_ok()).count();
    let pct = if items.is_empty() {
        0.0
    } else {
        100.0 * ok as f64 / items.len() as f64
    };
    outln!(
        wout,
        "{} expressions: {ok} lower ({pct:.1}%), {} do not",
        items.len(),
        items.len() - ok
    );
    let mut r: Vec<_> = reasons.into_iter().collect();
    r.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    for (reason, n) in r {
        outln!(wout, "  {n:5}  {reason}");
    }
}

/// The DIEs the bytes refer to, which a compiler would emit beside them:
/// the objects of implicit pointers and the location lists of inputs in
/// several places, with what they describe.
fn dies(l: &Lowered) -> Vec<(u32, String)> {
    let mut out = Vec::new();
    for (k, t) in l.implicit_targets.iter().enumerate() {
        out.push((
            IMPLICIT_DIE_BASE + 0x10 * k as u32,
            format!("an object of type `{}` at {}", t.ty, t.loc),
        ));
    }
    for (k, loc) in l.location_lists.iter().enumerate() {
        let places: Vec<String> = loc
            .singles
            .iter()
            .map(|s| {
                LocDesc {
                    singles: vec![s.clone()],
                }
                .to_string()
            })
            .collect();
        out.push((
            LOCLIST_DIE_BASE + 0x10 * k as u32,
            format!(
                "a location list whose entries all match here: {}",
                places.join(" | ")
            ),
        ));
    }
    out
}

fn print_json(wout: &mut dyn Write, items: &[Item]) {
    let v: Vec<serde_json::Value> = items
        .iter()
        .map(|i| match &i.result {
            Ok(l) => serde_json::json!({
                "file": i.file,
                "line": i.line,
                "expression": i.expression,
                "lowered": true,
                "ops": l.ops.iter().map(|o| o.to_string()).collect::<Vec<_>>(),
                "dwarfdump": print_ops(&l.ops),
                "bytes": hex(&l.bytes),
                "registers": l.registers,
                "dies": dies(l)
                    .into_iter()
                    .map(|(die, what)| serde_json::json!({"offset": die, "describes": what}))
                    .collect::<Vec<_>>(),
                "fragment": l.fragment.map(|(o, s)| serde_json::json!({"offset": o, "size": s})),
                "location": i.location.as_ref().ok(),
                "evaluation_error": i.location.as_ref().err(),
            }),
            Err(e) => serde_json::json!({
                "file": i.file,
                "line": i.line,
                "expression": i.expression,
                "lowered": false,
                "reason": e.to_string(),
                "reason_class": e.class(),
                "location": i.location.as_ref().ok(),
                "evaluation_error": i.location.as_ref().err(),
            }),
        })
        .collect();
    outln!(
        wout,
        "{}",
        serde_json::to_string_pretty(&v).unwrap_or_default()
    );
}
