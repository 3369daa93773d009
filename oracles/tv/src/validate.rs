//! Translation validation of a compiler's debug-information updates
//! (`diopter validate`).
//!
//! A pass rewrites an expression `BEFORE` over its operands (the *old*
//! arguments) into `AFTER` over new operands. An **operand mapping** says
//! what became of every old argument, as a DIOp expression over the new
//! arguments: `arg0 := DIOpArg(0, ptr addrspace(1)), DIOpConvert(ptr)` (the
//! location where the old operand's value is found after the pass), or
//! `arg0 := undefined` (the pass deleted it). Substituting the mapping into
//! `BEFORE` puts both sides over the new arguments, and the prover
//! (`prove::prove_instance_in`, the same encoding and storage shapes as
//! `diopter prove`) decides, each new argument a value hole in every storage
//! shape:
//!
//! * **equivalent**: DESIGN.md's equivalence;
//! * **refinement**: not equivalent, but `AFTER` only loses information:
//!   it is read-only where `BEFORE` was writable (`Relation::ReadOnly`), or
//!   fails, reads nothing or refuses writes where `BEFORE` gives something
//!   (`Relation::Lossy`); a poisoned `AFTER`, and a mapping that deletes an
//!   argument `BEFORE` reads, are refinements too;
//! * **refuted**: a context where `AFTER` gives a value (or accepts a write)
//!   that `BEFORE` does not, found by Z3 and confirmed by the reference
//!   interpreter (a difference the reference does not confirm is an
//!   encoding bug, reported as such, never a refutation);
//! * **unknown**: Z3 gave up; the pair is then evaluated in random contexts
//!   by the reference interpreter (`diopter_empirical`), and the verdict says
//!   how many found no difference (a difference found so is a refutation,
//!   [`Verdict::RefutedInTrial`]).
//!
//! A pair file's entry may be generic ([`Generic`], `where T: int`, the
//! rule language's classes and `where` parser): its lines are kept as
//! tokens and read again at every binding of its type variables (the
//! types `diopter prove` instantiates rules at), each binding a concrete
//! [`Pair`] decided as above; the command reports each binding's verdict
//! and the worst.
//!
//! New arguments marked `poison` have the undefined location, as the
//! reference interpreter gives a poison operand: they are substituted by
//! `DIOpConstant(T undef)` (which the interpreter and the encoding also give
//! the undefined location) before the query.

use diopter_empirical as empirical;
use diopter_rules::instance::{Hole, HoleKind, Instance, Relation};
use diopter_rules::syntax::parse_where;
use diopter_rules::Class;
use diopter_semantics::ast::{ArgDecl, Bare, Dialect, Expr, Literal, Op, OpNode, Span};
use diopter_semantics::check::{self, ArgInfo, Env, ReferrerInfo};
use diopter_semantics::diag::Diagnostic;
use diopter_semantics::syntax::bare::parse_bare_tokens_at;
use diopter_semantics::syntax::lexer::{lex, Tok, Token};
use diopter_semantics::syntax::print_ops;
use diopter_semantics::types::{DataLayout, Type, TypeTable};
use diopter_smt::prove::{prove_instance_in, Counterexample, ProveConfig, Verdict as PVerdict};
use std::time::Instant;

/// What became of one old argument.
#[derive(Clone, Debug)]
pub enum MapRhs {
    /// The location of the old operand's value, over the new arguments.
    Expr(Expr),
    /// The pass deleted the operand and kept nothing of it.
    Undefined,
}

/// One pass's update of one expression, with its operand mapping.
#[derive(Clone, Debug)]
pub struct Pair {
    /// A name for reports (`row 12`).
    pub name: String,
    pub before: Bare,
    /// `None`: the pass poisoned the expression (`DW_OP_LLVM_poisoned`).
    pub after: Option<Bare>,
    /// `(old argument index, mapping, span of the line)`.
    pub map: Vec<(u64, MapRhs, Span)>,
    pub dl: DataLayout,
    /// Free-text lines (`note ...`): provenance and ambiguities.
    pub notes: Vec<String>,
    /// `source ...`: the test file the pair comes from.
    pub source: Option<String>,
    pub span: Span,
    /// New arguments that are plain values (an implicit location holding any
    /// value: `HoleKind::Const`), not locations of every storage shape: the
    /// inputs a classic expression's translation adds (upper bits of a
    /// narrow register, the generic type's signedness).
    pub value_args: Vec<u64>,
    /// Preconditions over the value arguments (`poison::conditions`): the
    /// pair is decided only where they hold (where the before-value is not
    /// poison and its instructions are defined).
    pub pre: Vec<diopter_rules::instance::Term>,
}

impl Pair {
    /// The old operands the pass deleted (`argK := undefined`) that the
    /// before-expression reads: where the variable's value is lost, which
    /// makes an update that is otherwise exact a refinement.
    pub fn deleted_and_read(&self) -> Vec<u64> {
        self.map
            .iter()
            .filter(|(k, m, _)| {
                matches!(m, MapRhs::Undefined)
                    && self
                        .before
                        .expr
                        .ops()
                        .any(|o| matches!(o, Op::Arg(j, _) if j == k))
            })
            .map(|(k, _, _)| *k)
            .collect()
    }
}

/// The verdict on one pair.
#[derive(Clone, Debug)]
pub enum Verdict {
    Equivalent,
    /// Sound but lossy; the text says what was lost.
    Refinement(String),
    Refuted(Box<Counterexample>),
    /// Z3 gave up, and the reference interpreter found a difference in a
    /// random context (`found` says which and how to draw it again): a
    /// refutation without a Z3 model, so without a [`Counterexample`].
    RefutedInTrial {
        why: String,
        found: String,
    },
    /// Z3 gave up and `trials` random contexts found no difference.
    Unknown {
        why: String,
        trials: usize,
    },
    /// Z3 found a difference the reference does not confirm: a bug in
    /// diopter, never a verdict on the pass.
    EncodingBug(String),
}

impl Verdict {
    pub fn label(&self) -> &'static str {
        match self {
            Verdict::Equivalent => "equivalent",
            Verdict::Refinement(_) => "refinement",
            Verdict::Refuted(_) | Verdict::RefutedInTrial { .. } => "refuted",
            Verdict::Unknown { .. } => "unknown",
            Verdict::EncodingBug(_) => "encoding-bug",
        }
    }

    /// How bad the verdict is, for the overall verdict of a generic pair
    /// (the worst of its instances'): equivalent < refinement < unknown <
    /// refuted < encoding-bug. An encoding bug ranks above a refutation
    /// because it says diopter's other verdicts on the pair cannot be
    /// trusted either.
    pub fn rank(&self) -> u8 {
        match self {
            Verdict::Equivalent => 0,
            Verdict::Refinement(_) => 1,
            Verdict::Unknown { .. } => 2,
            Verdict::Refuted(_) | Verdict::RefutedInTrial { .. } => 3,
            Verdict::EncodingBug(_) => 4,
        }
    }
}

/// The outcome for one pair.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub verdict: Verdict,
    /// `BEFORE` with the mapping substituted (over the new arguments), as a
    /// one-line expression; empty for a poisoned pair whose `BEFORE` is all
    /// that is shown.
    pub substituted: String,
    pub millis: u128,
}

/// Random contexts the reference interpreter tries when Z3 gives up.
pub const EMPIRICAL_TRIALS: usize = 20_000;

/// Under [`ProveConfig::deadline`], the random contexts are tried this many
/// at a time, the deadline checked between rounds.
const EMPIRICAL_ROUND: usize = 100;

fn arg_infos(args: &[ArgDecl]) -> Vec<ArgInfo> {
    args.iter()
        .map(|a| ArgInfo {
            ty: Some(a.ty.clone()),
            bits: None,
            poison: a.poison,
        })
        .collect()
}

fn env<'a>(dl: &'a DataLayout, types: &'a TypeTable, args: &'a [ArgInfo]) -> Env<'a> {
    Env {
        dialect: Dialect::DiExpression,
        dl,
        types,
        args: Some(args),
        referrer: &ReferrerInfo::Absent,
        var_bits: None,
    }
}

/// Checks the pair's parts against each other: the before- and
/// after-expressions well-formed over their arguments, a mapping for every
/// old argument the before-expression reads (and none for an argument it
/// does not have), each mapping well-formed over the new arguments and of
/// the old argument's type. Diagnostics point into the text the pair was
/// read from.
pub fn check_pair(p: &Pair, types: &TypeTable) -> Result<(), Vec<Diagnostic>> {
    let mut diags = Vec::new();
    let old = p.before.args.clone().unwrap_or_default();
    if p.before.args.is_none() {
        diags.push(Diagnostic::error(
            p.before.expr.span,
            "the before-expression needs its argument types (`[T, ...]`), not `[?]`",
        ));
    }
    // The before- and after-expressions' own well-formedness is part of
    // the verdict (`validate`), not an input error.
    let new = match &p.after {
        Some(a) => {
            if a.args.is_none() {
                diags.push(Diagnostic::error(
                    a.expr.span,
                    "the after-expression needs its argument types (`[T, ...]`), not `[?]`",
                ));
            }
            a.args.clone().unwrap_or_default()
        }
        None => Vec::new(),
    };
    let new_infos = arg_infos(&new);
    for (k, rhs, span) in &p.map {
        let Some(decl) = old.get(*k as usize) else {
            diags.push(Diagnostic::error(
                *span,
                format!(
                    "a mapping for old argument {k}, but the before-expression has {} argument{}",
                    old.len(),
                    if old.len() == 1 { "" } else { "s" }
                ),
            ));
            continue;
        };
        if p.map.iter().filter(|(j, _, _)| j == k).count() > 1 {
            diags.push(Diagnostic::error(
                *span,
                format!("old argument {k} is mapped more than once"),
            ));
            continue;
        }
        let MapRhs::Expr(e) = rhs else { continue };
        if p.after.is_none() {
            continue;
        }
        match check::check_expr(e, &env(&p.dl, types, &new_infos)) {
            Err(d) => diags.extend(d),
            Ok(c) => {
                if c.result != decl.ty {
                    diags.push(Diagnostic::error(
                        e.span,
                        format!(
                            "the mapping of old argument {k} gives `{}`, but the argument has type `{}`",
                            c.result, decl.ty
                        ),
                    ));
                }
                if c.fragment.is_some() {
                    diags.push(Diagnostic::error(
                        e.span,
                        "a mapping cannot hold DIOpFragment".to_string(),
                    ));
                }
            }
        }
    }
    if p.after.is_some() {
        let mut used: Vec<u64> = p
            .before
            .expr
            .ops()
            .filter_map(|o| match o {
                Op::Arg(k, _) => Some(*k),
                _ => None,
            })
            .collect();
        used.sort();
        used.dedup();
        for k in used {
            if !p.map.iter().any(|(j, _, _)| *j == k) {
                let span = p
                    .before
                    .expr
                    .ops
                    .iter()
                    .find(|n| matches!(n.op, Op::Arg(j, _) if j == k))
                    .map_or(p.before.expr.span, |n| n.span);
                diags.push(Diagnostic::error(
                    span,
                    format!(
                        "the before-expression reads old argument {k}, and no `arg{k} := ...` says what became of it"
                    ),
                ));
            }
        }
    }
    if p.before
        .expr
        .ops()
        .any(|o| matches!(o, Op::Referrer(_) | Op::TypeObject(_)))
    {
        diags.push(Diagnostic::error(
            p.before.expr.span,
            "DIOpReferrer and DIOpTypeObject are not supported by `diopter validate`",
        ));
    }
    if diags.is_empty() {
        Ok(())
    } else {
        Err(diags)
    }
}

/// `e` with every `DIOpArg` of a poison new argument replaced by
/// `DIOpConstant(T undef)`.
fn unpoison(e: &Expr, new: &[ArgDecl]) -> Expr {
    let ops = e
        .ops
        .iter()
        .map(|n| match &n.op {
            Op::Arg(k, t) if new.get(*k as usize).is_some_and(|a| a.poison) => OpNode {
                op: Op::Constant(t.clone(), Literal::Undef),
                span: n.span,
            },
            _ => n.clone(),
        })
        .collect();
    Expr {
        dialect: Dialect::DiExpression,
        ops,
        span: e.span,
    }
}

/// `BEFORE` with each `DIOpArg(k, T)` replaced by the mapping of old
/// argument `k` (`undefined`: `DIOpConstant(T undef)`).
pub fn substitute(p: &Pair) -> Expr {
    let mut ops = Vec::new();
    for n in &p.before.expr.ops {
        match &n.op {
            Op::Arg(k, t) => match p.map.iter().find(|(j, _, _)| j == k) {
                Some((_, MapRhs::Expr(e), _)) => {
                    ops.extend(e.ops.iter().cloned());
                    // `DIOpArg(k, T)` may name another type of the
                    // operand's size than the operand's own: the same bits.
                    let declared = p.before.args.as_ref().and_then(|a| a.get(*k as usize));
                    if declared.is_some_and(|a| a.ty != *t)
                        && !diopter_faults::planted!("tv-reinterpret-dropped")
                    {
                        ops.push(OpNode {
                            op: Op::Reinterpret(t.clone()),
                            span: n.span,
                        });
                    }
                }
                _ if diopter_faults::planted!("tv-deleted-arg-kept") => ops.push(n.clone()),
                _ => ops.push(OpNode {
                    op: Op::Constant(t.clone(), Literal::Undef),
                    span: n.span,
                }),
            },
            _ => ops.push(n.clone()),
        }
    }
    Expr {
        dialect: Dialect::DiExpression,
        ops,
        span: p.before.expr.span,
    }
}

/// The query of a pair under `relation`: the new arguments are the holes,
/// the left side the before-expression with the mapping substituted, the
/// right side the after-expression (poison arguments undefined). `None` for
/// a poisoned after-expression.
pub fn instance(p: &Pair, types: &TypeTable, relation: Relation) -> Option<Instance> {
    let after = p.after.as_ref()?;
    let new = after.args.clone().unwrap_or_default();
    Some(Instance {
        rule: p.name.clone(),
        origin: p.source.clone().unwrap_or_default(),
        relation,
        dialect: Dialect::DiExpression,
        binding: Vec::new(),
        holes: new
            .iter()
            .enumerate()
            .map(|(k, a)| Hole {
                name: format!("arg{k}"),
                ty: a.ty.clone(),
                kind: if p.value_args.contains(&(k as u64))
                    || diopter_faults::planted!("tv-every-arg-a-value")
                {
                    HoleKind::Const
                } else {
                    HoleKind::Expr
                },
            })
            .collect(),
        types: types.clone(),
        lhs: unpoison(&substitute(p), &new),
        rhs: unpoison(&after.expr, &new),
        pre: p.pre.clone(),
        defs: Vec::new(),
    })
}

/// Decides one (checked, see [`check_pair`]) pair.
pub fn validate(p: &Pair, types: &TypeTable, cfg: &ProveConfig) -> Outcome {
    let start = Instant::now();
    // A refutation here is a value the pass changed: look for it over plain
    // values first (`ProveConfig::values_first`).
    let cfg = &ProveConfig {
        values_first: true,
        ..cfg.clone()
    };
    let Some(base) = instance(p, types, Relation::Equivalent) else {
        return Outcome {
            verdict: Verdict::Refinement(
                "the after-expression is poisoned: the variable is optimized out wherever \
                 the record applies (nothing the before-expression gives is kept, nothing \
                 else is claimed)"
                    .into(),
            ),
            substituted: String::new(),
            millis: start.elapsed().as_millis(),
        };
    };
    let inst = |relation| Instance {
        relation,
        ..base.clone()
    };
    let lhs = base.lhs.clone();
    let substituted = print_ops(&lhs);
    let deleted = p.deleted_and_read();
    let done = |verdict| Outcome {
        verdict,
        substituted: substituted.clone(),
        millis: start.elapsed().as_millis(),
    };
    let eq = prove_instance_in(&inst(Relation::Equivalent), cfg, &p.dl).verdict;
    let eq_cex = match eq {
        PVerdict::Proved | PVerdict::ProvedExhaustive(_) if deleted.is_empty() => return done(Verdict::Equivalent),
        PVerdict::Proved | PVerdict::ProvedExhaustive(_) => {
            return done(Verdict::Refinement(format!(
                "the pass deleted old argument{} {} that the before-expression reads; \
                 both sides are undefined there (the variable's value is lost, nothing wrong is claimed)",
                if deleted.len() == 1 { "" } else { "s" },
                deleted
                    .iter()
                    .map(|k| k.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            )))
        }
        PVerdict::Refuted(c) => Some(c),
        PVerdict::EncodingBug(m) => return done(Verdict::EncodingBug(m)),
        _ => None,
    };
    let ro = prove_instance_in(&inst(Relation::ReadOnly), cfg, &p.dl).verdict;
    if ro.is_proved() {
        return done(Verdict::Refinement(format!(
            "the after-expression is read-only where the before-expression is a writable location{}",
            eq_cex
                .map(|c| format!(" ({})", c.differences.join("; ")))
                .unwrap_or_default()
        )));
    }
    let ro_cex = match ro {
        PVerdict::Refuted(c) => Some(c),
        PVerdict::EncodingBug(m) => return done(Verdict::EncodingBug(m)),
        _ => None,
    };
    let lossy = prove_instance_in(&inst(Relation::Lossy), cfg, &p.dl).verdict;
    match lossy {
        PVerdict::Proved | PVerdict::ProvedExhaustive(_) => {
            let what = ro_cex
                .or(eq_cex)
                .map(|c| c.differences.join("; "))
                .unwrap_or_else(|| "information".into());
            done(Verdict::Refinement(format!(
                "the after-expression gives nothing (fails, reads nothing or refuses a write) \
                 where the before-expression gives something, and never anything else: {what}"
            )))
        }
        PVerdict::Refuted(c) => done(Verdict::Refuted(c)),
        PVerdict::EncodingBug(m) => done(Verdict::EncodingBug(m)),
        other => {
            let why = match other {
                PVerdict::Unknown(w) => w,
                PVerdict::Invalid(w) => format!(
                    "diopter's checker rejects the after-expression ({w}); a lossy update may \
                     fail everywhere, so only the reference interpreter can tell"
                ),
                PVerdict::NotApplicable(w) => format!(
                    "diopter's checker rejects the before-expression with the mapping substituted ({w})"
                ),
                PVerdict::Skipped(w) => w,
                _ => String::new(),
            };
            let lossy = inst(Relation::Lossy);
            let (found, trials) = match cfg.deadline {
                None => (
                    empirical::check_instance_in(&lossy, EMPIRICAL_TRIALS, 0x5eed, false, &p.dl)
                        .err(),
                    EMPIRICAL_TRIALS,
                ),
                // Under a time limit the trials run in rounds until it
                // passes (each round its own seed): contexts with huge
                // values make one trial costly, and 20,000 of them could
                // take minutes.
                Some(_) => {
                    let mut trials = 0;
                    let mut found = None;
                    let mut round = 0u64;
                    while trials < EMPIRICAL_TRIALS && found.is_none() && !cfg.past_deadline() {
                        let n = EMPIRICAL_ROUND.min(EMPIRICAL_TRIALS - trials);
                        found =
                            empirical::check_instance_in(&lossy, n, 0x5eed ^ round, false, &p.dl)
                                .err();
                        trials += n;
                        round += 1;
                    }
                    (found, trials)
                }
            };
            // A difference the reference interpreter finds is a refutation
            // (the module's contract): it used to be reported as `unknown`,
            // so a wrong pair Z3 could not decide passed with exit status 0.
            match found {
                None => done(Verdict::Unknown { why, trials }),
                Some(c) => done(Verdict::RefutedInTrial {
                    why,
                    found: c.to_string(),
                }),
            }
        }
    }
}

// ---------------------------------------------------------------------
// The pair file format.

/// The format of a pair file (`corpus/amd/amd-rewrites.map`), for `--help`.
pub const FORMAT_HELP: &str = "\
PAIR FILES
  One entry per update; an entry starts with a `pair NAME` line and runs to
  the next one. `#` starts a comment line. Lines of an entry:

    pair NAME                 starts an entry (NAME: any text, e.g. `row 12`)
    source PATH               the test the pair comes from (informational)
    datalayout amdgpu|default|STRING
                              pointer widths (before the first `pair`: the
                              file's default; default `default`, every
                              pointer 64 bits; `amdgpu`: address spaces 3
                              and 5 have 32-bit pointers)
    where VAR: CLASS, ...     type variables, as in rule files
                              (corpus/rules/README.md); the entry is then
                              generic (below)
    before ONE-LINE           the expression before the pass, in the
                              one-line form `[T0, T1, ...] DIOp..., DIOp...`
                              (`diopter check --help`); its arguments are the
                              OLD operands
    after ONE-LINE            the expression after the pass, over the NEW
                              operands (a new operand may be `T poison`)
    after poisoned            the pass poisoned the expression
                              (DW_OP_LLVM_poisoned)
    argK := DIOp..., DIOp...  where old argument K's value is after the
                              pass: a DIOp expression over the NEW arguments
                              whose result has old argument K's type
    argK := undefined         the pass deleted old argument K
    note TEXT                 provenance, ambiguities (informational)

  Every old argument the before-expression reads needs an `argK :=` line
  (unless the after-expression is poisoned). The mapping gives a location:
  an arithmetic result or DIOpConvert is an implicit (read-only) value; a
  DIOpDeref of a stack slot is writable memory. Write `DIOpRead()` after a
  location to say the old operand's value is only computed from it.

GENERIC PAIRS
  `where T: int` (classes: int, float, num, ptr, any, as in rule files;
  several variables: `where T: int, U: ptr`) makes an entry generic: its
  before, after and mapping lines may name T wherever a type goes
  (`[T]`, `DIOpArg(0, T)`, `DIOpConstant(T 1)`, `<2 x T>`). The entry is
  decided once per binding of its variables: an int variable at every
  width of --widths (default 1,2,3,4,7,8,16,32,33,64, as `diopter prove`),
  the other classes at the types `diopter prove` samples (float: half,
  bfloat, float, double; ptr: ptr, ptr addrspace(5)). Each binding gets
  its verdict; the entry's verdict is the worst (equivalent < refinement
  < unknown < refuted < encoding-bug), and a refutation names its binding
  (`refuted at T = i8`). A binding at which the entry is not well-formed
  (a literal that does not fit, `DIOpConstant(i2 5)`; a mapping or
  before-expression the checker rejects) is skipped and listed with the
  reason; an entry no binding makes well-formed is an error. Type
  variables start with an upper-case letter; an undeclared one is an
  error.

EXAMPLES
  An address-space cast folded away:
    before [ptr] DIOpArg(0, ptr), DIOpDeref(i32)
    after  [ptr addrspace(1)] DIOpArg(0, ptr addrspace(1)), DIOpConvert(ptr), DIOpDeref(i32)
    arg0 := DIOpArg(0, ptr addrspace(1)), DIOpConvert(ptr)
  `%1 = add i64 %A, 4` salvaged (old argument 0 was %1, the new one is %A):
    arg0 := DIOpArg(0, i64), DIOpConstant(i64 4), DIOpAdd()
  An instruction deleted without a salvage:
    after  [i64 poison] DIOpArg(0, i64)
    arg0 := undefined
  `%1 = add T %A, 1` salvaged, at every integer width:
    pair add-one
    where T: int
    before [T] DIOpArg(0, T)
    after  [T] DIOpArg(0, T), DIOpConstant(T 1), DIOpAdd()
    arg0 := DIOpArg(0, T), DIOpConstant(T 1), DIOpAdd()";

/// One line of an entry as tokens (spans into the file's text), kept so
/// that a generic entry can be read again at every binding of its type
/// variables.
#[derive(Clone, Debug)]
pub struct Line {
    /// The line's text as written (after the keyword for `before`/`after`).
    pub text: String,
    toks: Vec<Token>,
    start: usize,
    end: usize,
}

impl Line {
    fn new(text: &str, start: usize, end: usize) -> Line {
        let mut toks = lex(text, start, end);
        toks.retain(|t| t.tok != Tok::Newline);
        Line {
            text: text[start..end].to_string(),
            toks,
            start,
            end,
        }
    }

    /// The tokens with every type variable of `b` replaced by the tokens
    /// of its type, each spanning the variable (so that a diagnostic about
    /// the type points at the variable).
    fn tokens(&self, b: &[(String, Type)]) -> Vec<Token> {
        let mut out = Vec::with_capacity(self.toks.len());
        for t in &self.toks {
            match &t.tok {
                Tok::Ident(w) => match b.iter().find(|(v, _)| v == w) {
                    Some((_, ty)) => {
                        let s = ty.to_string();
                        out.extend(lex(&s, 0, s.len()).into_iter().map(|x| Token {
                            tok: x.tok,
                            span: t.span,
                        }));
                    }
                    None => out.push(t.clone()),
                },
                _ => out.push(t.clone()),
            }
        }
        out
    }

    fn bare(&self, b: &[(String, Type)]) -> Result<Bare, Diagnostic> {
        parse_bare_tokens_at(&self.tokens(b), self.end)
    }

    /// `argK := OPS` or `argK := undefined`.
    fn mapping(&self, b: &[(String, Type)]) -> Result<(u64, MapRhs, Span), Diagnostic> {
        let (start, end) = (self.start, self.end);
        let line = self.text.as_str();
        let span = Span { start, end };
        let Some(eq) = line.find(":=") else {
            return Err(Diagnostic::error(span, "expected `argK := ...`"));
        };
        let head = line[..eq].trim();
        let k: u64 = match head.strip_prefix("arg").and_then(|d| d.parse().ok()) {
            Some(k) => k,
            None => {
                return Err(Diagnostic::error(
                    Span {
                        start,
                        end: start + eq,
                    },
                    format!("expected `argK` (K the old argument's index), found `{head}`"),
                ))
            }
        };
        let rhs_start = start + eq + 2;
        if line[eq + 2..].trim() == "undefined" {
            return Ok((k, MapRhs::Undefined, span));
        }
        // The one-line form wants an argument list first: an empty one,
        // spanning the start of the line (where `argK` is).
        let mut toks = vec![
            Token {
                tok: Tok::LBracket,
                span: Span::new(start, start + 1),
            },
            Token {
                tok: Tok::RBracket,
                span: Span::new(start + 1, start + 2),
            },
        ];
        toks.extend(
            self.tokens(b)
                .into_iter()
                .filter(|t| t.span.start >= rhs_start),
        );
        let bare = parse_bare_tokens_at(&toks, end)?;
        if bare.expr.ops.is_empty() {
            return Err(Diagnostic::error(
                span,
                "an empty mapping (write `undefined`?)",
            ));
        }
        Ok((k, MapRhs::Expr(bare.expr), span))
    }

    /// The first word that can only be a type variable (it starts with an
    /// upper-case letter and is no DIOp) and is not one of `vars`.
    fn undeclared(&self, vars: &[(String, Class)]) -> Option<Diagnostic> {
        self.toks.iter().find_map(|t| match &t.tok {
            Tok::Ident(w) if looks_like_var(w) && !vars.iter().any(|(v, _)| v == w) => {
                Some(Diagnostic::error(
                    t.span,
                    format!(
                        "type variable `{w}` is not declared: add `where {w}: CLASS` to the entry \
                         (CLASS: int, float, num, ptr or any)"
                    ),
                ))
            }
            _ => None,
        })
    }

    fn mentions(&self, var: &str) -> bool {
        self.toks
            .iter()
            .any(|t| matches!(&t.tok, Tok::Ident(w) if w == var))
    }
}

/// Whether a word of a line is a type variable's name: no type, keyword
/// or literal of the one-line form starts with an upper-case letter, and
/// operations start with `DIOp`.
fn looks_like_var(w: &str) -> bool {
    w.starts_with(|c: char| c.is_ascii_uppercase())
        && !w.starts_with("DIOp")
        && !w.starts_with("DW_")
}

/// An entry whose types are given by type variables (`where T: int`): a
/// pair at each binding of them ([`Generic::instantiate`]).
#[derive(Clone, Debug)]
pub struct Generic {
    pub name: String,
    /// The variables and their classes, in order of declaration.
    pub vars: Vec<(String, Class)>,
    pub before: Line,
    /// `None`: the after-expression is poisoned.
    pub after: Option<Line>,
    pub map: Vec<Line>,
    pub dl: DataLayout,
    pub notes: Vec<String>,
    pub source: Option<String>,
    pub span: Span,
}

/// One binding of a generic entry's type variables, in their order of
/// declaration.
pub type TypeBinding = Vec<(String, Type)>;

/// `T = i8, U = ptr`.
pub fn binding_label(b: &[(String, Type)]) -> String {
    b.iter()
        .map(|(v, t)| format!("{v} = {t}"))
        .collect::<Vec<_>>()
        .join(", ")
}

impl Generic {
    /// `T: int, U: ptr`.
    pub fn where_text(&self) -> String {
        self.vars
            .iter()
            .map(|(v, c)| format!("{v}: {}", c.name()))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// Every binding of the variables: each over its class's samples at
    /// `widths` (the types `diopter prove` instantiates rules at), the
    /// first variable varying slowest.
    pub fn bindings(&self, widths: &[u64]) -> Vec<TypeBinding> {
        let mut out: Vec<TypeBinding> = vec![Vec::new()];
        for (v, c) in &self.vars {
            let samples = c.samples(Dialect::DiExpression, widths);
            out = out
                .into_iter()
                .flat_map(|b| {
                    samples.iter().map(move |t| {
                        let mut b = b.clone();
                        b.push((v.clone(), t.clone()));
                        b
                    })
                })
                .collect();
        }
        out
    }

    /// The pair at binding `b`, checked ([`check_pair`]) and with its
    /// before-expression well-formed (a generic before-expression that is
    /// ill-formed at some binding says nothing about the pass there); or
    /// why there is none, with spans into the file.
    pub fn instantiate(
        &self,
        b: &[(String, Type)],
        types: &TypeTable,
    ) -> Result<Pair, Vec<Diagnostic>> {
        let before = self.before.bare(b).map_err(|d| vec![d])?;
        let after = match &self.after {
            Some(l) => Some(l.bare(b).map_err(|d| vec![d])?),
            None => None,
        };
        let map = self
            .map
            .iter()
            .map(|l| l.mapping(b))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|d| vec![d])?;
        let pair = Pair {
            name: format!("{} at {}", self.name, binding_label(b)),
            before,
            after,
            map,
            dl: self.dl.clone(),
            notes: self.notes.clone(),
            source: self.source.clone(),
            span: self.span,
            value_args: Vec::new(),
            pre: Vec::new(),
        };
        check_pair(&pair, types)?;
        let old = arg_infos(pair.before.args.as_deref().unwrap_or_default());
        check::check_expr(&pair.before.expr, &env(&pair.dl, types, &old))?;
        Ok(pair)
    }
}

/// One entry of a pair file.
#[derive(Clone, Debug)]
pub enum Entry {
    /// Concrete types only: one pair.
    Pair(Box<Pair>),
    /// With type variables: a pair per binding.
    Generic(Box<Generic>),
}

impl Entry {
    pub fn name(&self) -> &str {
        match self {
            Entry::Pair(p) => &p.name,
            Entry::Generic(g) => &g.name,
        }
    }
}

/// Parses a pair file. Diagnostics have spans into `text`. A generic
/// entry's lines are read here only for their type variables; each
/// binding reads them again ([`Generic::instantiate`]).
pub fn parse_pairs(text: &str) -> (Vec<Entry>, Vec<Diagnostic>) {
    let mut entries = Vec::new();
    let mut diags = Vec::new();
    let mut file_dl = DataLayout::llvm_default();
    let mut cur: Option<Partial> = None;
    let mut off = 0usize;
    for raw in text.split_inclusive('\n') {
        let start = off;
        off += raw.len();
        let line = raw.trim_end_matches(['\n', '\r']);
        let lead = line.len() - line.trim_start().len();
        let body = line.trim();
        let bstart = start + lead;
        let bend = bstart + body.len();
        if body.is_empty() || body.starts_with('#') {
            continue;
        }
        let (word, rest) = match body.find(char::is_whitespace) {
            Some(i) => (&body[..i], body[i..].trim_start()),
            None => (body, ""),
        };
        let rest_start = bend - rest.len();
        let line_span = Span {
            start: bstart,
            end: bend,
        };
        if word == "pair" {
            if let Some(c) = cur.take() {
                finish(c, &mut entries, &mut diags);
            }
            cur = Some(Partial::new(rest.to_string(), file_dl.clone(), line_span));
            continue;
        }
        if word == "datalayout" {
            match DataLayout::from_name_or_string(rest) {
                Ok(dl) => match cur.as_mut() {
                    Some(c) => c.dl = dl,
                    None => file_dl = dl,
                },
                Err(e) => diags.push(Diagnostic::error(line_span, e.0)),
            }
            continue;
        }
        let Some(c) = cur.as_mut() else {
            diags.push(Diagnostic::error(
                line_span,
                "a line outside any entry (start one with `pair NAME`)",
            ));
            continue;
        };
        match word {
            "source" => c.source = Some(rest.to_string()),
            "note" => c.notes.push(rest.to_string()),
            "where" => {
                let kw = Span::new(bstart, bstart + word.len());
                let toks = Line::new(text, rest_start, bend).toks;
                let before = c.vars.len();
                match parse_where(&toks, &mut c.vars, kw) {
                    Err(d) => diags.push(d),
                    Ok(()) => {
                        for (v, _) in &c.vars[before..] {
                            if !looks_like_var(v) {
                                let at = toks
                                    .iter()
                                    .find(|t| matches!(&t.tok, Tok::Ident(w) if w == v))
                                    .map_or(kw, |t| t.span);
                                diags.push(Diagnostic::error(
                                    at,
                                    format!(
                                        "`{v}`: a pair's type variable starts with an upper-case letter \
                                         (and not with `DIOp`), so that it cannot be read as a type or \
                                         an operation"
                                    ),
                                ));
                            }
                        }
                        c.where_span.get_or_insert(kw);
                    }
                }
            }
            "before" => c.before = Some(Line::new(text, rest_start, bend)),
            "after" if rest == "poisoned" || rest == "DW_OP_LLVM_poisoned" => {
                c.after = Some(None);
            }
            "after" => c.after = Some(Some(Line::new(text, rest_start, bend))),
            w if w.starts_with("arg") => c.map.push(Line::new(text, bstart, bend)),
            _ => diags.push(Diagnostic::error(
                Span {
                    start: bstart,
                    end: bstart + word.len(),
                },
                format!(
                    "unknown line `{word}` (known: pair, source, datalayout, where, before, after, argK :=, note)"
                ),
            )),
        }
    }
    if let Some(c) = cur.take() {
        finish(c, &mut entries, &mut diags);
    }
    (entries, diags)
}

/// `argK := OPS` or `argK := undefined`, at `start..end` of `text`.
pub fn parse_map_line(
    text: &str,
    start: usize,
    end: usize,
) -> Result<(u64, MapRhs, Span), Diagnostic> {
    Line::new(text, start, end).mapping(&[])
}

struct Partial {
    name: String,
    dl: DataLayout,
    span: Span,
    source: Option<String>,
    notes: Vec<String>,
    vars: Vec<(String, Class)>,
    where_span: Option<Span>,
    before: Option<Line>,
    after: Option<Option<Line>>,
    map: Vec<Line>,
}

impl Partial {
    fn new(name: String, dl: DataLayout, span: Span) -> Partial {
        Partial {
            name,
            dl,
            span,
            source: None,
            notes: Vec::new(),
            vars: Vec::new(),
            where_span: None,
            before: None,
            after: None,
            map: Vec::new(),
        }
    }
}

fn finish(c: Partial, entries: &mut Vec<Entry>, diags: &mut Vec<Diagnostic>) {
    let lines: Vec<&Line> = c
        .before
        .iter()
        .chain(c.after.iter().flatten())
        .chain(&c.map)
        .collect();
    let undeclared: Vec<Diagnostic> = lines.iter().filter_map(|l| l.undeclared(&c.vars)).collect();
    if !undeclared.is_empty() {
        diags.extend(undeclared);
        return;
    }
    for (v, _) in &c.vars {
        if !lines.iter().any(|l| l.mentions(v)) {
            diags.push(Diagnostic::error(
                c.where_span.unwrap_or(c.span),
                format!("type variable `{v}` does not occur in the pair"),
            ));
        }
    }
    let (Some(before), Some(after)) = (c.before, c.after) else {
        diags.push(Diagnostic::error(
            c.span,
            format!("entry `{}` needs a `before` and an `after` line", c.name),
        ));
        return;
    };
    if !c.vars.is_empty() {
        entries.push(Entry::Generic(Box::new(Generic {
            name: c.name,
            vars: c.vars,
            before,
            after,
            map: c.map,
            dl: c.dl,
            notes: c.notes,
            source: c.source,
            span: c.span,
        })));
        return;
    }
    let before = before.bare(&[]);
    let after = after.map(|l| l.bare(&[])).transpose();
    let map: Vec<_> = c.map.iter().map(|l| l.mapping(&[])).collect();
    let mut ok = true;
    for d in [before.as_ref().err(), after.as_ref().err()]
        .into_iter()
        .flatten()
        .chain(map.iter().filter_map(|m| m.as_ref().err()))
    {
        diags.push(d.clone());
        ok = false;
    }
    let (Ok(before), Ok(after), true) = (before, after, ok) else {
        return;
    };
    entries.push(Entry::Pair(Box::new(Pair {
        name: c.name,
        before,
        after,
        map: map.into_iter().flatten().collect(),
        dl: c.dl,
        notes: c.notes,
        source: c.source,
        span: c.span,
        value_args: Vec::new(),
        pre: Vec::new(),
    })));
}

/// A type the pair's sides name, for callers that print it.
pub fn arg_types(b: &Bare) -> Vec<Type> {
    b.args.iter().flatten().map(|a| a.ty.clone()).collect()
}
