//! `diopter validate BEFORE.ll AFTER.ll`: translation validation of whole IR
//! files (`diopter_tv::validate_ir`): each variable's debug records matched
//! between the two versions of a function, each matched pair validated as
//! `diopter validate` validates a pair, coverage losses and unmatched records
//! reported.

use crate::inputs;
use crate::validate_cmd::{prove_config, Args};
use crate::Format;
use crate::{out, outln};
use diopter_semantics::diag::{Severity, Source};
use diopter_semantics::syntax::module::parse_module;
use diopter_semantics::types::DataLayout;
use diopter_smt::prove::ProveConfig;
use diopter_tv::batch::pair_json;
use diopter_tv::validate_ir::{self, Matched, Unmatched, UserMap};
use serde_json::{json, Value};
use std::fmt::Write as _;
use std::process::ExitCode;

/// Whether the arguments ask for whole files: exactly two `.ll` paths.
pub fn applies(a: &Args) -> bool {
    a.exprs.is_empty()
        && a.paths.len() == 2
        && a.paths
            .iter()
            .all(|p| p.extension().is_some_and(|e| e == "ll"))
}

/// Reads a file as a module; diagnostics rendered into `errors`.
fn read_module(
    path: &std::path::Path,
    errors: &mut String,
) -> Option<(Source, diopter_semantics::ir::Module)> {
    let text = match inputs::read(path) {
        Ok(t) => t,
        Err(e) => {
            let _ = writeln!(errors, "{}: error: {e}", path.display());
            return None;
        }
    };
    let src = Source::new(path.display().to_string(), text);
    let (m, diags) = parse_module(&src.text);
    let mut bad = false;
    for d in &diags {
        if d.severity == Severity::Error {
            bad = true;
        }
        errors.push_str(&src.render(d));
    }
    if bad {
        None
    } else {
        Some((src, m))
    }
}

fn parse_maps(maps: &[String], errors: &mut String) -> Vec<UserMap> {
    let text = maps.join("\n");
    let src = Source::new("<--map>", text.clone());
    let mut out = Vec::new();
    let mut off = 0;
    for m in maps {
        match validate_ir::parse_user_map(&text, off, off + m.len()) {
            Ok(u) => out.push(u),
            Err(d) => errors.push_str(&src.render(&d)),
        }
        off += m.len() + 1;
    }
    out
}

fn line_of(src: &Source, at: usize) -> usize {
    src.line_col(at).0
}

fn record_json(src: &Source, at: usize, kind: &str) -> Value {
    let line = line_of(src, at);
    json!({
        "file": src.name,
        "line": line,
        "kind": kind,
        "text": src.line_text(line).trim(),
    })
}

fn unmatched_json(src: &Source, u: &Unmatched) -> Value {
    json!({
        "function": u.function,
        "variable": u.variable,
        "record": record_json(src, u.at, u.kind.name()),
    })
}

/// One matched pair as JSON: the pair's own JSON (`diopter_tv::batch::pair_json`)
/// with the records, how they were matched and how each operand was
/// resolved.
fn matched_json(
    m: &Matched,
    bsrc: &Source,
    asrc: &Source,
    cfg: &ProveConfig,
    types: &diopter_semantics::types::TypeTable,
) -> Value {
    let mut reading = None;
    let mut v = match validate_ir::validate_matched(m, cfg, types) {
        Ok(o) => {
            let (o, r) = diopter_tv::reading::settle(m, o, cfg, types);
            reading = r;
            pair_json(&bsrc.name, m.pair.as_ref().expect("validated"), &o)
        }
        Err(why) => json!({
            "file": bsrc.name,
            "pair": format!("@{} {}", m.function, m.variable),
            "verdict": "not-compared",
            "detail": match &m.diagnostic {
                Some((side, d)) => {
                    let src = if *side == "after" { asrc } else { bsrc };
                    format!("{side}-record: {}", src.render(d).trim_end())
                }
                None => why.to_string(),
            },
            "millis": 0,
        }),
    };
    let ops: Vec<Value> = m
        .operands
        .iter()
        .map(|o| json!({ "side": o.side, "operand": o.operand, "how": o.how, "detail": o.detail }))
        .collect();
    let roots: Vec<Value> = m
        .roots
        .iter()
        .enumerate()
        .map(|(k, r)| json!({ "arg": k, "value": r.key, "type": r.ty.to_string() }))
        .collect();
    v["function"] = json!(m.function);
    v["variable"] = json!(m.variable);
    v["before_record"] = record_json(bsrc, m.before_at, m.before_kind.name());
    v["after_record"] = record_json(asrc, m.after_at, m.after_kind.name());
    v["matched_by"] = json!(m.matched_by);
    v["operands"] = json!(ops);
    v["new_operands"] = json!(roots);
    v["assumes_unknown_operand"] = json!(m.assumes_unknown);
    // Which open convention of the classic translation the refutation
    // needs (`null`: wrong under every reading).
    if v["verdict"] == "refuted" {
        v["refuted_only_under"] = json!(reading.map(|r| r.label()));
    }
    v
}

/// Runs the comparison; the JSON document, or rendered input errors.
pub fn compare_files(a: &Args) -> Result<Value, String> {
    let mut errors = String::new();
    let b = read_module(&a.paths[0], &mut errors);
    let af = read_module(&a.paths[1], &mut errors);
    let maps = parse_maps(&a.maps, &mut errors);
    let dl = match &a.datalayout {
        Some(s) => match DataLayout::from_name_or_string(s) {
            Ok(d) => Some(d),
            Err(e) => {
                let _ = writeln!(errors, "diopter validate: --datalayout: {}", e.0);
                None
            }
        },
        None => None,
    };
    let (Some((bsrc, bm)), Some((asrc, am))) = (b, af) else {
        return Err(errors);
    };
    // A classic expression LLVM's reader or verifier rejects is an input error.
    for (src, m) in [(&bsrc, &bm), (&asrc, &am)] {
        for d in validate_ir::classic_errors(m) {
            errors.push_str(&src.render(&d));
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let dl = dl.unwrap_or_else(|| validate_ir::module_layout(&bm));
    let cfg = prove_config(a);
    let cmp = validate_ir::compare(&bm, &am, &dl, &maps);
    let pairs: Vec<Value> = cmp
        .matched
        .iter()
        .filter(|m| {
            a.pair
                .as_ref()
                .is_none_or(|n| m.pair.as_ref().is_ok_and(|p| p.name == *n))
        })
        .map(|m| matched_json(m, &bsrc, &asrc, &cfg, &bm.types))
        .collect();
    let count = |v: &str| pairs.iter().filter(|p| p["verdict"] == v).count();
    let losses: Vec<Value> = cmp
        .coverage_losses
        .iter()
        .map(|(f, v, n)| json!({ "function": f, "variable": v, "before_records": n }))
        .collect();
    let summary = json!({
        "pairs": pairs.len(),
        "equivalent": count("equivalent"),
        "refinement": count("refinement"),
        "refuted": count("refuted"),
        // Refuted only by giving an operand the pass redefined (or the
        // validator cannot relate) any value: not a claim about the pass.
        "refuted_inconclusive": pairs
            .iter()
            .filter(|p| p["verdict"] == "refuted" && p["assumes_unknown_operand"] == true)
            .count(),
        "unknown": count("unknown"),
        "encoding_bug": count("encoding-bug"),
        "not_compared": count("not-compared"),
        "coverage_losses": losses.len(),
        "unmatched_before": cmp.unmatched_before.len(),
        "unmatched_after": cmp.unmatched_after.len(),
        "total_ms": pairs.iter().filter_map(|r| r["millis"].as_u64()).sum::<u64>(),
    });
    Ok(json!({
        "before": bsrc.name,
        "after": asrc.name,
        "datalayout": if a.datalayout.is_some() { "--datalayout" } else if bm.datalayout.is_some() { "the before file's" } else if bm.triple.as_deref().is_some_and(|t| t.starts_with("amdgcn")) { "amdgpu (amdgcn triple)" } else { "default" },
        "maps": maps.iter().map(|m| m.text.clone()).collect::<Vec<_>>(),
        "pairs": pairs,
        "coverage_losses": losses,
        "unmatched_before": cmp.unmatched_before.iter().map(|u| unmatched_json(&bsrc, u)).collect::<Vec<_>>(),
        "unmatched_after": cmp.unmatched_after.iter().map(|u| unmatched_json(&asrc, u)).collect::<Vec<_>>(),
        "functions_removed": cmp.functions_removed,
        "functions_added": cmp.functions_added,
        "summary": summary,
    }))
}

pub fn summary_line(doc: &Value) -> String {
    let s = &doc["summary"];
    format!(
        "{} matched record pairs: {} equivalent, {} refinement, {} refuted{}, {} unknown, {} encoding bug, {} not compared; {} coverage losses, {} before-records and {} after-records unmatched",
        s["pairs"], s["equivalent"], s["refinement"], s["refuted"],
        match s["refuted_inconclusive"].as_u64() {
            Some(n) if n > 0 => format!(
                " ({n} of them inconclusive: only with an operand the pass redefined, given any value)"
            ),
            _ => String::new(),
        },
        s["unknown"], s["encoding_bug"],
        s["not_compared"], s["coverage_losses"], s["unmatched_before"], s["unmatched_after"]
    )
}

/// The text output of a comparison.
pub fn render_text(doc: &Value) -> String {
    let s = |v: &Value| v.as_str().unwrap_or("").to_string();
    let mut t = String::new();
    for r in doc["pairs"].as_array().into_iter().flatten() {
        let br = &r["before_record"];
        let ar = &r["after_record"];
        let _ = writeln!(
            t,
            "@{} variable {}: {}{} ({} ms)",
            s(&r["function"]),
            s(&r["variable"]),
            s(&r["verdict"]),
            match (
                &r["assumes_unknown_operand"],
                r["refuted_only_under"].as_str()
            ) {
                (Value::Bool(true), _) => {
                    " [assumes an undefined or unconstrained operand]".to_string()
                }
                (_, Some(reading)) => format!(
                    " [only under the sound reading of the {reading}: it holds with that fixed]"
                ),
                _ => String::new(),
            },
            r["millis"]
        );
        let _ = writeln!(
            t,
            "  before {}:{}: {}",
            s(&br["file"]),
            br["line"],
            s(&br["text"])
        );
        let _ = writeln!(
            t,
            "  after  {}:{}: {}",
            s(&ar["file"]),
            ar["line"],
            s(&ar["text"])
        );
        if r["matched_by"] != "kind and position" {
            let _ = writeln!(
                t,
                "  matched by {} ({} -> {})",
                s(&r["matched_by"]),
                s(&br["kind"]),
                s(&ar["kind"])
            );
        }
        for o in r["operands"].as_array().into_iter().flatten() {
            let _ = writeln!(
                t,
                "  {:6} {}: {}: {}",
                s(&o["side"]),
                s(&o["operand"]),
                s(&o["how"]),
                s(&o["detail"])
            );
        }
        for n in r["new_operands"].as_array().into_iter().flatten() {
            let _ = writeln!(
                t,
                "  arg{} = {} ({})",
                n["arg"],
                s(&n["value"]),
                s(&n["type"])
            );
        }
        if r.get("before").is_some() {
            let _ = writeln!(t, "  before:      {}", s(&r["before"]));
            let _ = writeln!(t, "  after:       {}", s(&r["after"]));
            if !s(&r["substituted"]).is_empty() {
                let _ = writeln!(t, "  substituted: {}", s(&r["substituted"]));
            }
        }
        match r["counterexample"]["text"].as_str() {
            Some(c) => t.push_str(c),
            None if !s(&r["detail"]).is_empty() => {
                let _ = writeln!(t, "  {}", s(&r["detail"]));
            }
            None => {}
        }
    }
    for l in doc["coverage_losses"].as_array().into_iter().flatten() {
        let _ = writeln!(
            t,
            "COVERAGE LOSS: @{} variable {}: {} record(s) before, none after",
            s(&l["function"]),
            s(&l["variable"]),
            l["before_records"]
        );
    }
    for (key, what) in [
        ("unmatched_before", "before-record with no after-record"),
        (
            "unmatched_after",
            "after-record with no before-record (added by the pass, not validated)",
        ),
    ] {
        for u in doc[key].as_array().into_iter().flatten() {
            let r = &u["record"];
            let _ = writeln!(
                t,
                "unmatched {what}: @{} variable {}: {}:{}: {}",
                s(&u["function"]),
                s(&u["variable"]),
                s(&r["file"]),
                r["line"],
                s(&r["text"])
            );
        }
    }
    for f in doc["functions_removed"].as_array().into_iter().flatten() {
        let _ = writeln!(t, "function removed: @{}", s(f));
    }
    let _ = writeln!(t, "{}", summary_line(doc));
    t
}

pub fn run(a: &Args) -> ExitCode {
    crate::run_std(|o, e| run_to(a, o, e))
}

/// [`run`], printing to `wout` and `werr`; returns the exit status.
pub fn run_to(a: &Args, wout: &mut dyn std::io::Write, werr: &mut dyn std::io::Write) -> u8 {
    let doc = match compare_files(a) {
        Ok(d) => d,
        Err(e) => {
            out!(werr, "{e}");
            return 2;
        }
    };
    // Nothing matched, lost or left over: neither file has a debug record
    // (an empty file, a text that is not IR), so nothing was validated; or
    // --pair names no matched pair.
    let s = &doc["summary"];
    let none = |k: &str| s[k].as_u64() == Some(0);
    let files = format!(
        "{}, {}",
        doc["before"].as_str().unwrap_or(""),
        doc["after"].as_str().unwrap_or("")
    );
    if let (Some(n), true) = (&a.pair, none("pairs")) {
        outln!(
            werr,
            "diopter validate: {files}: no matched record pair named `{n}`: nothing validated"
        );
        return 2;
    }
    if [
        "pairs",
        "coverage_losses",
        "unmatched_before",
        "unmatched_after",
    ]
    .iter()
    .all(|k| none(k))
    {
        outln!(
            werr,
            "diopter validate: {files}: no debug record in either file: nothing validated"
        );
        return 2;
    }
    match a.format {
        Format::Json => outln!(
            wout,
            "{}",
            serde_json::to_string_pretty(&doc).unwrap_or_default()
        ),
        Format::Text => out!(wout, "{}", render_text(&doc)),
    }
    let bad = doc["summary"]["refuted"].as_u64().unwrap_or(0) > 0
        || doc["summary"]["encoding_bug"].as_u64().unwrap_or(0) > 0;
    u8::from(bad)
}
