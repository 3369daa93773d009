//! `diopter validate`: translation validation of a compiler's updates of
//! DIOp expressions (`diopter_tv::validate`): a before/after pair and an
//! operand mapping, from the command line or from pair files such as
//! `corpus/amd/amd-rewrites.map`. Also writes `reports/validation.{md,json}`
//! for `diopter report`.

use crate::inputs;
use crate::Format;
use crate::{out, outln};
use diopter_semantics::diag::{Diagnostic, Source};
use diopter_semantics::syntax::print_bare;
use diopter_semantics::types::TypeTable;
use diopter_smt::prove::ProveConfig;
use diopter_tv::validate::{self, Entry, Generic, MapRhs, Pair, Verdict};
use serde_json::{json, Value};
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

/// What `validate` decides for one entry of a pair file.
pub enum Job {
    /// A concrete pair.
    One(Box<Pair>),
    /// A generic entry: each binding's label and its pair, or why the
    /// binding gives none (with the line and column).
    Generic(Box<Generic>, Vec<(String, Result<Pair, String>)>),
}

impl Job {
    fn name(&self) -> &str {
        match self {
            Job::One(p) => &p.name,
            Job::Generic(g, _) => &g.name,
        }
    }
}

/// The entries of a pair file as jobs, generic ones instantiated at
/// `widths`, and the diagnostics: the file's, a concrete pair's that
/// [`validate::check_pair`] rejects, and a generic entry's that no binding
/// makes well-formed (the first binding's first reason).
pub fn jobs(src: &Source, widths: &[u64]) -> (Vec<Job>, Vec<Diagnostic>) {
    let types = TypeTable::default();
    let (entries, mut diags) = validate::parse_pairs(&src.text);
    let mut out = Vec::new();
    for e in entries {
        match e {
            Entry::Pair(p) => {
                if let Err(d) = validate::check_pair(&p, &types) {
                    diags.extend(d);
                }
                out.push(Job::One(p));
            }
            Entry::Generic(g) => {
                let mut first_error: Option<(String, Diagnostic)> = None;
                let insts: Vec<(String, Result<Pair, String>)> =
                    g.bindings(widths)
                        .into_iter()
                        .map(|b| {
                            let label = validate::binding_label(&b);
                            let r = g.instantiate(&b, &types).map_err(|ds| {
                                let d = ds.into_iter().next().unwrap_or_else(|| {
                                    Diagnostic::error(g.span, "not well-formed")
                                });
                                let (line, col) = src.line_col(d.span.start);
                                let why = format!("{line}:{col}: {}", d.message);
                                first_error.get_or_insert((label.clone(), d));
                                why
                            });
                            (label, r)
                        })
                        .collect();
                if insts.iter().all(|(_, r)| r.is_err()) {
                    if let Some((label, d)) = first_error {
                        let mut e = Diagnostic::error(
                            d.span,
                            format!(
                                "no binding of `where {}` makes pair `{}` well-formed; at {label}: {}",
                                g.where_text(),
                                g.name,
                                d.message
                            ),
                        );
                        e.notes = d.notes;
                        diags.push(e);
                    }
                }
                out.push(Job::Generic(g, insts));
            }
        }
    }
    (out, diags)
}

/// One pair's result as JSON (the report and `--format json` both use it).
pub fn pair_json(file: &str, p: &Pair, o: &validate::Outcome) -> Value {
    let map: Vec<String> = p
        .map
        .iter()
        .map(|(k, m, _)| match m {
            MapRhs::Expr(e) => format!("arg{k} := {}", diopter_semantics::syntax::print_ops(e)),
            MapRhs::Undefined => format!("arg{k} := undefined"),
        })
        .collect();
    let (detail, cex) = match &o.verdict {
        Verdict::Equivalent => (String::new(), Value::Null),
        Verdict::Refinement(s) | Verdict::EncodingBug(s) => (s.clone(), Value::Null),
        Verdict::Unknown { why, trials } => (
            format!(
                "{why}; the reference interpreter found no difference in {trials} random contexts"
            ),
            Value::Null,
        ),
        Verdict::RefutedInTrial { why, found } => (
            format!(
                "Z3 could not decide ({why}); the reference interpreter found a difference in a \
                 random context (no Z3 model, so no counterexample object): {found}"
            ),
            Value::Null,
        ),
        Verdict::Refuted(c) => (
            c.first_difference.clone(),
            json!({
                "text": c.render(),
                "differences": c.differences,
                "first_difference": c.first_difference,
                "context": c.context,
                "before_substituted": c.lhs,
                "after": c.rhs,
                "before_location": c.left_location,
                "after_location": c.right_location,
            }),
        ),
    };
    json!({
        "file": file,
        "pair": p.name,
        "source": p.source,
        "before": print_bare(&p.before),
        "after": p.after.as_ref().map(print_bare).unwrap_or_else(|| "DW_OP_LLVM_poisoned".into()),
        "mapping": map,
        "substituted": o.substituted,
        "verdict": o.verdict.label(),
        "detail": detail,
        "counterexample": cex,
        "notes": p.notes,
        "millis": o.millis as u64,
    })
}

/// A generic entry's result as JSON: the shape of [`pair_json`] (the
/// lines as written, type variables and all), with the verdict, detail,
/// counterexample and substituted before-expression of its worst binding
/// (`binding` names it), plus `where`, `instances` (every binding's
/// verdict) and `skipped` (the bindings that give no well-formed pair).
pub fn generic_json(
    file: &str,
    g: &Generic,
    results: &[(String, Pair, validate::Outcome)],
    skipped: &[(String, String)],
) -> Value {
    let instances: Vec<Value> = results
        .iter()
        .map(|(label, p, o)| {
            let mut v = pair_json(file, p, o);
            json!({
                "binding": label,
                "verdict": v["verdict"].take(),
                "detail": v["detail"].take(),
                "counterexample": v["counterexample"].take(),
                "substituted": v["substituted"].take(),
                "millis": v["millis"].take(),
            })
        })
        .collect();
    // The worst binding decides; among equals, the first.
    let worst = results
        .iter()
        .enumerate()
        .max_by_key(|(i, (_, _, o))| (o.verdict.rank(), std::cmp::Reverse(*i)))
        .map(|(i, _)| i);
    let (verdict, detail, cex, substituted, binding) = match worst {
        Some(i) => {
            let w = &instances[i];
            let detail = w["detail"].as_str().unwrap_or("");
            let label = w["binding"].as_str().unwrap_or("");
            let detail = match w["verdict"].as_str() {
                Some("equivalent") => format!("at every binding ({})", results.len()),
                _ if detail.is_empty() => format!("at {label}"),
                _ => format!("at {label}: {detail}"),
            };
            (
                w["verdict"].clone(),
                detail,
                w["counterexample"].clone(),
                w["substituted"].clone(),
                w["binding"].clone(),
            )
        }
        None => (
            json!("unknown"),
            "no binding gives a well-formed pair".to_string(),
            Value::Null,
            json!(""),
            Value::Null,
        ),
    };
    json!({
        "file": file,
        "pair": g.name,
        "source": g.source,
        "where": g.where_text(),
        "before": g.before.text,
        "after": g.after.as_ref().map_or_else(|| "DW_OP_LLVM_poisoned".to_string(), |l| l.text.clone()),
        "mapping": g.map.iter().map(|l| l.text.clone()).collect::<Vec<_>>(),
        "substituted": substituted,
        "verdict": verdict,
        "binding": binding,
        "detail": detail,
        "counterexample": cex,
        "instances": instances,
        "skipped": skipped.iter().map(|(b, r)| json!({ "binding": b, "reason": r })).collect::<Vec<_>>(),
        "notes": g.notes,
        "millis": results.iter().map(|(_, _, o)| o.millis as u64).sum::<u64>(),
    })
}

/// Validates every pair (a generic one at each of its bindings); JSON per
/// entry.
pub fn validate_all(
    loaded: &[(Source, Vec<Job>)],
    cfg: &ProveConfig,
    only: Option<&str>,
) -> Vec<Value> {
    let types = TypeTable::default();
    let mut out = Vec::new();
    for (src, jobs) in loaded {
        for j in jobs {
            if only.is_some_and(|n| n != j.name()) {
                continue;
            }
            match j {
                Job::One(p) => {
                    let o = validate::validate(p, &types, cfg);
                    out.push(pair_json(&src.name, p, &o));
                }
                Job::Generic(g, insts) => {
                    let mut results = Vec::new();
                    let mut skipped = Vec::new();
                    for (label, r) in insts {
                        match r {
                            Ok(p) => {
                                let o = validate::validate(p, &types, cfg);
                                results.push((label.clone(), p.clone(), o));
                            }
                            Err(why) => skipped.push((label.clone(), why.clone())),
                        }
                    }
                    out.push(generic_json(&src.name, g, &results, &skipped));
                }
            }
        }
    }
    out
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

fn render_text(r: &Value) -> String {
    let s = |k: &str| r[k].as_str().unwrap_or("").to_string();
    let at = match r["binding"].as_str() {
        Some(b) if !matches!(s("verdict").as_str(), "equivalent") => format!(" at {b}"),
        _ => String::new(),
    };
    let mut t = format!("{}: {}{at} ({} ms)\n", s("pair"), s("verdict"), r["millis"]);
    if r.get("where").is_some() {
        let _ = writeln!(t, "  where:       {}", s("where"));
    }
    let _ = writeln!(t, "  before:      {}", s("before"));
    let _ = writeln!(t, "  after:       {}", s("after"));
    for m in r["mapping"].as_array().into_iter().flatten() {
        let _ = writeln!(t, "  mapping:     {}", m.as_str().unwrap_or(""));
    }
    for i in r["instances"].as_array().into_iter().flatten() {
        let _ = writeln!(
            t,
            "  {:<12} {} ({} ms)",
            format!("{}:", i["binding"].as_str().unwrap_or("")),
            i["verdict"].as_str().unwrap_or(""),
            i["millis"]
        );
    }
    for i in r["skipped"].as_array().into_iter().flatten() {
        let _ = writeln!(
            t,
            "  skipped {}: {}",
            i["binding"].as_str().unwrap_or(""),
            i["reason"].as_str().unwrap_or("")
        );
    }
    if !s("substituted").is_empty() {
        match r["binding"].as_str() {
            Some(b) => {
                let _ = writeln!(t, "  substituted: {} (at {b})", s("substituted"));
            }
            None => {
                let _ = writeln!(t, "  substituted: {}", s("substituted"));
            }
        }
    }
    match r["counterexample"]["text"].as_str() {
        Some(c) => t.push_str(c),
        None if !s("detail").is_empty() => {
            let _ = writeln!(t, "  {}", s("detail"));
        }
        None => {}
    }
    t
}

fn count(results: &[Value], v: &str) -> usize {
    results.iter().filter(|r| r["verdict"] == v).count()
}

fn median_ms(results: &[Value]) -> u64 {
    let mut ms: Vec<u64> = results
        .iter()
        .filter_map(|r| r["millis"].as_u64())
        .collect();
    ms.sort_unstable();
    if ms.is_empty() {
        0
    } else {
        ms[ms.len() / 2]
    }
}

fn summary(results: &[Value]) -> Value {
    json!({
        "pairs": results.len(),
        "equivalent": count(results, "equivalent"),
        "refinement": count(results, "refinement"),
        "refuted": count(results, "refuted"),
        "unknown": count(results, "unknown"),
        "encoding_bug": count(results, "encoding-bug"),
        "median_ms": median_ms(results),
        "total_ms": results.iter().filter_map(|r| r["millis"].as_u64()).sum::<u64>(),
    })
}

fn summary_line(results: &[Value]) -> String {
    format!(
        "{} pairs: {} equivalent, {} refinement, {} refuted, {} unknown, {} encoding bug; median {} ms per pair",
        results.len(),
        count(results, "equivalent"),
        count(results, "refinement"),
        count(results, "refuted"),
        count(results, "unknown"),
        count(results, "encoding-bug"),
        median_ms(results)
    )
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
    let mut md = String::new();
    let _ = writeln!(
        md,
        "# Translation validation of AMD's DIOp updates (`diopter validate`)\n"
    );
    let _ = writeln!(
        md,
        "Generated by `diopter report` from [`{CORPUS_PAIRS}`](../{CORPUS_PAIRS}) (one entry per row of \
         `corpus/amd/amd-rewrites.tsv`, with the operand mapping): `cargo run --release -- validate {CORPUS_PAIRS}` \
         prints the same verdicts. Do not edit: regenerate.\n"
    );
    let _ = writeln!(md, "**{line}.**\n");
    md.push_str(&findings);
    let _ = writeln!(md, "\n## Every row\n");
    let _ = writeln!(
        md,
        "| pair | verdict | ms | before | after | mapping | detail |"
    );
    let _ = writeln!(md, "|---|---|---|---|---|---|---|");
    let cell = |s: &str| s.replace('|', "\\|").replace('\n', " ");
    for r in &results {
        let maps: Vec<&str> = r["mapping"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|m| m.as_str())
            .collect();
        let _ = writeln!(
            md,
            "| {} | **{}** | {} | `{}` | `{}` | {} | {} |",
            cell(r["pair"].as_str().unwrap_or("")),
            r["verdict"].as_str().unwrap_or(""),
            r["millis"],
            cell(r["before"].as_str().unwrap_or("")),
            cell(r["after"].as_str().unwrap_or("")),
            maps.iter()
                .map(|m| format!("`{}`", cell(m)))
                .collect::<Vec<_>>()
                .join("<br>"),
            cell(r["detail"].as_str().unwrap_or("")),
        );
    }
    let refuted: Vec<&Value> = results
        .iter()
        .filter(|r| r["verdict"] == "refuted")
        .collect();
    if !refuted.is_empty() {
        let _ = writeln!(
            md,
            "\n## Counterexamples (re-evaluated by the reference interpreter)\n"
        );
        for r in refuted {
            let _ = writeln!(md, "### {}\n", r["pair"].as_str().unwrap_or(""));
            let _ = writeln!(
                md,
                "```text\n{}```\n",
                r["counterexample"]["text"].as_str().unwrap_or("")
            );
            let _ = writeln!(
                md,
                "Context (replay: save as a file, `diopter eval -e EXPR --context FILE`):\n\n```text\n{}```\n",
                r["counterexample"]["context"].as_str().unwrap_or("")
            );
        }
    }
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
