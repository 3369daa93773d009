//! The in-process campaign also runs the prover's SMT encoding on the
//! cases' concrete values against the reference (`Config::smt_every`):
//! its verdicts are counted under `smt`, and on generated cases the
//! encoding agrees with the reference (a disagreement would be a finding
//! with a case file; `tests/smt_encoding.rs` in diopter-smt holds the
//! encoding to the same standard on fixed seeds).

use diopter_diff::{Oracle, Reference};
use diopter_gen::GenConfig;
use diopter_harness::campaign::{self, Config};
use std::sync::Arc;
use std::time::Duration;

#[test]
fn the_campaign_checks_the_smt_encoding_every_nth_case() {
    let dir = std::env::temp_dir().join(format!("diopter-camp-smt-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let cfg = Config {
        // The case count ends the run, not the clock.
        time: Duration::from_secs(3600),
        seed: 5,
        out_dir: dir.clone(),
        minimize_time: Duration::from_secs(10),
        max_cases: Some(300),
        gen: GenConfig::default(),
        stop: None,
        simplifier: None,
        smt_every: Some(2),
        case_timeout: campaign::DEFAULT_CASE_TIMEOUT,
        checks: Vec::new(),
    };
    let oracles: campaign::MakeOracles = Arc::new(|| vec![Box::new(Reference) as Box<dyn Oracle>]);
    let stats = campaign::run(&cfg, oracles, &mut |_| {});
    assert!(
        stats.oracles.iter().any(|o| o == "smt"),
        "{:?}",
        stats.oracles
    );
    let smt = &stats.verdicts["smt"];
    let checked: u64 = smt.values().sum();
    assert_eq!(checked, 150, "every second case: {smt:?}");
    assert!(smt.get("AGREE").copied().unwrap_or(0) >= 100, "{smt:?}");
    assert!(stats.smt_findings.is_empty(), "{:#?}", stats.smt_findings);
    let md = campaign::summary_md(&cfg, &stats, "t");
    assert!(md.contains("The `smt` row compares"), "{md}");
    assert!(campaign::stats_json(&cfg, &stats).contains("\"smt_findings\": ["));
    let _ = std::fs::remove_dir_all(&dir);
}
