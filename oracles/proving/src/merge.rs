//! `--merge`: the JSON documents of the N shards of one run, checked to be
//! exactly those shards, as the one document an unsharded run makes. The
//! statuses are left to `crate::model::summarize`, as for any run.

use crate::error::ProveError;
use serde_json::{json, Value};
use std::path::PathBuf;

/// Reads the shards' documents and merges them.
pub fn read_and_merge(paths: &[PathBuf]) -> Result<Value, ProveError> {
    // The command line asks for at least one; the first is what the others
    // are compared with.
    if paths.is_empty() {
        return Err(ProveError::Merge("no shard to merge".into()));
    }
    let mut docs = Vec::new();
    for p in paths {
        let doc = std::fs::read_to_string(p)
            .map_err(|e| e.to_string())
            .and_then(|t| serde_json::from_str::<Value>(&t).map_err(|e| e.to_string()));
        match doc {
            Ok(d) => docs.push((p, d)),
            Err(message) => {
                return Err(ProveError::Shard {
                    path: p.clone(),
                    message,
                })
            }
        }
    }
    merge_docs(&docs).map_err(ProveError::Merge)
}

fn merge_docs(docs: &[(&PathBuf, Value)]) -> Result<Value, String> {
    let (first_path, first) = &docs[0];
    let same = ["widths", "timeout_ms", "strict", "library"];
    let count = first["shard"]["count"].as_u64().ok_or_else(|| {
        format!(
            "{}: not the JSON of a `prove --shard I/N` run",
            first_path.display()
        )
    })?;
    // The shards seen, not a flag per shard: `count` is read from the
    // user's JSON, and a vector of that many would be an allocation of any
    // size.
    let mut seen = std::collections::BTreeSet::new();
    let mut rules: Vec<Value> = Vec::new();
    let mut seconds: f64 = 0.0;
    for (p, d) in docs {
        for k in same {
            if d[k] != first[k] {
                return Err(format!(
                    "{} and {} differ in `{k}`: not shards of one run",
                    first_path.display(),
                    p.display()
                ));
            }
        }
        let (i, n) = (d["shard"]["index"].as_u64(), d["shard"]["count"].as_u64());
        let (Some(i), Some(n)) = (i, n) else {
            return Err(format!(
                "{}: not the JSON of a `prove --shard I/N` run",
                p.display()
            ));
        };
        if n != count || i == 0 || i > n {
            return Err(format!(
                "{}: shard {i}/{n} of a run of {count} shards",
                p.display()
            ));
        }
        if !seen.insert(i) {
            return Err(format!("shard {i}/{n} is given twice"));
        }
        let mine = d["rules"].as_array().cloned().unwrap_or_default();
        // `summarize` sets each rule's status by key, which serde_json allows
        // only on an object.
        if mine.iter().any(|r| !r.is_object()) {
            return Err(format!(
                "{}: a rule that is not a JSON object: not the JSON of a `prove --shard I/N` run",
                p.display()
            ));
        }
        rules.extend(mine);
        seconds = seconds.max(d["total_seconds"].as_f64().unwrap_or(0.0));
    }
    // At most `docs.len()` shards are seen, so this looks at no more than
    // one more than that.
    if let Some(missing) = (1..=count).find(|k| !seen.contains(k)) {
        return Err(format!("shard {missing}/{count} is missing"));
    }
    rules.sort_by_key(|r| r["index"].as_u64());
    for r in &mut rules {
        if let Some(o) = r.as_object_mut() {
            o.remove("status");
            o.remove("summary");
        }
    }
    if rules.len() as u64 != first["library"]["rules"].as_u64().unwrap_or(0) {
        return Err(format!(
            "the shards hold {} rules, the library {}",
            rules.len(),
            first["library"]["rules"]
        ));
    }
    Ok(json!({
        "widths": first["widths"],
        "timeout_ms": first["timeout_ms"],
        "strict": first["strict"],
        "total_seconds": seconds,
        "library": first["library"],
        "shard": Value::Null,
        "merged_from": count,
        "rules": rules,
    }))
}
