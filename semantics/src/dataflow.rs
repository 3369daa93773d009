//! Where each bounded lifetime segment is active, computed over a function's
//! control-flow graph.
//!
//! The spec ("DILifetime"): "A bounded lifetime segment is only active if the
//! current program location's instruction is in the range covered. The call
//! to the `llvm.dbg.def` intrinsic which specifies the `DILifetime` is the
//! start of the range, which extends along all forward control flow paths
//! until either a call to a `llvm.dbg.kill` intrinsic which specifies the same
//! `DILifetime`, or to the end of an exit basic block." DESIGN.md makes it
//! precise: a bounded lifetime is active at instruction `I` when some
//! control-flow path from its `llvm.dbg.def` reaches `I` without passing an
//! `llvm.dbg.kill` of the same lifetime.
//!
//! diopter reads that sentence literally (a decision, recorded in the errata):
//! a path `def = n0, n1, …, nk = I` has `k ≥ 0` edges and *passes* the nodes
//! `n1 … n(k-1)` strictly between its ends. Hence the def itself is in the
//! range (`k = 0`, "the start of the range"), and so is the kill that ends it
//! (the path reaches the kill without passing it); the instructions after the
//! kill are not, unless another path avoids it. In DWARF terms the range of a
//! straight-line def … kill is `[def, kill]`, both ends included.
//!
//! This module is the fast side of a differential pair: a forward "may"
//! dataflow over blocks (union at joins). `diopter-oracles` enumerates paths
//! naively on random [`Cfg`]s and compares.

use crate::ir::{Function, InstKind};
use std::collections::BTreeSet;

/// What one instruction does to lifetimes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Event {
    /// `llvm.dbg.def`/`DBG_DEF` of lifetime `!N`.
    Def(u64),
    /// `llvm.dbg.kill`/`DBG_KILL` of lifetime `!N`.
    Kill(u64),
    /// Any other instruction.
    Other,
}

/// A control-flow graph reduced to what the lifetime rules look at: per
/// block, the events of its instructions and the successor blocks. Block 0 is
/// the entry (for the rules only paths from defs matter, so the entry plays
/// no special role here).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Cfg {
    pub blocks: Vec<CfgBlock>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CfgBlock {
    pub events: Vec<Event>,
    /// Indices into [`Cfg::blocks`]; out-of-range indices are ignored.
    pub succs: Vec<usize>,
}

impl Cfg {
    /// The graph of a function as read: its blocks, their instructions'
    /// def/kill events and the successors the reader resolved (terminator
    /// targets, or fall-through for the spec's terminator-less pseudo IR).
    pub fn of_function(f: &Function) -> Cfg {
        Cfg {
            blocks: f
                .blocks
                .iter()
                .map(|b| CfgBlock {
                    events: b
                        .insts
                        .iter()
                        .map(|i| match &i.kind {
                            InstKind::DbgDef { lifetime, .. } => Event::Def(*lifetime),
                            InstKind::DbgKill { lifetime, .. } => Event::Kill(*lifetime),
                            _ => Event::Other,
                        })
                        .collect(),
                    succs: b.succs.clone(),
                })
                .collect(),
        }
    }

    /// Every lifetime some instruction defines or kills.
    pub fn lifetimes(&self) -> BTreeSet<u64> {
        self.blocks
            .iter()
            .flat_map(|b| b.events.iter())
            .filter_map(|e| match e {
                Event::Def(l) | Event::Kill(l) => Some(*l),
                Event::Other => None,
            })
            .collect()
    }

    /// The number of instructions.
    pub fn len(&self) -> usize {
        self.blocks.iter().map(|b| b.events.len()).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// The lifetimes active at every instruction: `at[block][inst]`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Activity {
    pub at: Vec<Vec<BTreeSet<u64>>>,
}

impl Activity {
    /// Whether `lifetime` is active at instruction `inst` of `block`.
    pub fn is_active(&self, lifetime: u64, block: usize, inst: usize) -> bool {
        self.at
            .get(block)
            .and_then(|b| b.get(inst))
            .is_some_and(|s| s.contains(&lifetime))
    }

    /// The lifetimes active at instruction `inst` of `block` (empty when out of range).
    pub fn active(&self, block: usize, inst: usize) -> &BTreeSet<u64> {
        static EMPTY: BTreeSet<u64> = BTreeSet::new();
        self.at
            .get(block)
            .and_then(|b| b.get(inst))
            .unwrap_or(&EMPTY)
    }
}

/// One instruction's transfer: the set before it (reached from a def without
/// passing a kill) gives the set active at it (plus its own def) and the set
/// after it (minus its own kill).
fn step(before: &BTreeSet<u64>, e: Event) -> (BTreeSet<u64>, BTreeSet<u64>) {
    let mut at = before.clone();
    if let Event::Def(l) = e {
        at.insert(l);
    }
    let mut after = at.clone();
    if let Event::Kill(l) = e {
        after.remove(&l);
    }
    (at, after)
}

/// Where every bounded lifetime of `cfg` is active: the least fixpoint of
/// `in[b] = ∪ out[p]` over predecessors `p`, with the transfer of [`step`].
/// Every block starts empty, so a block no def reaches has nothing active
/// (whether or not the entry reaches it: an unreachable def still starts a
/// range).
pub fn active(cfg: &Cfg) -> Activity {
    let n = cfg.blocks.len();
    let mut preds: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (b, blk) in cfg.blocks.iter().enumerate() {
        for &s in &blk.succs {
            if s < n && !preds[s].contains(&b) {
                preds[s].push(b);
            }
        }
    }
    let out_of = |b: usize, input: &BTreeSet<u64>| -> BTreeSet<u64> {
        cfg.blocks[b]
            .events
            .iter()
            .fold(input.clone(), |s, e| step(&s, *e).1)
    };
    let mut ins: Vec<BTreeSet<u64>> = vec![BTreeSet::new(); n];
    let mut outs: Vec<BTreeSet<u64>> = (0..n).map(|b| out_of(b, &ins[b])).collect();
    // Worklist over blocks, all queued once to start (every out set above is
    // already a function of its in set); sets only grow, so this terminates.
    let mut work: Vec<usize> = (0..n).rev().collect();
    let mut queued = vec![true; n];
    while let Some(b) = work.pop() {
        queued[b] = false;
        let input: BTreeSet<u64> = preds[b]
            .iter()
            .flat_map(|p| outs[*p].iter().copied())
            .collect();
        if input == ins[b] {
            continue;
        }
        ins[b] = input;
        let out = out_of(b, &ins[b]);
        if out != outs[b] {
            outs[b] = out;
            for &s in &cfg.blocks[b].succs {
                if s < n && !queued[s] {
                    queued[s] = true;
                    work.push(s);
                }
            }
        }
    }
    let at = (0..n)
        .map(|b| {
            let mut s = ins[b].clone();
            cfg.blocks[b]
                .events
                .iter()
                .map(|e| {
                    let (at, after) = step(&s, *e);
                    s = after;
                    at
                })
                .collect()
        })
        .collect();
    Activity { at }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Event::*;

    fn cfg(blocks: Vec<(Vec<Event>, Vec<usize>)>) -> Cfg {
        Cfg {
            blocks: blocks
                .into_iter()
                .map(|(events, succs)| CfgBlock { events, succs })
                .collect(),
        }
    }

    /// `active(lifetime)` as a string of `1`/`0`, blocks separated by `|`.
    fn pattern(c: &Cfg, l: u64) -> String {
        let a = active(c);
        a.at.iter()
            .map(|b| {
                b.iter()
                    .map(|s| if s.contains(&l) { '1' } else { '0' })
                    .collect::<String>()
            })
            .collect::<Vec<_>>()
            .join("|")
    }

    #[test]
    fn straight_line_range_includes_def_and_kill() {
        let c = cfg(vec![(vec![Other, Def(2), Other, Kill(2), Other], vec![])]);
        assert_eq!(pattern(&c, 2), "01110");
    }

    #[test]
    fn a_kill_on_one_branch_only() {
        // entry: def; br a, b.  a: kill; br j.  b: other; br j.  j: other.
        let c = cfg(vec![
            (vec![Def(1)], vec![1, 2]),
            (vec![Kill(1)], vec![3]),
            (vec![Other], vec![3]),
            (vec![Other], vec![]),
        ]);
        // Active at the join: the path through b passes no kill.
        assert_eq!(pattern(&c, 1), "1|1|1|1");
        let c = cfg(vec![
            (vec![Def(1)], vec![1, 2]),
            (vec![Kill(1)], vec![3]),
            (vec![Kill(1)], vec![3]),
            (vec![Other], vec![]),
        ]);
        assert_eq!(pattern(&c, 1), "1|1|1|0");
    }

    #[test]
    fn loops_carry_a_lifetime_back_to_before_its_def() {
        // l: other; def; br l, e.  e: kill.
        let c = cfg(vec![
            (vec![Other], vec![1]),
            (vec![Other, Def(3), Other], vec![1, 2]),
            (vec![Kill(3), Other], vec![]),
        ]);
        assert_eq!(pattern(&c, 3), "0|111|10");
        // With the kill before the def inside the loop, the back edge still
        // reaches the kill, but not what follows it before the def.
        let c = cfg(vec![(vec![Other, Kill(3), Other, Def(3), Other], vec![0])]);
        assert_eq!(pattern(&c, 3), "11011");
    }

    #[test]
    fn unreachable_defs_start_ranges_and_lifetimes_are_independent() {
        let c = cfg(vec![
            (vec![Def(1)], vec![]),
            (vec![Def(2), Kill(1)], vec![0]),
        ]);
        // Nothing leads from b0 (no successors) to b1.
        assert_eq!(pattern(&c, 1), "1|00");
        assert_eq!(pattern(&c, 2), "1|11");
        assert_eq!(c.lifetimes().into_iter().collect::<Vec<_>>(), vec![1, 2]);
        assert_eq!(c.len(), 3);
        let a = active(&c);
        assert!(a.is_active(2, 0, 0));
        assert!(!a.is_active(2, 5, 0));
        assert!(a.active(9, 9).is_empty());
    }

    #[test]
    fn out_of_range_successors_are_ignored() {
        let c = cfg(vec![(vec![Def(1)], vec![7]), (vec![Other], vec![])]);
        assert_eq!(pattern(&c, 1), "1|0");
    }
}
