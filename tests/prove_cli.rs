//! `diopter prove` through the real binary: the exit status is the gate CI
//! relies on (0 only when every rule is as it claims), a false rule prints
//! a counterexample, and the text output lists only what is not as claimed
//! unless `--verbose`.

use std::path::PathBuf;
use std::process::{Command, Output};

fn prove(rules: &str, extra: &[&str]) -> (Output, String) {
    let dir = std::env::temp_dir().join(format!("diopter-prove-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file: PathBuf = dir.join(format!("r{}.rules", rules.len()));
    std::fs::write(&file, rules).unwrap();
    let mut args = vec![
        "prove".to_string(),
        file.display().to_string(),
        "--widths".into(),
        "8,32".into(),
        "--no-report".into(),
    ];
    args.extend(extra.iter().map(|s| s.to_string()));
    let out = Command::new(env!("CARGO_BIN_EXE_diopter"))
        .args(&args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("the binary runs");
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    (out, stdout)
}

const GOOD: &str =
    "rule good-add-zero: ?x:T, DIOpConstant(T 0), DIOpAdd() => ?x, DIOpRead()   where T: int\n";
// x + y => x: false whenever y is not 0.
const BAD: &str = "rule bad-drop-addend: ?x:T, ?y:T, DIOpAdd() => ?x, DIOpRead()   where T: int\n";

#[test]
fn a_true_rule_passes_quietly() {
    let (out, text) = prove(GOOD, &[]);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.contains("ok good-add-zero"), "{text}");
    assert!(
        !text.contains("    proved"),
        "instances listed without --verbose: {text}"
    );
    assert!(text.contains("1 rules: 1 ok, 0 unknown, 0 FAIL"), "{text}");
    let (out, text) = prove(GOOD, &["--verbose"]);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(
        text.contains("    proved"),
        "--verbose lists instances: {text}"
    );
}

#[test]
fn a_false_rule_fails_with_a_counterexample() {
    let (out, text) = prove(&format!("{GOOD}{BAD}"), &[]);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("FAIL bad-drop-addend"), "{text}");
    assert!(text.contains("    refuted"), "{text}");
    assert!(text.contains("ok good-add-zero"), "{text}");
    assert!(text.contains("2 rules: 1 ok, 0 unknown, 1 FAIL"), "{text}");
}

// ------------------------------------------------------------ cache and shards

/// A scratch directory of its own for each test.
fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("diopter-prove-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// `diopter prove ARGS --format json` in the repository; the exit code and
/// the parsed document.
fn prove_json(args: &[String]) -> (Option<i32>, serde_json::Value) {
    let out = Command::new(env!("CARGO_BIN_EXE_diopter"))
        .arg("prove")
        .args(args)
        .args(["--format", "json"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("the binary runs");
    let text = String::from_utf8_lossy(&out.stdout);
    let doc = serde_json::from_str(&text).unwrap_or_else(|e| {
        panic!(
            "not JSON ({e}): {text}\nstderr: {}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (out.status.code(), doc)
}

/// A rule's name, status and `(binding, verdict)` per instance.
type RuleVerdicts = (String, String, Vec<(String, String)>);

fn verdicts(doc: &serde_json::Value) -> Vec<RuleVerdicts> {
    doc["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let insts = r["instances"]
                .as_array()
                .unwrap()
                .iter()
                .map(|i| {
                    (
                        i["binding"].as_str().unwrap().to_string(),
                        i["verdict"].as_str().unwrap().to_string(),
                    )
                })
                .collect();
            (
                r["name"].as_str().unwrap().to_string(),
                r["status"].as_str().unwrap().to_string(),
                insts,
            )
        })
        .collect()
}

fn cached(doc: &serde_json::Value, rule: &str) -> (usize, usize) {
    let r = doc["rules"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["name"] == rule)
        .unwrap_or_else(|| panic!("no rule {rule}"));
    let insts = r["instances"].as_array().unwrap();
    let hits = insts.iter().filter(|i| i["cached"] == true).count();
    (hits, insts.len())
}

const MUL_ONE: &str =
    "rule good-mul-one: ?x:T, DIOpConstant(T 1), DIOpMul() => ?x, DIOpRead()   where T: int\n";

#[test]
fn the_cache_answers_again_and_reproves_only_an_edited_rule() {
    let dir = scratch("cache");
    let file = dir.join("user.rules");
    let cache = dir.join("cache");
    let args = |extra: &[&str]| {
        let mut v = vec![
            file.display().to_string(),
            "--widths".into(),
            "8,32".into(),
            "--no-report".into(),
            "--jobs".into(),
            "1".into(),
            "--cache-dir".into(),
            cache.display().to_string(),
        ];
        v.extend(extra.iter().map(|s| s.to_string()));
        v
    };
    std::fs::write(&file, format!("{GOOD}{MUL_ONE}")).unwrap();
    let (code, first) = prove_json(&args(&[]));
    assert_eq!(code, Some(0), "{first:#}");
    assert_eq!(cached(&first, "good-add-zero").0, 0);
    assert_eq!(cached(&first, "good-mul-one").0, 0);

    let (code, second) = prove_json(&args(&[]));
    assert_eq!(code, Some(0));
    let (hits, n) = cached(&second, "good-add-zero");
    assert!(
        n > 0 && hits == n,
        "every instance from the cache: {hits}/{n}"
    );
    let (hits, n) = cached(&second, "good-mul-one");
    assert!(hits == n, "{hits}/{n}");
    assert_eq!(verdicts(&first), verdicts(&second));
    assert!(
        second["summary"]
            .as_str()
            .unwrap()
            .contains("from the cache"),
        "{}",
        second["summary"]
    );

    // Edit one rule (and move the other down a line): only the edited one
    // is proved again.
    let edited = MUL_ONE.replace(
        "DIOpConstant(T 1), DIOpMul()",
        "DIOpConstant(T 0), DIOpOr()",
    );
    std::fs::write(
        &file,
        format!("# a comment moves the rules\n{GOOD}{edited}"),
    )
    .unwrap();
    let (code, third) = prove_json(&args(&[]));
    assert_eq!(code, Some(0), "{third:#}");
    let (hits, n) = cached(&third, "good-add-zero");
    assert_eq!(hits, n, "the unchanged rule keeps its proofs after moving");
    assert_eq!(
        cached(&third, "good-mul-one").0,
        0,
        "the edited rule is proved again"
    );

    // --no-cache decides everything again.
    let (code, fourth) = prove_json(&args(&["--no-cache"]));
    assert_eq!(code, Some(0));
    assert_eq!(cached(&fourth, "good-add-zero").0, 0);
    assert_eq!(verdicts(&third), verdicts(&fourth));
}

#[test]
fn shards_merge_into_the_unsharded_run() {
    let dir = scratch("shards");
    let file = dir.join("user.rules");
    std::fs::write(&file, format!("{GOOD}{BAD}{MUL_ONE}")).unwrap();
    let base = |extra: &[String]| {
        let mut v = vec![
            file.display().to_string(),
            "--widths".into(),
            "8,32".into(),
            "--no-report".into(),
            "--no-cache".into(),
        ];
        v.extend(extra.iter().cloned());
        v
    };
    let (whole_code, whole) = prove_json(&base(&[]));
    assert_eq!(whole_code, Some(1), "the false rule fails the run");

    let mut shard_files = Vec::new();
    let mut seen_rules = 0;
    for i in 1..=2 {
        let (code, doc) = prove_json(&base(&["--shard".into(), format!("{i}/2")]));
        assert!(matches!(code, Some(0) | Some(1)));
        seen_rules += doc["rules"].as_array().unwrap().len();
        let p = dir.join(format!("shard-{i}.json"));
        std::fs::write(&p, doc.to_string()).unwrap();
        shard_files.push(p.display().to_string());
    }
    assert_eq!(seen_rules, 3, "each rule is in exactly one shard");

    let mut merge_args = vec!["--no-report".to_string(), "--merge".into()];
    merge_args.extend(shard_files.iter().cloned());
    let (code, merged) = prove_json(&merge_args);
    assert_eq!(code, whole_code, "the merge exits as the unsharded run");
    assert_eq!(verdicts(&merged), verdicts(&whole));
    let counts = |d: &serde_json::Value| {
        let s = d["summary"].as_str().unwrap().to_string();
        s[..s.find(" in ").unwrap()].to_string()
    };
    assert_eq!(counts(&merged), counts(&whole));

    // A missing shard, or a shard of another run, is refused.
    let one = vec![
        "--no-report".to_string(),
        "--merge".into(),
        shard_files[0].clone(),
    ];
    let out = Command::new(env!("CARGO_BIN_EXE_diopter"))
        .arg("prove")
        .args(&one)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("shard 2/2 is missing"));
    let (_, other) = prove_json(&[
        file.display().to_string(),
        "--widths".into(),
        "8".into(),
        "--no-report".into(),
        "--no-cache".into(),
        "--shard".into(),
        "2/2".into(),
    ]);
    let p = dir.join("other.json");
    std::fs::write(&p, other.to_string()).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_diopter"))
        .args([
            "prove",
            "--no-report",
            "--merge",
            &shard_files[0],
            &p.display().to_string(),
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("not shards of one run"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn lateral_rules_are_proved_or_refuted_like_any_other() {
    let rules = "\
lemma mul-commutes: ?x:T, ?y:T, DIOpMul() => ?y, ?x, DIOpMul()   where T: int
rule sub-commutes: ?x:T, ?y:T, DIOpSub() => ?y, ?x, DIOpSub()   where T: int
lemma double-is-add: ?x:T, DIOpConstant(T 2), DIOpMul() => ?x, ?x, DIOpAdd()   where T: int
";
    let (out, text) = prove(rules, &["--no-cache"]);
    assert_eq!(out.status.code(), Some(1), "the false rule fails: {text}");
    assert!(
        text.contains("ok mul-commutes")
            && text.contains("(not applied by the simplifier: a lemma)"),
        "{text}"
    );
    assert!(
        text.contains("ok double-is-add"),
        "a growing lemma is proved: {text}"
    );
    assert!(text.contains("FAIL sub-commutes"), "{text}");
    assert!(
        text.contains("not applied by the simplifier: the rule does not shrink"),
        "{text}"
    );
    assert!(text.contains("counterexample"), "{text}");
    assert!(text.contains("3 rules: 2 ok, 0 unknown, 1 FAIL"), "{text}");
}

/// Z3 given 1 ms gives up on an i8 instance; trying all 256 inputs proves
/// it, and the output says how (issue #15, part 3).
#[test]
fn a_small_instance_z3_gives_up_on_is_proved_exhaustively() {
    let rule = "rule i8-half-trip: ?x:T, DIOpConvert(half), DIOpConvert(T) => ?x, DIOpRead()   where T: int   if width(T) <= 8\n";
    let (out, text) = prove(rule, &["--timeout", "1", "--no-cache", "--verbose"]);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.contains("ok i8-half-trip"), "{text}");
    assert!(text.contains("proved (exhaustive, 256 inputs)"), "{text}");
    let (out, json) = prove(rule, &["--timeout", "1", "--no-cache", "--format", "json"]);
    assert_eq!(out.status.code(), Some(0), "{json}");
    let doc: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    let inst = &doc["rules"][0]["instances"][0];
    assert_eq!(inst["verdict"], "proved", "{json}");
    assert_eq!(inst["reason"], "exhaustive, 256 inputs", "{json}");
}
