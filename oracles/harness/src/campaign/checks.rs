//! The campaign's checks beside the oracle pairs ([`super::CaseCheck`]):
//! what the cargo-fuzz targets `parse_roundtrip` and `validate_diff` check,
//! on the campaign's own generated cases, so that the default job covers
//! the printer, the parsers and translation validation as well as the
//! evaluators.

use super::CaseCheck;
use arbitrary::Unstructured;
use diopter_gen::entropy::{Entropy, SplitMix};
use diopter_gen::Case;
use std::sync::Arc;

/// Every how many cases the default job validates an update (Z3 makes
/// the check slower than the evaluators).
pub const VALIDATE_EVERY: u64 = 10;

/// The checks of the default job (`diopter run`, and the bug-finding
/// benchmark's campaign search, which must run exactly that job).
pub fn default_checks() -> Vec<CaseCheck> {
    vec![roundtrip(), validate(VALIDATE_EVERY)]
}

/// The oracles of the default job: every registered one and the
/// extension evaluator on the lowering with AMD's extensions (the
/// `dwarf_diff` fuzz target's second oracle).
pub fn default_oracles() -> Vec<Box<dyn diopter_diff::Oracle>> {
    let mut owned = crate::registry::all_oracles();
    owned.extend(crate::registry::oracle("dwarf-ext"));
    owned
}

/// The case written as a case file and read back: the same expression,
/// arguments, referrer and context (the printers and parsers of the
/// one-line form, literals, types and contexts).
pub fn roundtrip() -> CaseCheck {
    CaseCheck {
        name: "roundtrip",
        every: 1,
        check: Arc::new(|case: &Case, _| {
            let text = diopter_diff::case_file_text(case, &["reference"], None);
            let again = diopter_diff::read_case_file(&text).map_err(|ds| {
                let first = ds.first().map_or(String::new(), |d| d.message.clone());
                format!("the case file does not read back: {first}")
            })?;
            if again.bare != case.bare {
                return Err(format!(
                    "the expression read back differs\n  was:  {}\n  read: {}",
                    case.expr_line(),
                    again.expr_line()
                ));
            }
            if again.ctx != case.ctx {
                return Err("the context read back differs".into());
            }
            Ok(())
        }),
    }
}

/// Every `every`-th case: an AMD-style update of it (salvage, cast
/// folding, SROA's split; correct or deliberately wrong), its choices drawn
/// from the case's seed, judged by `diopter validate` and checked against
/// the reference interpreter in random contexts
/// ([`crate::targets::validate_update`]). Z3 makes it slower than the
/// evaluators, hence `every`.
pub fn validate(every: u64) -> CaseCheck {
    CaseCheck {
        name: "validate",
        every,
        check: Arc::new(|case: &Case, seed| {
            let mut e = SplitMix(seed ^ 0x7661_6c69_6461_7465);
            let bytes: Vec<u8> = (0..32).map(|_| e.bits64() as u8).collect();
            crate::targets::validate_update(case, &mut Unstructured::new(&bytes)).map(|_| ())
        }),
    }
}
