//! The bodies of the fuzz targets on random control-flow graphs
//! (`diopter_gen::cfg`): `lifetimes_diff`, the lifetimes dataflow against
//! `diopter_lifetimes`' path enumeration, and `transform_diff`, the passes
//! of `diopter_transforms` on random programs (`diopter_gen::program`).
//! Each returns `Err(why)` where its target panics, as [`crate::targets`]'
//! bodies do.

use arbitrary::Unstructured;
use diopter_gen::cfg::{arbitrary_cfg, to_ir, with_terminators, MAX_LIFETIMES};
use diopter_gen::program::{render_program, Between, VarKind};
use diopter_lifetimes::{active_naive, compare};
use diopter_semantics::dataflow::{Cfg, Event};
use diopter_semantics::ir::InstRef;
use diopter_semantics::objloc::Model;
use diopter_semantics::syntax::module::parse_module;
use diopter_transforms::{apply, check_equivalent, PASSES};

/// The body of the `lifetimes_diff` fuzz target: a random CFG from `data`;
/// the dataflow must match the enumeration, the CFG read back from its IR
/// text must be the CFG (plus terminators), and the object-location model
/// must agree with the enumeration on that text.
pub fn lifetimes_diff(data: &[u8]) -> Result<(), String> {
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
    let (m, ds) = parse_module(&text);
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

/// The body of the `transform_diff` fuzz target: a random program, a random
/// pass; the pass's result must be readable and equivalent to the program in
/// a few random contexts. A pass that finds nothing to do is no failure.
pub fn transform_diff(data: &[u8]) -> Result<(), String> {
    transform_diff_pass(data).map(|_| ())
}

/// [`transform_diff`], also saying which pass rewrote something (`None`:
/// the input was too short, or the pass found nothing to rewrite).
pub fn transform_diff_pass(data: &[u8]) -> Result<Option<&'static str>, String> {
    let mut u = Unstructured::new(data);
    // Half the time every variable is an SSA value of one width, so that
    // `induction` finds sums.
    let pick = |u: &mut Unstructured, same: Option<u64>| -> arbitrary::Result<VarKind> {
        if let Some(b) = same {
            return Ok(VarKind::Value(b));
        }
        let b = [8u64, 16, 32, 64][u.int_in_range(0..=3usize)?];
        Ok(if u.arbitrary::<bool>()? {
            VarKind::Slot(b)
        } else {
            VarKind::Value(b)
        })
    };
    let (Ok(pass), Ok(uniform), Ok(k1)) = (
        u.int_in_range(0..=PASSES.len() - 1),
        u.arbitrary::<bool>(),
        pick(&mut u, None),
    ) else {
        return Ok(None);
    };
    // `cse` needs `%r1` and `%r2` to be loads of one type.
    let cse = PASSES[pass] == "cse";
    let k1 = match k1 {
        VarKind::Slot(b) if cse => VarKind::Value(b),
        k => k,
    };
    let same = match k1 {
        VarKind::Value(b) if uniform || cse => Some(b),
        _ => None,
    };
    let loads = if cse {
        match u.choose(&Between::ALL) {
            Ok(b) => Some(*b),
            Err(_) => return Ok(None),
        }
    } else {
        None
    };
    let (Ok(k2), Ok(k3)) = (pick(&mut u, same), pick(&mut u, same)) else {
        return Ok(None);
    };
    let Ok(mut cfg) = arbitrary_cfg(&mut u) else {
        return Ok(None);
    };
    if PASSES[pass] == "induction" {
        // x and y (`!1`, `!2`) live from the entry on, so that i (`!3`)
        // often lies inside their lifetimes, as the pass requires.
        // And i has one def (the first of the random ones).
        let mut i_defined = false;
        for b in &mut cfg.blocks {
            for e in &mut b.events {
                if matches!(e, Event::Def(1 | 2) | Event::Kill(1 | 2))
                    || (*e == Event::Def(3) && i_defined)
                {
                    *e = Event::Other;
                } else if *e == Event::Def(3) {
                    i_defined = true;
                }
            }
        }
        if let Some(b) = cfg.blocks.first_mut() {
            b.events.splice(0..0, [Event::Def(1), Event::Def(2)]);
        }
    }
    let src = render_program(&cfg, &[k1, k2, k3], loads);
    let (_, ds) = parse_module(&src);
    if !ds.is_empty() {
        return Err(format!(
            "the generated program does not parse: {ds:?}\n{src}"
        ));
    }
    let t = match apply(PASSES[pass], &src, 3) {
        Ok(t) => t,
        Err(_) => return Ok(None),
    };
    check_equivalent(&src, &t, 3)
        .map(|()| Some(PASSES[pass]))
        .map_err(|ms| {
            format!(
                "pass {} changes a location: {}\n--- before\n{src}--- after\n{}",
                PASSES[pass], ms[0], t.text
            )
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lifetimes_diff_accepts_any_bytes() {
        for seed in 0..200u32 {
            let data: Vec<u8> = (0..64u32)
                .map(|i| (seed.wrapping_mul(2654435761).wrapping_add(i * 40503) >> 7) as u8)
                .collect();
            assert_eq!(lifetimes_diff(&data), Ok(()), "seed {seed}");
        }
        assert_eq!(lifetimes_diff(&[]), Ok(()));
    }

    /// The fuzz target's body on a spread of inputs: no mismatch, and the
    /// generator does produce programs each pass rewrites.
    #[test]
    fn transform_diff_on_many_inputs() {
        let mut applied = std::collections::BTreeMap::new();
        for seed in 0..600u64 {
            let data: Vec<u8> = (0..96u64)
                .map(|i| (diopter_semantics::context::splitmix64(seed * 1000 + i) >> 11) as u8)
                .collect();
            match transform_diff_pass(&data) {
                Ok(Some(p)) => *applied.entry(p).or_insert(0) += 1,
                Ok(None) => {}
                Err(e) => panic!("seed {seed}: {e}"),
            }
        }
        for p in PASSES {
            assert!(applied.get(p).copied().unwrap_or(0) >= 5, "{applied:?}");
        }
    }
}
