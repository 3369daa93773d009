//! Bad input never panics, hangs or exhausts memory: random bytes, token soups
//! made of the language's own words, and inputs at and past the resource limits.

use diopter_semantics::ast::Op;
use diopter_semantics::check::check_bare;
use diopter_semantics::diag::Source;
use diopter_semantics::syntax::{parse_bare, parse_expr_file, print_bare};
use diopter_semantics::types::{DataLayout, TypeTable};
use proptest::prelude::*;

/// Parse, render every diagnostic, check every expression: must not panic.
fn exercise(text: &str) {
    let src = Source::new("fuzz.expr", text);
    let (file, diags) = parse_expr_file(&src);
    for d in &diags {
        let r = src.render(d);
        assert!(r.starts_with("fuzz.expr:"), "{r}");
    }
    let dl = file
        .datalayout
        .as_ref()
        .map(|(d, _)| d.clone())
        .unwrap_or_default();
    for e in &file.entries {
        // Whatever parses prints to something that parses back equal.
        let p = print_bare(&e.bare);
        let again = parse_bare(&p)
            .unwrap_or_else(|d| panic!("reprint of {text:?} does not parse: {p}: {d}"));
        assert_eq!(again, e.bare);
        if let Err(ds) = check_bare(&e.bare, &dl, &file.types) {
            for d in &ds {
                let _ = src.render(d);
            }
        }
    }
}

/// The language's own words besides the operation names (`Op::NAMES`).
const WORDS: &[&str] = &[
    "(",
    ")",
    ",",
    "[",
    "]",
    "<",
    ">",
    "{",
    "}",
    "*",
    "->",
    ":",
    "?",
    "i1",
    "i8",
    "i32",
    "i64",
    "i128",
    "i8388608",
    "i0",
    "half",
    "bfloat",
    "float",
    "double",
    "fp128",
    "x86_fp80",
    "ptr",
    "addrspace",
    "(5)",
    "x",
    "2",
    "0",
    "-1",
    "4294967296",
    "99999999999999999999999",
    "1.5",
    "0x3FF0000000000000",
    "0xH3C00",
    "undef",
    "poison",
    "null",
    "zeroinitializer",
    "true",
    "referrer",
    "diexpr",
    "diexpression",
    "%t",
    "%struct.type",
    "!DIExpr",
    "!DIExpression",
    "#!",
    "expect",
    "invalid",
    "parse-only",
    "target",
    "datalayout",
    "=",
    "\"e-p:32:32\"",
    "type",
    "\n",
    " ",
    "...",
    "€",
    "\"",
];

fn word() -> impl Strategy<Value = &'static str> {
    prop_oneof![
        proptest::sample::select(WORDS),
        proptest::sample::select(Op::NAMES)
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, .. ProptestConfig::default() })]

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        let text = String::from_utf8_lossy(&bytes);
        exercise(&text);
    }

    #[test]
    fn token_soup_never_panics(words in proptest::collection::vec(word(), 0..60)) {
        exercise(&words.join(" "));
        exercise(&format!("[i32, ptr] {}", words.join("")));
    }

    #[test]
    fn well_formed_prefix_with_mutated_tail_never_panics(
        tail in proptest::collection::vec(word(), 0..20)
    ) {
        exercise(&format!("[ptr, i32] -> i64 DIOpArg(0, ptr), DIOpDeref(i32), {}", tail.join(" ")));
    }
}

#[test]
fn a_million_operations_get_a_diagnostic_not_a_crash() {
    let mut s = String::from("[] ");
    for i in 0..1_000_000 {
        if i > 0 {
            s.push_str(", ");
        }
        s.push_str("DIOpConstant(i8 1)");
    }
    let b = parse_bare(&s).expect("a million operations is within the parser's limit");
    assert_eq!(b.expr.ops.len(), 1_000_000);
    let d = check_bare(&b, &DataLayout::default(), &TypeTable::default()).unwrap_err();
    assert!(
        d[0].message
            .contains("one element on stack after evaluating, found 1000000"),
        "{}",
        d[0].message
    );
}

#[test]
fn widest_integer_is_accepted_and_one_more_is_not() {
    let b = parse_bare("[i8388608] DIOpArg(0, i8388608)").unwrap();
    assert_eq!(
        check_bare(&b, &DataLayout::default(), &TypeTable::default())
            .unwrap()
            .result
            .to_string(),
        "i8388608"
    );
    let d = parse_bare("[i8388609] DIOpArg(0, i8388609)").unwrap_err();
    assert!(d.message.contains("1 to 8388608"), "{}", d.message);
    let d = parse_bare("[i0] DIOpArg(0, i0)").unwrap_err();
    assert!(d.message.contains("integer width"), "{}", d.message);
}

#[test]
fn a_billion_part_composite_is_refused_without_allocating() {
    let b = parse_bare("[] DIOpConstant(i8 0), DIOpComposite(1000000000, i8)").unwrap();
    let d = check_bare(&b, &DataLayout::default(), &TypeTable::default()).unwrap_err();
    assert!(
        d[0].message.contains("requires more inputs"),
        "{}",
        d[0].message
    );
}

#[test]
fn huge_types_are_refused() {
    let b = parse_bare("[] DIOpTypeObject(<1000000000 x i8388608>)").unwrap();
    let d = check_bare(&b, &DataLayout::default(), &TypeTable::default()).unwrap_err();
    assert!(d[0].message.contains("limit"), "{}", d[0].message);
    let b = parse_bare("[] DIOpConstant(i64 1), DIOpExtend(4000000000)").unwrap();
    let d = check_bare(&b, &DataLayout::default(), &TypeTable::default()).unwrap_err();
    assert!(d[0].message.contains("limit"), "{}", d[0].message);
}

#[test]
fn deep_nesting_is_refused_without_overflowing_the_stack() {
    let deep = format!(
        "[] DIOpTypeObject({}i8{})",
        "<2 x ".repeat(100_000),
        ">".repeat(100_000)
    );
    let d = parse_bare(&deep).unwrap_err();
    assert!(d.message.contains("nests"), "{}", d.message);
    let stars = format!("[] DIOpTypeObject(i8{})", "*".repeat(100_000));
    let d = parse_bare(&stars).unwrap_err();
    assert!(d.message.contains("pointer"), "{}", d.message);
}

#[test]
fn vectors_hold_only_scalars() {
    // LLVM: vector elements are integers, floats or pointers.
    assert!(parse_bare("[] DIOpTypeObject(<2 x ptr addrspace(3)>)").is_ok());
    let d = parse_bare("[] DIOpTypeObject(<2 x { i32 }>)").unwrap_err();
    assert!(d.message.contains("vector elements"), "{}", d.message);
    assert!(parse_bare("[] DIOpTypeObject(<2 x <2 x i8>>)").is_err());
    assert!(parse_bare("[] DIOpTypeObject(<2 x [2 x i8]>)").is_err());
}

#[test]
fn integer_literals_must_fit() {
    assert!(parse_bare("[] DIOpConstant(i8 255)").is_ok());
    assert!(parse_bare("[] DIOpConstant(i8 -128)").is_ok());
    assert!(parse_bare("[] DIOpConstant(i8 256)").is_err());
    assert!(parse_bare("[] DIOpConstant(i8 -129)").is_err());
}

const IR_WORDS: &[&str] = &[
    "!1",
    "!2",
    "=",
    "distinct",
    "!DILifetime(",
    "object:",
    "location:",
    "argObjects:",
    "{",
    "}",
    "!{",
    "!DIExpr(",
    "!DIExpression(",
    "DIOpReferrer(i32)",
    "DIOpArg(0, i32)",
    ")",
    ",",
    "!DIFragment()",
    "!DILocalVariable(",
    "\"x\"",
    "...",
    "call void @llvm.dbg.def(metadata",
    "call void @llvm.dbg.kill(metadata",
    "metadata",
    "i32",
    "%x",
    "DBG_DEF",
    "DBG_KILL",
    "$r0",
    "#dbg_value(",
    "!DIArgList(",
    "define void @f() {",
    "entry:",
    "br label %b",
    "b:",
    "ret void",
    "}",
    "@g = global i32 0, !dbg.default !2",
    "%t = type { i32 }",
    "target datalayout = \"e\"",
    "\n",
    " ",
    ";",
    "€",
];

const CONTEXT_WORDS: &[&str] = &[
    "datalayout",
    "amdgpu",
    "seed",
    "lane",
    "mem",
    "5",
    "0x100",
    "=",
    "78 56",
    "%x",
    "$r0",
    "i32",
    "float",
    "1.5",
    "arg",
    "0",
    "referrer",
    "object",
    "mem(5, 0x10)",
    "|",
    "+",
    "-",
    "8",
    "implicit(i32 7)",
    "undef",
    "composite(",
    ":",
    ")",
    ",",
    "addrof(ptr, i32,",
    "<2 x i16> <i16 1, i16 2>",
    "\n",
    "#",
    "\"",
    "€",
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, .. ProptestConfig::default() })]

    #[test]
    fn ir_reader_never_panics(
        words in proptest::collection::vec(proptest::sample::select(IR_WORDS), 0..80),
        bytes in proptest::collection::vec(any::<u8>(), 0..200),
    ) {
        for text in [words.join(" "), String::from_utf8_lossy(&bytes).into_owned()] {
            let (m, _) = diopter_semantics::syntax::module::parse_module(&text);
            let _ = diopter_semantics::lifetimes::check_lifetimes(&m);
            let _ = diopter_semantics::sites::expressions(&m);
            let _ = diopter_semantics::syntax::module_print::print_module(&m);
        }
    }

    #[test]
    fn context_reader_never_panics(
        words in proptest::collection::vec(proptest::sample::select(CONTEXT_WORDS), 0..60),
        bytes in proptest::collection::vec(any::<u8>(), 0..200),
    ) {
        for text in [words.join(" "), String::from_utf8_lossy(&bytes).into_owned()] {
            if let Ok(c) = diopter_semantics::context::Context::parse(&text) {
                // Whatever parses prints to a context that parses back equal.
                let again = diopter_semantics::context::Context::parse(&c.to_string()).expect("printed context parses");
                prop_assert_eq!(again, c);
            }
        }
    }
}

/// `levels` nested `DIOpSelect`s whose every lane comes from the previous
/// one (mask 0: every lane from `L0`, the entry under the top): each level copies the previous location into all 8 lanes, so level
/// `k` has `1 + 8 · size(k-1)` single locations (9, 73, 585, 4681, 37449,
/// 299593, ...).
fn select_tower(levels: usize) -> String {
    let mask = "DIOpConstant(i8 0)";
    let lanes = "DIOpConstant(<8 x i8> zeroinitializer)";
    let mut ops: Vec<String> = vec![mask.to_string(); levels];
    ops.push(lanes.to_string());
    ops.push(lanes.to_string());
    ops.push("DIOpSelect()".to_string());
    for _ in 1..levels {
        ops.push(lanes.to_string());
        ops.push("DIOpSelect()".to_string());
    }
    format!("[] {}", ops.join(", "))
}

#[test]
fn location_descriptions_that_grow_by_copying_hit_the_size_limit() {
    use diopter_semantics::context::Context;
    use diopter_semantics::interp::{eval_bare, ErrorKind};
    use diopter_semantics::location::MAX_LOC_NODES;
    let ctx = Context::default();
    let types = TypeTable::default();
    // Five levels: 37449 single locations, under the limit: evaluates.
    let b = parse_bare(&select_tower(5)).unwrap();
    assert!(check_bare(&b, &DataLayout::default(), &types).is_ok());
    let r = eval_bare(&b, &types, &ctx).expect("under the limit");
    assert_eq!(r.loc.node_count(), 37449);
    // Six levels would be 299593: a resource limit, at the last Select,
    // before anything that size is built.
    let b = parse_bare(&select_tower(6)).unwrap();
    let e = eval_bare(&b, &types, &ctx).unwrap_err();
    assert_eq!(e.kind, ErrorKind::ResourceLimit, "{}", e.message);
    assert_eq!(e.op_index, b.expr.ops.len() - 1);
    assert!(
        e.message.contains(&MAX_LOC_NODES.to_string()),
        "{}",
        e.message
    );
    // Forty levels stop at the same place, however far the tower goes.
    let b = parse_bare(&select_tower(40)).unwrap();
    let e = eval_bare(&b, &types, &ctx).unwrap_err();
    assert_eq!(e.kind, ErrorKind::ResourceLimit);
    // Masks 0..40, the first Select at 42, the sixth at 42 + 2 · 5.
    assert_eq!(e.op_index, 42 + 2 * 5);
    // DIOpExtend copies too: 1 + 65536 · 5 single locations (each copy is
    // the 4-lane composite a Select made).
    let b = parse_bare(
        "[] DIOpConstant(i8 0), DIOpConstant(<4 x i8> zeroinitializer), \
         DIOpConstant(<4 x i8> zeroinitializer), DIOpSelect(), DIOpReinterpret(i32), \
         DIOpExtend(65536)",
    )
    .unwrap();
    let e = eval_bare(&b, &types, &ctx).unwrap_err();
    assert_eq!(e.kind, ErrorKind::ResourceLimit, "{}", e.message);
}
