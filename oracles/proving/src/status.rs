//! What an instance's verdict counts as and what a rule's instances add up
//! to: the categories every count is kept in, a rule's status (as claimed,
//! unknown, failed), and what its proofs cover. These read the JSON
//! records, not the prover's types, so that a merged run (whose records
//! come from the shards' JSON) is judged by the very same code.

use diopter_rules::widths::describe_widths;
use diopter_smt::prove::UnknownKind;
use serde_json::{json, Value};

/// What a rule's instances add up to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// As claimed: proved everywhere, or (under refuted/) refuted somewhere.
    Ok,
    Unknown,
    Fail,
}

impl Status {
    pub fn label(self) -> &'static str {
        match self {
            Status::Ok => "ok",
            Status::Unknown => "unknown",
            Status::Fail => "FAIL",
        }
    }
}

/// What an instance's verdict is counted as: its `Verdict::label`, except
/// that an `unknown` counts as its kind (`UnknownKind::label`), so that a
/// timeout, Z3 giving up, a memory limit and a budget are never folded
/// together. In report order.
pub const CATEGORIES: &[&str] = &[
    "proved",
    "refuted",
    "timeout",
    "gave-up",
    "memory-limit",
    "budget",
    "not-applicable",
    "invalid",
    "encoding-bug",
    "skipped",
];

/// An instance record's category (see [`CATEGORIES`]).
pub fn category(rec: &Value) -> &str {
    match rec["verdict"].as_str().unwrap_or("") {
        "unknown" => rec["unknown_kind"].as_str().unwrap_or("gave-up"),
        v => v,
    }
}

fn is_unknown(category: &str) -> bool {
    UnknownKind::ALL.iter().any(|k| k.label() == category)
}

/// How many instances fall in each category, as a JSON object with every
/// category (zero included).
pub fn count_categories<'a>(cats: impl Iterator<Item = &'a str>) -> Value {
    let mut m = serde_json::Map::new();
    for c in CATEGORIES {
        m.insert(c.to_string(), json!(0));
    }
    for c in cats {
        let n = m.get(c).and_then(Value::as_u64).unwrap_or(0);
        m.insert(c.to_string(), json!(n + 1));
    }
    Value::Object(m)
}

/// "144 proved, 0 refuted" and every other category that occurs.
pub fn describe_counts(counts: &Value) -> String {
    let n = |c: &str| counts[c].as_u64().unwrap_or(0);
    let mut parts = vec![
        format!("{} proved", n("proved")),
        format!("{} refuted", n("refuted")),
    ];
    for c in &CATEGORIES[2..] {
        if n(c) > 0 {
            parts.push(format!("{} {c}", n(c)));
        }
    }
    parts.join(", ")
}

/// A rule's status from its instances' categories ([`category`]).
pub fn rule_status(expect_refuted: bool, verdicts: &[&str]) -> (Status, String) {
    if verdicts.is_empty() {
        return (Status::Unknown, "no instance at these widths".into());
    }
    let count = |f: fn(&str) -> bool| verdicts.iter().filter(|v| f(v)).count();
    let refuted = count(|v| v == "refuted");
    let unknown = count(is_unknown);
    let bad = count(|v| v == "invalid" || v == "encoding-bug");
    let summary = describe_counts(&count_categories(verdicts.iter().copied()));
    if bad > 0 {
        return (Status::Fail, summary);
    }
    if verdicts.iter().all(|v| *v == "not-applicable") {
        return (Status::Unknown, "no instance applies".into());
    }
    let status = if expect_refuted {
        if refuted > 0 {
            Status::Ok
        } else if unknown > 0 {
            Status::Unknown
        } else {
            Status::Fail
        }
    } else if refuted > 0 {
        Status::Fail
    } else if unknown > 0 {
        Status::Unknown
    } else {
        Status::Ok
    };
    (status, summary)
}

/// The float kinds, in the order reports name them.
const FLOAT_KINDS: &[&str] = &["half", "bfloat", "float", "double", "fp128", "x86_fp80"];

/// What a rule's proofs cover: the integer widths, float kinds and other
/// types its type variables were bound to in the instances that were
/// proved. `text` is what the `ok` line and the report print.
pub fn coverage(rule: &Value) -> Value {
    let mut ints = std::collections::BTreeSet::new();
    let mut floats = std::collections::BTreeSet::new();
    let mut others = std::collections::BTreeSet::new();
    let mut vars = 0;
    for i in rule["instances"].as_array().into_iter().flatten() {
        if category(i) != "proved" {
            continue;
        }
        for (_, t) in i["types"].as_object().into_iter().flatten() {
            vars += 1;
            let t = t.as_str().unwrap_or("");
            match t.strip_prefix('i').and_then(|w| w.parse::<u64>().ok()) {
                Some(w) => {
                    ints.insert(w);
                }
                None if FLOAT_KINDS.contains(&t) => {
                    floats.insert(FLOAT_KINDS.iter().position(|k| *k == t).unwrap_or(0));
                }
                None => {
                    others.insert(t.to_string());
                }
            }
        }
    }
    let ints: Vec<u64> = ints.into_iter().collect();
    let floats: Vec<&str> = floats.into_iter().map(|k| FLOAT_KINDS[k]).collect();
    let others: Vec<String> = others.into_iter().collect();
    let mut parts = Vec::new();
    if !ints.is_empty() {
        parts.push(describe_widths(&ints));
    }
    if !floats.is_empty() {
        parts.push(floats.join(", "));
    }
    if !others.is_empty() {
        parts.push(others.join(", "));
    }
    let text = if parts.is_empty() && vars == 0 {
        // Proved instances without type variables: the rule names its
        // types itself.
        "as written (no type variables)".to_string()
    } else {
        parts.join("; ")
    };
    json!({ "int_widths": ints, "floats": floats, "other_types": others, "text": text })
}

#[cfg(test)]
mod tests {
    use super::{rule_status, Status};

    #[test]
    fn a_rule_is_as_claimed_unknown_or_failed_by_its_instances() {
        let st = |refuted, vs: &[&str]| rule_status(refuted, vs).0;
        assert_eq!(st(false, &["proved", "not-applicable"]), Status::Ok);
        assert_eq!(st(false, &["proved", "timeout"]), Status::Unknown);
        assert_eq!(st(false, &["proved", "refuted"]), Status::Fail);
        assert_eq!(st(false, &["proved", "encoding-bug"]), Status::Fail);
        assert_eq!(st(true, &["refuted", "skipped"]), Status::Ok);
        assert_eq!(st(true, &["proved", "budget"]), Status::Unknown);
        assert_eq!(st(true, &["proved"]), Status::Fail);
        assert_eq!(st(false, &["not-applicable"]), Status::Unknown);
        assert_eq!(st(false, &[]), Status::Unknown);
        assert_eq!(
            rule_status(false, &["proved", "proved", "gave-up"]).1,
            "2 proved, 0 refuted, 1 gave-up"
        );
    }
}
