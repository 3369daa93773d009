//! The bodies of the fuzz targets in `fuzz/fuzz_targets/`, kept here so
//! that the inputs that once failed (`fuzz/regressions/TARGET/`) run under
//! `cargo test` too (`oracles/harness/tests/gen_regressions.rs`), without cargo-fuzz.
//! Each returns `Err(why)` where the target panics; [`crate::fuzz`] is what
//! the targets call.

use crate::adapters::dwarf::{self, DwarfVerdict};
use crate::adapters::Fast;
use arbitrary::Unstructured;
use diopter_diff::{self as diff, Reference, Verdict};
use diopter_dwarf::{ext, lower_ext};
use diopter_gen::context::{context_for, ContextFor};
use diopter_gen::entropy::{Bytes, Entropy, SplitMix};
use diopter_gen::swarm::Swarm;
use diopter_gen::Generate;
use diopter_gen::{wild, Case, GenConfig};
use diopter_rules::simplify::Simplifier;
use diopter_semantics::ast::{Bare, Op};
use diopter_semantics::check::check_bare;
use diopter_semantics::diag::Source;
use diopter_semantics::interp::{eval_bare, ErrorKind};
use diopter_semantics::syntax::{parse_bare, parse_expr_file, print_bare};
use diopter_semantics::types::{DataLayout, Type, TypeTable};
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};

/// `eval_diff`: a generated case, reference against fast. On a
/// disagreement the case file is written to `case_dir` (when given) and the
/// error names it and the command that replays it.
pub fn eval_diff(data: &[u8], fast: &Fast, case_dir: Option<&Path>) -> Result<(), String> {
    let case = Case::from_bytes(data, &GenConfig::default());
    let v = diff::run_case(&case, &[&Reference, fast]);
    if let Verdict::Disagree { .. } = v {
        let mut msg = format!("oracles disagree: {v}\nexpression: {}", case.expr_line());
        if let Some(dir) = case_dir {
            let text = diff::case_file_text(&case, &["reference", "fast"], Some(&v));
            let mut h = std::collections::hash_map::DefaultHasher::new();
            text.hash(&mut h);
            let path: PathBuf = dir.join(format!("disagree-{:016x}.case", h.finish()));
            match diff::write_case_file(&path, &case, &[&Reference, fast]) {
                Ok(()) => msg.push_str(&format!(
                    "\ncase file: {}\nreproduce: {}",
                    path.display(),
                    diff::repro_command(&path)
                )),
                Err(e) => msg.push_str(&format!("\n(writing {} failed: {e})", path.display())),
            }
        }
        return Err(msg);
    }
    Ok(())
}

/// `parse_roundtrip`: any UTF-8 text as an `.expr` file. Never panics;
/// every expression read prints in the one-line form, the print reads back
/// as an equal expression, and printing that gives the same text.
pub fn parse_roundtrip(data: &[u8]) -> Result<(), String> {
    let Ok(text) = std::str::from_utf8(data) else {
        return Ok(());
    };
    let src = Source::new("fuzz.expr", text);
    let (file, diags) = parse_expr_file(&src);
    for d in &diags {
        let _ = src.render(d);
    }
    let dl = file
        .datalayout
        .as_ref()
        .map(|(d, _)| d.clone())
        .unwrap_or_default();
    for e in &file.entries {
        let p = print_bare(&e.bare);
        let again = parse_bare(&p)
            .map_err(|d| format!("the print of line {} does not parse: {d}\n  {p}", e.line))?;
        if again != e.bare {
            return Err(format!(
                "line {}: print then parse changes the expression\n  print: {p}\n  read:  {:?}\n  was:   {:?}",
                e.line, again, e.bare
            ));
        }
        let p2 = print_bare(&again);
        if p2 != p {
            return Err(format!(
                "line {}: printing is not a fixpoint\n  {p}\n  {p2}",
                e.line
            ));
        }
        // The checker must not panic on anything the parser reads.
        let _ = check_bare(&e.bare, &dl, &file.types);
    }
    Ok(())
}

/// Types larger than this are not evaluated by `check_eval` (the reference
/// materialises every bit; a fuzzer timing out on it finds nothing).
const EVAL_MAX_BITS: u64 = 1 << 16;

/// Whether evaluating `b` stays small enough for a fuzzing run.
fn small_enough(b: &Bare, types: &TypeTable, dl: &DataLayout) -> bool {
    types_within(b, types, dl, EVAL_MAX_BITS)
}

/// Whether every type `b` names (its arguments', its referrer's, its
/// operations') has at most `max_bits` bits, and its composites and
/// extensions at most 4096 parts.
pub fn types_within(b: &Bare, types: &TypeTable, dl: &DataLayout, max_bits: u64) -> bool {
    let ok = |t: &Type| dl.bitsizeof(t, types).is_ok_and(|s| s <= max_bits);
    b.args.iter().flatten().all(|a| a.poison || ok(&a.ty))
        && b.referrer.iter().all(|(t, _)| ok(t))
        && b.expr.ops().all(|op| {
            op.type_param().is_none_or(ok)
                && match op {
                    Op::Composite(n, _) | Op::Extend(n) => *n <= 4096,
                    _ => true,
                }
        })
}

/// Known gaps in the checker (reported, not yet fixed in semantics): an
/// ill-formedness the checker misses that the reference does report. Such a
/// case is skipped rather than stopping a fuzzing run on a known bug; each
/// entry names its reproducer. Delete the entry when semantics is fixed.
pub const KNOWN_CHECKER_GAPS: &[(&str, &str)] = &[
    // None open. (`DIOpSelect` of vectors of structs or vectors, accepted by
    // the checker and ill-formed in the reference, was closed in the
    // parser: vector elements must now be integers, floats or pointers.)
];

/// The entry of [`KNOWN_CHECKER_GAPS`] an `IllFormed` message falls under.
pub fn known_checker_gap(message: &str) -> Option<&'static str> {
    KNOWN_CHECKER_GAPS
        .iter()
        .find(|(m, _)| message.starts_with(m))
        .map(|(_, repro)| *repro)
}

/// The checker's soundness on one case: if `check_bare` accepts it, the
/// reference must not find it ill-formed (gaps already known excepted).
fn sound(case: &Case, must_accept: bool) -> Result<(), String> {
    match check_bare(&case.bare, case.datalayout(), &case.types) {
        Err(ds) if must_accept => Err(format!(
            "the checker rejects a generated expression: {}\n  {}",
            ds.iter()
                .map(|d| d.to_string())
                .collect::<Vec<_>>()
                .join("; "),
            case.expr_line()
        )),
        Err(_) => Ok(()),
        Ok(_) => {
            if !small_enough(&case.bare, &case.types, case.datalayout()) {
                return Ok(());
            }
            match eval_bare(&case.bare, &case.types, &case.ctx) {
                Err(e) if e.kind == ErrorKind::IllFormed && known_checker_gap(&e.message).is_none() => Err(format!(
                    "the checker accepts what the reference finds ill-formed: {e}\n  {}\ncontext:\n{}",
                    case.expr_line(),
                    case.ctx
                )),
                _ => Ok(()),
            }
        }
    }
}

/// `check_eval`: the checker is sound. The first byte chooses the input:
/// 0, a generated case (which the checker must also accept); 1, a wild
/// expression (random or mutated operations); 2, the rest of the input as
/// `.expr` text, each expression evaluated in a context drawn for it.
pub fn check_eval(data: &[u8]) -> Result<(), String> {
    let Some((&mode, rest)) = data.split_first() else {
        return Ok(());
    };
    let cfg = GenConfig::default();
    match mode % 3 {
        0 => {
            let mut u = Unstructured::new(rest);
            let case = Case::generate(&mut Bytes::new(&mut u), &cfg);
            sound(&case, true)
        }
        1 => {
            let mut u = Unstructured::new(rest);
            let case = wild::case(&mut Bytes::new(&mut u), &cfg);
            sound(&case, false)
        }
        _ => {
            let Ok(text) = std::str::from_utf8(rest) else {
                return Ok(());
            };
            let (file, _) = parse_expr_file(&Source::new("fuzz.expr", text));
            let dl = file
                .datalayout
                .as_ref()
                .map(|(d, _)| d.clone())
                .unwrap_or_default();
            let mut h = std::collections::hash_map::DefaultHasher::new();
            text.hash(&mut h);
            let mut e = SplitMix(h.finish());
            let swarm = Swarm::draw(&mut e);
            for entry in file.entries {
                if !small_enough(&entry.bare, &file.types, &dl) {
                    continue;
                }
                let ctx = context_for(
                    &mut e as &mut dyn Entropy,
                    &ContextFor {
                        bare: &entry.bare,
                        types: &file.types,
                        dl: &dl,
                        swarm: &swarm,
                        max_bits: cfg.max_type_bits,
                    },
                );
                let case = Case {
                    bare: entry.bare,
                    types: file.types.clone(),
                    ctx,
                };
                sound(&case, false)?;
            }
            Ok(())
        }
    }
}

/// `validate_diff`: `diopter validate` against the reference interpreter.
/// A generated case's expression is the before-expression; an AMD-style
/// update of its operand 0 (`data` picks which) makes the after-expression:
/// a salvage of `add`/`sub`/`mul`/`shl`/`lshr`/`ashr` by a constant (an
/// integer operand), the fold of an address-space cast (an opaque pointer
/// operand in address space 0 becomes `ptr addrspace(1)` with
/// `DIOpConvert(ptr)`), or SROA's split of the operand into two new
/// operands ([`sroa_pair`], when the byte after the others is odd). The
/// update is correct, or deliberately wrong (the after-expression uses
/// another constant or operation than the mapping says, `DIOpReinterpret`
/// where the cast is a conversion, or the split's pieces swapped, one
/// piece taken for the whole, or the high piece at the wrong offset).
/// Findings ([`judge_update`]): an encoding bug; a correct update not
/// judged equivalent; a pair judged equivalent or a refinement that the
/// reference interpreter tells apart (under the lossy relation) in random
/// contexts.
pub fn validate_diff(data: &[u8]) -> Result<(), String> {
    validate_diff_outcome(data).map(|_| ())
}

/// The kinds of update `validate_diff` makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Update {
    Salvage,
    CastFold,
    Split,
    /// An operand deleted ([`deletion_pair`]).
    Delete,
    /// A use of an operand folded away ([`fold_pair`]).
    Fold,
}

/// [`validate_diff`]'s body: which update `data` made and the validator's
/// verdict on it (`None`: the generated expression takes no update), or
/// the finding.
pub fn validate_diff_outcome(data: &[u8]) -> Result<Option<(Update, &'static str)>, String> {
    let mut u = Unstructured::new(data);
    let case = diopter_gen::arbitrary_case(&mut u);
    validate_update(&case, &mut u)
}

/// [`validate_diff_outcome`] on a given case: the update, whether it is
/// made wrong, its constant and the trial seed are read from `u` (the
/// in-process campaign draws them from the case's seed).
pub fn validate_update(
    case: &Case,
    u: &mut Unstructured,
) -> Result<Option<(Update, &'static str)>, String> {
    use diopter_semantics::ast::{Dialect, Literal, OpNode, Span};
    use diopter_tv::validate::MapRhs;

    let kind: u8 = u.arbitrary().unwrap_or(0);
    let wrong: bool = u.arbitrary().unwrap_or(false);
    let c: i8 = u.arbitrary().unwrap_or(1);
    let trial_seed: u64 = u.arbitrary().unwrap_or(0);
    // Read last, so that inputs made before the split existed (no byte
    // here) keep their meaning.
    let split: u8 = u.arbitrary().unwrap_or(0);
    // Read after the split, for the same reason: 1 deletes an operand,
    // 2 folds a use of operand 0 away.
    let family: u8 = u.arbitrary().unwrap_or(0);
    if !types_within(
        &case.bare,
        &case.types,
        &case.ctx.datalayout,
        VALIDATE_MAX_BITS,
    ) {
        return Ok(None);
    }
    let before = case.bare.clone();
    let Some(args) = before.args.clone() else {
        return Ok(None);
    };
    // Long expressions make Z3 queries (and their simplification, which
    // no timeout bounds) slow and large: a 10-minute run met one unit of
    // 112 s and grew past libFuzzer's 2 GB limit. Updates of short
    // expressions exercise the same substitution and relations.
    if before.expr.ops.len() > MAX_VALIDATE_OPS
        || before.expr.dialect != Dialect::DiExpression
        || args.first().is_none_or(|a| a.poison)
        || before
            .expr
            .ops()
            .any(|o| matches!(o, Op::Referrer(_) | Op::TypeObject(_)))
    {
        return Ok(None);
    }
    if split & 1 == 1 {
        let how = if wrong {
            Split::Wrong(SplitError::ALL[kind as usize % SplitError::ALL.len()])
        } else {
            Split::Correct
        };
        let Some(pair) = sroa_pair(
            &before,
            &case.ctx.datalayout,
            &case.types,
            split & 2 == 2,
            how,
        ) else {
            return Ok(None);
        };
        return judge_update(&pair, wrong, &case.types, trial_seed)
            .map(|v| Some((Update::Split, v)));
    }
    match family % 4 {
        1 => {
            let Some(pair) = deletion_pair(&before, &case.ctx.datalayout, c as u8 as usize, wrong)
            else {
                return Ok(None);
            };
            return judge_update(&pair, wrong, &case.types, trial_seed)
                .map(|v| Some((Update::Delete, v)));
        }
        2 => {
            let Some(pair) = fold_pair(&before, &case.ctx.datalayout) else {
                return Ok(None);
            };
            // Folding `x * 0` to 0 shows a value where reading x fails:
            // never a correct update (DESIGN.md; `mul-zero` is refuted).
            return judge_update(&pair, true, &case.types, trial_seed)
                .map(|v| Some((Update::Fold, v)));
        }
        _ => {}
    }
    let ty = args[0].ty.clone();
    let ops = [Op::Add, Op::Sub, Op::Mul, Op::Shl, Op::LShr, Op::AShr];
    // (new type of operand 0, the mapping, what the after-expression puts
    // in place of operand 0)
    let (update, new_ty, map, repl) = match &ty {
        Type::Int(w) if *w >= 2 && *w <= 64 => {
            let op = ops[(kind as usize / 2) % ops.len()].clone();
            let k = |v: i64| Op::Constant(ty.clone(), Literal::Int(v.into()));
            let map = vec![Op::Arg(0, ty.clone()), k(c as i64), op.clone()];
            let repl = if !wrong {
                map.clone()
            } else if kind.is_multiple_of(2) {
                vec![Op::Arg(0, ty.clone()), k(c as i64 + 1), op]
            } else {
                let other = ops[(kind as usize / 2 + 1) % ops.len()].clone();
                vec![Op::Arg(0, ty.clone()), k(c as i64), other]
            };
            (Update::Salvage, ty.clone(), map, repl)
        }
        Type::Ptr {
            addrspace: 0,
            pointee: None,
        } => {
            let p1 = Type::Ptr {
                addrspace: 1,
                pointee: None,
            };
            let map = vec![Op::Arg(0, p1.clone()), Op::Convert(ty.clone())];
            let repl = if wrong {
                vec![Op::Arg(0, p1.clone()), Op::Reinterpret(ty.clone())]
            } else {
                map.clone()
            };
            (Update::CastFold, p1, map, repl)
        }
        _ => return Ok(None),
    };
    let node = |op: Op| OpNode {
        op,
        span: Span::default(),
    };
    let mut after = before.clone();
    after.expr.ops = Vec::new();
    for n in &before.expr.ops {
        match &n.op {
            Op::Arg(0, t) => {
                after.expr.ops.extend(repl.iter().cloned().map(node));
                if *t != ty {
                    after.expr.ops.push(node(Op::Reinterpret(t.clone())));
                }
            }
            _ => after.expr.ops.push(n.clone()),
        }
    }
    let mut new_args = args.clone();
    new_args[0].ty = new_ty;
    after.args = Some(new_args);
    let mut mapping = vec![(
        0u64,
        MapRhs::Expr(diopter_semantics::ast::Expr::new(
            Dialect::DiExpression,
            map,
        )),
        Span::default(),
    )];
    for (k, a) in args.iter().enumerate().skip(1) {
        mapping.push((
            k as u64,
            MapRhs::Expr(diopter_semantics::ast::Expr::new(
                Dialect::DiExpression,
                vec![Op::Arg(k as u64, a.ty.clone())],
            )),
            Span::default(),
        ));
    }
    let pair = fuzz_pair(
        "fuzz",
        before,
        Some(after),
        mapping,
        case.ctx.datalayout.clone(),
    );
    judge_update(&pair, wrong, &case.types, trial_seed).map(|v| Some((update, v)))
}

/// A pass deletes an operand of `before` (its value is gone): the mapping
/// says `argJ := undefined` and renumbers the operands after it; the
/// after-expression reads the deleted operand as `undef` (the variable is
/// then optimized out where it used it), or, `wrong`, keeps reading
/// `DIOpArg(J)`, which after the renumbering names the next operand. A
/// correct deletion takes operand `pick % n`; the mistake one that is read
/// (`pick` among those: deleting an operand nothing reads is right either
/// way), and when the next operand is missing or of another type the
/// before-expression gets one of the same type that it does not read, as a
/// `DIArgList` of two values of one type has: the mistake then leaves a
/// well-formed expression. `None` when an operand is poison, or for the
/// mistake when no operand is read.
pub fn deletion_pair(
    before: &Bare,
    dl: &DataLayout,
    pick: usize,
    wrong: bool,
) -> Option<diopter_tv::validate::Pair> {
    use diopter_semantics::ast::{Dialect, Expr, Literal, OpNode, Span};
    use diopter_tv::validate::MapRhs;

    let mut args = before.args.clone()?;
    if args.is_empty() || args.iter().any(|a| a.poison) {
        return None;
    }
    let mut before = before.clone();
    let j = if wrong {
        let read: Vec<usize> = (0..args.len())
            .filter(|&k| reads_operand(&before, k as u64))
            .collect();
        *read.get(pick % read.len().max(1))?
    } else {
        pick % args.len()
    };
    if wrong && args.get(j + 1).is_none_or(|next| next.ty != args[j].ty) {
        for n in &mut before.expr.ops {
            if let Op::Arg(k, _) = &mut n.op {
                if *k > j as u64 {
                    *k += 1;
                }
            }
        }
        args.insert(j + 1, args[j].clone());
        before.args = Some(args.clone());
    }
    let renumber = |k: u64| if k > j as u64 { k - 1 } else { k };
    let mut after = before.clone();
    after.expr.ops = before
        .expr
        .ops
        .iter()
        .map(|n| {
            let op = match &n.op {
                Op::Arg(k, t) if *k == j as u64 && !wrong => {
                    Op::Constant(t.clone(), Literal::Undef)
                }
                Op::Arg(k, t) if *k == j as u64 => Op::Arg(*k, t.clone()),
                Op::Arg(k, t) => Op::Arg(renumber(*k), t.clone()),
                other => other.clone(),
            };
            OpNode { op, span: n.span }
        })
        .collect();
    let mut new_args = args.clone();
    new_args.remove(j);
    after.args = Some(new_args);
    let map = args
        .iter()
        .enumerate()
        .map(|(k, a)| {
            let rhs = if k == j {
                MapRhs::Undefined
            } else {
                MapRhs::Expr(Expr::new(
                    Dialect::DiExpression,
                    vec![Op::Arg(renumber(k as u64), a.ty.clone())],
                ))
            };
            (k as u64, rhs, Span::default())
        })
        .collect();
    Some(fuzz_pair(
        "fuzz-delete",
        before,
        Some(after),
        map,
        dl.clone(),
    ))
}

/// A pass folds `x * 0` to `0` where `x` is operand 0 (an integer): the
/// before-expression multiplies each use of operand 0 by zero, the
/// after-expression is the constant; every operand is kept. Never
/// correct: where operand 0 cannot be read the before-expression fails and
/// the after-expression shows a value. `None` unless operand 0 is an
/// integer.
pub fn fold_pair(before: &Bare, dl: &DataLayout) -> Option<diopter_tv::validate::Pair> {
    use diopter_semantics::ast::{Dialect, Expr, Literal, OpNode, Span};
    use diopter_tv::validate::MapRhs;

    let args = before.args.clone()?;
    let a0 = args.first().filter(|a| !a.poison)?;
    if !matches!(a0.ty, Type::Int(_)) {
        return None;
    }
    let zero = || Op::Constant(a0.ty.clone(), Literal::Int(0.into()));
    let mut old = before.clone();
    let mut after = before.clone();
    old.expr.ops = Vec::new();
    after.expr.ops = Vec::new();
    for n in &before.expr.ops {
        let node = |op: Op| OpNode { op, span: n.span };
        match &n.op {
            Op::Arg(0, t) if *t == a0.ty => {
                old.expr
                    .ops
                    .extend([n.clone(), node(zero()), node(Op::Mul)]);
                after.expr.ops.push(node(zero()));
            }
            _ => {
                old.expr.ops.push(n.clone());
                after.expr.ops.push(n.clone());
            }
        }
    }
    if old.expr.ops.len() == before.expr.ops.len() {
        return None;
    }
    let map = args
        .iter()
        .enumerate()
        .map(|(k, a)| {
            let e = Expr::new(Dialect::DiExpression, vec![Op::Arg(k as u64, a.ty.clone())]);
            (k as u64, MapRhs::Expr(e), Span::default())
        })
        .collect();
    Some(fuzz_pair("fuzz-fold", old, Some(after), map, dl.clone()))
}

/// How [`sroa_pair`] updates the uses of the split operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Split {
    /// As the mapping says: the composite of the two pieces, low first.
    Correct,
    Wrong(SplitError),
}

/// The deliberate mistakes of a split.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SplitError {
    /// The pieces in the wrong order (the high piece at bit 0).
    Swapped,
    /// The low piece alone, zero-extended: a piece taken for the whole.
    LowOnly,
    /// The value `lo | hi << (k - 1)`: the high piece one bit too low.
    HighMisplaced,
}

impl SplitError {
    pub const ALL: [SplitError; 3] = [
        SplitError::Swapped,
        SplitError::LowOnly,
        SplitError::HighMisplaced,
    ];
}

/// SROA's split of operand 0 of `before` (of type `T`, `2k` bits by `dl`,
/// `2 <= 2k <= 128`) into two new operands `lo` and `hi` of type `ik`,
/// low bits first, as AMD's SROA and instruction selection write it
/// (`corpus/amd/amd-rewrites.map`, row 34: `DIOpArg(0, i32), DIOpArg(1,
/// i32), DIOpComposite(2, i64)`). The old operands after 0 become new
/// operands 2, 3, .... With `in_memory`, the variable lived in an alloca
/// that SROA removed: the before-expression reads it through a private
/// pointer (each `DIOpArg(0, t)` becomes `DIOpArg(0, ptr addrspace(5)),
/// DIOpDeref(t)`), and the old pointer's value is the address of the
/// pieces' composite (`..., DIOpComposite(2, T), DIOpAddrOf(5)`; its
/// `DIOpDeref` is the composite itself). The mapping is always correct;
/// `how` says whether the after-expression follows it. `None` when
/// operand 0 cannot be split so (odd or unknown size, poison).
pub fn sroa_pair(
    before: &Bare,
    dl: &DataLayout,
    types: &TypeTable,
    in_memory: bool,
    how: Split,
) -> Option<diopter_tv::validate::Pair> {
    use diopter_semantics::ast::{ArgDecl, Dialect, Expr, Literal, OpNode, Span};
    use diopter_tv::validate::MapRhs;

    let args = before.args.clone()?;
    let t = args.first().filter(|a| !a.poison)?.ty.clone();
    let w = dl.bitsizeof(&t, types).ok()?;
    if !(2..=128).contains(&w) || !w.is_multiple_of(2) {
        return None;
    }
    let k = w / 2;
    let piece = Type::Int(k);
    let whole = Type::Int(w);
    let comp = vec![
        Op::Arg(0, piece.clone()),
        Op::Arg(1, piece.clone()),
        Op::Composite(2, t.clone()),
    ];
    // A value of type `iw` read back as `T`.
    let as_t = |mut ops: Vec<Op>| {
        if whole != t {
            ops.push(Op::Reinterpret(t.clone()));
        }
        ops
    };
    let repl = match how {
        Split::Correct => comp.clone(),
        Split::Wrong(SplitError::Swapped) => vec![
            Op::Arg(1, piece.clone()),
            Op::Arg(0, piece.clone()),
            Op::Composite(2, t.clone()),
        ],
        Split::Wrong(SplitError::LowOnly) => {
            as_t(vec![Op::Arg(0, piece.clone()), Op::ZExt(whole.clone())])
        }
        Split::Wrong(SplitError::HighMisplaced) => as_t(vec![
            Op::Arg(0, piece.clone()),
            Op::ZExt(whole.clone()),
            Op::Arg(1, piece.clone()),
            Op::ZExt(whole.clone()),
            Op::Constant(whole.clone(), Literal::Int((k - 1).into())),
            Op::Shl,
            Op::Or,
        ]),
    };
    let node = |op: Op| OpNode {
        op,
        span: Span::default(),
    };
    let expr = |ops: Vec<Op>| Expr::new(Dialect::DiExpression, ops);
    let p5 = Type::Ptr {
        addrspace: 5,
        pointee: None,
    };
    // The before-expression (in memory: through the alloca's pointer) and
    // the after-expression, over the renumbered operands.
    let mut old = before.clone();
    let mut after = before.clone();
    old.expr.ops = Vec::new();
    after.expr.ops = Vec::new();
    for n in &before.expr.ops {
        match &n.op {
            Op::Arg(0, u) => {
                if in_memory {
                    old.expr.ops.push(node(Op::Arg(0, p5.clone())));
                    old.expr.ops.push(node(Op::Deref(Some(u.clone()))));
                } else {
                    old.expr.ops.push(n.clone());
                }
                after.expr.ops.extend(repl.iter().cloned().map(node));
                if *u != t {
                    after.expr.ops.push(node(Op::Reinterpret(u.clone())));
                }
            }
            Op::Arg(j, u) => {
                old.expr.ops.push(n.clone());
                after.expr.ops.push(node(Op::Arg(j + 1, u.clone())));
            }
            _ => {
                old.expr.ops.push(n.clone());
                after.expr.ops.push(n.clone());
            }
        }
    }
    let mut old_args = args.clone();
    if in_memory {
        old_args[0].ty = p5;
    }
    old.args = Some(old_args);
    let decl = |ty: Type| ArgDecl {
        ty,
        poison: false,
        span: Span::default(),
    };
    let mut new_args = vec![decl(piece.clone()), decl(piece)];
    new_args.extend(args.iter().skip(1).cloned());
    after.args = Some(new_args);
    let mut map0 = comp;
    if in_memory {
        map0.push(Op::AddrOf(5));
    }
    let mut map = vec![(0u64, MapRhs::Expr(expr(map0)), Span::default())];
    for (j, a) in args.iter().enumerate().skip(1) {
        map.push((
            j as u64,
            MapRhs::Expr(expr(vec![Op::Arg(j as u64 + 1, a.ty.clone())])),
            Span::default(),
        ));
    }
    Some(fuzz_pair("fuzz", old, Some(after), map, dl.clone()))
}

/// Validates an update made by `validate_diff` (`wrong`: deliberately
/// wrong) and checks the verdict against the reference interpreter in
/// random contexts (`trial_seed`); `Ok(verdict label)`, or `Err` with the
/// finding. `Ok("skipped")` when the pair does not check (the generated
/// expression does not fit the update).
pub fn judge_update(
    pair: &diopter_tv::validate::Pair,
    wrong: bool,
    types: &TypeTable,
    trial_seed: u64,
) -> Result<&'static str, String> {
    use diopter_empirical as empirical;
    use diopter_rules::instance::{HoleKind, Relation};
    use diopter_smt::prove::ProveConfig;
    use diopter_tv::validate::{self, Verdict as V};

    if validate::check_pair(pair, types).is_err() {
        return Ok("skipped");
    }
    let shown = || {
        format!(
            "before: {}\nafter:  {}\nmapping: {}\nupdate: {}",
            print_bare(&pair.before),
            pair.after.as_ref().map(print_bare).unwrap_or_default(),
            pair.map
                .iter()
                .map(|(k, m, _)| match m {
                    validate::MapRhs::Expr(e) =>
                        format!("arg{k} := {}", diopter_semantics::syntax::print_ops(e)),
                    validate::MapRhs::Undefined => format!("arg{k} := undefined"),
                })
                .collect::<Vec<_>>()
                .join("; "),
            if wrong { "wrong" } else { "correct" }
        )
    };
    let cfg = ProveConfig {
        timeout_ms: 2_000,
        ..ProveConfig::default()
    };
    let o = validate::validate(pair, types, &cfg);
    match &o.verdict {
        V::EncodingBug(m) => return Err(format!("encoding bug\n{}\n{m}", shown())),
        V::Refuted(c) if !wrong => {
            return Err(format!(
                "a correct update is refuted\n{}\n{}",
                shown(),
                c.render()
            ))
        }
        // A correct update whose pass deleted an operand the
        // before-expression reads is a refinement by the validator's
        // policy (the value is lost there); any other correct update's
        // after-expression is the substituted before-expression.
        V::Refinement(_) if !wrong && pair.deleted_and_read().is_empty() => {
            return Err(format!(
                "a correct update is not judged equivalent: {}\n{}",
                o.verdict.label(),
                shown()
            ));
        }
        V::Equivalent | V::Refinement(_) => {
            let Some(mut inst) = validate::instance(pair, types, Relation::Lossy) else {
                return Ok(o.verdict.label());
            };
            // The check draws every operand the pair does not declare a
            // plain value in any shape a location can have, read from the
            // pair here rather than taken from the validator's instance: a
            // validator that tried fewer shapes must not blind its judge.
            for (k, h) in inst.holes.iter_mut().enumerate() {
                h.kind = if pair.value_args.contains(&(k as u64)) {
                    HoleKind::Const
                } else {
                    HoleKind::Expr
                };
            }
            // And its left side is the judge's own reading of the mapping.
            inst.lhs.ops = judged_before(pair);
            if let Err(c) = empirical::check_instance_in(&inst, 64, trial_seed, false, &pair.dl) {
                return Err(format!(
                    "judged {} but the reference interpreter tells the sides apart\n{}\n{c}",
                    o.verdict.label(),
                    shown()
                ));
            }
        }
        V::RefutedInTrial { why, found } if !wrong => {
            return Err(format!(
                "a correct update is refuted by the reference interpreter in a random context \
                 (Z3: {why})\n{}\n{found}",
                shown()
            ))
        }
        V::Refuted(_) | V::RefutedInTrial { .. } | V::Unknown { .. } => {}
    }
    Ok(o.verdict.label())
}

/// A generated pair: `name`, the expressions, the mapping and the layout;
/// no notes, source, value operands or preconditions.
fn fuzz_pair(
    name: &str,
    before: Bare,
    after: Option<Bare>,
    map: Vec<(
        u64,
        diopter_tv::validate::MapRhs,
        diopter_semantics::ast::Span,
    )>,
    dl: DataLayout,
) -> diopter_tv::validate::Pair {
    diopter_tv::validate::Pair {
        name: name.into(),
        before,
        after,
        map,
        dl,
        notes: Vec::new(),
        source: None,
        span: diopter_semantics::ast::Span::default(),
        value_args: Vec::new(),
        pre: Vec::new(),
    }
}

/// The before-expression over the new operands, as the judge reads the
/// mapping (written apart from the validator's substitution, which it
/// checks): each `DIOpArg(K, T)` becomes old operand K's expression (its
/// poison new operands `undef`), then `DIOpReinterpret(T)` if K was
/// declared with another type; a deleted or unmapped operand becomes
/// `DIOpConstant(T undef)`.
fn judged_before(pair: &diopter_tv::validate::Pair) -> Vec<diopter_semantics::ast::OpNode> {
    use diopter_semantics::ast::{Literal, OpNode};
    use diopter_tv::validate::MapRhs;
    let new = pair
        .after
        .as_ref()
        .and_then(|a| a.args.clone())
        .unwrap_or_default();
    let old = pair.before.args.clone().unwrap_or_default();
    let undef = |t: &Type| Op::Constant(t.clone(), Literal::Undef);
    let mut out = Vec::new();
    for n in &pair.before.expr.ops {
        let node = |op: Op| OpNode { op, span: n.span };
        let Op::Arg(k, t) = &n.op else {
            out.push(n.clone());
            continue;
        };
        let Some(MapRhs::Expr(e)) = pair.map.iter().find(|m| m.0 == *k).map(|m| &m.1) else {
            out.push(node(undef(t)));
            continue;
        };
        for m in &e.ops {
            match &m.op {
                Op::Arg(j, u) if new.get(*j as usize).is_some_and(|a| a.poison) => {
                    out.push(node(undef(u)))
                }
                _ => out.push(m.clone()),
            }
        }
        if old.get(*k as usize).is_some_and(|a| a.ty != *t) {
            out.push(node(Op::Reinterpret(t.clone())));
        }
    }
    out
}

/// Whether `b` reads operand `k`.
fn reads_operand(b: &Bare, k: u64) -> bool {
    b.expr.ops().any(|o| matches!(o, Op::Arg(j, _) if *j == k))
}

/// The widest type a case may name for an update to be validated. Z3 on
/// wide integers can take minutes whatever its timeout says, in
/// simplification it does not bound: one `validate_diff` input naming an
/// unused `i4096` operand took 82 s (libFuzzer's limit here is 30 s), and
/// the default job's check once hung 10 s on one. 256 keeps every AMDGPU
/// pointer (`p7` is 160 bits, `p9` 192), which the SROA seeds convert to,
/// and `i128`/`fp128`.
pub const VALIDATE_MAX_BITS: u64 = 256;

/// `validate_diff` skips before-expressions longer than this.
pub const MAX_VALIDATE_OPS: usize = 12;

/// Cases the `dwarf_diff` fuzz target saw, and how many of them lowered.
pub static FUZZ_CASES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
pub static FUZZ_LOWERED: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
/// ... and how many lowered with AMD's extensions ([`lower_ext`]).
pub static FUZZ_LOWERED_EXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// The body of the `dwarf_diff` fuzz target: a generated case, reference
/// against the DWARF oracle ([`dwarf::compare`]) and against the same bytes in the
/// extension evaluator ([`dwarf::compare_with`] `ext::evaluate_lowered`, oracle
/// `dwarf-ext`). A disagreement is written as a
/// case file to `case_dir` (when given; replay it with `diopter replay`,
/// whose `# oracles:` line names the reference and dwarf) and returned as
/// `Err`. Every 2^16 cases the lowering rate so far goes to stderr.
pub fn dwarf_diff(data: &[u8], case_dir: Option<&std::path::Path>) -> Result<(), String> {
    use std::sync::atomic::Ordering;
    let case = Case::from_bytes(data, &GenConfig::default());
    let v = dwarf::compare(&case);
    let n = FUZZ_CASES.fetch_add(1, Ordering::Relaxed) + 1;
    let lowered = if matches!(v, DwarfVerdict::NotLowerable(_)) {
        FUZZ_LOWERED.load(Ordering::Relaxed)
    } else {
        FUZZ_LOWERED.fetch_add(1, Ordering::Relaxed) + 1
    };
    if n.is_multiple_of(1 << 16) {
        let ext = FUZZ_LOWERED_EXT.load(Ordering::Relaxed);
        eprintln!(
            "dwarf_diff: {n} cases, {lowered} lowered ({:.1}%), {ext} with AMD's extensions ({:.1}%)",
            100.0 * lowered as f64 / n as f64,
            100.0 * ext as f64 / n as f64
        );
    }
    // The same bytes through the extension evaluator (ext.rs).
    let vx = dwarf::compare_with(&case, lower_ext, ext::evaluate_lowered);
    if !matches!(vx, DwarfVerdict::NotLowerable(_)) {
        FUZZ_LOWERED_EXT.fetch_add(1, Ordering::Relaxed);
    }
    for (oracle, v) in [("dwarf", &v), ("dwarf-ext", &vx)] {
        let DwarfVerdict::Disagree(details) = v else {
            continue;
        };
        let mut msg = format!(
            "reference and {oracle} disagree:\n  {}\nexpression: {}",
            details.join("\n  "),
            case.expr_line()
        );
        if let Some(dir) = case_dir {
            let verdict = Verdict::Disagree {
                details: details.clone(),
            };
            let text = diff::case_file_text(&case, &["reference", oracle], Some(&verdict));
            let mut h = std::collections::hash_map::DefaultHasher::new();
            std::hash::Hash::hash(&text, &mut h);
            let path = dir.join(format!(
                "disagree-{:016x}.case",
                std::hash::Hasher::finish(&h)
            ));
            let written = std::fs::create_dir_all(dir).and_then(|()| std::fs::write(&path, text));
            match written {
                Ok(()) => msg.push_str(&format!(
                    "\ncase file: {}\nreproduce: {}",
                    path.display(),
                    diff::repro_command(&path)
                )),
                Err(e) => msg.push_str(&format!("\n(writing {} failed: {e})", path.display())),
            }
        }
        return Err(msg);
    }
    Ok(())
}

/// `simplify_diff`: a generated case against its form simplified by `s`
/// (`diopter_empirical::simplify::fuzz_simplify_diff`, which writes the
/// case file of a disagreement to `case_dir` when given).
pub fn simplify_diff(s: &Simplifier, data: &[u8], case_dir: Option<&Path>) -> Result<(), String> {
    let case = Case::from_bytes(data, &GenConfig::default());
    diopter_empirical::simplify::fuzz_simplify_diff(s, &case, case_dir)
}
