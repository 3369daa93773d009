//! `diopter validate` over pair files: each entry of a file as a job
//! ([`jobs`]; a generic entry at every binding of its type variables), every
//! job validated ([`validate_all`]) with one JSON object per entry
//! ([`pair_json`], [`generic_json`]: `--format json`, the report and the IR
//! validation print the same fields), the text `diopter validate` prints
//! ([`render_text`], [`summary_line`]) and `reports/validation.md`
//! ([`report_markdown`]). The command reads the inputs and prints.

use crate::validate::{self, Entry, Generic, MapRhs, Pair, Verdict};
use diopter_semantics::diag::{Diagnostic, Source};
use diopter_semantics::syntax::print_bare;
use diopter_semantics::types::TypeTable;
use diopter_smt::prove::ProveConfig;
use serde_json::{json, Value};
use std::fmt::Write as _;

/// What `validate` decides for one entry of a pair file.
pub enum Job {
    /// A concrete pair.
    One(Box<Pair>),
    /// A generic entry: each binding's label and its pair, or why the
    /// binding gives none (with the line and column).
    Generic(Box<Generic>, Vec<(String, Result<Pair, String>)>),
}

impl Job {
    /// The entry's name (`pair NAME`).
    pub fn name(&self) -> &str {
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

/// One entry's result ([`pair_json`], [`generic_json`]) as `diopter validate`
/// prints it.
pub fn render_text(r: &Value) -> String {
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

/// The counts of every verdict and the time taken, as JSON.
pub fn summary(results: &[Value]) -> Value {
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

/// [`summary`] in one line.
pub fn summary_line(results: &[Value]) -> String {
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

/// `reports/validation.md`: the results of the corpus pair file `pairs`
/// (`line` their [`summary_line`]) with the hand-written explanations of its
/// refutations (`findings`), then every row and every counterexample.
pub fn report_markdown(results: &[Value], line: &str, pairs: &str, findings: &str) -> String {
    let mut md = String::new();
    let _ = writeln!(
        md,
        "# Translation validation of AMD's DIOp updates (`diopter validate`)\n"
    );
    let _ = writeln!(
        md,
        "Generated by `diopter report` from [`{pairs}`](../{pairs}) (one entry per row of \
         `corpus/amd/amd-rewrites.tsv`, with the operand mapping): `cargo run --release -- validate {pairs}` \
         prints the same verdicts. Do not edit: regenerate.\n"
    );
    let _ = writeln!(md, "**{line}.**\n");
    md.push_str(findings);
    let _ = writeln!(md, "\n## Every row\n");
    let _ = writeln!(
        md,
        "| pair | verdict | ms | before | after | mapping | detail |"
    );
    let _ = writeln!(md, "|---|---|---|---|---|---|---|");
    let cell = |s: &str| s.replace('|', "\\|").replace('\n', " ");
    for r in results {
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
    md
}
