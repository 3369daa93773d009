//! A test aid, not a real target: `eval_diff` with a bug planted into the
//! fast evaluator (`diopter_harness::minimize::plant`; `$DIOPTER_PLANT`,
//! default `add-off-by-one`). It exists to make real libFuzzer artifacts of
//! a known disagreement, on which `diopter minimize --bytes` is measured
//! against `cargo fuzz tmin` (`reports/minimizer.sh`, `reports/minimizer.md`).
//! `$DIOPTER_MAX_OPS` raises the generator's cap on operations (default
//! 64) so that artifacts of about 100 operations come up; replay those
//! with `diopter minimize --bytes --max-ops N`.

#![no_main]

use diopter_diff::{self as diff, Oracle, Reference, Verdict};
use diopter_fast::Fast;
use diopter_gen::{Case, GenConfig};
use diopter_harness::minimize::plant::{Plant, Planted};
use libfuzzer_sys::fuzz_target;
use std::sync::atomic::Ordering;

/// The generator's configuration: the default, with `$DIOPTER_MAX_OPS`.
fn gen_config() -> &'static GenConfig {
    static CFG: std::sync::OnceLock<GenConfig> = std::sync::OnceLock::new();
    CFG.get_or_init(|| {
        let mut cfg = GenConfig::default();
        if let Some(n) = std::env::var("DIOPTER_MAX_OPS")
            .ok()
            .and_then(|n| n.parse().ok())
        {
            cfg.max_ops = n;
        }
        cfg
    })
}

thread_local! {
    static PLANTED: Planted = Planted::new(
        Box::new(Fast::default()),
        std::env::var("DIOPTER_PLANT")
            .ok()
            .and_then(|p| Plant::from_name(&p))
            .unwrap_or(Plant::AddOffByOne),
    );
}

fuzz_target!(
    init: {
        diopter_gen::expr::CROSS_CHECK.store(false, Ordering::Relaxed);
    },
    |data: &[u8]| {
        let case = Case::from_bytes(data, gen_config());
        PLANTED.with(|p| {
            let oracles: [&dyn Oracle; 2] = [&Reference, p];
            if let Verdict::Disagree { .. } = diff::run_case(&case, &oracles) {
                panic!("planted disagreement: {}", case.expr_line());
            }
        });
    }
);
