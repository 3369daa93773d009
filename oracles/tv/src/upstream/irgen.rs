//! diopter's own IR generator for pass fuzzing: small functions of integer
//! arithmetic, casts, comparisons and selects over the function's
//! arguments, with values that are partly demanded (masked, truncated,
//! compared), so that the passes that rewrite or delete instructions
//! (instcombine, bdce, correlated-propagation, ...) must salvage the debug
//! values debugify attached. `llvm-stress` covers the rest of the IR
//! (vectors, floats, memory, control flow); this generator aims at the
//! integer rewrites where debug values are most often left wrong.

use std::fmt::Write as _;

/// A small deterministic generator (SplitMix64): the same seed gives the
/// same function on every machine.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len())]
    }
}

const WIDTHS: [u32; 5] = [1, 8, 16, 32, 64];

/// A value the function has: its name and integer width.
#[derive(Clone)]
struct Val {
    name: String,
    w: u32,
}

/// A constant of width `w` that the passes like to see: small, masks,
/// sign bits, all ones.
fn constant(r: &mut Rng, w: u32) -> i128 {
    let modulus: i128 = 1i128 << w;
    let c: i128 = match r.below(7) {
        0 => r.below(8) as i128,
        1 => (1i128 << r.below(w as usize)) - 1,
        2 => 1i128 << (w - 1),
        3 => -1,
        4 => -(r.below(16) as i128) - 1,
        5 => (r.next() as i128) % modulus,
        _ => 255,
    };
    // Print as LLVM does: signed, within the width.
    let m = c.rem_euclid(modulus);
    if w > 1 && m >= 1i128 << (w - 1) {
        m - modulus
    } else if w == 1 {
        if m == 1 {
            -1
        } else {
            0
        }
    } else {
        m
    }
}

fn lit(c: i128, w: u32) -> String {
    if w == 1 {
        if c == 0 { "false" } else { "true" }.into()
    } else {
        c.to_string()
    }
}

/// One function with `size` instructions; `seed` decides everything.
pub fn function(seed: u64, size: usize) -> String {
    let mut r = Rng(seed ^ 0x0064_696f_7074_6572);
    let nargs = 2 + r.below(3);
    let mut vals: Vec<Val> = Vec::new();
    let mut params = Vec::new();
    for i in 0..nargs {
        let w = *r.pick(&[8, 16, 32, 32, 64]);
        let flag = *r.pick(&["", " signext", " zeroext", " noundef"]);
        let flag = if w >= 32 && flag.ends_with("ext") {
            ""
        } else {
            flag
        };
        params.push(format!("i{w}{flag} %a{i}"));
        vals.push(Val {
            name: format!("%a{i}"),
            w,
        });
    }
    let mut body = String::new();
    for n in 0..size {
        let name = format!("%v{n}");
        let x = r.pick(&vals).clone();
        let same: Vec<Val> = vals.iter().filter(|v| v.w == x.w).cloned().collect();
        let y = r.pick(&same).clone();
        let w = x.w;
        let (text, rw) = match r.below(14) {
            0..=3 if w > 1 => {
                let ops = [
                    "add", "sub", "mul", "and", "or", "xor", "shl", "lshr", "ashr", "udiv", "sdiv",
                    "urem", "srem",
                ];
                let op = *r.pick(&ops);
                let flags = match op {
                    "add" | "sub" | "mul" | "shl" => *r.pick(&["", " nsw", " nuw", " nuw nsw"]),
                    "lshr" | "ashr" | "udiv" | "sdiv" => *r.pick(&["", " exact"]),
                    "or" => *r.pick(&["", " disjoint"]),
                    _ => "",
                };
                let rhs = if r.below(2) == 0 || op.contains("div") || op.contains("rem") {
                    let mut c = constant(&mut r, w);
                    if op.starts_with("sh") {
                        c = r.below(w as usize) as i128;
                    }
                    if (op.contains("div") || op.contains("rem")) && c == 0 {
                        c = 3;
                    }
                    lit(c, w)
                } else {
                    y.name.clone()
                };
                (format!("{op}{flags} i{w} {}, {rhs}", x.name), w)
            }
            4 | 5 => {
                let wider: Vec<u32> = WIDTHS.iter().copied().filter(|&v| v > w).collect();
                if wider.is_empty() {
                    let to = *r.pick(&[8u32, 16, 32]);
                    let fl = *r.pick(&["", " nuw", " nsw"]);
                    (format!("trunc{fl} i{w} {} to i{to}", x.name), to)
                } else {
                    let to = *r.pick(&wider);
                    let op = *r.pick(&["sext", "zext", "zext nneg"]);
                    (format!("{op} i{w} {} to i{to}", x.name), to)
                }
            }
            6 => {
                let narrower: Vec<u32> = WIDTHS.iter().copied().filter(|&v| v < w).collect();
                if narrower.is_empty() {
                    (format!("zext i{w} {} to i32", x.name), 32)
                } else {
                    let to = *r.pick(&narrower);
                    let fl = *r.pick(&["", " nuw", " nsw"]);
                    (format!("trunc{fl} i{w} {} to i{to}", x.name), to)
                }
            }
            7 | 8 => {
                let preds = [
                    "eq", "ne", "ugt", "uge", "ult", "ule", "sgt", "sge", "slt", "sle",
                ];
                let p = *r.pick(&preds);
                let rhs = if r.below(2) == 0 {
                    lit(constant(&mut r, w), w)
                } else {
                    y.name.clone()
                };
                (format!("icmp {p} i{w} {}, {rhs}", x.name), 1)
            }
            9 => {
                let conds: Vec<Val> = vals.iter().filter(|v| v.w == 1).cloned().collect();
                if conds.is_empty() {
                    (format!("freeze i{w} {}", x.name), w)
                } else {
                    let c = r.pick(&conds).clone();
                    let other = if r.below(2) == 0 {
                        lit(constant(&mut r, w), w)
                    } else {
                        y.name.clone()
                    };
                    (
                        format!("select i1 {}, i{w} {}, i{w} {other}", c.name, x.name),
                        w,
                    )
                }
            }
            10 => (format!("freeze i{w} {}", x.name), w),
            11 if w > 1 => {
                let m = lit(constant(&mut r, w), w);
                (format!("and i{w} {}, {m}", x.name), w)
            }
            _ => {
                // The demanded-bits pattern: widen, then use only low bits.
                if w < 64 && w > 1 {
                    let to = if w < 32 { 32 } else { 64 };
                    let op = *r.pick(&["sext", "zext"]);
                    (format!("{op} i{w} {} to i{to}", x.name), to)
                } else {
                    (format!("xor i{w} {}, {}", x.name, lit(-1, w)), w)
                }
            }
        };
        let _ = writeln!(body, "  {name} = {text}");
        vals.push(Val { name, w: rw });
    }
    // Keep some values alive through the return and a store, so that not
    // everything is dead: the passes then rewrite rather than delete.
    let last = vals.last().expect("a value").clone();
    let keep: Vec<Val> = vals.iter().rev().skip(1).take(3).cloned().collect();
    let mut sink = String::new();
    for (i, k) in keep.iter().enumerate() {
        let _ = writeln!(
            sink,
            "  %p{i} = getelementptr inbounds i8, ptr %out, i64 {}",
            i * 8
        );
        let _ = writeln!(sink, "  store i{} {}, ptr %p{i}, align 1", k.w, k.name);
    }
    format!(
        "define i{} @f{seed}({}, ptr %out) {{\nentry:\n{body}{sink}  ret i{} {}\n}}\n",
        last.w,
        params.join(", "),
        last.w,
        last.name
    )
}

/// A module of `functions` functions from `seed`.
pub fn module(seed: u64, functions: usize, size: usize) -> String {
    let mut m = String::from(
        "target datalayout = \"e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128\"\n\
         target triple = \"x86_64-pc-linux-gnu\"\n\n",
    );
    for k in 0..functions as u64 {
        m.push_str(&function(seed.wrapping_mul(1000).wrapping_add(k), size));
        m.push('\n');
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_seed_gives_the_same_module() {
        assert_eq!(module(7, 3, 20), module(7, 3, 20));
        assert_ne!(module(7, 3, 20), module(8, 3, 20));
    }

    #[test]
    fn constants_are_printed_within_their_width() {
        let mut r = Rng(1);
        for _ in 0..10_000 {
            for w in WIDTHS {
                let c = constant(&mut r, w);
                if w == 1 {
                    assert!(c == 0 || c == -1);
                } else {
                    assert!(
                        c >= -(1i128 << (w - 1)) && c < (1i128 << (w - 1)),
                        "{c} i{w}"
                    );
                }
            }
        }
    }
}
