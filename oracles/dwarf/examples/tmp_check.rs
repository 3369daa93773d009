use diopter_dwarf::{compare_with, evaluate, ext, lower, lower_ext, DwarfVerdict};
use diopter_gen::{Case, GenConfig};
fn main() {
    let a: u64 = std::env::args().nth(1).unwrap().parse().unwrap();
    let b: u64 = std::env::args().nth(2).unwrap().parse().unwrap();
    let mut bad = 0;
    let mut n = (0, 0);
    for max_ops in [4usize, 8, 16] {
        let cfg = GenConfig {
            max_ops,
            ..GenConfig::default()
        };
        for seed in a..b {
            let case = Case::from_seed(seed, &cfg);
            for (i, v) in [
                compare_with(&case, lower, evaluate),
                compare_with(&case, lower_ext, ext::evaluate_lowered),
            ]
            .into_iter()
            .enumerate()
            {
                match v {
                    DwarfVerdict::Disagree(d) => {
                        bad += 1;
                        if bad < 6 {
                            println!(
                                "seed {seed} ops {max_ops} form {i}: {d:?}\n{}\n{}\n{}",
                                case.expr_line(),
                                diopter_dwarf::ops::print_ops(
                                    &if i == 0 {
                                        lower(&case.bare, &case.types, &case.ctx)
                                    } else {
                                        lower_ext(&case.bare, &case.types, &case.ctx)
                                    }
                                    .unwrap()
                                    .ops
                                ),
                                case.ctx
                            );
                        }
                    }
                    DwarfVerdict::NotLowerable(_) => {}
                    _ => {
                        if i == 0 {
                            n.0 += 1
                        } else {
                            n.1 += 1
                        }
                    }
                }
            }
        }
    }
    println!("disagreements {bad}; lowered {n:?}");
}
