//! Random programs for the transformations of `diopter_transforms`: a
//! random CFG ([`crate::cfg`]) rendered as a function whose lifetimes
//! locate three variables in SSA values or stack slots, with the facts the
//! passes look for planted now and then (a constant for `proven-constant`,
//! a sum for `induction`, two loads of one pointer for `cse`, and a
//! fragment with its own computed lifetime for `flatten`), so that every
//! pass finds something to rewrite.

use diopter_semantics::dataflow::{Cfg, Event};
use std::fmt::Write;

/// What a random program's lifetime `!l` locates: an integer SSA value of
/// `bits` bits, or an `i{bits}` in a stack slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VarKind {
    Value(u64),
    Slot(u64),
}

/// What a random program puts between two loads of one pointer (for `cse`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Between {
    Nothing,
    /// An instruction that cannot write memory: the loads stay redundant.
    Pure,
    /// A store, a call, a volatile load: the second load may read something
    /// else, and `cse` must leave it alone.
    Store,
    Call,
    Volatile,
}

impl Between {
    pub const ALL: [Between; 5] = [
        Between::Nothing,
        Between::Pure,
        Between::Store,
        Between::Call,
        Between::Volatile,
    ];

    fn line(self) -> &'static str {
        match self {
            Between::Nothing => "",
            Between::Pure => "  %t = add i32 1, 2\n",
            Between::Store => "  store i32 0, ptr %q\n",
            Between::Call => "  call void @g()\n",
            Between::Volatile => "  %t = load volatile i32, ptr %q\n",
        }
    }
}

/// A random program for the passes: a random CFG (from
/// [`crate::cfg::arbitrary_cfg`]) whose lifetime `!l` (1..=3)
/// locates variable `!(100 + l)` as `kinds[l - 1]` says, with referrer `%r{l}`.
/// With `loads`, the first other instruction is `%r1 = load iN, ptr %p`,
/// then what `loads` says, then `%r2 = load iN, ptr %p` (`kinds[0]` and
/// `kinds[1]` must be `iN` values); otherwise it gives `%r1` a constant.
pub fn render_program(cfg: &Cfg, kinds: &[VarKind; 3], loads: Option<Between>) -> String {
    let operand = |l: u64| match kinds[(l - 1) as usize] {
        VarKind::Value(b) => format!("i{b} %r{l}"),
        VarKind::Slot(_) => format!("ptr addrspace(5) %r{l}"),
    };
    let mut s = String::from("define void @f(i1 %c) {\n");
    let mut constant_given = false;
    let mut sum_given = false;
    for (b, blk) in cfg.blocks.iter().enumerate() {
        let _ = writeln!(s, "b{b}:");
        for (i, e) in blk.events.iter().enumerate() {
            let _ = match e {
                Event::Def(l) => writeln!(
                    s,
                    "  call void @llvm.dbg.def(metadata !{l}, metadata {})",
                    operand(*l)
                ),
                Event::Kill(l) => writeln!(s, "  call void @llvm.dbg.kill(metadata !{l})"),
                // The first other instruction gives `%r1` a constant, so
                // that `proven-constant` has something to prove.
                Event::Other if !constant_given => {
                    constant_given = true;
                    match (loads, kinds[0]) {
                        (Some(between), VarKind::Value(w)) => write!(
                            s,
                            "  %r1 = load i{w}, ptr %p\n{}  %r2 = load i{w}, ptr %p\n",
                            between.line()
                        ),
                        (None, VarKind::Value(w)) => writeln!(s, "  %r1 = add i{w} 40, 2"),
                        (_, VarKind::Slot(_)) => writeln!(s, "  %v{b}.{i} = add i32 0, 0"),
                    }
                }
                // The second one makes `%r3` the sum of `%r1` and `%r2`
                // when all three are values of one width (`induction`).
                Event::Other if !sum_given => {
                    sum_given = true;
                    match kinds {
                        [VarKind::Value(a), VarKind::Value(b), VarKind::Value(c)]
                            if a == b && b == c =>
                        {
                            writeln!(s, "  %r3 = add i{a} %r1, %r2")
                        }
                        _ => writeln!(s, "  %v{b}.{i} = add i32 0, 0"),
                    }
                }
                Event::Other => writeln!(s, "  %v{b}.{i} = add i32 0, 0"),
            };
        }
        let _ = match blk.succs.as_slice() {
            [] => writeln!(s, "  ret void"),
            [t] => writeln!(s, "  br label %b{t}"),
            [t, u, ..] => writeln!(s, "  br i1 %c, label %b{t}, label %b{u}"),
        };
    }
    s.push_str("}\n");
    // Variable w is v1 and v2 side by side, through a fragment with its own
    // computed lifetime (what `flatten` undoes).
    let bits = |k: VarKind| match k {
        VarKind::Value(b) | VarKind::Slot(b) => b,
    };
    let (b1, b2) = (bits(kinds[0]), bits(kinds[1]));
    let _ = writeln!(
        s,
        "!200 = !DILocalVariable(name: \"w\")\n!201 = distinct !DILifetime(object: !200, location: !DIExpr(DIOpArg(0, i{})), argObjects: {{!202}})\n!202 = distinct !DIFragment()\n!203 = distinct !DILifetime(object: !202, location: !DIExpr(DIOpArg(0, i{b1}), DIOpArg(1, i{b2}), DIOpComposite(2, i{})), argObjects: {{!101, !102}})",
        b1 + b2,
        b1 + b2
    );
    for l in 1..=3u64 {
        let expr = match kinds[(l - 1) as usize] {
            VarKind::Value(b) => format!("DIOpReferrer(i{b})"),
            VarKind::Slot(b) => format!("DIOpReferrer(ptr addrspace(5)), DIOpDeref(i{b})"),
        };
        let _ = writeln!(
            s,
            "!{} = !DILocalVariable(name: \"v{l}\")\n!{l} = distinct !DILifetime(object: !{}, location: !DIExpr({expr}))",
            100 + l,
            100 + l
        );
    }
    s
}
