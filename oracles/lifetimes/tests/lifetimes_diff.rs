//! The dataflow computation of where bounded lifetimes are active
//! (`diopter_semantics::dataflow`) against the naive path enumeration
//! (`diopter_lifetimes`) on random CFGs with random defs and kills
//! (`diopter_gen::cfg`); and the same through the IR reader and the
//! object-location model, so that the CFG the reader builds is checked too.

use diopter_gen::cfg::{cfg_strategy, to_ir, with_terminators, MAX_LIFETIMES};
use diopter_lifetimes::{active_naive, compare};
use diopter_semantics::dataflow::{Cfg, CfgBlock, Event};
use diopter_semantics::ir::InstRef;
use diopter_semantics::objloc::Model;
use diopter_semantics::syntax::module::parse_module;
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    /// Dataflow = path enumeration at every instruction, for every lifetime.
    #[test]
    fn dataflow_matches_path_enumeration(cfg in cfg_strategy()) {
        let d = compare(&cfg);
        prop_assert!(d.is_empty(), "disagreements (lifetime, block, inst, naive, dataflow): {d:?}\n{}", to_ir(&cfg));
    }

    /// The CFG read back from its IR text is the CFG (plus terminators), and
    /// the object-location model's activity agrees with the enumeration there.
    #[test]
    fn through_the_reader(cfg in cfg_strategy()) {
        let text = to_ir(&cfg);
        let (m, ds) = parse_module(&text);
        prop_assert!(ds.is_empty(), "{ds:?}\n{text}");
        let read = Cfg::of_function(&m.functions[0]);
        let expected = with_terminators(&cfg);
        prop_assert_eq!(&read, &expected);
        let model = Model::new(&m);
        for l in 1..=MAX_LIFETIMES {
            let naive = active_naive(&expected, l);
            for (b, insts) in naive.iter().enumerate() {
                for (i, want) in insts.iter().enumerate() {
                    let at = InstRef { function: 0, block: b, inst: i };
                    prop_assert_eq!(model.is_active(l, at), *want, "!{} at b{}[{}]\n{}", l, b, i, text);
                }
            }
        }
    }
}

/// A case worked by hand, so that the property is not vacuous: a loop whose
/// body kills and re-defines the lifetime, and a branch around the kill.
#[test]
fn hand_case() {
    use Event::*;
    // b0: def; br b1.  b1: other; br b2, b3.  b2: kill; def; br b1.  b3: other (exit).
    let cfg = Cfg {
        blocks: vec![
            CfgBlock {
                events: vec![Def(1)],
                succs: vec![1],
            },
            CfgBlock {
                events: vec![Other],
                succs: vec![2, 3],
            },
            CfgBlock {
                events: vec![Kill(1), Other, Def(1)],
                succs: vec![1],
            },
            CfgBlock {
                events: vec![Other],
                succs: vec![],
            },
        ],
    };
    let want = vec![vec![true], vec![true], vec![true, false, true], vec![true]];
    assert_eq!(active_naive(&cfg, 1), want);
    assert!(compare(&cfg).is_empty());
}
