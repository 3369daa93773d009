//! The in-process campaign (`diopter run`) checks the simplifier beside the
//! oracles: a wrong rule is caught there and written as a case file, and
//! the real rule library gives no finding on the same cases.

use diopter_diff::{Oracle, Reference};
use diopter_gen::GenConfig;
use diopter_harness::campaign::{self, Config};
use diopter_rules::simplify::Simplifier;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

fn run(simplifier: Simplifier, dir: &Path) -> campaign::Stats {
    let _ = std::fs::remove_dir_all(dir);
    let cfg = Config {
        // The case count ends the run, not the clock.
        time: Duration::from_secs(3600),
        seed: 11,
        out_dir: dir.to_path_buf(),
        minimize_time: Duration::from_secs(10),
        max_cases: Some(600),
        gen: GenConfig::default(),
        stop: None,
        simplifier: Some(Arc::new(simplifier)),
        smt_every: None,
        case_timeout: campaign::DEFAULT_CASE_TIMEOUT,
        checks: Vec::new(),
    };
    let oracles: campaign::MakeOracles = Arc::new(|| vec![Box::new(Reference) as Box<dyn Oracle>]);
    campaign::run(&cfg, oracles, &mut |_| {})
}

#[test]
fn a_wrong_rule_is_a_finding_with_a_case_file() {
    let dir = std::env::temp_dir().join(format!("diopter-camp-simpl-{}", std::process::id()));
    let rules = dir.with_extension("rules");
    // x + y => x: false whenever y is not 0.
    std::fs::write(
        &rules,
        "rule drop-addend: ?x:T, ?y:T, DIOpAdd() => ?x, DIOpRead()   where T: int\n",
    )
    .unwrap();
    let s = Simplifier::load(std::slice::from_ref(&rules)).expect("the rule loads");
    let stats = run(s, &dir.join("out"));
    assert!(stats.oracles.iter().any(|o| o == "simplify"));
    assert!(
        !stats.simplify_findings.is_empty(),
        "the wrong rule was not caught: {:?}",
        stats.verdicts.get("simplify")
    );
    assert_eq!(stats.finding_count(), stats.simplify_findings.len());
    let f = &stats.simplify_findings[0];
    let path = f.case_path.as_ref().expect("the case file was written");
    let text = std::fs::read_to_string(path).unwrap();
    assert!(text.contains("# rule: drop-addend"), "{text}");
    assert!(text.contains("--- context"), "{text}");
    let md = campaign::summary_md(
        &Config {
            time: Duration::from_secs(1),
            seed: 11,
            out_dir: dir.clone(),
            minimize_time: Duration::from_secs(1),
            max_cases: None,
            gen: GenConfig::default(),
            stop: None,
            simplifier: None,
            smt_every: None,
            case_timeout: campaign::DEFAULT_CASE_TIMEOUT,
            checks: Vec::new(),
        },
        &stats,
        "t",
    );
    assert!(md.contains("The simplifier (not minimized)"), "{md}");
    assert!(!md.contains("None: no oracle"), "{md}");
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_file(&rules);
}

#[test]
fn the_rule_library_gives_no_finding() {
    let lib = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../corpus/rules"));
    let s = Simplifier::load(&[lib]).expect("the library loads");
    let dir = std::env::temp_dir().join(format!("diopter-camp-lib-{}", std::process::id()));
    let stats = run(s, &dir);
    let v = &stats.verdicts["simplify"];
    assert!(
        v.get("AGREE").copied().unwrap_or(0) > 0,
        "no case was simplified: {v:?}"
    );
    assert!(
        stats.simplify_findings.is_empty(),
        "{:?}",
        stats.simplify_findings
    );
    let _ = std::fs::remove_dir_all(&dir);
}
