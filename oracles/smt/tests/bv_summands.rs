//! `bv::summands`, which the encoding uses to split a bit offset into a
//! byte address and a phase: whatever the term, `t == 8 * sum(bases) +
//! sum(rest)` (mod 2^width), proved by Z3 for terms of each shape.

use diopter_smt::bv::{num_u, resize, summands};
use z3::ast::BV;
use z3::{SatResult, Solver};

fn identity_holds(t: &BV) -> bool {
    let w = t.get_size();
    let (mut bases, mut rest) = (Vec::new(), Vec::new());
    summands(t, &mut bases, &mut rest);
    let mut sum = num_u(0, u64::from(w));
    for b in &bases {
        sum = sum.bvadd(resize(&b.concat(num_u(0, 3)), w, false));
    }
    for r in &rest {
        sum = sum.bvadd(resize(r, w, false));
    }
    let s = Solver::new();
    s.assert(t.eq(&sum).not());
    s.check() == SatResult::Unsat
}

#[test]
fn a_bit_offset_is_eight_times_its_bases_plus_the_rest() {
    let x = BV::new_const("x", 61);
    let y = BV::new_const("y", 3);
    let c = BV::new_const("c", 64);
    let a = BV::new_const("a", 3);
    let b = BV::new_const("b", 3);
    for t in [
        x.concat(&y),
        x.concat(&y).bvadd(&c),
        x.concat(num_u(0, 3))
            .bvadd(x.concat(&y))
            .bvadd(num_u(77, 64)),
        c.bvmul(&c),
        // Not a concat, though it has two 3-bit operands: all of it is rest.
        a.bvmul(&b),
        a.bvor(&b),
    ] {
        assert!(identity_holds(&t), "{t}");
    }
}
