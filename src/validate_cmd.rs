//! `diopter validate`: translation validation of a compiler's updates of
//! DIOp expressions (`diopter_tv::validate`): a before/after pair and an
//! operand mapping, from the command line or from pair files such as
//! `corpus/amd/amd-rewrites.map`. Also writes `reports/validation.{md,json}`
//! for `diopter report`. The jobs of pair files, their validation, JSON,
//! text and report are `diopter_tv::batch`; this module reads the inputs
//! and prints.

use crate::inputs;
use crate::Format;
use crate::{out, outln};
use diopter_semantics::diag::Source;
use diopter_smt::prove::ProveConfig;
use diopter_tv::batch::{self, jobs, render_text, summary, summary_line, validate_all, Job};
use serde_json::json;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

pub const VALIDATE_HELP: &str = "\
A pass rewrote BEFORE (over the OLD operands) into AFTER (over the NEW
operands). The operand mapping says, for every old operand BEFORE reads,
where its value is after the pass, as a DIOp expression over the new
operands (`argK := ...`), or that the pass deleted it (`argK := undefined`).
diopter substitutes the mapping into BEFORE, so that both sides are over the
new operands, and asks Z3 (the encoding and storage shapes of `diopter
prove`: every new operand in memory, an entity, an implicit value,
undefined, a composite, ...) whether AFTER refines BEFORE:

  equivalent   same failure, type, bits read and effect of every write
  refinement   sound but lossy: AFTER is read-only where BEFORE is writable,
               or gives nothing (fails, reads nothing, refuses a write) where
               BEFORE gives something; or AFTER is poisoned; or the mapping
               deletes an operand BEFORE reads. The text says what was lost.
  refuted      a context where AFTER gives a different value, a value where
               BEFORE has none, or accepts a write BEFORE refuses or writes
               elsewhere; printed Alive-style, re-evaluated by the reference
               interpreter (the context is replayable with `diopter eval`);
               or, where Z3 gave up, a difference the reference interpreter
               found in a random context (the detail says which trial)
  unknown      Z3 gave up; the pair was then evaluated in random contexts by
               the reference interpreter with no difference (how many is said)
  encoding-bug Z3 found a difference the reference interpreter does not
               confirm: a bug in diopter, never a verdict on the pass

An entry may be generic (`where T: int`, see GENERIC PAIRS below; on the
command line --where 'T: int'): it is decided at every binding of its type
variables (an int variable at every width of --widths), with a verdict per
binding and the worst as the entry's verdict; a refutation names its
binding (`refuted at T = i8`).

Exit status: 0 when no pair is refuted (unknown tolerated); 1 when some pair
is refuted or meets an encoding bug; 2 for bad input (a diagnostic with file,
line, column and caret), and when nothing was validated: pair files with no
pair, --pair naming none, IR files with no debug record to compare.

COMMAND LINE
  diopter validate -e BEFORE -e AFTER --map 'arg0 := ...' [--map ...]
  diopter validate -e BEFORE -e poisoned
  diopter validate FILE...            pair files (format below)

  $ diopter validate --datalayout amdgpu \\
      -e '[i64] DIOpArg(0, i64)' \\
      -e '[i64] DIOpArg(0, i64), DIOpConstant(i64 7), DIOpShl()' \\
      --map 'arg0 := DIOpArg(0, i64), DIOpConstant(i64 7), DIOpShl()'
  $ diopter validate --where 'T: int' --widths 8,16,32 \\
      -e '[T] DIOpArg(0, T)' \\
      -e '[T] DIOpArg(0, T), DIOpConstant(T 1), DIOpAdd()' \\
      --map 'arg0 := DIOpArg(0, T), DIOpConstant(T 1), DIOpAdd()'
";

#[derive(clap::Args, Clone)]
pub struct Args {
    /// Pair files; two .ll files (BEFORE AFTER); or, with --passes, one .ll file.
    pub paths: Vec<PathBuf>,
    /// Run this pass pipeline (opt -passes= syntax) over the one .ll file
    /// with LLVM's opt and validate every record of the result (OPT IN THE LOOP below).
    #[arg(long, value_name = "PIPELINE")]
    pub passes: Option<String>,
    /// With --passes: first strip the file's debug information and give
    /// every instruction result a variable (opt -passes=debugify).
    #[arg(long, requires = "passes")]
    pub debugify: bool,
    /// With --passes: the opt to run (default: opt-19, then opt, on PATH).
    #[arg(long, value_name = "PATH", requires = "passes")]
    pub opt: Option<PathBuf>,
    /// With --passes: write the two modules validated (BEFORE.ll, AFTER.ll) here
    /// (default: a fresh directory under the system's temporary directory, printed).
    #[arg(long, value_name = "DIR", requires = "passes")]
    pub keep: Option<PathBuf>,
    /// BEFORE then AFTER in the one-line form (AFTER may be `poisoned`).
    #[arg(short = 'e', long = "expr", value_name = "ONE-LINE")]
    pub exprs: Vec<String>,
    /// `argK := DIOp...` or `argK := undefined` (with -e; may be repeated).
    #[arg(long = "map", value_name = "MAPPING")]
    pub maps: Vec<String>,
    /// Data layout for -e: `default`, `amdgpu`, or an LLVM datalayout string.
    #[arg(long, value_name = "LAYOUT")]
    pub datalayout: Option<String>,
    /// Type variables of -e and --map (`T: int, U: ptr`; may be repeated),
    /// as a pair file's `where` line.
    #[arg(long = "where", value_name = "VARS")]
    pub wheres: Vec<String>,
    /// Integer widths to instantiate the type variables of generic pairs
    /// with (as `diopter prove --widths`): widths and inclusive ranges,
    /// `1..8,16,32`, each from 1 to 256 bits.
    #[arg(
        long,
        value_name = "LIST",
        default_value = crate::prove_cmd::DEFAULT_WIDTHS,
        value_parser = crate::widths_arg::parse_widths
    )]
    pub widths: crate::widths_arg::WidthList,
    /// Timeout of one Z3 query, in milliseconds (1 to 3600000: Z3 reads 0
    /// as no timeout, which is not offered).
    #[arg(long, value_name = "MS", default_value_t = 10_000,
          value_parser = clap::value_parser!(u32).range(1..=3_600_000))]
    pub timeout: u32,
    /// Only the pairs whose name is this.
    #[arg(long, value_name = "NAME")]
    pub pair: Option<String>,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Give up after this many seconds: pairs not begun by then are
    /// `unknown`, and the random contexts tried after Z3 gives up stop at
    /// it (a query under way runs its --timeout).
    #[arg(long, value_name = "SECONDS", value_parser = crate::parse_seconds)]
    pub time_limit: Option<Duration>,
}

/// The prover's settings for `a`, its time limit counted from now.
pub fn prove_config(a: &Args) -> ProveConfig {
    ProveConfig {
        timeout_ms: a.timeout,
        deadline: a.time_limit.map(|t| Instant::now() + t),
        ..ProveConfig::default()
    }
}

/// Reads the pairs of the inputs; diagnostics are rendered, with `Err` on any.
fn load(a: &Args) -> Result<Vec<(Source, Vec<Job>)>, String> {
    let mut out = Vec::new();
    let mut errors = String::new();
    if !a.exprs.is_empty() {
        if a.exprs.len() != 2 {
            return Err(
                "diopter validate: -e takes exactly two expressions, BEFORE and AFTER\n".into(),
            );
        }
        let mut text = String::from("pair command line\n");
        if let Some(dl) = &a.datalayout {
            let _ = writeln!(text, "datalayout {dl}");
        }
        for w in &a.wheres {
            if w.contains('\n') {
                return Err("diopter validate: --where is one line\n".into());
            }
            let _ = writeln!(text, "where {w}");
        }
        let _ = writeln!(text, "before {}", a.exprs[0]);
        let _ = writeln!(text, "after {}", a.exprs[1]);
        for m in &a.maps {
            if m.contains('\n') {
                return Err("diopter validate: --map is one line\n".into());
            }
            let _ = writeln!(text, "{m}");
        }
        out.push(Source::new("<command line>", text));
    } else if !a.maps.is_empty() || !a.wheres.is_empty() {
        return Err("diopter validate: --map and --where need -e BEFORE -e AFTER\n".into());
    }
    for p in &a.paths {
        match inputs::read(p) {
            Ok(t) => out.push(Source::new(p.display().to_string(), t)),
            Err(e) => {
                let _ = writeln!(errors, "{}: error: {e}", p.display());
            }
        }
    }
    if out.is_empty() && errors.is_empty() {
        return Err(
            "diopter validate: give -e BEFORE -e AFTER --map ..., or pair files (see --help)\n"
                .into(),
        );
    }
    let mut loaded = Vec::new();
    for src in out {
        let (jobs, diags) = jobs(&src, &a.widths);
        for d in &diags {
            errors.push_str(&src.render(d));
        }
        loaded.push((src, jobs));
    }
    if errors.is_empty() {
        Ok(loaded)
    } else {
        Err(errors)
    }
}

pub fn run(a: &Args) -> ExitCode {
    crate::run_std(|o, e| run_to(a, o, e))
}

/// [`run`], printing to `wout` and `werr`; returns the exit status.
pub fn run_to(a: &Args, wout: &mut dyn std::io::Write, werr: &mut dyn std::io::Write) -> u8 {
    let loaded = match load(a) {
        Ok(l) => l,
        Err(e) => {
            out!(werr, "{e}");
            return 2;
        }
    };
    let results = validate_all(&loaded, &prove_config(a), a.pair.as_deref());
    if results.is_empty() {
        let files: Vec<&str> = loaded.iter().map(|(s, _)| s.name.as_str()).collect();
        match &a.pair {
            Some(n) => outln!(
                werr,
                "diopter validate: no pair named `{n}` in {}: nothing validated",
                files.join(", ")
            ),
            None => outln!(
                werr,
                "diopter validate: no pair in {}: nothing validated",
                files.join(", ")
            ),
        }
        return 2;
    }
    let bad = results
        .iter()
        .any(|r| matches!(r["verdict"].as_str(), Some("refuted" | "encoding-bug")));
    match a.format {
        Format::Json => {
            let v = json!({ "pairs": results, "summary": summary(&results) });
            outln!(
                wout,
                "{}",
                serde_json::to_string_pretty(&v).unwrap_or_default()
            );
        }
        Format::Text => {
            for r in &results {
                out!(wout, "{}", render_text(r));
            }
            outln!(wout, "{}", summary_line(&results));
        }
    }
    u8::from(bad)
}

/// The corpus pair file the validation report covers.
pub const CORPUS_PAIRS: &str = "corpus/amd/amd-rewrites.map";

/// Writes `validation.md` and `validation.json` into `dir` from the corpus
/// pair file under `root`, with the explanations of
/// `corpus/amd/validation-findings.md` (hand-written: why each refutation is
/// an AMD bug or an erratum) appended. Returns the summary line.
pub fn write_report(root: &Path, dir: &Path) -> Result<String, String> {
    let path = root.join(CORPUS_PAIRS);
    let text = inputs::read(&path)?;
    let src = Source::new(CORPUS_PAIRS, text);
    let (jobs, diags) = jobs(&src, diopter_rules::DEFAULT_WIDTHS);
    let mut errs = String::new();
    for d in &diags {
        errs.push_str(&src.render(d));
    }
    if !errs.is_empty() {
        return Err(errs);
    }
    let loaded = vec![(src, jobs)];
    let results = validate_all(
        &loaded,
        &ProveConfig {
            timeout_ms: 10_000,
            ..ProveConfig::default()
        },
        None,
    );
    let line = summary_line(&results);
    let doc = json!({
        "generated_by": "diopter report (diopter validate corpus/amd/amd-rewrites.map)",
        "summary": summary(&results),
        "pairs": results,
    });
    let findings = std::fs::read_to_string(root.join("corpus/amd/validation-findings.md"))
        .unwrap_or_else(|_| "(corpus/amd/validation-findings.md is missing)\n".into());
    let md = batch::report_markdown(&results, &line, CORPUS_PAIRS, &findings);
    let write = |name: &str, text: &str| {
        diopter_report::write_atomic(&dir.join(name), text).map_err(|e| format!("{name}: {e}"))
    };
    write("validation.md", &md)?;
    write(
        "validation.json",
        &(serde_json::to_string_pretty(&doc).unwrap_or_default() + "\n"),
    )?;
    Ok(line)
}
