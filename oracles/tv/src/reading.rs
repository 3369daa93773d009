//! Which of the classic translation's open conventions a refutation rests
//! on. The translation (`diopter_semantics::classic`) reads a narrow SSA
//! value with unknown upper bits and the generic type with unknown
//! signedness (decisions 2 and 4 of docs/classic.md): the sound
//! reading for a debugger, which sees whatever the register holds and
//! computes with whichever signedness it chose. A refutation under that
//! reading is a real wrong value, but not every one is the *same* mistake:
//! most upstream refutations are one mistake (a salvage that feeds a narrow
//! value to `DW_OP_shr`, `DW_OP_div` or a comparison on the generic type)
//! repeated in every function that has it, and others are wrong under any
//! reading. Asking the prover again with those inputs fixed (the pair built
//! again with values in their place, so that Z3 and the reference's random
//! contexts both see the same question) tells them apart, so that a campaign
//! deduplicates the first kind into one cause per pass and keeps the second
//! kind apart.

pub use crate::conventions::{Conventions, Reading, Upper, REFINEMENT_WITNESSES, VARIANTS};
use crate::validate::{self, Outcome, Verdict};
use crate::validate_ir::Matched;
use diopter_empirical as empirical;
use diopter_rules::instance::Relation;
use diopter_semantics::types::TypeTable;
use diopter_smt::prove::{prove_instance_in, ProveConfig, Verdict as PVerdict};

/// One reading query's Z3 timeout, at most.
const READING_TIMEOUT_MS: u32 = 1_000;

/// Random contexts the reference interpreter tries per fixing.
const READING_TRIALS: usize = 300;

/// For a refuted pair `m`: the first reading whose fixing makes it hold
/// ([`VARIANTS`], built beside the pair by `validate_ir::compare`), or
/// `None` when it is refuted under every one (or has no open input). Each
/// fixing is first tried in [`READING_TRIALS`] random contexts by the
/// reference interpreter (cheap, and a difference it finds is final), then,
/// if they agree, asked of Z3 for at most [`READING_TIMEOUT_MS`]; a Z3 that
/// gives up leaves the agreeing contexts as the evidence (a grouping, never
/// a verdict: the record stays refuted), and with no context meeting the
/// preconditions only Z3's proof names the reading.
pub fn refutation_reading(m: &Matched, cfg: &ProveConfig, types: &TypeTable) -> Option<Reading> {
    let quick = ProveConfig {
        timeout_ms: cfg.timeout_ms.min(READING_TIMEOUT_MS),
        values_first: true,
        ..cfg.clone()
    };
    m.variants.iter().find_map(|(reading, p)| {
        let inst = validate::instance(p, types, Relation::Lossy)?;
        let tally =
            empirical::check_instance_in(&inst, READING_TRIALS, 0x5eed, false, &p.dl).ok()?;
        // Under a narrow precondition (`trunc nsw` to i1, a parameter its
        // callers pass two constants to) random contexts may all miss it:
        // then Z3 alone decides, and only a proof counts.
        let tested = tally.agree + tally.both_error > 0;
        match prove_instance_in(&inst, &quick, &p.dl).verdict {
            PVerdict::Proved | PVerdict::ProvedExhaustive(_) => Some(*reading),
            PVerdict::Refuted(_) | PVerdict::EncodingBug(_) => None,
            _ => tested.then_some(*reading),
        }
    })
}

/// A matched pair's outcome settled with the readings, as `diopter
/// validate` and the campaign both judge a record: a refutation gets the
/// reading it rests on ([`refutation_reading`]); one that rests only on the
/// upper bits and that a [`refinement_witness`] proves becomes a
/// refinement (with no reading).
pub fn settle(
    m: &Matched,
    mut o: Outcome,
    cfg: &ProveConfig,
    types: &TypeTable,
) -> (Outcome, Option<Reading>) {
    if !matches!(
        o.verdict,
        Verdict::Refuted(_) | Verdict::RefutedInTrial { .. }
    ) {
        return (o, None);
    }
    let reading = refutation_reading(m, cfg, types);
    if reading == Some(Reading::UpperBits) {
        if let Some(why) = refinement_witness(m, cfg, types) {
            o.verdict = Verdict::Refinement(why);
            return (o, None);
        }
    }
    (o, reading)
}

/// For a pair refuted only under the reading of the upper bits: whether
/// fixing just the before-record's upper bits ([`REFINEMENT_WITNESSES`])
/// makes it hold for every input and every value of the after-record's own
/// upper bits, which makes the after-record a refinement (every value it
/// shows is one the before-record could show). Only Z3's proof counts: a
/// refinement is a claim that the pass is right. The text says which
/// witness held.
pub fn refinement_witness(m: &Matched, cfg: &ProveConfig, types: &TypeTable) -> Option<String> {
    m.witnesses
        .iter()
        .zip(REFINEMENT_WITNESSES)
        .find_map(|(p, c)| {
            let inst = validate::instance(p, types, Relation::Lossy)?;
            match prove_instance_in(&inst, cfg, &p.dl).verdict {
                PVerdict::Proved | PVerdict::ProvedExhaustive(_) => Some(format!(
                "the records differ only in the before-record's narrow operand's upper register \
                 bits, which LLVM leaves unspecified: with them {} the records agree for every \
                 input (and any upper bits of the after-record's operands), so every value the \
                 after-record shows is one the before-record could show",
                match c.upper {
                    Upper::SignCopies => "copies of the sign bit",
                    _ => "zero",
                }
            )),
                _ => None,
            }
        })
}
