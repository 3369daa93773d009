//! The widths a rule is instantiated at, read from its text
//! (`diopter_rules::widths`): each kind of boundary a rule can write (a
//! type condition, a literal's fit and sign, a shift amount or offset
//! reaching the width) adds the widths around it, worked out by hand here.

use diopter_rules::widths::{derived_widths, parse_width_list, widths_of};
use diopter_rules::{parse_rules, Rule, DEFAULT_WIDTHS};
use diopter_semantics::types::Type;
use std::collections::BTreeSet;

fn rule(text: &str) -> Rule {
    let mut rs = parse_rules(text, "test.rules").expect("the rule parses");
    assert_eq!(rs.len(), 1);
    rs.remove(0)
}

/// The widths variable `v` is tried at beyond the defaults.
fn added(text: &str, v: &str) -> Vec<u64> {
    let r = rule(text);
    let d = derived_widths(&r, DEFAULT_WIDTHS);
    widths_of(DEFAULT_WIDTHS, &d, v)
        .into_iter()
        .filter(|w| !DEFAULT_WIDTHS.contains(w))
        .collect()
}

/// The widths at which instances of `v` are made (all of them).
fn instance_widths(text: &str, v: &str) -> BTreeSet<u64> {
    widths_in(&rule(text).instances(DEFAULT_WIDTHS), v)
}

/// The integer widths `v` is bound to in `insts`.
fn widths_in(insts: &[diopter_rules::instance::Instance], v: &str) -> BTreeSet<u64> {
    insts
        .iter()
        .filter_map(|i| {
            i.binding
                .iter()
                .find(|(k, _)| k == v)
                .and_then(|(_, t)| t.strip_prefix('i')?.parse().ok())
        })
        .collect()
}

#[test]
fn a_type_condition_adds_the_widths_around_its_boundary() {
    // width(T) >= 5 changes between 4 and 5: 3, 4, 5, 6 (4 is a default).
    let t = "lemma r: ?x:T, DIOpConvert(i8), DIOpRead() => ?x, DIOpConvert(i8) where T: int if width(T) >= 5";
    assert_eq!(added(t, "T"), vec![5, 6]);
    // The instances: 5 and 6 are made, 3 and 4 fail the condition.
    let ws = instance_widths(t, "T");
    assert!(
        ws.contains(&5) && ws.contains(&6) && !ws.contains(&4),
        "{ws:?}"
    );
    // A sum: width(T) + 3 <= 12 changes between 9 and 10: 8..11; the
    // literal 12's bit length (4) adds 3..6, of which 5 and 6 are new.
    let t = "lemma r: ?x:T, DIOpConvert(i8), DIOpRead() => ?x, DIOpConvert(i8) where T: int if width(T) + 3 <= 12";
    assert_eq!(added(t, "T"), vec![5, 6, 9, 10, 11]);
    // A product: width(T) * 2 > 20 changes between 10 and 11: 9..12; 20
    // (5 bits) adds 4..7.
    let t = "lemma r: ?x:T, DIOpConvert(i8), DIOpRead() => ?x, DIOpConvert(i8) where T: int if width(T) * 2 > 20";
    assert_eq!(added(t, "T"), vec![5, 6, 9, 10, 11, 12]);
}

#[test]
fn a_condition_between_two_variables_adds_bindings_next_to_it() {
    // width(T) == width(U) + 1: for U = i8 it holds only at T = i9, which
    // no default pair reaches; the binding T = i9, U = i8 is made.
    let t = "lemma r: ?x:T, DIOpConvert(U), DIOpConvert(T) => ?x, DIOpRead() where T: int, U: int if width(T) == width(U) + 1";
    let r = rule(t);
    let d = derived_widths(&r, DEFAULT_WIDTHS);
    assert!(d
        .bindings
        .iter()
        .any(|b| b.get("T") == Some(&Type::Int(9)) && b.get("U") == Some(&Type::Int(8))));
    let pairs: Vec<(String, String)> = r
        .instances(DEFAULT_WIDTHS)
        .iter()
        .map(|i| (i.binding[0].1.clone(), i.binding[1].1.clone()))
        .collect();
    assert!(pairs.contains(&("i9".into(), "i8".into())), "{pairs:?}");
    assert!(pairs.contains(&("i17".into(), "i16".into())), "{pairs:?}");
}

#[test]
fn a_literal_adds_the_widths_around_its_bit_length() {
    // 16 needs 5 bits (and reads as -16 in i5): 4..7, of which 5 and 6 are
    // new. Not a shift amount or offset: nothing around 16 itself.
    let t = "lemma r: ?x:T, DIOpConstant(T 16), DIOpAdd() => ?x, DIOpConstant(T 16), DIOpAdd() where T: int";
    assert_eq!(added(t, "T"), vec![5, 6]);
    // -32 needs 6 bits in two's complement: 5..8, new 5 and 6.
    let t = "lemma r: ?x:T, DIOpConstant(T -32), DIOpAdd() => ?x, DIOpConstant(T -32), DIOpAdd() where T: int";
    assert_eq!(added(t, "T"), vec![5, 6]);
    // 1000 needs 10 bits: 9..12.
    let t = "lemma r: ?x:T, DIOpConstant(T 1000), DIOpAdd() => ?x, DIOpConstant(T 1000), DIOpAdd() where T: int";
    assert_eq!(added(t, "T"), vec![9, 10, 11, 12]);
    // A literal of a precondition counts too: ?c == 100 (7 bits): 6, 9.
    let t = "lemma r: ?x:T, DIOpConstant(T ?c), DIOpAdd() => ?x, DIOpConstant(T ?c), DIOpAdd() where T: int if ?c == 100";
    assert_eq!(added(t, "T"), vec![6, 9]);
}

#[test]
fn a_shift_amount_or_offset_adds_the_widths_where_it_reaches_the_width() {
    // A shift by 20: bit length 5 (4..7) and 19..21.
    let t = "lemma r: ?x:T, DIOpConstant(T 20), DIOpShl() => ?x, DIOpConstant(T 20), DIOpShl() where T: int";
    assert_eq!(added(t, "T"), vec![5, 6, 19, 20, 21]);
    // A bit offset of 12 (an i32 literal, so no bit-length widths for T):
    // the location's type T at 11..13.
    let t = "lemma r: ?x:T, DIOpConstant(i32 12), DIOpBitOffset(T) => ?x, DIOpConstant(i32 12), DIOpBitOffset(T) where T: int";
    assert_eq!(added(t, "T"), vec![11, 12, 13]);
    // A byte offset of 3: 2..4 and 23..25.
    let t = "lemma r: ?x:T, DIOpConstant(i32 3), DIOpByteOffset(T) => ?x, DIOpConstant(i32 3), DIOpByteOffset(T) where T: int";
    assert_eq!(added(t, "T"), vec![23, 24, 25]);
}

#[test]
fn derived_widths_are_a_sum_not_a_product() {
    // Three variables, one literal of T's type: T's new widths are tried
    // with U and V at the defaults, not crossed with new widths of theirs.
    let t = "lemma r: ?x:T, DIOpConstant(T 16), DIOpAdd(), DIOpZExt(U), DIOpZExt(V) => ?x, DIOpConstant(T 16), DIOpAdd(), DIOpZExt(V) where T: int, U: int, V: int";
    let r = rule(t);
    let d = derived_widths(&r, DEFAULT_WIDTHS);
    assert_eq!(d.per_var.get("T").map(|s| s.len()), Some(2));
    assert!(!d.per_var.contains_key("U") && !d.per_var.contains_key("V"));
}

#[test]
fn float_variables_take_every_float_kind() {
    let t = "lemma r: ?x:T, ?y:T, DIOpAdd(), DIOpRead() => ?x, ?y, DIOpAdd() where T: float";
    let kinds: BTreeSet<String> = rule(t)
        .instances(DEFAULT_WIDTHS)
        .iter()
        .map(|i| i.binding[0].1.clone())
        .collect();
    let want: BTreeSet<String> = ["half", "bfloat", "float", "double", "fp128", "x86_fp80"]
        .into_iter()
        .map(String::from)
        .collect();
    assert_eq!(kinds, want);
}

#[test]
fn width_lists_take_ranges() {
    assert_eq!(parse_width_list("1..4,8").unwrap(), vec![1, 2, 3, 4, 8]);
    assert!(parse_width_list("0").is_err());
    assert!(parse_width_list("257").is_err());
}

/// The widths at which instances of `v` are made with every width for the
/// variables a condition or literal concerns (`--all-widths=bounded`).
fn every_width_instances(text: &str, v: &str) -> BTreeSet<u64> {
    widths_in(&rule(text).instances_at(DEFAULT_WIDTHS, true), v)
}

#[test]
fn every_width_goes_to_the_variables_a_literal_or_condition_concerns() {
    // The literal 0 is of type I and used as a value (not as a shift
    // amount or an offset, which concern every variable): I takes every
    // width from 1 to 64; T keeps the listed widths.
    let text = "lemma r [diexpr]: ?x:T, DIOpConvert(I), DIOpConstant(I 0), DIOpAdd() => ?x, DIOpConvert(I)   where T: int, I: int\n";
    let i_widths = every_width_instances(text, "I");
    assert!((1..=64).all(|w| i_widths.contains(&w)), "{i_widths:?}");
    assert_eq!(
        every_width_instances(text, "T"),
        instance_widths(text, "T"),
        "T is concerned by no literal or condition"
    );
    // A rule with neither gains nothing.
    let plain = "lemma p: ?x:T, ?y:T, DIOpAdd() => ?y, ?x, DIOpAdd()   where T: int\n";
    assert_eq!(
        every_width_instances(plain, "T"),
        instance_widths(plain, "T")
    );
}
