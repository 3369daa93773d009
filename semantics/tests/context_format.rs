//! The context text format: the documented example, round trips, seeded
//! memory, state comparison, and diagnostics with line and column.

use diopter_semantics::context::{seeded_byte, Context};
use diopter_semantics::diag::Source;
use diopter_semantics::location::{LocDesc, Part, Storage};
use diopter_semantics::types::{DataLayout, Type};
use diopter_semantics::value::Bits;
use num_bigint::{BigInt, BigUint};

/// The example in `context.rs`'s module documentation, so that the
/// documentation cannot drift from the parser.
fn doc_example() -> String {
    let src = include_str!("../src/context.rs");
    let start = src
        .find("//! # Example")
        .expect("the module doc has an example");
    let body: Vec<&str> = src[start..]
        .lines()
        .skip_while(|l| !l.contains("```text"))
        .skip(1)
        .take_while(|l| !l.contains("```"))
        .map(|l| {
            l.strip_prefix("//! ")
                .unwrap_or(l.strip_prefix("//!").unwrap_or(l))
        })
        .collect();
    body.join("\n")
}

fn errors(text: &str) -> Vec<(usize, usize, String)> {
    let src = Source::new("ctx", text);
    match Context::parse(text) {
        Ok(_) => panic!("`{text}` parsed"),
        Err(ds) => ds
            .iter()
            .map(|d| {
                let (l, c) = src.line_col(d.span.start);
                (l, c, d.message.clone())
            })
            .collect(),
    }
}

#[test]
fn the_documented_example_means_what_it_says() {
    let c = Context::parse(&doc_example()).unwrap_or_else(|d| panic!("{d:?}"));
    assert_eq!(c.datalayout, DataLayout::amdgpu());
    assert_eq!(c.seed, 42);
    assert_eq!(c.lane, Some(3));
    // mem 5 0x100 = 78 56 34 12
    assert_eq!(c.byte(5, &BigUint::from(0x100u32)), 0x78);
    assert_eq!(c.byte(5, &BigUint::from(0x103u32)), 0x12);
    // mem 1 0x2000 = deadbeef: the pairs in order from 0x2000 upwards.
    assert_eq!(c.byte(1, &BigUint::from(0x2000u32)), 0xde);
    assert_eq!(c.byte(1, &BigUint::from(0x2003u32)), 0xef);
    assert_eq!(c.entity("%x"), Some(&Bits::from_u64(32, 0x1234_5678)));
    // float 1.5 = 0x3fc00000.
    assert_eq!(c.entity("$r0"), Some(&Bits::from_u64(32, 0x3fc0_0000)));
    // <2 x i16> <i16 1, i16 -1>: element 0 in bits 0..16.
    assert_eq!(
        c.entity("%frame.index.0"),
        Some(&Bits::from_u64(32, 0xffff_0001))
    );
    assert_eq!(
        c.args[&0],
        LocDesc::multi(vec![LocDesc::memory(5, 0x100), LocDesc::entity("%x", 0)])
    );
    assert_eq!(
        c.args[&1],
        LocDesc::composite(vec![
            Part {
                loc: LocDesc::entity("$r0", 0),
                bits: 32
            },
            Part {
                loc: LocDesc::implicit(Bits::from_u64(32, 7)),
                bits: 32
            },
        ])
    );
    assert_eq!(c.args[&2], LocDesc::entity("%frame.index.0", 16));
    assert_eq!(c.args[&3], LocDesc::undefined());
    assert_eq!(c.referrer, Some(LocDesc::memory(1, 0x2000)));
    let obj = c.object.as_ref().unwrap();
    match &obj.singles[0].storage {
        Storage::ImplicitAddress {
            target,
            target_ty,
            ptr_ty,
            bits,
        } => {
            assert_eq!(**target, LocDesc::memory(5, 0x100));
            assert_eq!(*target_ty, Type::Int(32));
            assert_eq!(*ptr_ty, Type::opaque_ptr(5));
            assert_eq!(*bits, 32);
        }
        s => panic!("{s:?}"),
    }
}

#[test]
fn printing_round_trips() {
    let c = Context::parse(&doc_example()).unwrap();
    let printed = c.to_string();
    let again = Context::parse(&printed).unwrap_or_else(|d| panic!("{printed}\n{d:?}"));
    assert_eq!(again, c, "{printed}");
    assert_eq!(again.to_string(), printed);
    // A context with negative offsets, composites of multi-location parts, a
    // partly undefined implicit, and no datalayout line.
    let text = "\
seed 0x10
%a = i8 -1
@g = ptr addrspace(1) 0x1000
arg 0 = %a - 3 | mem(3, 0x10) + 9 | mem(3, -0x2)
arg 1 = composite(%a | $b : 8, undef : 4, implicit(<2 x i8> <i8 1, i8 undef>) : 16)
$b = i8 255
";
    let c = Context::parse(text).unwrap_or_else(|d| panic!("{d:?}"));
    assert_eq!(c.seed, 16);
    assert_eq!(c.entity("@g"), Some(&Bits::from_u64(64, 0x1000)));
    // mem(3, 0x10) + 9 is bit 0x80 + 9; mem(3, -0x2) is bit -16.
    assert_eq!(c.args[&0].singles[1].offset, BigInt::from(0x89));
    assert_eq!(c.args[&0].singles[2].offset, BigInt::from(-16));
    assert_eq!(c.args[&0].singles[0].offset, BigInt::from(-3));
    let printed = c.to_string();
    assert_eq!(Context::parse(&printed).unwrap(), c, "{printed}");
}

#[test]
fn unlisted_memory_is_the_seeds() {
    let c = Context::parse("seed 7").unwrap();
    let a = BigUint::from(0x1234u32);
    assert_eq!(c.byte(1, &a), seeded_byte(7, 1, &a));
    // Deterministic, and a function of seed, address space and address.
    assert_eq!(seeded_byte(7, 1, &a), seeded_byte(7, 1, &a));
    let bytes = |seed, space| {
        (0u32..32)
            .map(|i| seeded_byte(seed, space, &BigUint::from(i)))
            .collect::<Vec<_>>()
    };
    assert_ne!(bytes(7, 1), bytes(8, 1));
    assert_ne!(bytes(7, 1), bytes(7, 2));
    // Addresses beyond 64 bits (a 160-bit pointer) have bytes too.
    let big = BigUint::from(1u8) << 150;
    let _ = seeded_byte(7, 7, &big);
}

#[test]
fn state_comparison() {
    let c = Context::parse("seed 1\n%x = i32 1").unwrap();
    let mut d = c.clone();
    assert!(c.same_state(&d));
    // Writing the byte memory already holds is no change.
    let a = BigUint::from(0x40u32);
    let b = c.byte(0, &a);
    d.set_byte(0, a.clone(), b);
    assert!(c.same_state(&d));
    d.set_byte(0, a, b ^ 1);
    d.set_entity("%x", Bits::from_u64(32, 2));
    let diff = c.state_diff(&d);
    assert_eq!(diff.len(), 2, "{diff:?}");
    assert!(diff[0].starts_with("mem 0 0x40:"), "{diff:?}");
    assert!(diff[1].starts_with("%x:"), "{diff:?}");
}

#[test]
fn comments_and_quoted_names() {
    let c =
        Context::parse("# leading comment\n%\"a # b\" = i8 1   # trailing\narg 0 = %\"a # b\"\n")
            .unwrap();
    assert_eq!(c.entity("%a # b"), Some(&Bits::from_u64(8, 1)));
    assert_eq!(c.args[&0], LocDesc::entity("%a # b", 0));
    assert!(c.to_string().contains("%\"a # b\" = i8 0x1"));
}

#[test]
fn diagnostics_have_lines_and_columns() {
    // "0g" is not hex: line 2, column 14.
    let e = errors("seed 1\nmem 1 0x10 = 0g\n");
    assert_eq!((e[0].0, e[0].1), (2, 14), "{e:?}");
    // An undefined entity, at its use.
    let e = errors("arg 0 = %nope\n");
    assert_eq!((e[0].0, e[0].1), (1, 9), "{e:?}");
    assert!(e[0].2.contains("%nope"), "{e:?}");
    // Given twice.
    let e = errors("seed 1\n\nseed 2\n");
    assert_eq!((e[0].0, e[0].1), (3, 1), "{e:?}");
    assert!(e[0].2.contains("first on line 1"), "{e:?}");
    // The datalayout applies to lines before it: AMDGPU address space 5 has
    // 2^32 bytes, so two bytes at 0xffffffff do not fit.
    let e = errors("mem 5 0xffffffff = 00 11\ndatalayout amdgpu\n");
    assert_eq!((e[0].0, e[0].1), (1, 1), "{e:?}");
    // An unknown line.
    let e = errors("lanes 3\n");
    assert_eq!((e[0].0, e[0].1), (1, 1), "{e:?}");
    // A literal that does not fit its type, at the literal.
    let e = errors("%x = i8 256\n");
    assert_eq!((e[0].0, e[0].1), (1, 9), "{e:?}");
    // A bad location, at the word.
    let e = errors("arg 0 = memory(1, 2)\n");
    assert_eq!((e[0].0, e[0].1), (1, 9), "{e:?}");
    // Several errors are all reported.
    assert_eq!(errors("seed x\nlane y\n").len(), 2);
}

#[test]
fn diagnostics_render_with_a_caret() {
    let text = "seed 1\narg 0 = %x +\n";
    let ds = Context::parse(text).unwrap_err();
    let r = Source::new("c.ctx", text).render(&ds[0]);
    assert!(r.starts_with("c.ctx:2:"), "{r}");
    assert!(r.contains('^'), "{r}");
}

/// A diff lists its first lines and counts them all (a wide write changes
/// up to a million bytes: listing each cost seconds and hundreds of MB).
#[test]
fn a_state_diff_lists_its_first_lines_and_counts_them_all() {
    let before = Context::parse("mem 0 0x10 = 00 00 00 00 00\n").unwrap();
    let mut after = before.clone();
    after.set_memory(0, 0x10u32, &[1, 2, 3, 4, 5]);
    let (first, total) = before.state_diff_first(&after, 2);
    assert_eq!(total, 5);
    assert_eq!(
        first,
        vec![
            "mem 0 0x10: 00 -> 01".to_string(),
            "mem 0 0x11: 00 -> 02".to_string()
        ]
    );
    assert_eq!(before.state_diff(&after).len(), 5);
    assert_eq!(before.state_diff_first(&after, 0), (vec![], 5));
}
