//! The differential driver: evaluates one [`Case`] with several oracles and
//! classifies how their outcomes relate, by DESIGN.md's equivalence.
//!
//! An [`Oracle`] turns a case into an `interp::Outcome`. [`observe`] adds
//! what the outcome means for a debugger: the value read at the location,
//! and the context after writing a fixed bit pattern through it (the
//! reference's `interp::write_value`, so that for every oracle it is the
//! *location* that is compared, through one implementation of writing).
//! [`run_case`] compares every oracle's observation with the first one's
//! (the reference's, when it takes part) and gives a [`Verdict`]:
//!
//! * `Agree`: both succeed with the same type, size, fragment and location
//!   description, read the same bits (or fail to read for the same reason),
//!   and writing the pattern has the same effect (or is refused for the
//!   same reason);
//! * `BothError`: every oracle fails with the same error class at the same
//!   operation;
//! * `InconsistentContext`: the reference says the context broke the
//!   promise that the single locations of a location hold the same bits.
//!   Such a case says nothing about agreement and is reported apart;
//! * `Skipped`: some oracle hit a resource limit, or cannot evaluate the
//!   case at all ([`Oracle::not_applicable`]: the DWARF oracle on an
//!   expression that does not lower);
//! * `Disagree`: anything else, with one line per difference.
//!
//! A disagreement is kept as a **case file** ([`write_case_file`],
//! [`read_case_file`]) that `diopter replay FILE` (`cargo run --release --
//! replay FILE`) evaluates again. The format:
//!
//! ```text
//! # diopter case file: cargo run --release -- replay FILE
//! # oracles: reference, fast
//! # verdict: DISAGREE
//! #   fast: location mem(5, 0x104) vs reference mem(5, 0x100)
//! %s0 = type { i32, i8 }
//! target datalayout = "e-p:32:32-p5:16:16-i64:64"
//! [ptr addrspace(5)] DIOpArg(0, ptr addrspace(5)), DIOpDeref(i32)
//! --- context
//! datalayout "e-p:32:32-p5:16:16-i64:64"
//! seed 7
//! mem 5 0x100 = 78 56 34 12
//! arg 0 = implicit(i16 0x100)
//! ```
//!
//! Everything above the line `--- context` is an `.expr` file (comments,
//! `%name = type` lines, an optional `target datalayout`) holding exactly
//! one expression in the one-line form; everything below it is a context in
//! the format of `diopter_semantics::context`. Comment lines `# oracles:
//! A, B` name the oracles to replay with; other comments are ignored. When
//! both halves give a data layout they must agree; when only the expression
//! half does, it applies to the context.

use diopter_semantics::ast::Span;
use diopter_semantics::context::Context;
use diopter_semantics::diag::{Diagnostic, Source};
use diopter_semantics::interp::{self, ErrorKind, Located, Outcome};
use diopter_semantics::location::{ReadError, ReadErrorKind, WriteError};
use diopter_semantics::syntax::{escape_string, parse_expr_file, print_local_name};
use diopter_semantics::types::{DataLayout, Type};
use diopter_semantics::value::Bits;
use std::fmt;
use std::path::Path;

/// The case every oracle is handed (defined with the reference's types, so
/// that engines read cases without the framework), and the bits written
/// through every result.
pub use diopter_semantics::case::{write_pattern, Case};

/// Something that evaluates expressions and is checked against the others.
pub trait Oracle {
    fn name(&self) -> &str;
    fn eval(&self, case: &Case) -> Outcome;
    /// Why this oracle cannot evaluate `case` at all (the DWARF oracle on an
    /// expression that does not lower); such a case is `Skipped` with the
    /// reason, never agreement.
    fn not_applicable(&self, _case: &Case) -> Option<String> {
        None
    }
    /// Whether its location descriptions are in the reference's form and
    /// compared structurally. When not (the DWARF oracle's come back from
    /// DWARF's coarser model), only type, size, fragment, the bits read and
    /// the effect of a write are compared: DESIGN.md's equivalence.
    fn exact_locations(&self) -> bool {
        true
    }
    /// Whether a NaN this oracle computes for `case` may carry any payload.
    /// IEEE-754 only recommends how payloads propagate and DWARF says
    /// nothing, so a consumer that does float arithmetic on the host (the
    /// DWARF oracle) may return a NaN with another sign or payload than
    /// APFloat's; two NaN results of the same float type then agree.
    fn nan_payload_unspecified(&self, _case: &Case) -> bool {
        false
    }
}

/// The reference interpreter (`interp::eval_bare`).
pub struct Reference;

impl Oracle for Reference {
    fn name(&self) -> &str {
        "reference"
    }
    fn eval(&self, case: &Case) -> Outcome {
        interp::eval_bare(&case.bare, &case.types, &case.ctx)
    }
}

/// One oracle's outcome and what it means to a debugger.
#[derive(Clone, Debug)]
pub struct Observation {
    pub oracle: String,
    pub outcome: Outcome,
    /// For a location: the value read there.
    pub read: Option<Result<Bits, ReadError>>,
    /// For a location: the context after writing [`write_pattern`] through
    /// it, or why the write was refused.
    pub write: Option<Result<Context, WriteError>>,
    /// [`Oracle::exact_locations`] of the oracle.
    pub exact_location: bool,
    /// [`Oracle::nan_payload_unspecified`] of the oracle for this case.
    pub any_nan: bool,
}

/// Evaluates `case` with `oracle`, then reads and writes through the result
/// with the reference's `read_value`/`write_value`.
pub fn observe(case: &Case, oracle: &dyn Oracle) -> Observation {
    let outcome = oracle.eval(case);
    let (read, write) = match &outcome {
        Ok(r) => {
            let read = interp::read_value(&case.ctx, r);
            let mut after = case.ctx.clone();
            let write = interp::write_value(&mut after, r, &write_pattern(r.bits)).map(|()| after);
            (Some(read), Some(write))
        }
        Err(_) => (None, None),
    };
    Observation {
        oracle: oracle.name().to_string(),
        outcome,
        read,
        write,
        exact_location: oracle.exact_locations(),
        any_nan: oracle.nan_payload_unspecified(case),
    }
}

/// How the oracles' outcomes on one case relate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Same location, same bits read, same effect of a write.
    Agree,
    /// Every oracle failed with this error class at this operation.
    BothError { kind: ErrorKind, op_index: usize },
    /// The reference says the context is inconsistent (its single locations
    /// disagree); never counted as agreement.
    InconsistentContext { detail: String },
    /// An oracle hit a resource limit (`ErrorKind::ResourceLimit`).
    Skipped { reason: String },
    /// The oracles differ; one line per difference.
    Disagree { details: Vec<String> },
}

impl Verdict {
    pub fn is_disagreement(&self) -> bool {
        matches!(self, Verdict::Disagree { .. })
    }

    /// One word for tables and exit codes.
    pub fn label(&self) -> &'static str {
        match self {
            Verdict::Agree => "AGREE",
            Verdict::BothError { .. } => "BOTH-ERROR",
            Verdict::InconsistentContext { .. } => "INCONSISTENT-CONTEXT",
            Verdict::Skipped { .. } => "SKIPPED",
            Verdict::Disagree { .. } => "DISAGREE",
        }
    }

    /// The lines under the label.
    pub fn details(&self) -> Vec<String> {
        match self {
            Verdict::Agree => vec![],
            Verdict::BothError { kind, op_index } => {
                vec![format!("all fail with {kind:?} at operation #{op_index}")]
            }
            Verdict::InconsistentContext { detail } | Verdict::Skipped { reason: detail } => {
                vec![detail.clone()]
            }
            Verdict::Disagree { details } => details.clone(),
        }
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())?;
        for d in self.details() {
            write!(f, "\n  {d}")?;
        }
        Ok(())
    }
}

/// Runs every oracle on `case` and classifies the outcomes against the
/// first oracle's (put the reference first).
///
/// Reading and writing go through the reference's `read_value` and
/// `write_value`, which depend only on the location and the context, so two
/// outcomes with equal `Located` values read and write alike: this skips
/// them, and observes fully ([`run_case_observed`]) only when some outcome
/// differs from the first. The verdict is the same either way (a test holds
/// it to that); the shortcut is what keeps fuzzing fast.
pub fn run_case(case: &Case, oracles: &[&dyn Oracle]) -> Verdict {
    let kept = match applicable(case, oracles) {
        Ok(k) => k,
        Err(v) => return v,
    };
    let oracles = kept.as_slice();
    let outcomes: Vec<Outcome> = oracles.iter().map(|o| o.eval(case)).collect();
    let Some(base) = outcomes.first() else {
        return Verdict::Skipped {
            reason: "no oracle".into(),
        };
    };
    let same = |o: &Outcome| match (base, o) {
        (Ok(a), Ok(b)) => a == b,
        (Err(a), Err(b)) => a.kind == b.kind && a.op_index == b.op_index,
        _ => false,
    };
    if !outcomes[1..].iter().all(same) {
        return run_case_observed(case, oracles).1;
    }
    // All alike: only the first outcome's read is needed (for Inconsistent).
    let obs: Vec<Observation> = oracles
        .iter()
        .zip(outcomes)
        .enumerate()
        .map(|(i, (o, outcome))| {
            let read = match (&outcome, i) {
                (Ok(r), 0) => Some(interp::read_value(&case.ctx, r)),
                _ => None,
            };
            Observation {
                oracle: o.name().to_string(),
                outcome,
                read,
                write: None,
                exact_location: o.exact_locations(),
                // All outcomes are equal here, so payloads never matter.
                any_nan: false,
            }
        })
        .collect();
    classify(&obs)
}

/// [`run_case`], also returning each oracle's observation (for printing).
pub fn run_case_observed(case: &Case, oracles: &[&dyn Oracle]) -> (Vec<Observation>, Verdict) {
    let kept = match applicable(case, oracles) {
        Ok(k) => k,
        Err(v) => return (Vec::new(), v),
    };
    let oracles = kept.as_slice();
    let obs: Vec<Observation> = oracles.iter().map(|o| observe(case, *o)).collect();
    let v = classify(&obs);
    (obs, v)
}

/// The oracles that can evaluate the case ([`Oracle::not_applicable`]).
/// The others are left out of the comparison; when that leaves the first
/// oracle out, or fewer than two of several, the case is `Skipped` with
/// their reasons.
fn applicable<'a>(case: &Case, oracles: &[&'a dyn Oracle]) -> Result<Vec<&'a dyn Oracle>, Verdict> {
    let mut kept = Vec::with_capacity(oracles.len());
    let mut reasons = Vec::new();
    for (i, o) in oracles.iter().enumerate() {
        match o.not_applicable(case) {
            None => kept.push(*o),
            Some(r) => {
                reasons.push(format!("{}: {r}", o.name()));
                if i == 0 {
                    kept.clear();
                    break;
                }
            }
        }
    }
    if reasons.is_empty() || (kept.len() >= 2 && kept[0].name() == oracles[0].name()) {
        Ok(kept)
    } else {
        Err(Verdict::Skipped {
            reason: reasons.join("; "),
        })
    }
}

/// Classifies observations against the first one (see the module doc).
pub fn classify(obs: &[Observation]) -> Verdict {
    let Some(base) = obs.first() else {
        return Verdict::Skipped {
            reason: "no oracle".into(),
        };
    };
    for o in obs {
        if let Err(e) = &o.outcome {
            if e.kind == ErrorKind::ResourceLimit {
                return Verdict::Skipped {
                    reason: format!("{}: {e}", o.oracle),
                };
            }
        }
    }
    let mut details = Vec::new();
    for o in &obs[1..] {
        compare(base, o, &mut details);
    }
    let inconsistent = match (&base.outcome, &base.read) {
        (Err(e), _) if e.kind == ErrorKind::Inconsistent => Some(format!("{}: {e}", base.oracle)),
        (_, Some(Err(e))) if e.kind == ReadErrorKind::Inconsistent => Some(format!(
            "{}: reading the result: {}",
            base.oracle, e.message
        )),
        _ => None,
    };
    if let Some(mut detail) = inconsistent {
        if !details.is_empty() {
            detail.push_str(&format!(
                " (and the oracles differ: {})",
                details.join("; ")
            ));
        }
        return Verdict::InconsistentContext { detail };
    }
    if !details.is_empty() {
        return Verdict::Disagree { details };
    }
    match &base.outcome {
        Err(e) => Verdict::BothError {
            kind: e.kind,
            op_index: e.op_index,
        },
        Ok(_) => Verdict::Agree,
    }
}

/// Whether `b` is a NaN of the float type `ty`.
pub fn is_nan(ty: &Type, b: &Bits) -> bool {
    use rustc_apfloat::Float;
    match (ty.float_kind(), b.to_u128()) {
        (Some(k), Some(raw)) if b.width() == k.width() => {
            diopter_semantics::with_float_type!(k, F => F::from_bits(raw).is_nan())
        }
        _ => false,
    }
}

/// Appends to `out` every way `o` differs from `base`.
fn compare(base: &Observation, o: &Observation, out: &mut Vec<String>) {
    let who = &o.oracle;
    let them = &base.oracle;
    match (&base.outcome, &o.outcome) {
        (Err(a), Err(b)) => {
            if (a.kind, a.op_index) != (b.kind, b.op_index) {
                out.push(format!(
                    "{who}: {:?} at operation #{} vs {them} {:?} at operation #{} ({})",
                    b.kind, b.op_index, a.kind, a.op_index, a.message
                ));
            }
        }
        (Ok(a), Err(b)) => out.push(format!(
            "{who}: fails with {b} vs {them} succeeds with `{}` at {}",
            a.ty, a.loc
        )),
        (Err(a), Ok(b)) => out.push(format!(
            "{who}: succeeds with `{}` at {} vs {them} fails with {a}",
            b.ty, b.loc
        )),
        (Ok(a), Ok(b)) => {
            compare_located(a, b, who, them, o.exact_location, out);
            match (&base.read, &o.read) {
                (Some(Ok(x)), Some(Ok(y)))
                    if x != y && !(o.any_nan && is_nan(&a.ty, x) && is_nan(&a.ty, y)) =>
                {
                    out.push(format!(
                        "{who}: reads {} vs {them} {}",
                        y.to_hex(),
                        x.to_hex()
                    ))
                }
                (Some(Err(x)), Some(Err(y))) if x.kind != y.kind => out.push(format!(
                    "{who}: read fails with {:?} vs {them} {:?}",
                    y.kind, x.kind
                )),
                (Some(Ok(x)), Some(Err(y))) => out.push(format!(
                    "{who}: read fails with {:?} ({}) vs {them} reads {}",
                    y.kind,
                    y.message,
                    x.to_hex()
                )),
                (Some(Err(x)), Some(Ok(y))) => out.push(format!(
                    "{who}: reads {} vs {them} read fails with {:?}",
                    y.to_hex(),
                    x.kind
                )),
                _ => {}
            }
            match (&base.write, &o.write) {
                (Some(Ok(x)), Some(Ok(y))) => {
                    let diff = x.state_diff(y);
                    if !diff.is_empty() {
                        out.push(format!(
                            "{who}: writing the pattern leaves a different context ({them} vs {who}: {})",
                            diff.join(", ")
                        ));
                    }
                }
                (Some(Err(x)), Some(Err(y))) if x.kind != y.kind => out.push(format!(
                    "{who}: write refused with {:?} vs {them} {:?}",
                    y.kind, x.kind
                )),
                (Some(Ok(_)), Some(Err(y))) => out.push(format!(
                    "{who}: write refused with {:?} ({}) vs {them} writes",
                    y.kind, y.message
                )),
                (Some(Err(x)), Some(Ok(_))) => {
                    out.push(format!("{who}: writes vs {them} refuses with {:?}", x.kind))
                }
                _ => {}
            }
        }
    }
}

fn compare_located(
    a: &Located,
    b: &Located,
    who: &str,
    them: &str,
    exact: bool,
    out: &mut Vec<String>,
) {
    if a.ty != b.ty {
        out.push(format!("{who}: type `{}` vs {them} `{}`", b.ty, a.ty));
    }
    if a.bits != b.bits {
        out.push(format!("{who}: {} bits vs {them} {}", b.bits, a.bits));
    }
    if a.fragment != b.fragment {
        out.push(format!(
            "{who}: fragment {:?} vs {them} {:?}",
            b.fragment, a.fragment
        ));
    }
    if exact && a.loc != b.loc {
        out.push(format!("{who}: location {} vs {them} {}", b.loc, a.loc));
    }
}

// ------------------------------------------------------------- case files

/// The line that separates a case file's expression from its context.
pub const CONTEXT_SEPARATOR: &str = "--- context";

/// The command that replays a case file.
pub fn repro_command(path: &Path) -> String {
    format!("cargo run --release -- replay {}", path.display())
}

/// A case file's text (see the module doc): the expression with its named
/// types and data layout, then the context; `oracles` and the verdict (when
/// given) as comments.
pub fn case_file_text(case: &Case, oracles: &[&str], verdict: Option<&Verdict>) -> String {
    let mut s = String::new();
    s.push_str("# diopter case file: cargo run --release -- replay FILE\n");
    s.push_str(&format!("# oracles: {}\n", oracles.join(", ")));
    if let Some(v) = verdict {
        s.push_str(&format!("# verdict: {}\n", v.label()));
        for d in v.details() {
            // A detail may span lines; every line stays a comment.
            for line in d.lines() {
                s.push_str(&format!("#   {line}\n"));
            }
        }
    }
    for (name, body) in &case.types.named {
        match body {
            Some(t) => s.push_str(&format!("%{} = type {t}\n", print_local_name(name))),
            None => s.push_str(&format!("%{} = type opaque\n", print_local_name(name))),
        }
    }
    if *case.datalayout() != DataLayout::default() {
        s.push_str(&format!(
            "target datalayout = \"{}\"\n",
            escape_string(&case.datalayout().text)
        ));
    }
    s.push_str(&case.expr_line());
    s.push('\n');
    s.push_str(CONTEXT_SEPARATOR);
    s.push('\n');
    s.push_str(&case.ctx.to_string());
    s
}

/// Writes `case` as a case file, annotated with the oracles' names and the
/// verdict they reach on it.
pub fn write_case_file(path: &Path, case: &Case, oracles: &[&dyn Oracle]) -> std::io::Result<()> {
    let names: Vec<&str> = oracles.iter().map(|o| o.name()).collect();
    let verdict = run_case(case, oracles);
    if let Some(dir) = path.parent() {
        if !dir.as_os_str().is_empty() {
            std::fs::create_dir_all(dir)?;
        }
    }
    std::fs::write(path, case_file_text(case, &names, Some(&verdict)))
}

/// The byte offset of the separator line, if there is one.
fn separator(text: &str) -> Option<(usize, usize)> {
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        if line.trim() == CONTEXT_SEPARATOR {
            return Some((at, at + line.len()));
        }
        at += line.len();
    }
    None
}

/// `text` with every byte outside `keep` replaced by a blank (newlines
/// kept), so that spans into the result are spans into `text`.
fn blank_outside(text: &str, keep: std::ops::Range<usize>) -> String {
    text.char_indices()
        .map(|(i, c)| {
            if keep.contains(&i) || c == '\n' {
                c.to_string()
            } else {
                // A multi-byte character becomes as many blanks as it has bytes.
                " ".repeat(c.len_utf8())
            }
        })
        .collect()
}

/// The oracle names a case file's `# oracles:` line gives (none if it has
/// no such line).
pub fn case_file_oracles(text: &str) -> Vec<String> {
    let end = separator(text).map_or(text.len(), |s| s.0);
    text[..end]
        .lines()
        .find_map(|l| l.trim().strip_prefix("# oracles:"))
        .map(|rest| {
            rest.split(',')
                .map(|s| s.trim().to_string())
                .filter(|s| !s.is_empty())
                .collect()
        })
        .unwrap_or_default()
}

/// Reads a case file. Diagnostics carry spans into `text`.
pub fn read_case_file(text: &str) -> Result<Case, Vec<Diagnostic>> {
    let Some((sep_start, sep_end)) = separator(text) else {
        return Err(vec![Diagnostic::error(
            Span::new(text.len(), text.len()),
            format!("a case file needs a `{CONTEXT_SEPARATOR}` line between the expression and the context"),
        )]);
    };
    let expr_text = blank_outside(text, 0..sep_start);
    let ctx_text = blank_outside(text, sep_end..text.len());
    let (file, mut diags) = parse_expr_file(&Source::new("case", expr_text));
    let mut ctx = match Context::parse(&ctx_text) {
        Ok(c) => Some(c),
        Err(mut d) => {
            diags.append(&mut d);
            None
        }
    };
    if file.entries.len() != 1 && diags.is_empty() {
        let span = file
            .entries
            .get(1)
            .map_or(Span::new(sep_start, sep_start), |e| e.span);
        diags.push(Diagnostic::error(
            span,
            format!(
                "a case file holds exactly one expression above `{CONTEXT_SEPARATOR}`, this one has {}",
                file.entries.len()
            ),
        ));
    }
    if let (Some(c), Some((dl, span))) = (ctx.as_mut(), &file.datalayout) {
        let ctx_gives_one = ctx_text
            .lines()
            .any(|l| l.split_whitespace().next() == Some("datalayout"));
        if !ctx_gives_one {
            c.datalayout = dl.clone();
        } else if c.datalayout != *dl {
            diags.push(Diagnostic::error(
                *span,
                format!(
                    "the expression's data layout `{}` differs from the context's `{}`",
                    dl.text, c.datalayout.text
                ),
            ));
        }
    }
    if !diags.is_empty() {
        return Err(diags);
    }
    let entry = file
        .entries
        .into_iter()
        .next()
        .expect("one entry, checked above");
    Ok(Case {
        bare: entry.bare,
        types: file.types,
        ctx: ctx.expect("parsed, else a diagnostic above"),
    })
}
