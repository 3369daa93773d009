use diopter_diff::read_case_file;
use diopter_dwarf::{compare_with, ext, lower_ext};
fn main() {
    let text = std::fs::read_to_string(std::env::args().nth(1).unwrap()).unwrap();
    let c = read_case_file(&text).unwrap();
    let l = lower_ext(&c.bare, &c.types, &c.ctx).unwrap();
    println!("{}", diopter_dwarf::ops::print_ops(&l.ops));
    println!(
        "{:?}",
        ext::evaluate_lowered(&l, &c.ctx).map(|r| r.loc.to_string())
    );
    println!("{:?}", compare_with(&c, lower_ext, ext::evaluate_lowered));
}
