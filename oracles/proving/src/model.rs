//! The JSON verdict model: one document per run, from which the text, the
//! JSON output and the Markdown report are all rendered, so that a merged
//! run prints exactly what an unsharded one does. An instance's record is
//! also what the proof cache keeps.

use crate::status::{category, count_categories, coverage, describe_counts, rule_status, Status};
use diopter_rules::instance::{Instance, Relation};
use diopter_rules::Rule;
use diopter_smt::prove::{Outcome, UnknownKind, Verdict};
use serde_json::{json, Value};
use std::time::Duration;

/// The type variables' bindings of an instance, for [`coverage`].
fn binding_types(i: &Instance) -> Value {
    Value::Object(
        i.binding
            .iter()
            .filter(|(k, _)| !k.starts_with('?'))
            .map(|(k, v)| (k.clone(), json!(v)))
            .collect(),
    )
}

/// An instance as the output names it (and a dialect twin names the one
/// decided): its bindings and its dialect.
pub fn binding(i: &Instance) -> String {
    let mut s: Vec<String> = i
        .binding
        .iter()
        .map(|(k, v)| format!("{k} = {v}"))
        .collect();
    s.push(format!("{}", i.dialect));
    s.join(", ")
}

fn reason(v: &Verdict) -> Option<String> {
    match v {
        Verdict::Unknown(m)
        | Verdict::NotApplicable(m)
        | Verdict::Invalid(m)
        | Verdict::EncodingBug(m) => Some(m.clone()),
        Verdict::ProvedExhaustive(n) => Some(format!("exhaustive, {n} inputs")),
        _ => None,
    }
}

/// An instance's outcome as the reports and the cache keep it.
pub fn record(o: &Outcome) -> Value {
    let cex = match &o.verdict {
        Verdict::Refuted(c) => json!({
            "text": c.render(),
            "inputs": c.inputs.iter().map(|x| json!({
                "name": x.name,
                "type": x.ty.to_string(),
                "shape": x.shape,
                "location": x.location,
                "bits": x.bits.as_ref().map(|b| b.to_hex()).unwrap_or_else(|e| e.clone()),
                "value": x.bits.as_ref().ok().map(|b| diopter_semantics::show::value_view(Some(&x.ty), b)),
            })).collect::<Vec<_>>(),
            "memory": c.memory.iter().map(|(s, addr, b)| json!({"addrspace": s, "address": format!("0x{addr:x}"), "byte": b})).collect::<Vec<_>>(),
            "written": c.written.as_ref().map(|w| w.to_hex()),
            "left": c.lhs,
            "right": c.rhs,
            "left_location": c.left_location,
            "right_location": c.right_location,
            "differences": c.differences,
            "first_difference": c.first_difference,
            "context": c.context,
        }),
        _ => Value::Null,
    };
    json!({
        "verdict": o.verdict.label(),
        "unknown_kind": o.verdict.unknown_kind().map(UnknownKind::label),
        "millis": o.millis as u64,
        "reason": reason(&o.verdict),
        "counterexample": cex,
    })
}

/// What a run was, besides its rules: the document's header.
pub struct Run<'a> {
    pub widths: &'a [u64],
    pub timeout_ms: u32,
    pub strict: bool,
    pub total: Duration,
    pub jobs: usize,
    /// The whole library's rule count and [`crate::library::fingerprint`]:
    /// what shards are checked against when merged.
    pub library_rules: usize,
    pub fingerprint: String,
    pub shard: Option<(usize, usize)>,
}

/// The run's document: `rules` are the library's, `mine` those this run
/// (shard) proved, and `records` the verdicts of `work`, in its order.
pub fn document(
    run: &Run,
    rules: &[Rule],
    mine: &[bool],
    work: &[(usize, Instance)],
    records: &[Value],
) -> Value {
    let rules_json: Vec<Value> = rules
        .iter()
        .enumerate()
        .filter(|(k, _)| mine[*k])
        .map(|(k, r)| {
            let insts: Vec<Value> = work
                .iter()
                .zip(records)
                .filter(|((kk, _), _)| *kk == k)
                .map(|((_, inst), rec)| {
                    let mut v = rec.clone();
                    v["binding"] = json!(binding(inst));
                    v["types"] = binding_types(inst);
                    v
                })
                .collect();
            json!({
                "index": k,
                "name": r.name,
                "origin": r.origin.to_string(),
                "relation": match r.relation { Relation::Equivalent => "equivalent", Relation::ReadOnly => "read-only", Relation::Lossy => "lossy" },
                "expect": if r.expect_refuted() { "refuted" } else { "holds" },
                "kind": if r.lemma { "lemma" } else { "rule" },
                "simplifier": match r.not_applied() {
                    None => "applies".to_string(),
                    Some(why) => format!("not applied: {why}"),
                },
                "instances": insts,
            })
        })
        .collect();
    json!({
        "widths": run.widths,
        "timeout_ms": run.timeout_ms,
        "strict": run.strict,
        "total_seconds": run.total.as_secs_f64(),
        "jobs": run.jobs,
        "library": { "rules": run.library_rules, "fingerprint": run.fingerprint },
        "shard": run.shard.map(|(i, n)| json!({"index": i, "count": n})),
        "rules": rules_json,
    })
}

/// Adds each rule's status, counts and coverage and the run's summary to
/// `doc`; true when the gate fails (a rule not as claimed, or with
/// `strict` an unknown one). A merged document goes through here too, so
/// its statuses are recomputed, not trusted from the shards.
pub fn summarize(doc: &mut Value, strict: bool) -> bool {
    let mut counts = [0usize; 3];
    let mut all_categories: Vec<String> = Vec::new();
    let mut instances = 0;
    let mut cached = 0;
    let mut failed = false;
    for r in doc["rules"].as_array_mut().into_iter().flatten() {
        let verdicts: Vec<String> = r["instances"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|i| category(i).to_string())
            .collect();
        let vs: Vec<&str> = verdicts.iter().map(String::as_str).collect();
        let (status, summary) = rule_status(r["expect"] == "refuted", &vs);
        all_categories.extend(verdicts.iter().cloned());
        r["counts"] = count_categories(vs.iter().copied());
        let covers = coverage(r);
        r["covers"] = covers;
        instances += vs.len();
        cached += r["instances"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|i| i["cached"] == true)
            .count();
        counts[status as usize] += 1;
        if status == Status::Fail || (status == Status::Unknown && strict) {
            failed = true;
        }
        r["status"] = json!(status.label());
        r["summary"] = json!(summary);
    }
    let instance_counts = count_categories(all_categories.iter().map(String::as_str));
    let summary_line = format!(
        "{} rules: {} ok, {} unknown, {} FAIL; {} instances ({}) in {:.1} s{}",
        counts.iter().sum::<usize>(),
        counts[Status::Ok as usize],
        counts[Status::Unknown as usize],
        counts[Status::Fail as usize],
        instances,
        describe_counts(&instance_counts),
        doc["total_seconds"].as_f64().unwrap_or(0.0),
        if cached > 0 {
            format!(" ({cached} from the cache)")
        } else {
            String::new()
        }
    );
    doc["summary"] = json!(summary_line);
    doc["counts"] = instance_counts;
    failed
}
