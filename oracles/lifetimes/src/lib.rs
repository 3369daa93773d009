//! An independent oracle for where bounded lifetimes are active: it
//! enumerates control-flow paths one by one, with no dataflow, and checks the
//! definition itself ("active at `I` when some control-flow path from its
//! `llvm.dbg.def` reaches `I` without passing an `llvm.dbg.kill` of the same
//! lifetime", DESIGN.md; a path passes the nodes strictly between its ends,
//! see `diopter_semantics::dataflow`). Also the random CFGs both sides are
//! compared on, and their rendering as IR text so that the reader is in the
//! loop too.
//!
//! The enumeration is exponential and meant for small graphs. Its length
//! bound is complete: a shortest witness path never repeats an instruction
//! (cutting a loop out of a witness leaves a witness), so it enters every
//! block at most once, except the def's own block, which it may re-enter from
//! the top after leaving it from the def. Paths of at most `blocks + 1` block
//! visits therefore find every witness.

use arbitrary::{Arbitrary, Result as ArbResult, Unstructured};
use diopter_semantics::dataflow::{Cfg, CfgBlock, Event};
use proptest::prelude::*;
use std::collections::BTreeSet;
use std::fmt::Write;

/// `active[block][inst]` for lifetime `lifetime`, by path enumeration.
pub fn active_naive(cfg: &Cfg, lifetime: u64) -> Vec<Vec<bool>> {
    let mut reached: Vec<Vec<bool>> = cfg
        .blocks
        .iter()
        .map(|b| vec![false; b.events.len()])
        .collect();
    let max_visits = cfg.blocks.len() + 1;
    for (b, blk) in cfg.blocks.iter().enumerate() {
        for (i, e) in blk.events.iter().enumerate() {
            if *e == Event::Def(lifetime) {
                walk(cfg, lifetime, b, i, 1, max_visits, &mut reached);
            }
        }
    }
    reached
}

/// Follows every path from instruction `start` of block `b` (the path so far
/// passes no kill of `lifetime`), marking each instruction it reaches, and
/// stops extending a path at a kill (going on would pass it).
fn walk(
    cfg: &Cfg,
    lifetime: u64,
    b: usize,
    start: usize,
    visits: usize,
    max_visits: usize,
    reached: &mut [Vec<bool>],
) {
    let blk = &cfg.blocks[b];
    for (i, e) in blk.events.iter().enumerate().skip(start) {
        reached[b][i] = true;
        // The first instruction of the path is the def itself, never a kill.
        if *e == Event::Kill(lifetime) {
            return;
        }
    }
    if visits >= max_visits {
        return;
    }
    for &s in &blk.succs {
        if s < cfg.blocks.len() {
            walk(cfg, lifetime, s, 0, visits + 1, max_visits, reached);
        }
    }
}

/// The dataflow's answer in the same shape, for comparison.
pub fn active_dataflow(cfg: &Cfg, lifetime: u64) -> Vec<Vec<bool>> {
    let a = diopter_semantics::dataflow::active(cfg);
    cfg.blocks
        .iter()
        .enumerate()
        .map(|(b, blk)| {
            (0..blk.events.len())
                .map(|i| a.is_active(lifetime, b, i))
                .collect()
        })
        .collect()
}

/// Where the two sides disagree: `(lifetime, block, inst, naive, dataflow)`.
pub fn compare(cfg: &Cfg) -> Vec<(u64, usize, usize, bool, bool)> {
    let mut out = Vec::new();
    for l in cfg.lifetimes() {
        let n = active_naive(cfg, l);
        let d = active_dataflow(cfg, l);
        for (b, (nb, db)) in n.iter().zip(&d).enumerate() {
            for (i, (x, y)) in nb.iter().zip(db).enumerate() {
                if x != y {
                    out.push((l, b, i, *x, *y));
                }
            }
        }
    }
    out
}

// ------------------------------------------------------------------ generators

/// Size limits of the random CFGs: small enough for the enumeration.
pub const MAX_BLOCKS: usize = 6;
pub const MAX_INSTS: usize = 4;
/// Lifetimes are `!1 ..= !MAX_LIFETIMES`.
pub const MAX_LIFETIMES: u64 = 3;

/// A random CFG: 1..=MAX_BLOCKS blocks of 1..=MAX_INSTS instructions, each
/// a def, a kill or something else of one of a few lifetimes (several defs of
/// one lifetime happen, as in ill-formed input), and 0..=2 successors each
/// (loops, self-loops and unreachable blocks happen).
pub fn arbitrary_cfg(u: &mut Unstructured) -> ArbResult<Cfg> {
    let n = u.int_in_range(1..=MAX_BLOCKS)?;
    let mut blocks = Vec::with_capacity(n);
    for _ in 0..n {
        let k = u.int_in_range(1..=MAX_INSTS)?;
        let mut events = Vec::with_capacity(k);
        for _ in 0..k {
            let l = u.int_in_range(1..=MAX_LIFETIMES)?;
            events.push(match u.int_in_range(0..=2u8)? {
                0 => Event::Def(l),
                1 => Event::Kill(l),
                _ => Event::Other,
            });
        }
        let s = u.int_in_range(0..=2usize)?;
        let mut succs = Vec::new();
        for _ in 0..s {
            let t = u.int_in_range(0..=n - 1)?;
            if !succs.contains(&t) {
                succs.push(t);
            }
        }
        blocks.push(CfgBlock { events, succs });
    }
    Ok(Cfg { blocks })
}

/// A wrapper so `cargo fuzz` and proptest can make CFGs with `Arbitrary`.
#[derive(Clone, Debug)]
pub struct ArbCfg(pub Cfg);

impl<'a> Arbitrary<'a> for ArbCfg {
    fn arbitrary(u: &mut Unstructured<'a>) -> ArbResult<Self> {
        arbitrary_cfg(u).map(ArbCfg)
    }
}

/// The same CFGs as a proptest strategy.
pub fn cfg_strategy() -> impl Strategy<Value = Cfg> {
    let event = (0u8..3, 1..=MAX_LIFETIMES).prop_map(|(k, l)| match k {
        0 => Event::Def(l),
        1 => Event::Kill(l),
        _ => Event::Other,
    });
    let events = proptest::collection::vec(event, 1..=MAX_INSTS);
    (1..=MAX_BLOCKS).prop_flat_map(move |n| {
        let block = (events.clone(), proptest::collection::vec(0..n, 0..=2usize)).prop_map(
            |(events, mut succs)| {
                let mut seen = BTreeSet::new();
                succs.retain(|s| seen.insert(*s));
                CfgBlock { events, succs }
            },
        );
        proptest::collection::vec(block, n).prop_map(|blocks| Cfg { blocks })
    })
}

/// The CFG as an IR function the module reader accepts: block `i` is labelled
/// `b{i}`; defs and kills are `llvm.dbg.def`/`llvm.dbg.kill` of `!L`, other
/// instructions `add`s; a block ends in `br` to its successors, or `ret` when
/// it has none. Metadata declares a variable and one lifetime per `!L` used,
/// so the file is readable (not necessarily well-formed: defs may repeat).
pub fn to_ir(cfg: &Cfg) -> String {
    let mut s = String::from("define void @f(i1 %c) {\n");
    for (b, blk) in cfg.blocks.iter().enumerate() {
        let _ = writeln!(s, "b{b}:");
        for (i, e) in blk.events.iter().enumerate() {
            let _ = match e {
                Event::Def(l) => writeln!(
                    s,
                    "  call void @llvm.dbg.def(metadata !{l}, metadata i32 %v{b}.{i})"
                ),
                Event::Kill(l) => writeln!(s, "  call void @llvm.dbg.kill(metadata !{l})"),
                Event::Other => writeln!(s, "  %v{b}.{i} = add i32 0, 0"),
            };
        }
        let _ = match blk.succs.as_slice() {
            [] => writeln!(s, "  ret void"),
            [t] => writeln!(s, "  br label %b{t}"),
            ts => {
                let labels: Vec<String> = ts.iter().map(|t| format!("label %b{t}")).collect();
                // `switch` takes any number of targets; `br i1` exactly two.
                if ts.len() == 2 {
                    writeln!(s, "  br i1 %c, {}", labels.join(", "))
                } else {
                    writeln!(s, "  indirectbr ptr null, [{}]", labels.join(", "))
                }
            }
        };
    }
    s.push_str("}\n!100 = !DILocalVariable(name: \"v\")\n");
    for l in 1..=MAX_LIFETIMES {
        let _ = writeln!(
            s,
            "!{l} = distinct !DILifetime(object: !100, location: !DIExpr(DIOpReferrer(i32)))"
        );
    }
    s
}

/// The CFG `to_ir` yields once the terminators are counted as instructions:
/// the reader's view of the same graph (each block gains its `br`/`ret`).
pub fn with_terminators(cfg: &Cfg) -> Cfg {
    Cfg {
        blocks: cfg
            .blocks
            .iter()
            .map(|b| {
                let mut events = b.events.clone();
                events.push(Event::Other);
                CfgBlock {
                    events,
                    succs: b.succs.clone(),
                }
            })
            .collect(),
    }
}

/// The body of the `lifetimes_diff` fuzz target: a random CFG from `data`;
/// the dataflow must match the enumeration, the CFG read back from its IR
/// text must be the CFG (plus terminators), and the object-location model
/// must agree with the enumeration on that text.
pub fn lifetimes_diff(data: &[u8]) -> Result<(), String> {
    use diopter_semantics::ir::InstRef;
    use diopter_semantics::objloc::Model;
    let mut u = Unstructured::new(data);
    let Ok(cfg) = arbitrary_cfg(&mut u) else {
        return Ok(());
    };
    let d = compare(&cfg);
    if !d.is_empty() {
        return Err(format!(
            "dataflow and path enumeration disagree (lifetime, block, inst, naive, dataflow): {d:?}\n{}",
            to_ir(&cfg)
        ));
    }
    let text = to_ir(&cfg);
    let (m, ds) = diopter_semantics::syntax::module::parse_module(&text);
    if !ds.is_empty() {
        return Err(format!("the reader rejects generated IR: {ds:?}\n{text}"));
    }
    let expected = with_terminators(&cfg);
    let read = m.functions.first().map(Cfg::of_function);
    if read.as_ref() != Some(&expected) {
        return Err(format!(
            "the reader's CFG {read:?} is not {expected:?}\n{text}"
        ));
    }
    let model = Model::new(&m);
    for l in 1..=MAX_LIFETIMES {
        for (b, insts) in active_naive(&expected, l).iter().enumerate() {
            for (i, want) in insts.iter().enumerate() {
                let at = InstRef {
                    function: 0,
                    block: b,
                    inst: i,
                };
                if model.is_active(l, at) != *want {
                    return Err(format!(
                        "the model says !{l} at b{b}[{i}] is {}active, the enumeration says otherwise\n{text}",
                        if *want { "not " } else { "" }
                    ));
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use Event::*;

    #[test]
    fn enumeration_by_hand() {
        // b0: def 1; br b1, b2.  b1: kill 1; br b3.  b2: other; br b0.  b3: other.
        let cfg = Cfg {
            blocks: vec![
                CfgBlock {
                    events: vec![Other, Def(1)],
                    succs: vec![1, 2],
                },
                CfgBlock {
                    events: vec![Kill(1)],
                    succs: vec![3],
                },
                CfgBlock {
                    events: vec![Other],
                    succs: vec![0],
                },
                CfgBlock {
                    events: vec![Other],
                    succs: vec![],
                },
            ],
        };
        assert_eq!(
            active_naive(&cfg, 1),
            vec![vec![true, true], vec![true], vec![true], vec![false]]
        );
        assert!(compare(&cfg).is_empty());
        assert_eq!(
            active_naive(&cfg, 2),
            vec![vec![false, false], vec![false], vec![false], vec![false]]
        );
    }

    #[test]
    fn fuzz_body_accepts_any_bytes() {
        for seed in 0..200u32 {
            let data: Vec<u8> = (0..64u32)
                .map(|i| (seed.wrapping_mul(2654435761).wrapping_add(i * 40503) >> 7) as u8)
                .collect();
            assert_eq!(lifetimes_diff(&data), Ok(()), "seed {seed}");
        }
        assert_eq!(lifetimes_diff(&[]), Ok(()));
    }
}
