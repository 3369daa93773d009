//! Whole-file validation as a library call: two versions of an IR file in,
//! one plain verdict per matched record out (with the records' lines, the
//! operand resolutions and the counterexample's text), so that the CLI, the
//! `opt` loop and the pass-fuzzing campaign read the same result.

use crate::reading::{self, Reading};
use crate::validate::{self, Outcome, Verdict};
use crate::validate_ir::{self, FileComparison, Matched, NotValidated, UserMap};
use diopter_semantics::diag::{Diagnostic, Severity, Source};
use diopter_semantics::ir::Module;
use diopter_semantics::syntax::module::parse_module;
use diopter_semantics::syntax::print_ops;
use diopter_semantics::types::DataLayout;
use diopter_semantics::types::TypeTable;
use diopter_smt::prove::ProveConfig;
use serde::{Deserialize, Serialize};

/// A record pair's verdict, without the pair's types.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    Equivalent,
    Refinement,
    Unknown,
    NotCompared,
    /// Refuted on the effect of a write only: every value shown is the
    /// same (typically AFTER names a register where BEFORE was a computed,
    /// read-only value). Not a wrong value, so never a finding.
    WriteOnly,
    Refuted,
    EncodingBug,
}

impl Kind {
    pub fn label(self) -> &'static str {
        match self {
            Kind::Equivalent => "equivalent",
            Kind::Refinement => "refinement",
            Kind::Unknown => "unknown",
            Kind::NotCompared => "not-compared",
            Kind::WriteOnly => "write-only",
            Kind::Refuted => "refuted",
            Kind::EncodingBug => "encoding-bug",
        }
    }

    pub const ALL: [Kind; 7] = [
        Kind::Equivalent,
        Kind::Refinement,
        Kind::Unknown,
        Kind::NotCompared,
        Kind::WriteOnly,
        Kind::Refuted,
        Kind::EncodingBug,
    ];
}

/// One side's record as written.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct RecordAt {
    pub line: usize,
    pub kind: String,
    pub text: String,
}

/// The verdict on one matched pair of records.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct RecordVerdict {
    pub function: String,
    pub variable: String,
    pub before: RecordAt,
    pub after: RecordAt,
    pub verdict: Kind,
    /// What was lost, why Z3 gave up, or the first difference.
    pub detail: String,
    /// The Alive-style counterexample, for a refutation Z3 found.
    pub counterexample: Option<String>,
    /// Each operand's resolution (`before %2: derived: DIOpSExt ...`).
    pub operands: Vec<String>,
    /// The verdict rests on an operand with no known relation between the
    /// files (deleted and unmapped before, or a free value after).
    pub assumes_unknown: bool,
    /// For a refutation: the classic translation's convention (unknown
    /// upper bits, unknown signedness) it needs, `None` when it is wrong
    /// under every reading (`reading::refutation_reading`).
    pub reading: Option<Reading>,
    pub before_expr: String,
    pub after_expr: String,
    pub millis: u64,
}

/// The comparison of two files.
#[derive(Clone, Debug, Default, Serialize)]
pub struct FileVerdicts {
    pub records: Vec<RecordVerdict>,
    /// `(function, variable, before-records)` with no after-record left.
    pub coverage_losses: Vec<(String, String, usize)>,
    pub unmatched_before: usize,
    pub unmatched_after: usize,
    pub functions_removed: Vec<String>,
}

impl FileVerdicts {
    pub fn count(&self, k: Kind) -> usize {
        self.records.iter().filter(|r| r.verdict == k).count()
    }
}

/// A text that does not parse as a module: its error diagnostics (spans
/// in that text), and their rendering (file, line, column and caret each),
/// which is what it displays.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{rendered}")]
pub struct UnreadableModule {
    pub diagnostics: Vec<Diagnostic>,
    pub rendered: String,
}

/// Parses `src` as a module.
pub fn read_module(src: &Source) -> Result<Module, UnreadableModule> {
    let (m, diags) = parse_module(&src.text);
    let diagnostics: Vec<Diagnostic> = diags
        .into_iter()
        .filter(|d| d.severity == Severity::Error)
        .collect();
    if diagnostics.is_empty() {
        Ok(m)
    } else {
        let rendered = diagnostics.iter().map(|d| src.render(d)).collect();
        Err(UnreadableModule {
            diagnostics,
            rendered,
        })
    }
}

/// Two texts of which one or both do not parse ([`validate_texts`]):
/// displayed as the before text's diagnostics, then the after text's.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "{}{}",
    before.as_ref().map_or("", |e| e.rendered.as_str()),
    after.as_ref().map_or("", |e| e.rendered.as_str())
)]
pub struct UnreadablePair {
    pub before: Option<UnreadableModule>,
    pub after: Option<UnreadableModule>,
}

fn record_at(src: &Source, at: usize, kind: &'static str) -> RecordAt {
    let line = src.line_col(at).0;
    RecordAt {
        line,
        kind: kind.to_string(),
        text: src.line_text(line).trim().to_string(),
    }
}

fn verdict_of(o: Result<Outcome, NotValidated>) -> (Kind, String, Option<String>, u64) {
    match o {
        Err(why) => (Kind::NotCompared, why.to_string(), None, 0),
        Ok(o) => {
            let ms = o.millis as u64;
            match o.verdict {
                Verdict::Equivalent => (Kind::Equivalent, String::new(), None, ms),
                Verdict::Refinement(s) => (Kind::Refinement, s, None, ms),
                Verdict::EncodingBug(s) => (Kind::EncodingBug, s, None, ms),
                Verdict::Unknown { why, trials } => (
                    Kind::Unknown,
                    format!("{why}; no difference in {trials} random contexts"),
                    None,
                    ms,
                ),
                Verdict::RefutedInTrial { why, found } => (
                    Kind::Refuted,
                    format!("Z3 could not decide ({why}); the reference found: {found}"),
                    None,
                    ms,
                ),
                Verdict::Refuted(c) if c.differences.iter().all(|d| d.contains("write")) => (
                    Kind::WriteOnly,
                    c.differences.join("; "),
                    Some(c.render()),
                    ms,
                ),
                Verdict::Refuted(c) => (
                    Kind::Refuted,
                    c.first_difference.clone(),
                    Some(c.render()),
                    ms,
                ),
            }
        }
    }
}

/// A pass leaves most records as they were: when `BEFORE` with the operand
/// mapping substituted is the very expression `AFTER` is, over the same
/// arguments and for the same variable type, the two are equivalent by
/// reflexivity, and no query is needed. `None` when they differ in any way
/// (or the pair does not check: the full path reports why).
fn identical(m: &Matched, types: &TypeTable) -> Option<Outcome> {
    let p = m.pair.as_ref().ok()?;
    let a = p.after.as_ref()?;
    let vt = |b: &diopter_semantics::ast::Bare| b.var_type.as_ref().map(|(t, _)| t.to_string());
    if vt(&p.before) != vt(a) {
        return None;
    }
    let sub = validate::substitute(p);
    if print_ops(&sub) != print_ops(&a.expr) || validate::check_pair(p, types).is_err() {
        return None;
    }
    Some(Outcome {
        verdict: Verdict::Equivalent,
        substituted: print_ops(&sub),
        millis: 0,
    })
}

/// Validates every matched record pair of `before`/`after` (already read);
/// `dl` overrides the before module's own layout.
pub fn validate_modules(
    before: (&Source, &Module),
    after: (&Source, &Module),
    dl: Option<&DataLayout>,
    maps: &[UserMap],
    cfg: &ProveConfig,
) -> FileVerdicts {
    let dl = dl
        .cloned()
        .unwrap_or_else(|| validate_ir::module_layout(before.1));
    let cmp: FileComparison = validate_ir::compare(before.1, after.1, &dl, maps);
    let mut out = FileVerdicts {
        coverage_losses: cmp.coverage_losses.clone(),
        unmatched_before: cmp.unmatched_before.len(),
        unmatched_after: cmp.unmatched_after.len(),
        functions_removed: cmp.functions_removed.clone(),
        ..FileVerdicts::default()
    };
    for m in &cmp.matched {
        let outcome = match identical(m, &before.1.types) {
            Some(o) => Ok(o),
            None => validate_ir::validate_matched(m, cfg, &before.1.types),
        };
        let (outcome, reading) = match outcome {
            Ok(o) => {
                let (o, r) = reading::settle(m, o, cfg, &before.1.types);
                (Ok(o), r)
            }
            Err(e) => (Err(e), None),
        };
        let (verdict, detail, counterexample, millis) = verdict_of(outcome);
        // A write-only difference is no wrong value: no reading to name.
        let reading = reading.filter(|_| verdict == Kind::Refuted);
        let (before_expr, after_expr) = match &m.pair {
            Ok(p) => (
                diopter_semantics::syntax::print_bare(&p.before),
                p.after
                    .as_ref()
                    .map(diopter_semantics::syntax::print_bare)
                    .unwrap_or_else(|| "poisoned".into()),
            ),
            Err(_) => (String::new(), String::new()),
        };
        out.records.push(RecordVerdict {
            function: m.function.clone(),
            variable: m.variable.clone(),
            before: record_at(before.0, m.before_at, m.before_kind.name()),
            after: record_at(after.0, m.after_at, m.after_kind.name()),
            verdict,
            detail,
            counterexample,
            operands: m
                .operands
                .iter()
                .map(|o| format!("{} {}: {}: {}", o.side, o.operand, o.how, o.detail))
                .collect(),
            assumes_unknown: m.assumes_unknown,
            reading,
            before_expr,
            after_expr,
            millis,
        });
    }
    out
}

/// [`validate_modules`] on two texts; `Err` holds the diagnostics of
/// whichever does not parse.
pub fn validate_texts(
    before: &Source,
    after: &Source,
    dl: Option<&DataLayout>,
    cfg: &ProveConfig,
) -> Result<FileVerdicts, UnreadablePair> {
    let b = read_module(before);
    let a = read_module(after);
    match (b, a) {
        (Ok(bm), Ok(am)) => Ok(validate_modules((before, &bm), (after, &am), dl, &[], cfg)),
        (b, a) => Err(UnreadablePair {
            before: b.err(),
            after: a.err(),
        }),
    }
}
