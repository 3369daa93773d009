//! Every command that prints locations or values as JSON prints them in the
//! one form of `docs/schema/location.json`: `eval`, `replay`, `locations`,
//! `lower`, `prove` (counterexamples) and `validate` (counterexamples), each
//! run with `--format json` and each location object validated against the
//! schema.
//!
//! The validator is written here for the subset of JSON Schema the file uses
//! (`type`, `enum`, `required`, `properties`, `additionalProperties: false`,
//! `items`, `oneOf`, `$ref` to `#/$defs/...`, `pattern`, `minimum`); a
//! keyword outside that subset fails the test rather than being ignored.

use serde_json::Value;
use std::path::PathBuf;
use std::process::Output;

mod common;
use common::diopter;

fn temp(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("diopter-schema-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

fn json(o: &Output) -> Value {
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| {
        panic!(
            "not JSON ({e}): {}\nstderr: {}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        )
    })
}

fn schema() -> Value {
    let text = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("docs/schema/location.json"),
    )
    .unwrap();
    serde_json::from_str(&text).unwrap()
}

const KNOWN: &[&str] = &[
    "$schema",
    "$id",
    "title",
    "description",
    "$defs",
    "$ref",
    "type",
    "enum",
    "required",
    "properties",
    "additionalProperties",
    "items",
    "oneOf",
    "pattern",
    "minimum",
];

fn type_ok(t: &str, v: &Value) -> bool {
    match t {
        "object" => v.is_object(),
        "array" => v.is_array(),
        "string" => v.is_string(),
        "boolean" => v.is_boolean(),
        "null" => v.is_null(),
        "integer" => v.is_i64() || v.is_u64(),
        "number" => v.is_number(),
        _ => panic!("unknown type {t}"),
    }
}

/// The errors of `v` against `s` (empty: valid).
fn check(root: &Value, s: &Value, v: &Value, path: &str) -> Vec<String> {
    let mut errs = Vec::new();
    let obj = s.as_object().expect("a schema is an object");
    for k in obj.keys() {
        assert!(
            KNOWN.contains(&k.as_str()),
            "keyword {k} outside the subset"
        );
    }
    if let Some(r) = obj.get("$ref").and_then(Value::as_str) {
        let name = r.strip_prefix("#/$defs/").expect("local $ref");
        errs.extend(check(root, &root["$defs"][name], v, path));
    }
    if let Some(t) = obj.get("type").and_then(Value::as_str) {
        if !type_ok(t, v) {
            errs.push(format!("{path}: not a {t}: {v}"));
            return errs;
        }
    }
    if let Some(e) = obj.get("enum").and_then(Value::as_array) {
        if !e.contains(v) {
            errs.push(format!("{path}: {v} not in {e:?}"));
        }
    }
    if let (Some(p), Some(x)) = (obj.get("pattern").and_then(Value::as_str), v.as_str()) {
        if !regex::Regex::new(p).unwrap().is_match(x) {
            errs.push(format!("{path}: {x:?} does not match {p}"));
        }
    }
    if let (Some(m), Some(x)) = (obj.get("minimum").and_then(Value::as_i64), v.as_i64()) {
        if x < m {
            errs.push(format!("{path}: {x} < {m}"));
        }
    }
    if let Some(one) = obj.get("oneOf").and_then(Value::as_array) {
        let n = one
            .iter()
            .filter(|alt| check(root, alt, v, path).is_empty())
            .count();
        if n != 1 {
            errs.push(format!("{path}: {n} of oneOf match {v}"));
        }
    }
    if let Some(o) = v.as_object() {
        let props = obj.get("properties").and_then(Value::as_object);
        for r in obj
            .get("required")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let r = r.as_str().unwrap();
            if !o.contains_key(r) {
                errs.push(format!("{path}: missing {r}"));
            }
        }
        for (k, x) in o {
            match props.and_then(|p| p.get(k)) {
                Some(ps) => errs.extend(check(root, ps, x, &format!("{path}.{k}"))),
                None if obj.get("additionalProperties") == Some(&Value::Bool(false)) => {
                    errs.push(format!("{path}: unexpected property {k}"))
                }
                None => {}
            }
        }
    }
    if let (Some(items), Some(a)) = (obj.get("items"), v.as_array()) {
        for (i, x) in a.iter().enumerate() {
            errs.extend(check(root, items, x, &format!("{path}[{i}]")));
        }
    }
    errs
}

fn assert_located(root: &Value, v: &Value, what: &str) {
    let errs = check(root, &root["$defs"]["located"], v, what);
    assert!(errs.is_empty(), "{what}: {errs:#?}\n{v:#}");
}

fn assert_value(root: &Value, v: &Value, what: &str) {
    let errs = check(root, &root["$defs"]["value"], v, what);
    assert!(errs.is_empty(), "{what}: {errs:#?}\n{v:#}");
}

#[test]
fn the_validator_rejects_what_the_schema_forbids() {
    let root = schema();
    let bad = serde_json::json!({"type": "i32", "bit_size": 32, "fragment": null,
        "singles": [{"kind": "memory", "text": "x", "bit_offset": 0, "bit_size": 32, "writable": "yes"}],
        "value": null, "read_error": null, "unlisted_memory": []});
    assert!(!check(&root, &root["$defs"]["located"], &bad, "$").is_empty());
    let bad = serde_json::json!({"bits": 8, "hex": "0xzz", "unsigned": "1", "signed": "1", "float": null});
    assert!(!check(&root, &root["$defs"]["value"], &bad, "$").is_empty());
    let bad = serde_json::json!("mem(1, 0x10)");
    assert!(!check(&root, &root["$defs"]["located"], &bad, "$").is_empty());
}

#[test]
fn eval_json_follows_the_schema() {
    let root = schema();
    let ctx = temp(
        "ctx.txt",
        "mem 1 0x1000 = 01 02 03 04\n%r = i32 0x12345678\n%f = float 1.5\n\
         arg 0 = mem(1, 0x1000) + 4 | mem(1, 0x1000) + 4\narg 1 = %r\n\
         arg 2 = composite(%r : 16, implicit(i16 7) : 16)\narg 3 = undef\n",
    );
    let ctx = ctx.to_str().unwrap();
    let cases: &[&[&str]] = &[
        &[
            "-e",
            "[i32] DIOpArg(0, i32)",
            "--context",
            ctx,
            "--write",
            "-1",
        ],
        &[
            "-e",
            "[i32, i32] DIOpArg(1, i32)",
            "--context",
            ctx,
            "--write",
            "0x10",
        ],
        &["-e", "[i32, i32, i32] DIOpArg(2, i32)", "--context", ctx],
        &[
            "-e",
            "[i32, i32, i32, i32] DIOpArg(3, i32)",
            "--context",
            ctx,
        ],
        &["-e", "[] DIOpConstant(float 1.5)", "--write", "2.5"],
        &["-e", "[] DIOpConstant(double 0x7FF4000000000001)"],
        &[
            "-e",
            "[] DIOpConstant(fp128 0xL00000000000000003FFF000000000000)",
        ],
        &[
            "-e",
            "[] DIOpConstant(i8388608 1), DIOpConstant(i8388608 1), DIOpAdd()",
        ],
        &[
            "-e",
            "[i32] -> i64 DIOpArg(0, i32), DIOpFragment(32, 32)",
            "--context",
            ctx,
        ],
        &[
            "-e",
            "[] DIOpConstant(i32 7), DIOpConstant(i64 3), DIOpAddrOf(5)",
            "--no-check",
        ],
    ];
    for c in cases {
        let mut args = vec!["eval", "--format", "json"];
        args.extend_from_slice(c);
        let o = diopter(&args);
        let v = json(&o);
        if v.get("error").is_some() {
            continue;
        }
        assert_located(&root, &v["location"], &format!("eval {c:?}"));
        if let Some(w) = v.get("write") {
            assert_value(&root, &w["value"], &format!("eval {c:?} write"));
        }
    }
    // The float and the NaN and the huge value, by hand.
    let v = json(&diopter(&[
        "eval",
        "--format",
        "json",
        "-e",
        "[] DIOpConstant(float 1.5)",
    ]));
    assert_eq!(v["location"]["value"]["float"]["decimal"], "1.5");
    assert_eq!(v["location"]["value"]["hex"], "0x3fc00000");
    assert_eq!(v["location"]["singles"][0]["kind"], "implicit");
    assert_eq!(v["location"]["singles"][0]["writable"], false);
    let v = json(&diopter(&[
        "eval",
        "--format",
        "json",
        "-e",
        "[] DIOpConstant(double 0x7FF4000000000001)",
    ]));
    // Exponent all ones, top fraction bit (bit 51) clear: signalling; the
    // payload is the fraction below bit 51: 0x4000000000001.
    let f = &v["location"]["value"]["float"];
    assert_eq!(f["class"], "nan");
    assert_eq!(f["quiet"], false);
    assert_eq!(f["payload"], "0x4000000000001");
    let v = json(&diopter(&[
        "eval",
        "--format",
        "json",
        "-e",
        "[] DIOpConstant(i8388608 1), DIOpConstant(i8388608 1), DIOpAdd()",
    ]));
    assert_eq!(
        v["location"]["value"]["hex"],
        "0x0000000000000000…0000000000000002 (8388608 bits)"
    );
    assert!(v["location"]["value"]["unsigned"].is_null());
    let v = json(&diopter(&[
        "eval",
        "--format",
        "json",
        "-e",
        "[i32] DIOpArg(0, i32)",
        "--context",
        ctx,
    ]));
    // Byte 0x1004 is not in the context: the read (bits 4..36 of the
    // memory from 0x1000) uses it.
    assert_eq!(v["location"]["singles"][0]["address"], "0x1000");
    assert_eq!(v["location"]["singles"][0]["bit_offset"], 0x1000 * 8 + 4);
    assert_eq!(
        v["location"]["unlisted_memory"],
        serde_json::json!([{"address_space": 1, "first": "0x1004", "bytes": 1}])
    );
}

#[test]
fn replay_json_follows_the_schema() {
    let root = schema();
    let case = temp(
        "case.txt",
        "[i32] DIOpArg(0, i32)\n--- context\nmem 1 0x10 = 01 02 03 04\narg 0 = mem(1, 0x10)\n",
    );
    let v = json(&diopter(&[
        "replay",
        case.to_str().unwrap(),
        "--format",
        "json",
    ]));
    let outcomes = v["outcomes"].as_array().unwrap();
    assert!(!outcomes.is_empty());
    for o in outcomes {
        assert_located(&root, &o["location"], &format!("replay {}", o["oracle"]));
    }
}

#[test]
fn locations_json_follows_the_schema() {
    let root = schema();
    let ctx = temp(
        "loc-ctx.txt",
        "%var.alloca = ptr 0x3000\nmem 0 0x3000 = 78 56 34 12\n%var = i32 7\n",
    );
    let v = json(&diopter(&[
        "locations",
        "corpus/spec/slides-02-multiple-locations.ll",
        "--context",
        ctx.to_str().unwrap(),
        "--format",
        "json",
    ]));
    let mut n = 0;
    for f in v["functions"].as_array().unwrap() {
        for o in f["objects"].as_array().unwrap() {
            for x in o["values"].as_array().unwrap() {
                if !x["location"].is_null() {
                    assert_located(&root, &x["location"], "locations");
                    n += 1;
                }
            }
        }
    }
    assert!(n >= 3, "{n} located values");
}

#[test]
fn lower_json_follows_the_schema() {
    let root = schema();
    let v = json(&diopter(&[
        "lower",
        "--format",
        "json",
        "-e",
        "[ptr addrspace(5)] DIOpArg(0, ptr addrspace(5)), DIOpDeref(i32), DIOpConstant(i32 4), DIOpAdd()",
        "-e",
        "[] DIOpConstant(half 1.0)",
    ]));
    let mut n = 0;
    for item in v.as_array().unwrap() {
        // Without a context the first one's pointer is in a register with
        // no value: the reference gives no location, and says why.
        if item["location"].is_null() {
            assert!(item["evaluation_error"].is_string(), "{item:#}");
        } else {
            assert_located(&root, &item["location"], "lower");
            n += 1;
        }
    }
    assert_eq!(n, 1, "{v:#}");
}

#[test]
fn prove_counterexamples_follow_the_schema() {
    let root = schema();
    let o = diopter(&[
        "prove",
        "corpus/rules/refuted/reads.rules",
        "--rule",
        "drop-read",
        "--widths",
        "8",
        "--no-report",
        "--no-cache",
        "--format",
        "json",
    ]);
    let text = String::from_utf8_lossy(&o.stdout).into_owned();
    let v: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
    let mut n = 0;
    let mut stack = vec![&v];
    while let Some(x) = stack.pop() {
        match x {
            Value::Object(m) => {
                if let Some(c) = m.get("counterexample").filter(|c| !c.is_null()) {
                    for side in ["left_location", "right_location"] {
                        if !c[side].is_null() {
                            assert_located(&root, &c[side], side);
                            n += 1;
                        }
                    }
                    for i in c["inputs"].as_array().unwrap() {
                        if !i["value"].is_null() {
                            assert_value(&root, &i["value"], "input");
                        }
                    }
                }
                stack.extend(m.values());
            }
            Value::Array(a) => stack.extend(a),
            _ => {}
        }
    }
    assert!(n > 0, "no counterexample location in {text}");
}

#[test]
fn validate_counterexamples_follow_the_schema() {
    let root = schema();
    let o = diopter(&[
        "validate",
        "-e",
        "[i64] DIOpArg(0, i64), DIOpConstant(i64 8), DIOpShl()",
        "-e",
        "[i64] DIOpArg(0, i64), DIOpConstant(i64 7), DIOpShl()",
        "--map",
        "arg0 := DIOpArg(0, i64)",
        "--format",
        "json",
    ]);
    let v = json(&o);
    let c = &v["pairs"][0]["counterexample"];
    assert!(!c.is_null(), "{v:#}");
    let mut n = 0;
    for side in ["before_location", "after_location"] {
        if !c[side].is_null() {
            assert_located(&root, &c[side], side);
            n += 1;
        }
    }
    assert!(n > 0, "{v:#}");
}

/// A generic pair's counterexample (that of its worst binding) is in the
/// same form, and so is each refuted binding's.
#[test]
fn generic_validate_counterexamples_follow_the_schema() {
    let root = schema();
    let o = diopter(&[
        "validate",
        "--where",
        "T: int",
        "--widths",
        "8,16",
        "-e",
        "[T] DIOpArg(0, T), DIOpConstant(T 8), DIOpShl()",
        "-e",
        "[T] DIOpArg(0, T), DIOpConstant(T 7), DIOpShl()",
        "--map",
        "arg0 := DIOpArg(0, T)",
        "--format",
        "json",
    ]);
    let v = json(&o);
    let p = &v["pairs"][0];
    assert_eq!(p["verdict"], "refuted", "{v:#}");
    assert_eq!(p["binding"], "T = i8", "{v:#}");
    let mut cexes = vec![&p["counterexample"]];
    for i in p["instances"].as_array().unwrap() {
        assert_eq!(i["verdict"], "refuted", "{v:#}");
        cexes.push(&i["counterexample"]);
    }
    assert_eq!(cexes.len(), 3);
    for c in cexes {
        assert!(!c.is_null(), "{v:#}");
        let mut n = 0;
        for side in ["before_location", "after_location"] {
            if !c[side].is_null() {
                assert_located(&root, &c[side], side);
                n += 1;
            }
        }
        assert!(n > 0, "{v:#}");
    }
}
