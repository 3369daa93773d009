//! `diopter locations`: each object's location list over a function's
//! instructions, like a DWARF location list, and with a context the location
//! and value at every instruction.
//!
//! The computation is `diopter_semantics::objloc`, the report
//! `diopter_report::locations`; this module only reads the inputs, reports
//! their problems, and prints.

use crate::inputs;
use crate::Format;
use crate::{out, outln};
use diopter_report::locations;
use diopter_semantics::context::Context;
use diopter_semantics::diag::{Severity, Source};
use diopter_semantics::lifetimes::check_lifetimes;
use diopter_semantics::objloc::Model;
use diopter_semantics::syntax::module::parse_module;
use diopter_semantics::types::DataLayout;
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
    let report = locations::build(&src, &m, ctx.as_ref(), &lifetime_diags);
    match a.format {
        Format::Json => outln!(
            wout,
            "{}",
            serde_json::to_string_pretty(&report).unwrap_or_default()
        ),
        Format::Text => out!(wout, "{}", locations::render_text(&report)),
    }
    if lifetime_diags.is_empty() {
        0
    } else {
        1
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
        serde_json::to_value(locations::build(&src, &m, c.as_ref(), &check_lifetimes(&m))).unwrap()
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
