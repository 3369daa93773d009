//! An independent oracle for where bounded lifetimes are active: it
//! enumerates control-flow paths one by one, with no dataflow, and checks the
//! definition itself ("active at `I` when some control-flow path from its
//! `llvm.dbg.def` reaches `I` without passing an `llvm.dbg.kill` of the same
//! lifetime", DESIGN.md; a path passes the nodes strictly between its ends,
//! see `diopter_semantics::dataflow`). The random CFGs both sides are
//! compared on are `diopter_gen::cfg`'s, and the fuzz target that compares
//! them is `diopter_harness::cfg_targets::lifetimes_diff`: this crate only
//! enumerates.
//!
//! The enumeration is exponential and meant for small graphs. Its length
//! bound is complete: a shortest witness path never repeats an instruction
//! (cutting a loop out of a witness leaves a witness), so it enters every
//! block at most once, except the def's own block, which it may re-enter from
//! the top after leaving it from the def. Paths of at most `blocks + 1` block
//! visits therefore find every witness.

use diopter_semantics::dataflow::{Cfg, Event};

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

#[cfg(test)]
mod tests {
    use super::*;
    use diopter_semantics::dataflow::CfgBlock;
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
}
