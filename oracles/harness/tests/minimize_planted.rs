//! The minimizer on planted disagreements: the fast evaluator wrapped with a
//! deliberate bug (`minimize::plant`) against the reference, on generated
//! cases of about 100 operations. The result must still fail the same way,
//! be well-formed, keep only the operations that matter, and be 1-minimal:
//! every single further reduction that the checker accepts loses the
//! failure.

use diopter_diff::{self as diff, Oracle, Reference};
use diopter_gen::Generate;
use diopter_gen::{Case, GenConfig};
use diopter_harness::adapters::Fast;
use diopter_harness::minimize::plant::{Plant, Planted};
use diopter_harness::minimize::{self, Failure, Options, SameFailure};
use diopter_semantics::ast::{Dialect, Expr, Op};
use diopter_semantics::interp;
use diopter_semantics::types::Type;

/// The first generated case on which the planted oracle fails, which holds
/// every one of `want_ops` and whose result is an integer (so that it can
/// be an offset, see [`embedded`]).
fn planted_case(oracles: &[&dyn Oracle], want_ops: &[Op]) -> Case {
    planted_cases(oracles, want_ops)
        .next()
        .expect("some generated case shows the planted bug")
}

/// Every case [`planted_case`] could pick, in order.
fn planted_cases<'a>(
    oracles: &'a [&'a dyn Oracle],
    want_ops: &'a [Op],
) -> impl Iterator<Item = Case> + 'a {
    let cfg = GenConfig {
        dialect: Some(Dialect::DiExpression),
        ..GenConfig::default()
    };
    (0..50_000u64).filter_map(move |seed| {
        let case = Case::from_seed(seed, &cfg);
        if !want_ops
            .iter()
            .all(|w| case.bare.expr.ops().any(|o| o == w))
        {
            return None;
        }
        let int_result = interp::eval_bare(&case.bare, &case.types, &case.ctx)
            .is_ok_and(|r| matches!(r.ty, Type::Int(_)));
        (int_result && minimize::failure(&case, oracles).is_some()).then_some(case)
    })
}

/// The first planted case that [`padded`] pads to `min_ops` operations.
fn padded_planted(oracles: &[&dyn Oracle], want_ops: &[Op], min_ops: usize) -> Case {
    planted_cases(oracles, want_ops)
        .take(50)
        .find_map(|small| padded(oracles, &small, min_ops))
        .expect("a padded case that fails")
}

/// `small`'s expression padded to at least `min_ops` operations with
/// generated ones: `SMALL, G1, ..., Gk, DIOpComposite(k+1, iW)`, where each
/// `Gi` is a generated expression the reference evaluates to an integer.
/// The planted bug still shows (in the composite's first part) and the
/// `Gi` are noise the minimizer has to remove. (Generated cases of 100
/// operations that show a planted bug by themselves are too rare to search
/// for: most end in an evaluation error, or in a location that hides one
/// addition.)
fn padded(oracles: &[&dyn Oracle], small: &Case, min_ops: usize) -> Option<Case> {
    let cfg = GenConfig {
        dialect: Some(Dialect::DiExpression),
        ..GenConfig::default()
    };
    let width = |c: &Case| -> Option<u64> {
        match interp::eval_bare(&c.bare, &c.types, &c.ctx) {
            Ok(r) => match r.ty {
                Type::Int(w) => Some(w),
                _ => None,
            },
            Err(_) => None,
        }
    };
    let mut c = small.clone();
    c.bare.var_type = None;
    let mut ops: Vec<Op> = small.bare.expr.ops().cloned().collect();
    let mut total = width(small).expect("an integer result");
    let mut parts = 1;
    let mut seed = 0u64;
    while ops.len() + 1 < min_ops {
        seed += 1;
        assert!(seed < 200_000, "not enough generated integer expressions");
        let g = Case::from_seed(seed, &cfg);
        let usable = g.ctx.datalayout == small.ctx.datalayout
            && g.bare.args.is_some()
            && g.bare.referrer.is_none()
            && g.bare.var_type.is_none()
            && g.types.named.is_empty()
            && g.ctx.object.is_none()
            && g.bare.expr.ops.len() >= 4
            && g.bare
                .expr
                .ops()
                .all(|o| !matches!(o, Op::Referrer(_) | Op::Fragment(..) | Op::TypeObject(_)));
        if !usable {
            continue;
        }
        let Some(w) = width(&g) else {
            continue;
        };
        let shift = c.bare.args.as_ref().map_or(0, |a| a.len()) as u64;
        ops.extend(g.bare.expr.ops().map(|o| match o {
            Op::Arg(i, t) => Op::Arg(i + shift, t.clone()),
            o => o.clone(),
        }));
        if let Some(a) = c.bare.args.as_mut() {
            a.extend(g.bare.args.iter().flatten().cloned());
        }
        for (k, l) in &g.ctx.args {
            c.ctx.args.insert(k + shift, l.clone());
        }
        for (a, addr, v) in g.ctx.state.memory.iter() {
            if !c.ctx.state.memory.contains(a, &addr) {
                c.ctx.state.memory.insert(a, &addr, v);
            }
        }
        for (k, v) in &g.ctx.state.entities {
            c.ctx
                .state
                .entities
                .entry(k.clone())
                .or_insert_with(|| v.clone());
        }
        if c.ctx.lane.is_none() {
            c.ctx.lane = g.ctx.lane;
        }
        total += w;
        parts += 1;
    }
    ops.push(Op::Composite(parts, Type::Int(total)));
    c.bare.expr = Expr::new(Dialect::DiExpression, ops);
    assert!(minimize::well_formed(&c), "padded: {}", c.expr_line());
    // The composite may hide how the small case fails (a read error of a
    // part, say): then the caller tries the next one.
    minimize::failure(&c, oracles).is_some().then_some(c)
}

/// Checks the minimized case and returns it.
fn check_minimal(original: &Case, oracles: &[&dyn Oracle]) -> Case {
    let pred = SameFailure::of(original, oracles).expect("the original fails");
    let m = minimize::minimize(original, &mut |c| pred.holds(c), &Options::default());
    assert!(m.one_minimal, "the loop ran to its fixpoint");
    assert!(
        pred.holds(&m.case),
        "the minimized case still fails the same way"
    );
    assert!(
        minimize::well_formed(&m.case),
        "the minimized case is well-formed"
    );
    assert!(
        minimize::cost(&m.case) < minimize::cost(original),
        "it shrank"
    );
    // The case file round-trips to the same failure.
    let back = diff::read_case_file(&minimize::case_text(&m.case)).expect("reads back");
    assert!(pred.holds(&back));
    // 1-minimal: no single smaller, well-formed reduction keeps the failure.
    let here = minimize::cost(&m.case);
    for r in minimize::reductions(&m.case) {
        // As the minimizer does: a reduction is what its case file holds.
        let Ok(r) = diff::read_case_file(&minimize::case_text(&r)) else {
            continue;
        };
        if minimize::cost(&r) < here && minimize::well_formed(&r) {
            assert!(
                !pred.holds(&r),
                "a further reduction still fails:\n{}\nfrom\n{}",
                minimize::case_text(&r),
                minimize::case_text(&m.case)
            );
        }
    }
    m.case
}

#[test]
fn add_off_by_one_minimizes_to_one_addition() {
    let planted = Planted::new(Box::new(Fast::default()), Plant::AddOffByOne);
    let oracles: [&dyn Oracle; 2] = [&Reference, &planted];
    let case = padded_planted(&oracles, &[Op::Add], 100);
    assert!(case.bare.expr.ops.len() >= 100);
    let min = check_minimal(&case, &oracles);
    let ops: Vec<&Op> = min.bare.expr.ops().collect();
    assert_eq!(
        ops.iter().filter(|o| ***o == Op::Add).count(),
        1,
        "one addition left: {}",
        min.expr_line()
    );
    assert!(
        ops.len() <= 3,
        "at most two operands and the addition: {}",
        min.expr_line()
    );
    assert!(matches!(
        minimize::failure(&min, &oracles),
        Some(Failure::Disagree { .. })
    ));
}

#[test]
fn bitoffset_off_by_one_minimizes_to_the_offset() {
    let planted = Planted::new(Box::new(Fast::default()), Plant::BitOffsetOffByOne);
    let oracles: [&dyn Oracle; 2] = [&Reference, &planted];
    let case = padded_planted(&oracles, &[], 100);
    assert!(case.bare.expr.ops().any(|o| matches!(o, Op::BitOffset(_))));
    let min = check_minimal(&case, &oracles);
    assert!(
        min.bare.expr.ops().any(|o| matches!(o, Op::BitOffset(_))),
        "{}",
        min.expr_line()
    );
    assert!(min.bare.expr.ops.len() <= 3, "{}", min.expr_line());
}

#[test]
fn an_oracle_panic_minimizes_to_the_panicking_operation() {
    let planted = Planted::new(Box::new(Fast::default()), Plant::PanicOnMul);
    let oracles: [&dyn Oracle; 2] = [&Reference, &planted];
    let min = minimize::quiet_panics(|| {
        let case = padded_planted(&oracles, &[Op::Mul], 100);
        let f = minimize::failure(&case, &oracles).unwrap();
        assert_eq!(
            f,
            Failure::Panic {
                oracle: "fast+panic-on-mul".into(),
                message: "planted panic: DIOpMul".into()
            }
        );
        check_minimal(&case, &oracles)
    });
    assert_eq!(min.bare.expr.ops.len(), 3, "{}", min.expr_line());
    assert!(min.bare.expr.ops().any(|o| *o == Op::Mul));
}

#[test]
fn the_signature_names_the_first_failing_operation() {
    let planted = Planted::new(Box::new(Fast::default()), Plant::AddOffByOne);
    let oracles: [&dyn Oracle; 2] = [&Reference, &planted];
    let case = planted_case(&oracles, &[Op::Add]);
    let sig = minimize::signature(&case, &oracles).unwrap();
    assert_eq!(sig.oracle, "fast+add-off-by-one");
    assert_eq!(sig.first_op, "DIOpAdd");
    assert!(!sig.classes.is_empty());
}

#[test]
fn a_case_that_does_not_fail_is_left_alone() {
    let fast = Fast::default();
    let oracles: [&dyn Oracle; 2] = [&Reference, &fast];
    let case = Case::from_seed(7, &GenConfig::default());
    assert!(SameFailure::of(&case, &oracles).is_none());
    let m = minimize::minimize(&case, &mut |_| false, &Options::default());
    assert_eq!(m.case, case);
    assert!(!m.one_minimal);
}

/// An oracle that panics inside the in-process campaign: the panic is
/// counted as the verdict PANIC, becomes a minimized finding with its case
/// files, and the campaign goes on to its last case instead of dying.
#[test]
fn a_campaign_turns_an_oracle_panic_into_a_finding_and_goes_on() {
    use diopter_harness::campaign::{self, Config};
    use std::time::Duration;
    let oracles: campaign::MakeOracles = std::sync::Arc::new(|| {
        vec![
            Box::new(Reference) as Box<dyn Oracle>,
            Box::new(Planted::new(Box::new(Fast::default()), Plant::PanicOnMul)),
            Box::new(Fast::default()),
        ]
    });
    let dir = std::env::temp_dir().join(format!("diopter-campaign-panic-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let cfg = Config {
        // The case count ends the run, not the clock.
        time: Duration::from_secs(3600),
        seed: 5,
        out_dir: dir.clone(),
        minimize_time: Duration::from_secs(60),
        max_cases: Some(400),
        gen: GenConfig::default(),
        stop: None,
        simplifier: None,
        smt_every: None,
        case_timeout: campaign::DEFAULT_CASE_TIMEOUT,
        checks: Vec::new(),
    };
    let stats = campaign::run(&cfg, oracles, &mut |_| {});
    assert_eq!(stats.cases, 400, "the campaign ran every case");
    let panics = stats.verdicts["fast+panic-on-mul"]
        .get("PANIC")
        .copied()
        .unwrap_or(0);
    assert!(panics > 0, "some case has a DIOpMul: {:?}", stats.verdicts);
    // The oracle without the plant was compared on every case too.
    let plain: u64 = stats.verdicts["fast"].values().sum();
    assert_eq!(plain, 400);
    let f = stats
        .findings
        .iter()
        .find(|f| matches!(&f.failure, Failure::Panic { .. }))
        .expect("the panic is a finding");
    assert_eq!(f.signature.oracle, "fast+panic-on-mul");
    assert_eq!(f.signature.first_op, "DIOpMul");
    assert!(f.min_ops <= 3, "{}", f.min_line);
    assert!(f.hits as u64 + stats.repeats >= 1);
    let min = std::fs::read_to_string(&f.min_path).expect("the minimized case file");
    assert!(
        min.contains("DIOpMul") && min.contains("--- context"),
        "{min}"
    );
    assert!(f.case_path.is_file());
    // The JSON names the finding with its replay command.
    let json = campaign::stats_json(&cfg, &stats);
    assert!(json.contains("fast+panic-on-mul @ DIOpMul"), "{json}");
    let _ = std::fs::remove_dir_all(&dir);
}
