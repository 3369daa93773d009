//! Proofs of the transformations' local rewrites (`diopter prove
//! --transforms`): the rules of `corpus/transforms/*.rules` (SRoA's fragment
//! split, mem2reg's promotion) proved by the rule prover ([`diopter_smt::prove`])
//! like the simplifier's rules, but instantiated the way a transformation
//! meets them, and reported in `reports/transforms.{md,json}`.
//!
//! The difference from `diopter prove` is the instantiation of *piece
//! rules*: a rule whose type variables are `T` and `P1`..`Pk` (all `int`)
//! splits a `T` into pieces, so each `Pi` ranges over the widths and `T` is
//! the integer of their total width ([`piece_bindings`]), instead of all
//! variables ranging over the widths and most combinations failing the
//! condition `width(P1) + ... == width(T)` (which would leave out every
//! split whose total is not itself one of the widths, such as 16 + 8).
//! Other rules are instantiated as `diopter prove` does.

use diopter_rules::instance::{Instance, Relation};
use diopter_rules::{Binding, Class, Rule};
use diopter_semantics::types::{DataLayout, Type, TypeTable};
use diopter_smt::prove::{prove_instance, Outcome, ProveConfig, Verdict};
use serde_json::json;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// Where the rules live.
pub const RULES_DIR: &str = "corpus/transforms";

/// How many piece-width tuples a piece rule with `k` pieces is proved for:
/// every tuple for `k = 2`; for more pieces, the tuples
/// [`piece_bindings`] picks (the budget keeps a run within minutes).
pub fn tuple_budget(k: usize) -> usize {
    match k {
        0..=2 => usize::MAX,
        3 => 20,
        _ => 10,
    }
}

/// The number of pieces when `r` is a piece rule: type variables exactly
/// `T`, `P1`..`Pk`, all of class `int`.
pub fn pieces(r: &Rule) -> Option<usize> {
    let k = r.vars.len().checked_sub(1)?;
    let ints = r.vars.iter().all(|(_, c)| *c == Class::Int);
    let named = r.vars.iter().any(|(v, _)| v == "T")
        && (1..=k).all(|i| r.vars.iter().any(|(v, _)| *v == format!("P{i}")));
    (k >= 2 && ints && named).then_some(k)
}

/// The piece-width tuples of a `k`-piece rule: all of `widths^k` when that
/// is within `budget`; otherwise, up to `budget`, every tuple of equal
/// widths, then each width first beside the narrowest (`[w, lo, lo]`),
/// then last, then beside the widest, then an even spread of the rest
/// (deterministic, so reports are comparable).
pub fn piece_bindings(k: usize, widths: &[u64], budget: usize) -> Vec<Vec<u64>> {
    let mut all: Vec<Vec<u64>> = vec![Vec::new()];
    for _ in 0..k {
        all = all
            .into_iter()
            .flat_map(|t| {
                widths.iter().map(move |w| {
                    let mut t = t.clone();
                    t.push(*w);
                    t
                })
            })
            .collect();
    }
    if all.len() <= budget {
        return all;
    }
    let (lo, hi) = (
        widths.iter().copied().min().unwrap_or(1),
        widths.iter().copied().max().unwrap_or(1),
    );
    let mut out: Vec<Vec<u64>> = Vec::new();
    let take = |t: Vec<u64>, out: &mut Vec<Vec<u64>>| {
        if out.len() < budget && !out.contains(&t) {
            out.push(t);
        }
    };
    for w in widths {
        take(vec![*w; k], &mut out);
    }
    for edge in [lo, hi] {
        for rotate in [0, 1] {
            for w in widths {
                let mut t = vec![edge; k];
                t[0] = *w;
                t.rotate_left(rotate);
                take(t, &mut out);
            }
        }
    }
    let step = (all.len() / budget.max(1)).max(1);
    for t in all.into_iter().step_by(step) {
        take(t, &mut out);
    }
    out
}

/// One instance to prove, with a label of its binding for the report.
pub struct Work {
    pub rule: usize,
    pub instance: Instance,
    pub label: String,
}

fn label(b: &Binding, dialect: impl std::fmt::Display) -> String {
    let mut s: Vec<String> = b.types.iter().map(|(k, v)| format!("{k} = {v}")).collect();
    s.push(dialect.to_string());
    s.join(", ")
}

/// Every instance of `rules` at `widths`: piece rules over their piece
/// tuples, the others as [`Rule::instances`] makes them.
pub fn instances(rules: &[Rule], widths: &[u64]) -> Vec<Work> {
    let dl = DataLayout::llvm_default();
    let table = TypeTable::default();
    let mut out = Vec::new();
    for (k, r) in rules.iter().enumerate() {
        let Some(n) = pieces(r) else {
            for instance in r.instances(widths) {
                let mut parts: Vec<String> = instance
                    .binding
                    .iter()
                    .map(|(k, v)| format!("{k} = {v}"))
                    .collect();
                parts.push(instance.dialect.to_string());
                let label = parts.join(", ");
                out.push(Work {
                    rule: k,
                    instance,
                    label,
                });
            }
            continue;
        };
        for tuple in piece_bindings(n, widths, tuple_budget(n)) {
            let mut b = Binding::default();
            for (i, w) in tuple.iter().enumerate() {
                b.types.insert(format!("P{}", i + 1), Type::Int(*w));
            }
            b.types.insert("T".into(), Type::Int(tuple.iter().sum()));
            if !r.type_conds_hold(&b, &dl, &table) {
                continue;
            }
            for &dialect in &r.dialects {
                if let Some(instance) = r.instance(dialect, &b, &dl, &table) {
                    out.push(Work {
                        rule: k,
                        instance,
                        label: label(&b, dialect),
                    });
                }
            }
        }
    }
    out
}

/// The prover's shape selectors (`diopter_smt::prove::Shape::ALL` indices) other
/// than memory in address space 0 or 5 and two single locations (memory and
/// an entity): the shapes whose write effect the second pass of
/// [`prove_all`] proves when the first times out.
pub const WITHOUT_MEMORY: &str = "2,3,4,5,6,8";

/// One instance's outcome: over every shape, and, when that is unknown,
/// over the shapes of [`WITHOUT_MEMORY`] (the composite shape still has a
/// memory part).
pub struct Proof {
    pub all: Outcome,
    pub without_memory: Option<Outcome>,
}

fn run_pass(
    work: &[&Work],
    cfg: &ProveConfig,
    jobs: usize,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Vec<Outcome> {
    let results: Vec<Mutex<Option<Outcome>>> = work.iter().map(|_| Mutex::new(None)).collect();
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    std::thread::scope(|s| {
        for _ in 0..jobs.max(1) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some(w) = work.get(i) else { break };
                let o = prove_instance(&w.instance, cfg);
                *results[i].lock().expect("not poisoned") = Some(o);
                progress(done.fetch_add(1, Ordering::SeqCst) + 1, work.len());
            });
        }
    });
    results
        .into_iter()
        .map(|m| {
            m.into_inner()
                .expect("not poisoned")
                .expect("every instance ran")
        })
        .collect()
}

/// Proves every instance on `jobs` threads, over every storage shape; then
/// the instances left unknown again without the memory shapes (the prover's
/// `DIOPTER_SHAPES`, set only between the passes, while no query runs).
/// `progress` is called after each query (done, total of the pass).
pub fn prove_all(
    work: &[Work],
    cfg: &ProveConfig,
    jobs: usize,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Vec<Proof> {
    let all = run_pass(&work.iter().collect::<Vec<_>>(), cfg, jobs, progress);
    let unknown: Vec<usize> = (0..work.len())
        .filter(|&i| matches!(all[i].verdict, Verdict::Unknown(_)))
        .collect();
    let mut second = Vec::new();
    if !unknown.is_empty() {
        let before = std::env::var("DIOPTER_SHAPES").ok();
        std::env::set_var("DIOPTER_SHAPES", WITHOUT_MEMORY);
        let again: Vec<&Work> = unknown.iter().map(|&i| &work[i]).collect();
        second = run_pass(&again, cfg, jobs, progress);
        match before {
            Some(v) => std::env::set_var("DIOPTER_SHAPES", v),
            None => std::env::remove_var("DIOPTER_SHAPES"),
        }
    }
    let mut second = unknown.into_iter().zip(second).peekable();
    all.into_iter()
        .enumerate()
        .map(|(i, o)| Proof {
            all: o,
            without_memory: second.next_if(|(j, _)| *j == i).map(|(_, o)| o),
        })
        .collect()
}

/// Whether a rule's outcomes are as claimed: every instance proved over
/// every shape (a rule under `refuted/`: one refuted); `None` when some are
/// unknown and none contradicts the claim. A refutation or an encoding bug
/// of either pass counts.
pub fn as_claimed(r: &Rule, proofs: &[&Proof]) -> Option<bool> {
    let outs: Vec<&Outcome> = proofs
        .iter()
        .flat_map(|p| std::iter::once(&p.all).chain(p.without_memory.as_ref()))
        .collect();
    let has = |f: fn(&Verdict) -> bool| outs.iter().any(|o| f(&o.verdict));
    if has(|v| matches!(v, Verdict::Invalid(_) | Verdict::EncodingBug(_))) || outs.is_empty() {
        return Some(false);
    }
    let refuted = has(|v| matches!(v, Verdict::Refuted(_)));
    let unknown = proofs
        .iter()
        .any(|p| matches!(p.all.verdict, Verdict::Unknown(_)));
    match (r.expect_refuted(), refuted, unknown) {
        (true, true, _) => Some(true),
        (false, true, _) => Some(false),
        (_, false, true) => None,
        (expect_refuted, false, false) => Some(!expect_refuted),
    }
}

fn reason(v: &Verdict) -> String {
    match v {
        Verdict::Unknown(m)
        | Verdict::NotApplicable(m)
        | Verdict::Invalid(m)
        | Verdict::EncodingBug(m)
        | Verdict::Skipped(m) => m.clone(),
        Verdict::Refuted(c) => c.render(),
        Verdict::Proved => String::new(),
        Verdict::ProvedExhaustive(n) => format!("exhaustive, {n} inputs"),
    }
}

fn relation(r: &Rule) -> &'static str {
    match r.relation {
        Relation::Equivalent => "=>",
        Relation::ReadOnly => "=>ro",
        Relation::Lossy => "lossy",
    }
}

fn status(s: Option<bool>) -> &'static str {
    match s {
        Some(true) => "ok",
        Some(false) => "FAIL",
        None => "unknown",
    }
}

/// The indices of `work` that belong to rule `k`.
fn of_rule(work: &[Work], k: usize) -> Vec<usize> {
    (0..work.len()).filter(|&i| work[i].rule == k).collect()
}

fn outcome_json(o: &Outcome) -> serde_json::Value {
    json!({
        "verdict": o.verdict.label(),
        "millis": o.millis as u64,
        "reason": reason(&o.verdict),
    })
}

/// The report as JSON: per rule its claim and status, per instance the
/// binding, verdict and time over every shape, and without the memory
/// shapes where the first was unknown.
pub fn report_json(
    rules: &[Rule],
    work: &[Work],
    proofs: &[Proof],
    widths: &[u64],
    timeout_ms: u32,
) -> serde_json::Value {
    let rows: Vec<serde_json::Value> = rules
        .iter()
        .enumerate()
        .map(|(k, r)| {
            let idx = of_rule(work, k);
            let mine: Vec<&Proof> = idx.iter().map(|&i| &proofs[i]).collect();
            json!({
                "rule": r.name,
                "origin": r.origin.to_string(),
                "relation": relation(r),
                "expect_refuted": r.expect_refuted(),
                "pieces": pieces(r),
                "status": status(as_claimed(r, &mine)),
                "instances": idx.iter().map(|&i| json!({
                    "binding": work[i].label,
                    "all_shapes": outcome_json(&proofs[i].all),
                    "without_memory_shapes": proofs[i].without_memory.as_ref().map(outcome_json),
                })).collect::<Vec<_>>(),
            })
        })
        .collect();
    json!({
        "widths": widths,
        "timeout_ms": timeout_ms,
        "without_memory_shapes": WITHOUT_MEMORY,
        "rules": rows,
    })
}

fn cell(o: &Outcome) -> String {
    let why = reason(&o.verdict);
    let why = why.lines().next().unwrap_or("");
    format!(
        "{}{} ({} ms)",
        o.verdict.label(),
        if why.is_empty() {
            String::new()
        } else {
            format!(": {}", why.replace('|', "\\|"))
        },
        o.millis
    )
}

/// The report as Markdown: a table of rules with verdict counts, then every
/// instance's verdicts and times.
pub fn report_markdown(
    rules: &[Rule],
    work: &[Work],
    proofs: &[Proof],
    widths: &[u64],
    timeout_ms: u32,
) -> String {
    let mut s = String::from("# Transformation proofs\n\n");
    s += "Generated by `diopter prove --transforms` (rules: `corpus/transforms/`; \
          what they state and why that covers the transformations: the comments \
          of those files). Every storage shape of every hole is covered (memory \
          in address spaces 0 and 5, entity, implicit, undefined, implicit \
          address, composite, two single locations, failing): each instance is \
          one Z3 query per combination of shapes, built with each hole \
          restricted to its shape, and for a shape with memory once per phase \
          of the hole's bit offset within its byte (0 to 7: every case, so \
          byte addresses are decided while the query is built), and once per \
          value of a constant the preconditions confine to at most 65 values \
          (the offset `?k` of `sroa-2-then-offset-inside`); the instance is \
          proved when every one of these queries is unsat, within the timeout \
          for the instance. An instance left unknown is tried again without \
          the shapes whose writes go to memory at a symbolic bit offset \
          (memory 0, memory 5, two single locations), which says what the \
          timeout left open.\n\n";
    s += &format!(
        "Widths: {widths:?}; timeout per instance (shared by its queries): {timeout_ms} ms.\n\n\
         | rule | relation | status | proved | proved without memory shapes (memory ones timed out) | refuted | unknown | other | total time |\n\
         | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n"
    );
    for (k, r) in rules.iter().enumerate() {
        let mine: Vec<&Proof> = of_rule(work, k).iter().map(|&i| &proofs[i]).collect();
        let count = |f: &dyn Fn(&Proof) -> bool| mine.iter().filter(|p| f(p)).count();
        let label = |o: &Outcome| o.verdict.label();
        let p = count(&|x| label(&x.all) == "proved");
        let pm = count(&|x| {
            x.without_memory
                .as_ref()
                .is_some_and(|o| label(o) == "proved")
        });
        let f = count(&|x| {
            label(&x.all) == "refuted"
                || x.without_memory
                    .as_ref()
                    .is_some_and(|o| label(o) == "refuted")
        });
        let u = count(&|x| {
            label(&x.all) == "unknown"
                && x.without_memory
                    .as_ref()
                    .is_none_or(|o| label(o) == "unknown")
        });
        let ms: u128 = mine
            .iter()
            .map(|x| x.all.millis + x.without_memory.as_ref().map_or(0, |o| o.millis))
            .sum();
        s += &format!(
            "| `{}`{} | `{}` | {} | {p} | {pm} | {f} | {u} | {} | {:.1} s |\n",
            r.name,
            if r.expect_refuted() {
                " (expected refuted)"
            } else {
                ""
            },
            relation(r),
            status(as_claimed(r, &mine)),
            mine.len().saturating_sub(p + pm + f + u),
            ms as f64 / 1000.0
        );
    }
    for (k, r) in rules.iter().enumerate() {
        s += &format!("\n## `{}` ({})\n\n", r.name, r.origin);
        s += "| binding | every shape | without memory shapes |\n| --- | --- | --- |\n";
        for i in of_rule(work, k) {
            s += &format!(
                "| {} | {} | {} |\n",
                work[i].label,
                cell(&proofs[i].all),
                proofs[i]
                    .without_memory
                    .as_ref()
                    .map_or(String::new(), cell)
            );
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_pair_and_a_budget_of_larger_tuples() {
        let w = [1, 2, 3, 4, 7, 8, 16, 32, 33, 64];
        let pairs = piece_bindings(2, &w, tuple_budget(2));
        assert_eq!(pairs.len(), 100);
        assert!(pairs.contains(&vec![16, 8]) && pairs.contains(&vec![8, 16]));
        let triples = piece_bindings(3, &w, tuple_budget(3));
        assert_eq!(triples.len(), 20);
        // Every width in equal pieces, then beside the narrowest.
        for x in w {
            assert!(triples.contains(&vec![x, x, x]));
            assert!(triples.contains(&vec![x, 1, 1]));
        }
        let quads = piece_bindings(4, &w, tuple_budget(4));
        assert_eq!(quads.len(), 10);
        assert!(quads.iter().all(|t| t.len() == 4));
    }

    #[test]
    fn piece_rules_bind_the_total() {
        let rules = diopter_rules::syntax::parse_rules(
            "rule s [diexpression]: ?x:T, DIOpConstant(i32 0), DIOpBitOffset(P1), ?x, DIOpConstant(i32 ?o), DIOpBitOffset(P2), DIOpComposite(2, T) => ?x\n    where T: int, P1: int, P2: int\n    if width(P1) + width(P2) == width(T), ?o == width(P1)\n\
             rule m: ?x:T, DIOpAddrOf(?n), DIOpDeref(T) => ?x\n    where T: int\n",
            "t.rules",
        )
        .unwrap();
        assert_eq!(pieces(&rules[0]), Some(2));
        assert_eq!(pieces(&rules[1]), None);
        let w = instances(&rules, &[8, 16]);
        let labels: Vec<&str> = w
            .iter()
            .filter(|x| x.rule == 0)
            .map(|x| x.label.as_str())
            .collect();
        assert_eq!(
            labels,
            [
                "P1 = i8, P2 = i8, T = i16, diexpression",
                "P1 = i8, P2 = i16, T = i24, diexpression",
                "P1 = i16, P2 = i8, T = i24, diexpression",
                "P1 = i16, P2 = i16, T = i32, diexpression"
            ]
        );
        // The other rule as `diopter prove` instantiates it: both dialects,
        // both widths, three address spaces.
        assert_eq!(w.iter().filter(|x| x.rule == 1).count(), 12);
    }
    /// The corpus's rules load, the SRoA ones are piece rules, and a cheap
    /// instance of each kind goes through the prover as claimed.
    #[test]
    fn the_corpus_rules() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../..")
            .join(RULES_DIR);
        let rules = diopter_rules::load_rule_files(&[dir]).unwrap();
        let names: Vec<&str> = rules.iter().map(|r| r.name.as_str()).collect();
        for n in ["mem2reg", "mem2reg-seed", "sroa-2", "sroa-3", "sroa-4"] {
            assert!(names.contains(&n), "{names:?}");
        }
        let k = |n: &str| rules.iter().position(|r| r.name == n).unwrap();
        assert_eq!(pieces(&rules[k("sroa-3")]), Some(3));
        assert!(rules[k("sroa-2-then-offset-anywhere")].expect_refuted());
        let work = instances(&rules, &[1, 8]);
        let cfg = ProveConfig {
            timeout_ms: 20_000,
            split_first: true,
            deadline: None,
            values_first: false,
        };
        let pick = |rule: &str, label: &str| {
            work.iter()
                .find(|w| w.rule == k(rule) && w.label == label)
                .unwrap_or_else(|| panic!("{rule} at {label}"))
        };
        let read = pick("sroa-2-then-read", "P1 = i1, P2 = i1, T = i2, diexpression");
        assert_eq!(
            prove_instance(&read.instance, &cfg).verdict.label(),
            "proved"
        );
        let m2r = work
            .iter()
            .find(|w| w.rule == k("mem2reg") && w.label.starts_with("T = i8, "))
            .unwrap();
        assert_eq!(
            prove_instance(&m2r.instance, &cfg).verdict.label(),
            "proved"
        );
    }
}
