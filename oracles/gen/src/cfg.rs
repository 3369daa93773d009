//! Random control-flow graphs with lifetime defs and kills (a
//! [`Cfg`] of `diopter_semantics::dataflow`), for the lifetimes dataflow
//! against `diopter_lifetimes`' path enumeration and for the programs the
//! transformations are fuzzed on ([`crate::program`]): one generator for
//! libFuzzer ([`arbitrary_cfg`], [`ArbCfg`]) and proptest
//! ([`cfg_strategy`]), and the CFG rendered as IR text ([`to_ir`]) so that
//! the module reader is in the loop too.
//!
//! The graphs are small ([`MAX_BLOCKS`], [`MAX_INSTS`]): the path
//! enumeration they are checked against is exponential.

use arbitrary::{Arbitrary, Result as ArbResult, Unstructured};
use diopter_semantics::dataflow::{Cfg, CfgBlock, Event};
use proptest::prelude::*;
use std::collections::BTreeSet;
use std::fmt::Write;

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
