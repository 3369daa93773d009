//! Hand-picked cases for every operation: the fast evaluator's whole
//! outcome (location, type, size, fragment; or error kind, operation index
//! and message) equals the reference interpreter's. Each case also states
//! the outcome class it is meant to reach, so that a case that stops
//! exercising its path is noticed.

#[path = "fast_support.rs"]
mod support;

use diopter_fast as fast;
use diopter_semantics::ast::{Dialect, Expr, Op};
use diopter_semantics::check::{ArgInfo, Env, ReferrerInfo};
use diopter_semantics::context::Context;
use diopter_semantics::interp::{self, ErrorKind, Outcome};
use diopter_semantics::location::{LocDesc, Part, Single, Storage};
use diopter_semantics::types::{DataLayout, Type, TypeTable};
use diopter_semantics::value::Bits;
use num_bigint::BigInt;
use support::{agree_text, same};

/// The outcome's class: `Ok` or the error kind.
fn class(o: &Outcome) -> String {
    match o {
        Ok(_) => "Ok".into(),
        Err(e) => format!("{:?}", e.kind),
    }
}

/// Runs every `(expression, context, expected class)` case.
fn cases(list: &[(&str, &str, &str)]) {
    for (line, ctx, want) in list {
        let o = agree_text(line, ctx);
        assert_eq!(class(&o), *want, "{line}\n{ctx}\n{o:?}");
    }
}

const MEM: &str = "seed 3\nmem 0 0x10 = 01 02 03 04 05 06 07 08 09 0a 0b 0c 0d 0e 0f 10 11 12\n";

#[test]
fn leaves() {
    cases(&[
        ("[i32] DIOpArg(0, i32)", "arg 0 = mem(0, 0x10)", "Ok"),
        ("[i32] DIOpArg(0, i32)", "", "NoArgument"),
        ("[i32 poison] DIOpArg(0, i32)", "", "Ok"),
        (
            "[i32, i64] DIOpArg(1, i64)",
            "arg 1 = %x | mem(1, 8)\n%x = i64 1",
            "Ok",
        ),
        (
            "diexpr [referrer: i32] DIOpReferrer(i32)",
            "referrer = %r\n%r = i32 9",
            "Ok",
        ),
        ("diexpr [referrer: i32] DIOpReferrer(i32)", "", "NoReferrer"),
        ("[i32] DIOpReferrer(i32)", "arg 0 = mem(5, 4)", "Ok"),
        ("[i32] DIOpReferrer(i32)", "", "NoReferrer"),
        ("[i32 poison] DIOpReferrer(i32)", "", "Ok"),
        (
            "[i32] DIOpReferrer(i32)",
            "referrer = undef\narg 0 = mem(5, 4)",
            "Ok",
        ),
        ("[] DIOpTypeObject(i32)", "object = mem(0, 0x40) + 3", "Ok"),
        ("[] DIOpTypeObject(i32)", "", "NoObject"),
        ("[] DIOpPushLane(i32)", "lane 63", "Ok"),
        ("[] DIOpPushLane(i6)", "lane 63", "Ok"),
        ("[] DIOpPushLane(i6)", "lane 64", "ConvertOutOfRange"),
        ("[] DIOpPushLane(i64)", "lane 18446744073709551615", "Ok"),
        ("[] DIOpPushLane(i200)", "lane 7", "Ok"),
        ("[] DIOpPushLane(i32)", "", "NoLane"),
    ]);
}

/// Expressions of one operation naming a context location: in a prepared
/// context they are answered from the prepared slot without a machine, so
/// every storage a slot can hold, wide values (kept in the prepared
/// context's words) included.
#[test]
fn only_a_context_location() {
    let w = "%w = i200 0x1000000000000000000000000000000000000000000000006\n%x = i8 7";
    cases(&[
        ("[i200] DIOpArg(0, i200)", &format!("arg 0 = %w\n{w}"), "Ok"),
        (
            "[i200] DIOpArg(0, i200)",
            "arg 0 = implicit(i200 0x1000000000000000000000000000000000000000000000006) + 3",
            "Ok",
        ),
        (
            "[i16, i208] DIOpArg(1, i208)",
            &format!("arg 0 = %x\narg 1 = composite(%x : 8, %w : 200) | mem(2, 0x40)\n{w}"),
            "Ok",
        ),
        (
            "[i32, i32] DIOpArg(1, i32)",
            "arg 0 = %x\n%x = i8 7",
            "NoArgument",
        ),
        ("[i32] DIOpArg(0, i32)", "arg 0 = undef", "Ok"),
        (
            "diexpr [referrer: i200] DIOpReferrer(i200)",
            &format!("referrer = %w | implicit(i200 5)\n{w}"),
            "Ok",
        ),
    ]);
}

#[test]
fn constants() {
    cases(&[
        ("[] DIOpConstant(i32 -1)", "", "Ok"),
        ("[] DIOpConstant(i1 true)", "", "Ok"),
        ("[] DIOpConstant(i128 -2)", "", "Ok"),
        ("[] DIOpConstant(i300 12345678901234567890123456789)", "", "Ok"),
        ("[] DIOpConstant(i300 -3), DIOpRead()", "", "Ok"),
        ("[] DIOpConstant(float 1.5)", "", "Ok"),
        ("[] DIOpConstant(i32 undef)", "", "Ok"),
        ("[] DIOpConstant(i32 poison), DIOpRead()", "", "ReadUndefined"),
        ("[] DIOpConstant(<2 x i32> <i32 1, i32 undef>)", "", "Ok"),
        ("[] DIOpConstant(<2 x i32> <i32 1, i32 undef>), DIOpConstant(<2 x i32> <i32 1, i32 2>), DIOpAdd()", "", "ReadUndefined"),
        ("[] DIOpConstant(<4 x i16> <i16 1, i16 undef, i16 3, i16 4>), DIOpConstant(i32 48), DIOpBitOffset(i16), DIOpRead()", "", "Ok"),
        ("[] DIOpConstant([3 x i8] [i8 1, i8 2, i8 3])", "", "Ok"),
        ("[] DIOpConstant(ptr null)", "", "Ok"),
        ("[] DIOpConstant(<8 x i64> zeroinitializer), DIOpRead()", "", "Ok"),
    ]);
}

#[test]
fn reads_of_every_storage() {
    let ctx = format!(
        "{MEM}%x = i32 0x12345678\n%w = i200 0x123456789abcdef0123456789abcdef0123456789abcdef\n\
         arg 0 = mem(0, 0x10) + 3\narg 1 = %x + 4\narg 2 = %w + 37\narg 3 = implicit(i64 0x1122334455667788) + 8\n\
         arg 4 = composite(%x : 12, mem(0, 0x11) + 1 : 20)\narg 5 = undef\narg 6 = %missing\n%missing = i8 0"
    );
    let ctx = ctx.replace("arg 6 = %missing\n%missing = i8 0", "");
    cases(&[
        ("[i16] DIOpArg(0, i16), DIOpRead()", &ctx, "Ok"),
        ("[i16, i16] DIOpArg(1, i16), DIOpRead()", &ctx, "Ok"),
        ("[i16, i16, i150] DIOpArg(2, i150), DIOpRead()", &ctx, "Ok"),
        ("[i16, i16, i100] DIOpArg(2, i100), DIOpRead()", &ctx, "Ok"),
        ("[i16, i16, i164] DIOpArg(2, i164), DIOpRead()", &ctx, "OutOfBounds"),
        ("[i16, i16, i1, i56] DIOpArg(3, i56), DIOpRead()", &ctx, "Ok"),
        ("[i16, i16, i1, i57] DIOpArg(3, i57), DIOpRead()", &ctx, "OutOfBounds"),
        ("[i16, i16, i1, i1, i32] DIOpArg(4, i32), DIOpRead()", &ctx, "Ok"),
        ("[i16, i16, i1, i1, i32] DIOpArg(4, i32), DIOpConstant(i8 3), DIOpBitOffset(i16), DIOpRead()", &ctx, "Ok"),
        ("[i16, i16, i1, i1, i32] DIOpArg(4, i32), DIOpConstant(i8 17), DIOpBitOffset(i16), DIOpRead()", &ctx, "OutOfBounds"),
        ("[i16, i16, i1, i1, i1, i8] DIOpArg(5, i8), DIOpRead()", &ctx, "ReadUndefined"),
        ("[i16] DIOpArg(0, i16), DIOpConstant(i64 -1), DIOpBitOffset(i16), DIOpRead()", "arg 0 = mem(0, 0)", "OutOfBounds"),
        ("[{}] DIOpArg(0, {}), DIOpRead()", "arg 0 = undef", "Ok"),
        // Every single location is read before they are compared: a later
        // one's failure comes before an earlier disagreement.
        (
            "[i16] DIOpArg(0, i16), DIOpRead()",
            "arg 0 = %a | %b | undef\n%a = i16 0x1234\n%b = i16 0xabcd",
            "ReadUndefined",
        ),
        (
            "[i16] DIOpArg(0, i16), DIOpRead()",
            "arg 0 = %a | %b | %a\n%a = i16 0x1234\n%b = i16 0xabcd",
            "Inconsistent",
        ),
        // Single locations that disagree on a value wider than 128 bits:
        // the message is written after the run, from the words it left.
        (
            "[i150] DIOpArg(0, i150), DIOpRead()",
            &format!("{MEM}%w = i200 0x123456789abcdef0123456789abcdef0123456789abcdef\narg 0 = %w | mem(0, 0x10)"),
            "Inconsistent",
        ),
    ]);
}

#[test]
fn memory_edges() {
    cases(&[
        // The last bytes of a 16-bit address space, and one past them.
        ("[i16] DIOpArg(0, i16), DIOpRead()", "datalayout \"e-p:16:16\"\narg 0 = mem(0, 0xfffe)", "Ok"),
        ("[i16] DIOpArg(0, i16), DIOpRead()", "datalayout \"e-p:16:16\"\narg 0 = mem(0, 0xffff)", "OutOfBounds"),
        ("[i9] DIOpArg(0, i9), DIOpRead()", "datalayout \"e-p:16:16\"\narg 0 = mem(0, 0xfffe) + 7", "Ok"),
        // Addresses of two limbs (128-bit pointers), given and seeded bytes.
        (
            "[ptr] DIOpArg(0, ptr), DIOpDeref(i64), DIOpRead()",
            "datalayout \"e-p:128:128\"\n%p = ptr 0x1fffffffffffffffc\nmem 0 0x1fffffffffffffffe = aa bb\narg 0 = %p",
            "Ok",
        ),
        (
            "[ptr] DIOpArg(0, ptr), DIOpDeref(i128), DIOpRead()",
            "datalayout \"e-p:128:128\"\n%p = ptr 0xfffffffffffffff8\nseed 99\narg 0 = %p",
            "Ok",
        ),
        // A 192-bit pointer: the address overflows i128, so does the offset.
        (
            "[ptr addrspace(9)] DIOpArg(0, ptr addrspace(9)), DIOpDeref(i32), DIOpRead()",
            "datalayout amdgpu\n%p = ptr addrspace(9) 0xffffffffffffffffffffffffffffffffffff\narg 0 = %p",
            "Ok",
        ),
        (
            "[ptr addrspace(9)] DIOpArg(0, ptr addrspace(9)), DIOpDeref(i32)",
            "datalayout amdgpu\n%p = ptr addrspace(9) 0xffffffffffffffffffffffffffffffffffffffffffffffff\narg 0 = %p",
            "Ok",
        ),
        (
            "[ptr addrspace(9)] DIOpArg(0, ptr addrspace(9)), DIOpDeref(i32), DIOpRead()",
            "datalayout amdgpu\n%p = ptr addrspace(9) 0xffffffffffffffffffffffffffffffffffffffffffffffff\narg 0 = %p",
            "OutOfBounds",
        ),
        // 1024-bit pointers: memory of 2^1027 bits.
        (
            "[ptr] DIOpArg(0, ptr), DIOpDeref(i16), DIOpRead()",
            "datalayout \"e-p:1024:64\"\n%p = ptr 0x123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef\nmem 0 0x123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdf0 = 5a\narg 0 = %p",
            "Ok",
        ),
    ]);
}

#[test]
fn offsets() {
    cases(&[
        ("[i32] DIOpArg(0, i32), DIOpConstant(i8 -1), DIOpOffset()", "", "NoArgument"),
        ("diexpr [i32] DIOpArg(0, i32), DIOpConstant(i8 -1), DIOpOffset()", "arg 0 = mem(0, 8)", "Ok"),
        ("diexpr [i32] DIOpArg(0, i32), DIOpConstant(i8 -1), DIOpBitOffset()", "arg 0 = mem(0, 8) | %x\n%x = i32 1", "Ok"),
        ("[i32] DIOpArg(0, i32), DIOpConstant(i8 -128), DIOpByteOffset(i64)", "arg 0 = %x\n%x = i32 1", "Ok"),
        ("[i32] DIOpArg(0, i32), DIOpConstant(i8 undef), DIOpByteOffset(i64)", "arg 0 = %x\n%x = i32 1", "ReadUndefined"),
        ("[i32] DIOpArg(0, i32), DIOpArg(0, i32), DIOpByteOffset(i64)", "arg 0 = %x\n%x = i32 0x80000000", "Ok"),
        // Offsets beyond i128, and back.
        (
            "[i32] DIOpArg(0, i32), DIOpConstant(i256 205688069665150755269371147819668813122841983204197482918576127), DIOpBitOffset(i32)",
            "arg 0 = %x\n%x = i32 1",
            "Ok",
        ),
        (
            "[i32] DIOpArg(0, i32), DIOpConstant(i256 205688069665150755269371147819668813122841983204197482918576127), DIOpBitOffset(i32), DIOpRead()",
            "arg 0 = %x\n%x = i32 1",
            "OutOfBounds",
        ),
        (
            "[i32] DIOpArg(0, i32), DIOpConstant(i256 205688069665150755269371147819668813122841983204197482918576127), DIOpByteOffset(i32), DIOpConstant(i256 -205688069665150755269371147819668813122841983204197482918576127), DIOpByteOffset(i32), DIOpRead()",
            "arg 0 = %x | mem(1, 4)\n%x = i32 1",
            "Inconsistent",
        ),
        (
            "[i32] DIOpArg(0, i32), DIOpConstant(i128 170141183460469231731687303715884105727), DIOpByteOffset(i32)",
            "arg 0 = mem(0, 0)",
            "Ok",
        ),
        (
            "[i32] DIOpArg(0, i32), DIOpRead()",
            "arg 0 = %x + 1000000000000000000000000000000000000000000000000\n%x = i32 1",
            "OutOfBounds",
        ),
        (
            "[i32] DIOpArg(0, i32), DIOpConstant(i200 -1000000000000000000000000000000000000000000000000), DIOpBitOffset(i32), DIOpRead()",
            "arg 0 = %x + 1000000000000000000000000000000000000000000000000\n%x = i32 1",
            "Ok",
        ),
    ]);
}

#[test]
fn composites_extend_select() {
    let ctx = format!(
        "{MEM}%a = i16 0x1234\n%b = i16 0xabcd\narg 0 = %a\narg 1 = %b | mem(0, 0x10)\nlane 5"
    );
    cases(&[
        ("[i16, i16] DIOpArg(1, i16), DIOpArg(0, i16), DIOpComposite(2, i32)", &ctx, "Ok"),
        ("[i16, i16] DIOpArg(1, i16), DIOpArg(0, i16), DIOpComposite(2, i32), DIOpRead()", &ctx, "Inconsistent"),
        ("[i16, i16] DIOpArg(0, i16), DIOpArg(0, i16), DIOpComposite(2, i32), DIOpRead()", &ctx, "Ok"),
        ("[i16, i16] DIOpArg(0, i16), DIOpComposite(1, i16), DIOpConstant(i16 3), DIOpComposite(2, i32), DIOpConstant(i8 4), DIOpBitOffset(i16), DIOpRead()", &ctx, "Ok"),
        ("[i16] DIOpArg(0, i16), DIOpExtend(4), DIOpRead()", &ctx, "Ok"),
        ("[i16] DIOpArg(0, i16), DIOpExtend(4)", &ctx, "Ok"),
        ("[i16] DIOpArg(0, i16), DIOpExtend(65537)", &ctx, "ResourceLimit"),
        ("[i16] DIOpArg(0, i16), DIOpExtend(65536), DIOpConstant(i32 1048000), DIOpBitOffset(i16), DIOpRead()", &ctx, "Ok"),
        ("[i16, i16] DIOpArg(1, i16), DIOpExtend(3), DIOpRead()", &ctx, "Inconsistent"),
        (
            "[] DIOpConstant(i4 5), DIOpConstant(<4 x i8> <i8 1, i8 2, i8 3, i8 4>), DIOpConstant(<4 x i8> <i8 5, i8 6, i8 7, i8 8>), DIOpSelect()",
            &ctx,
            "Ok",
        ),
        (
            "[] DIOpConstant(i4 5), DIOpConstant(<4 x i8> <i8 1, i8 2, i8 3, i8 4>), DIOpConstant(<4 x i8> <i8 5, i8 6, i8 7, i8 8>), DIOpSelect(), DIOpRead()",
            &ctx,
            "Ok",
        ),
        (
            "[i16, i16] DIOpPushLane(i8), DIOpArg(0, i16), DIOpExtend(8), DIOpArg(1, i16), DIOpExtend(8), DIOpSelect(), DIOpRead()",
            &ctx,
            "Inconsistent",
        ),
        (
            "[] DIOpConstant(i200 33477875922062297407124210257107554219212562370474850735445), DIOpConstant(<200 x i1> zeroinitializer), DIOpConstant(i1 1), DIOpExtend(200), DIOpSelect(), DIOpRead()",
            &ctx,
            "Ok",
        ),
        ("[] DIOpConstant(i4 undef), DIOpConstant(<4 x i8> zeroinitializer), DIOpConstant(<4 x i8> zeroinitializer), DIOpSelect()", &ctx, "ReadUndefined"),
        (
            "[] DIOpConstant(i65537 0), DIOpConstant(<65537 x i1> zeroinitializer), DIOpConstant(<65537 x i1> zeroinitializer), DIOpSelect()",
            &ctx,
            "ResourceLimit",
        ),
    ]);
}

#[test]
fn addr_of_and_deref() {
    let ctx = format!(
        "{MEM}%p = ptr 0x10\n%x = i32 7\narg 0 = %p\narg 1 = %x | mem(0, 0x10)\nreferrer = %x"
    );
    cases(&[
        ("[ptr] DIOpArg(0, ptr), DIOpDeref(i32), DIOpRead()", &ctx, "Ok"),
        ("[ptr, i32] DIOpArg(1, i32), DIOpAddrOf(5), DIOpDeref(i32)", &ctx, "Ok"),
        ("[ptr, i32] DIOpArg(1, i32), DIOpAddrOf(5)", &ctx, "Ok"),
        ("[ptr, i32] DIOpArg(1, i32), DIOpAddrOf(5), DIOpRead()", &ctx, "ImplicitAddressRead"),
        ("[ptr, i32] DIOpArg(1, i32), DIOpAddrOf(5), DIOpConstant(i8 0), DIOpBitOffset(ptr addrspace(5)), DIOpDeref(i32)", &ctx, "Ok"),
        ("[ptr, i32] DIOpArg(1, i32), DIOpAddrOf(5), DIOpConstant(i8 8), DIOpBitOffset(ptr addrspace(5)), DIOpDeref(i32)", &ctx, "ImplicitAddressRead"),
        ("[ptr, i32] DIOpArg(1, i32), DIOpAddrOf(5), DIOpConstant(i8 40), DIOpBitOffset(ptr addrspace(5)), DIOpDeref(i32)", &ctx, "ImplicitAddressRead"),
        ("diexpr [referrer: i32] DIOpReferrer(i32), DIOpAddrOf(5), DIOpDeref()", &ctx, "Ok"),
        ("[ptr] DIOpArg(0, ptr), DIOpDeref(i32)", "arg 0 = addrof(ptr, i32, %x) | %p\n%p = ptr 0\n%x = i32 1", "ImplicitAddressRead"),
        ("[ptr] DIOpArg(0, ptr), DIOpDeref(i32)", "arg 0 = addrof(ptr, i32, %x | mem(1, 4))\n%x = i32 1", "Ok"),
        ("[ptr] DIOpArg(0, ptr), DIOpDeref(i32), DIOpRead()", "arg 0 = addrof(ptr, i32, %x | mem(1, 4))\n%x = i32 1", "Inconsistent"),
        ("[ptr] DIOpArg(0, ptr), DIOpDeref(i32), DIOpRead()", "arg 0 = composite(%q : 64)\n%q = ptr 0x10\nmem 0 0x10 = 01 02 03 04", "Ok"),
        ("[ptr addrspace(5)] DIOpArg(0, ptr addrspace(5)), DIOpDeref(i8), DIOpRead()", "datalayout amdgpu\n%q = ptr addrspace(5) 0xffffffff\narg 0 = %q", "Ok"),
    ]);
}

#[test]
fn integer_arithmetic() {
    let ops = [
        "Add", "Sub", "Mul", "Div", "Mod", "And", "Or", "Xor", "Shl", "LShr", "AShr",
    ];
    let values: [(&str, &str); 10] = [
        ("i32 7", "i32 3"),
        ("i32 -7", "i32 3"),
        ("i32 7", "i32 -3"),
        ("i32 -2147483648", "i32 -1"),
        ("i32 5", "i32 0"),
        ("i32 -5", "i32 31"),
        ("i32 -5", "i32 32"),
        ("i32 -5", "i32 -1"),
        ("i1 1", "i1 1"),
        ("i128 -170141183460469231731687303715884105728", "i128 -1"),
    ];
    for op in ops {
        for (a, b) in values {
            let line = format!("[] DIOpConstant({a}), DIOpConstant({b}), DIOp{op}()");
            same(&line, "");
            let line = format!(
                "[] DIOpConstant({}), DIOpConstant({}), DIOp{op}()",
                a.replace("i32", "i200").replace("i128", "i300"),
                b.replace("i32", "i200").replace("i128", "i300")
            );
            same(&line, "");
        }
        let v = format!(
            "[] DIOpConstant(<4 x i32> <i32 1, i32 -2, i32 3, i32 -2147483648>), DIOpConstant(<4 x i32> <i32 5, i32 7, i32 0, i32 -1>), DIOp{op}()"
        );
        same(&v, "");
        let v = format!(
            "[] DIOpConstant(<6 x i48> <i48 1, i48 -2, i48 3, i48 4, i48 5, i48 6>), DIOpConstant(<6 x i48> <i48 5, i48 47, i48 1, i48 -1, i48 2, i48 3>), DIOp{op}()"
        );
        same(&v, "");
        let v = format!(
            "[] DIOpConstant(<2 x i130> <i130 1, i130 -2>), DIOpConstant(<2 x i130> <i130 129, i130 3>), DIOp{op}()"
        );
        same(&v, "");
    }
    cases(&[
        ("diexpr [] DIOpConstant(i32 -8), DIOpConstant(i32 1), DIOpShr()", "", "Ok"),
        ("[] DIOpConstant(i32 -8), DIOpConstant(i32 0), DIOpDiv()", "", "DivisionByZero"),
        ("[] DIOpConstant(<2 x i32> <i32 1, i32 1>), DIOpConstant(<2 x i32> <i32 1, i32 0>), DIOpMod()", "", "DivisionByZero"),
        ("[] DIOpConstant(i300 1), DIOpConstant(i300 0), DIOpMod()", "", "DivisionByZero"),
        ("[] DIOpConstant(i8 1), DIOpConstant(i8 undef), DIOpAdd()", "", "ReadUndefined"),
        ("[] DIOpConstant(i8 undef), DIOpConstant(i8 1), DIOpAdd()", "", "ReadUndefined"),
    ]);
}

#[test]
fn float_arithmetic() {
    let kinds: [(&str, [&str; 6]); 6] = [
        (
            "float",
            [
                "1.5",
                "-0.0",
                "0x7FF0000000000000",
                "0x7FF8000000000000",
                "0x7FF4000000000000",
                "0x36A0000000000000",
            ],
        ),
        (
            "double",
            [
                "1.5",
                "-0.0",
                "0x7FF0000000000000",
                "0x7FF8000000000000",
                "0x7FF4000000000001",
                "0x0000000000000001",
            ],
        ),
        (
            "half",
            ["1.5", "-0.0", "0xH7C00", "0xH7E00", "0xH7D00", "0xH0001"],
        ),
        (
            "bfloat",
            ["1.5", "-0.0", "0xR7F80", "0xR7FC0", "0xR7FA0", "0xR0001"],
        ),
        (
            "fp128",
            [
                "1.5",
                "-0.0",
                "0xL00000000000000007FFF000000000000",
                "0xL00000000000000007FFF800000000000",
                "0xL00000000000000017FFF000000000000",
                "0xL00000000000000010000000000000000",
            ],
        ),
        (
            "x86_fp80",
            [
                "1.5",
                "-0.0",
                "0xK7FFF8000000000000000",
                "0xK7FFFC000000000000000",
                "0xK7FFF8000000000000001",
                "0xK00000000000000000001",
            ],
        ),
    ];
    for (t, vals) in kinds {
        for op in ["Add", "Sub", "Mul", "Div"] {
            for a in vals {
                for b in vals {
                    same(
                        &format!("[] DIOpConstant({t} {a}), DIOpConstant({t} {b}), DIOp{op}()"),
                        "",
                    );
                }
            }
            same(&format!("[] DIOpConstant(<2 x {t}> <{t} {}, {t} {}>), DIOpConstant(<2 x {t}> <{t} {}, {t} {}>), DIOp{op}()", vals[0], vals[2], vals[3], vals[5]), "");
        }
    }
}

#[test]
fn conversions() {
    let ints = [
        "i8 -128",
        "i32 -1",
        "i64 9007199254740993",
        "i64 -9223372036854775808",
        "i128 170141183460469231731687303715884105727",
        "i200 -123456789012345678901234567890123456789012345678",
        "i1 1",
    ];
    let floats = ["float", "double", "half", "bfloat", "fp128", "x86_fp80"];
    for i in ints {
        for f in floats {
            same(&format!("[] DIOpConstant({i}), DIOpConvert({f})"), "");
        }
        for t in ["i1", "i8", "i64", "i100", "i128", "i300"] {
            same(
                &format!("diexpr [] DIOpConstant({i}), DIOpConvert({t})"),
                "",
            );
            same(&format!("[] DIOpConstant({i}), DIOpConvert({t})"), "");
            same(&format!("[] DIOpConstant({i}), DIOpZExt({t})"), "");
            same(&format!("[] DIOpConstant({i}), DIOpSExt({t})"), "");
        }
    }
    let fvals = [
        "1.5",
        "-1.5",
        "-0.0",
        "2147483647.0",
        "2147483648.0",
        "-2147483648.0",
        "-2147483649.0",
        "1e30",
        "0x7FF0000000000000",
        "0x7FF8000000000000",
        "0x7FF4000000000000",
        "1e-40",
    ];
    for f in floats {
        for v in fvals {
            let c = format!("DIOpConstant({f} {v})");
            if diopter_semantics::syntax::parse_bare(&format!("[] {c}")).is_err() {
                continue; // not representable in this kind (LLVM's rules)
            }
            for to in ["i1", "i8", "i32", "i64", "i127", "i128", "i129", "i200"] {
                same(&format!("[] {c}, DIOpConvert({to})"), "");
            }
            for to in floats {
                same(&format!("[] {c}, DIOpConvert({to})"), "");
            }
        }
    }
    cases(&[
        (
            "[] DIOpConstant(float 0x7FF8000000000000), DIOpConvert(i32)",
            "",
            "ConvertOutOfRange",
        ),
        (
            "[] DIOpConstant(double 2147483648.0), DIOpConvert(i32)",
            "",
            "ConvertOutOfRange",
        ),
        (
            "[] DIOpConstant(double -2147483648.5), DIOpConvert(i32)",
            "",
            "Ok",
        ),
        (
            "[] DIOpConstant(ptr null), DIOpConvert(ptr addrspace(5))",
            "datalayout amdgpu",
            "Ok",
        ),
        (
            "[ptr addrspace(5)] DIOpArg(0, ptr addrspace(5)), DIOpConvert(ptr)",
            "datalayout amdgpu\narg 0 = %p\n%p = ptr addrspace(5) 0xfffffff0",
            "Ok",
        ),
        (
            "[ptr] DIOpArg(0, ptr), DIOpConvert(i16)",
            "arg 0 = %p\n%p = ptr 0x123456789",
            "Ok",
        ),
        ("[] DIOpConstant(i16 -1), DIOpConvert(ptr)", "", "Ok"),
        ("[] DIOpConstant(i32 1), DIOpReinterpret(float)", "", "Ok"),
        (
            "[i64] DIOpArg(0, i64), DIOpReinterpret(<2 x i32>), DIOpRead()",
            "arg 0 = mem(0, 0x10)",
            "Ok",
        ),
    ]);
}

#[test]
fn fragments_and_whole_expression_errors() {
    cases(&[
        (
            "[ptr] -> i64 DIOpArg(0, ptr), DIOpFragment(0, 32), DIOpDeref(i32)",
            "arg 0 = mem(0, 0)",
            "Ok",
        ),
        (
            "[ptr] -> i64 DIOpArg(0, ptr), DIOpFragment(48, 32), DIOpDeref(i32)",
            "",
            "NoArgument",
        ),
        (
            "[ptr] -> i64 DIOpArg(0, ptr), DIOpFragment(48, 32), DIOpDeref(i32)",
            "arg 0 = mem(0, 0)",
            "IllFormed",
        ),
        (
            "[ptr] DIOpArg(0, ptr), DIOpFragment(0, 32), DIOpFragment(0, 32), DIOpDeref(i32)",
            "",
            "NoArgument",
        ),
        (
            "[ptr] DIOpArg(0, ptr), DIOpFragment(0, 32), DIOpFragment(0, 32), DIOpDeref(i32)",
            "arg 0 = mem(0, 0)",
            "IllFormed",
        ),
        (
            "[ptr] DIOpArg(0, ptr), DIOpFragment(0, 0)",
            "arg 0 = mem(0, 0)",
            "IllFormed",
        ),
        (
            "[] DIOpConstant(i32 1), DIOpConstant(i32 1)",
            "",
            "IllFormed",
        ),
        ("[] DIOpAdd()", "", "IllFormed"),
        (
            "[] DIOpConstant(i32 1), DIOpConstant(i64 1), DIOpAdd()",
            "",
            "IllFormed",
        ),
        (
            "[] DIOpConstant(i32 1), DIOpComposite(3, i96)",
            "",
            "IllFormed",
        ),
        ("[i32] DIOpArg(1, i32)", "", "IllFormed"),
        ("[i32] DIOpArg(0, i64)", "", "IllFormed"),
        (
            "[i32] DIOpArg(0, i32), DIOpArg(0, i32), DIOpComposite(2, i96)",
            "arg 0 = undef",
            "IllFormed",
        ),
        ("[i32] DIOpReferrer(i64)", "", "IllFormed"),
        (
            "[] DIOpConstant(i32 1), DIOpAddrOf(5), DIOpConstant(i32 1), DIOpAdd()",
            "",
            "IllFormed",
        ),
        (
            "[] DIOpConstant(float 1.0), DIOpConstant(float 1.0), DIOpMod()",
            "",
            "IllFormed",
        ),
        ("diexpr [] DIOpConstant(i32 1), DIOpConvert(i64)", "", "Ok"),
        ("[] DIOpConstant(i32 1), DIOpConvert(i64)", "", "IllFormed"),
        ("[] DIOpConstant(i32 1), DIOpZExt(i16)", "", "IllFormed"),
        (
            "[i8] DIOpArg(0, i8), DIOpConstant(i32 1), DIOpZExt(i16)",
            "",
            "NoArgument",
        ),
    ]);
}

/// Contexts the text format cannot say: a location with no single
/// location, implicit values and composites nested in many ways.
#[test]
fn programmatic_contexts() {
    let types = TypeTable::default();
    let mut ctx = Context::new(DataLayout::default());
    ctx.set_entity("%x", Bits::from_u64(32, 0xdead_beef));
    ctx.args.insert(0, LocDesc { singles: vec![] });
    ctx.args.insert(
        1,
        LocDesc::composite(vec![
            Part {
                loc: LocDesc { singles: vec![] },
                bits: 0,
            },
            Part {
                loc: LocDesc::multi(vec![
                    LocDesc::entity("%x", 0),
                    LocDesc::implicit(Bits::from_u64(32, 0xdead_beef)),
                ]),
                bits: 32,
            },
        ]),
    );
    ctx.args.insert(
        2,
        LocDesc {
            singles: vec![Single {
                storage: Storage::Memory { addrspace: 7 },
                offset: BigInt::from(-8),
            }],
        },
    );
    // An entity the context does not have.
    ctx.args.insert(3, LocDesc::entity("%nope", 0));
    // A part with no single location, printed in an `Inconsistent` message.
    ctx.args.insert(
        4,
        LocDesc::multi(vec![
            LocDesc::composite(vec![
                Part {
                    loc: LocDesc { singles: vec![] },
                    bits: 0,
                },
                Part {
                    loc: LocDesc::entity("%x", 0),
                    bits: 32,
                },
            ]),
            LocDesc::implicit(Bits::from_u64(32, 1)),
        ]),
    );
    let args = [ArgInfo {
        ty: Some(Type::Int(32)),
        bits: None,
        poison: false,
    }; 0];
    let env = Env {
        dialect: Dialect::DiExpression,
        dl: &ctx.datalayout,
        types: &types,
        args: Some(&args[..]),
        referrer: &ReferrerInfo::Known {
            ty: None,
            bits: None,
        },
        var_bits: None,
    };
    let env = Env { args: None, ..env };
    let mut scratch = fast::Scratch::new();
    for (ops, want) in [
        (vec![Op::Arg(0, Type::Int(32))], "Ok"),
        (vec![Op::Arg(0, Type::Int(32)), Op::Read], "ReadUndefined"),
        (vec![Op::Arg(0, Type::Int(0)), Op::Read], "ReadUndefined"),
        (vec![Op::Arg(1, Type::Int(32)), Op::Read], "Ok"),
        (vec![Op::Arg(2, Type::Int(32)), Op::Read], "OutOfBounds"),
        (vec![Op::Referrer(Type::Int(32))], "Ok"),
        (vec![Op::Arg(3, Type::Int(8)), Op::Read], "ReadUndefined"),
        (vec![Op::Arg(4, Type::Int(32)), Op::Read], "Inconsistent"),
    ] {
        let e = Expr::new(Dialect::DiExpression, ops);
        let reference = interp::eval(&e, &env, &ctx);
        let fast = fast::compile_unchecked(&e, &env).eval(&ctx, &mut scratch);
        assert_eq!(fast, reference);
        assert_eq!(class(&fast), want, "{fast:?}");
    }
    // Compiling checks; a checked program runs the same.
    let e = Expr::new(Dialect::DiExpression, vec![Op::Add]);
    assert!(fast::compile(&e, &env).is_err());
    let e = Expr::new(
        Dialect::DiExpression,
        vec![Op::Arg(1, Type::Int(32)), Op::Read],
    );
    let c = fast::compile(&e, &env).expect("well-formed");
    assert_eq!(c.eval(&ctx, &mut scratch), interp::eval(&e, &env, &ctx));
    assert_eq!(
        fast::eval_once(&e, &env, &ctx),
        interp::eval(&e, &env, &ctx)
    );
    assert_eq!(
        ErrorKind::IllFormed,
        fast::eval_once(&Expr::new(Dialect::DiExpr, vec![]), &env, &ctx)
            .unwrap_err()
            .kind
    );
}

/// Integers wider than 128 bits, which the fast evaluator computes on
/// words: random values and every shift amount class.
#[test]
fn wide_integers_random() {
    let mut rng = support::Rng(11);
    let ops = [
        "Add", "Sub", "Mul", "Div", "Mod", "And", "Or", "Xor", "Shl", "LShr", "AShr",
    ];
    for w in [129u64, 130, 192, 200, 256, 1000] {
        for _ in 0..12 {
            let a = rng.bits(w).to_bigint();
            let b = rng.bits(w).to_bigint();
            let amounts = [
                BigInt::from(rng.below(w)),
                BigInt::from(64),
                BigInt::from(w - 1),
                BigInt::from(w),
                b.clone(),
            ];
            for op in ops {
                same(
                    &format!("[] DIOpConstant(i{w} {a}), DIOpConstant(i{w} {b}), DIOp{op}()"),
                    "",
                );
            }
            for s in &amounts {
                for op in ["Shl", "LShr", "AShr"] {
                    same(
                        &format!("[] DIOpConstant(i{w} {a}), DIOpConstant(i{w} {s}), DIOp{op}()"),
                        "",
                    );
                }
            }
            if w <= 256 {
                let c = rng.bits(w).to_bigint();
                let d = rng.bits(w).to_bigint();
                for op in ops {
                    same(
                        &format!(
                            "[] DIOpConstant(<3 x i{w}> <i{w} {a}, i{w} {b}, i{w} {c}>), \
                             DIOpConstant(<3 x i{w}> <i{w} {d}, i{w} {}, i{w} {a}>), DIOp{op}()",
                            rng.below(w + 1)
                        ),
                        "",
                    );
                }
            }
            for to in [w + 1, w + 63, 2 * w] {
                same(&format!("[] DIOpConstant(i{w} {a}), DIOpSExt(i{to})"), "");
                same(&format!("[] DIOpConstant(i{w} {a}), DIOpZExt(i{to})"), "");
            }
        }
    }
}

/// `Inconsistent` messages print the disagreeing single locations; the fast
/// evaluator writes that text itself, so every shape of location is here.
#[test]
fn inconsistent_messages() {
    let defs = "mem 1 0x10 = 5a 5b 5c\n%x = i16 0x1234\n%y = i16 0x4321\n%\"a b\" = i8 7\n";
    let read = |bits: u32, at: u32| {
        format!("[i{bits}] DIOpArg(0, i{bits}), DIOpConstant(i32 {at}), DIOpBitOffset(i{bits}), DIOpRead()")
    };
    let locs = [
        (8, 8, "composite(mem(1, -0x1) | %x - 8 : 16)"),
        (8, 0, "mem(1, 0x10) + 3 | %x"),
        (8, 0, "%\"a b\" | %x"),
        (8, 0, "implicit(i8 0) | implicit(i8 1)"),
        (
            200,
            0,
            "implicit(i200 5) | implicit(i200 0x1000000000000000000000000000000000000000000000006)",
        ),
        (
            8,
            0,
            "composite(%x : 8, addrof(ptr, i32, %x | mem(0, 8)) : 64) | %y",
        ),
        (
            8,
            0,
            "composite(implicit({} zeroinitializer) : 0, %x : 8) | %y",
        ),
        (8, 0, "composite(%x : 8, undef : 8) | %y + 8"),
        (
            8,
            0,
            "composite(composite(%x : 8) : 8) | composite(%y : 4, %x + 4 : 4)",
        ),
        (8, 0, "%x | %x | %y"),
        (8, 16, "mem(1, -0x2) | implicit(i24 0xffffff) - 16"),
    ];
    for (bits, at, l) in locs {
        let o = agree_text(&read(bits, at), &format!("{defs}arg 0 = {l}"));
        assert_eq!(class(&o), "Inconsistent", "{l}: {o:?}");
    }
}

/// `DIOpSelect` copies its input locations into every lane, so a tower of
/// Selects grows by a factor of 8 per level; both evaluators stop it at the
/// same operation with a resource limit (`location::MAX_LOC_NODES`), and
/// agree exactly below it.
#[test]
fn location_size_limit() {
    use diopter_semantics::syntax::parse_bare;
    let tower = |levels: usize| {
        let lanes = "DIOpConstant(<8 x i8> zeroinitializer)";
        let mut ops = vec!["DIOpConstant(i8 0)".to_string(); levels];
        for k in 0..levels {
            if k == 0 {
                ops.push(lanes.to_string());
            }
            ops.push(lanes.to_string());
            ops.push("DIOpSelect()".to_string());
        }
        format!("[] {}", ops.join(", "))
    };
    let types = TypeTable::default();
    let ctx = Context::default();
    let mut scratch = fast::Scratch::new();
    // 5 levels: 37449 single locations, the same in both.
    let b = parse_bare(&tower(5)).unwrap();
    let r = support::agree(&b, &types, &ctx, &mut scratch).expect("under the limit");
    assert_eq!(r.loc.node_count(), 37449);
    // 6 and 30 levels: a resource limit at the sixth Select in both.
    for levels in [6, 30] {
        let b = parse_bare(&tower(levels)).unwrap();
        let e = support::agree(&b, &types, &ctx, &mut scratch).unwrap_err();
        assert_eq!(e.kind, ErrorKind::ResourceLimit, "{}", e.message);
        assert_eq!(e.op_index, levels + 2 + 2 * 5);
    }
}

/// `fast::compile` refuses what the checker refuses, and its error reads as
/// the checker's messages joined by "; " (what a caller prints).
#[test]
fn compile_errors_carry_the_checkers_messages() {
    use diopter_semantics::ast::Span;
    use diopter_semantics::diag::Diagnostic;
    let b = diopter_semantics::syntax::parse_bare(
        "[i32] DIOpArg(0, i32), DIOpArg(0, i32), DIOpAdd(), DIOpDeref(i8)",
    )
    .expect("parses");
    let (dl, types) = (DataLayout::default(), TypeTable::default());
    let inputs = diopter_semantics::check::BareInputs::of(&b, &dl, &types);
    let env = inputs.env(b.expr.dialect, &dl, &types);
    let err = match fast::compile(&b.expr, &env) {
        Ok(_) => panic!("DIOpDeref of an integer compiled"),
        Err(e) => e,
    };
    assert!(!err.diagnostics.is_empty());
    assert_eq!(err.to_string(), err.diagnostics[0].message);
    let two = fast::CompileError {
        diagnostics: vec![
            Diagnostic::error(Span { start: 0, end: 1 }, "first"),
            Diagnostic::error(Span { start: 2, end: 3 }, "second"),
        ],
    };
    assert_eq!(two.to_string(), "first; second");
}
