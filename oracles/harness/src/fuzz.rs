//! What the fuzz targets in `fuzz/fuzz_targets/` run: one function per
//! target, taking libFuzzer's input and panicking with the finding, as a
//! target must, and [`init`], the one set-up of the targets that generate
//! cases. The bodies proper are in [`crate::targets`] and return `Err(why)`,
//! so that `cargo test` and the campaign's replays run them without
//! libFuzzer; here they get the directories their case files go to. (The
//! `cli` target's body is the command line itself: `diopter::fuzz_cli`,
//! above this crate; the target hands its finding to [`found`].)

use crate::adapters::Fast;
use crate::minimize::plant::{Plant, Planted};
use crate::targets;
use diopter_diff::{self as diff, Oracle, Reference, Verdict};
use diopter_gen::{GenConfig, Generate};
use diopter_rules::simplify::Simplifier;
use diopter_semantics::case::Case;
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::sync::OnceLock;

/// The set-up of the targets that generate cases (`fuzz_target!`'s
/// `init`). The generator's cross-check of the types it builds is off:
/// `check_eval` and the tests confirm those types, and here the check would
/// cost as much as generating. The targets that do not generate leave it
/// as the build has it (on with debug assertions, as `check_eval` needs).
pub fn init() {
    diopter_gen::expr::CROSS_CHECK.store(false, Ordering::Relaxed);
}

/// The checkout this crate was built in.
fn checkout() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(2)
        .expect("oracles/harness is two levels below the checkout")
}

/// Where a target writes the case files of its findings:
/// `$DIOPTER_CASE_DIR`, else `fuzz/artifacts/TARGET/` of the checkout.
pub fn case_dir(target: &str) -> PathBuf {
    std::env::var_os("DIOPTER_CASE_DIR").map_or_else(
        || checkout().join("fuzz/artifacts").join(target),
        PathBuf::from,
    )
}

/// A target's finding, as libFuzzer takes it: a panic. Public for the
/// `cli` target, whose body is above this crate (`diopter::fuzz_cli`).
pub fn found(r: Result<(), impl std::fmt::Display>) {
    if let Err(m) = r {
        panic!("{m}");
    }
}

/// `eval_diff`: the reference against the fast evaluator on a generated
/// case ([`targets::eval_diff`]).
pub fn eval_diff(data: &[u8]) {
    thread_local! {
        // One fast evaluator per thread: its scratch buffers are reused.
        static FAST: Fast = Fast::default();
    }
    FAST.with(|fast| found(targets::eval_diff(data, fast, Some(&case_dir("eval_diff")))));
}

/// `eval_diff_planted`, a test aid: [`eval_diff`] with a bug planted into
/// the fast evaluator (`$DIOPTER_PLANT`, default `add-off-by-one`) and the
/// generator's cap on operations from `$DIOPTER_MAX_OPS` (default 64). It
/// makes real libFuzzer artifacts of a known disagreement
/// (`reports/minimizer.sh`), so it fails by design.
pub fn eval_diff_planted(data: &[u8]) {
    static CFG: OnceLock<GenConfig> = OnceLock::new();
    let cfg = CFG.get_or_init(|| {
        let mut cfg = GenConfig::default();
        if let Some(n) = std::env::var("DIOPTER_MAX_OPS")
            .ok()
            .and_then(|n| n.parse().ok())
        {
            cfg.max_ops = n;
        }
        cfg
    });
    thread_local! {
        static PLANTED: Planted = Planted::new(
            Box::new(Fast::default()),
            std::env::var("DIOPTER_PLANT")
                .ok()
                .and_then(|p| Plant::from_name(&p))
                .unwrap_or(Plant::AddOffByOne),
        );
    }
    let case = Case::from_bytes(data, cfg);
    PLANTED.with(|p| {
        let oracles: [&dyn Oracle; 2] = [&Reference, p];
        if let Verdict::Disagree { .. } = diff::run_case(&case, &oracles) {
            panic!("planted disagreement: {}", case.expr_line());
        }
    });
}

/// `dwarf_diff`: the reference against the DWARF oracle and the extension
/// evaluator ([`targets::dwarf_diff`]).
pub fn dwarf_diff(data: &[u8]) {
    found(targets::dwarf_diff(data, Some(&case_dir("dwarf_diff"))));
}

/// `simplify_diff`: a generated case against its form simplified by the
/// rule library of the checkout (`corpus/rules`, loaded once).
pub fn simplify_diff(data: &[u8]) {
    static S: OnceLock<Simplifier> = OnceLock::new();
    let s = S.get_or_init(
        || match Simplifier::load(&[checkout().join("corpus/rules")]) {
            Ok(s) => s,
            Err(d) => panic!(
                "the rule library does not load:\n{}",
                diopter_rules::render_located(&d)
            ),
        },
    );
    found(targets::simplify_diff(
        s,
        data,
        Some(&case_dir("simplify_diff")),
    ));
}

/// `validate_diff`: `diopter validate`'s verdicts on AMD-style updates
/// against the reference ([`targets::validate_diff`]).
pub fn validate_diff(data: &[u8]) {
    found(targets::validate_diff(data));
}

/// `check_eval`: whatever the checker accepts evaluates without an
/// `IllFormed` error ([`targets::check_eval`]).
pub fn check_eval(data: &[u8]) {
    found(targets::check_eval(data));
}

/// `parse_roundtrip`: the parser and printer on any text
/// ([`targets::parse_roundtrip`]).
pub fn parse_roundtrip(data: &[u8]) {
    found(targets::parse_roundtrip(data));
}

/// `classic_roundtrip`: a classic `!DIExpression` read, printed, read back
/// and translated ([`crate::classic_target`]).
pub fn classic_roundtrip(data: &[u8]) {
    found(crate::classic_target::classic_roundtrip(data));
}

/// `lifetimes_diff`: the lifetimes dataflow against path enumeration
/// ([`crate::cfg_targets::lifetimes_diff`]).
pub fn lifetimes_diff(data: &[u8]) {
    found(crate::cfg_targets::lifetimes_diff(data));
}

/// `transform_diff`: the passes of `diopter transform` keep every
/// variable's location ([`crate::cfg_targets::transform_diff`]).
pub fn transform_diff(data: &[u8]) {
    found(crate::cfg_targets::transform_diff(data));
}
