//! A test aid, not a real target: `eval_diff` with a bug planted into the
//! fast evaluator (`diopter_oracles::minimize::plant`; `$DIOPTER_PLANT`,
//! default `add-off-by-one`). It exists to make real libFuzzer artifacts of
//! a known disagreement, on which `diopter minimize --bytes` is measured
//! against `cargo fuzz tmin` (`reports/minimizer.sh`, `reports/minimizer.md`).

#![no_main]

use diopter_oracles::diff::{self, Fast, Oracle, Reference, Verdict};
use diopter_oracles::gen::Case;
use diopter_oracles::minimize::plant::{Plant, Planted};
use libfuzzer_sys::fuzz_target;
use std::sync::atomic::Ordering;

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
        diopter_oracles::gen::expr::CROSS_CHECK.store(false, Ordering::Relaxed);
    },
    |data: &[u8]| {
        let case = Case::from_bytes(data, &Default::default());
        PLANTED.with(|p| {
            let oracles: [&dyn Oracle; 2] = [&Reference, p];
            if let Verdict::Disagree { .. } = diff::run_case(&case, &oracles) {
                panic!("planted disagreement: {}", case.expr_line());
            }
        });
    }
);
