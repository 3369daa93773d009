//! The fast evaluator does not allocate per operation: with a warmed-up
//! `Scratch`, an evaluation allocates only for its final result (the
//! reference's `Located`), however many operations ran. Counted with a
//! global allocator that counts.

use diopter_fast::{self as fast, Scratch};
use diopter_semantics::check::BareInputs;
use diopter_semantics::context::Context;
use diopter_semantics::syntax::parse_bare;
use diopter_semantics::types::TypeTable;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Allocations of the second evaluation of `line` in `ctx` (the first one
/// grows the scratch).
fn allocations(line: &str, ctx: &str) -> usize {
    let b = parse_bare(line).expect("parses");
    let ctx = Context::parse(ctx).expect("parses");
    let types = TypeTable::default();
    let inputs = BareInputs::of(&b, &ctx.datalayout, &types);
    let env = inputs.env(b.expr.dialect, &ctx.datalayout, &types);
    let p = fast::compile(&b.expr, &env).expect("well-formed");
    let mut scratch = Scratch::new();
    let first = p.eval(&ctx, &mut scratch);
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    let second = p.eval(&ctx, &mut scratch);
    let n = ALLOCATIONS.load(Ordering::Relaxed) - before;
    drop(second);
    assert!(first.is_ok(), "{first:?}");
    n
}

#[test]
fn evaluation_allocates_only_its_result() {
    let ctx = "mem 1 0x20 = 01 02 03 04 05 06 07 08\n%x = i32 7\n%p = ptr addrspace(1) 0x20\n\
               arg 0 = %p\narg 1 = %x | mem(1, 0x20)\narg 2 = composite(%x : 16, mem(1, 0x22) : 16)\nlane 3";
    let short = "[ptr addrspace(1), i32, i32] DIOpConstant(i32 1), DIOpConstant(i32 2), DIOpAdd()";
    let long = "[ptr addrspace(1), i32, i32] DIOpArg(0, ptr addrspace(1)), DIOpDeref(i32), DIOpArg(2, i32), DIOpAdd(), \
                DIOpPushLane(i32), DIOpMul(), DIOpConstant(i32 3), DIOpShl(), DIOpArg(0, ptr addrspace(1)), \
                DIOpDeref(i32), DIOpConstant(i8 2), DIOpByteOffset(i32), DIOpXor(), DIOpConvert(float), \
                DIOpConstant(float 1.5), DIOpMul(), DIOpConvert(i64), DIOpConstant(i64 -3), DIOpDiv(), \
                DIOpConvert(i32), DIOpArg(2, i32), DIOpExtend(2), DIOpReinterpret(i64), DIOpConvert(i32), \
                DIOpSub(), DIOpSExt(i64), DIOpExtend(1), DIOpReinterpret(<2 x i32>), \
                DIOpConstant(<2 x i32> <i32 1, i32 2>), DIOpAdd(), DIOpReinterpret(i64), DIOpConvert(i32)";
    let a = allocations(short, ctx);
    let b = allocations(long, ctx);
    // Both results are one implicit `i32`: the same allocations for the
    // `Located`, nothing for the 30-odd operations in between.
    assert_eq!(a, b, "short: {a}, long: {b}");
    assert!(a <= 4, "{a} allocations for one implicit i32");
    eprintln!("allocations per evaluation: {a} (3 operations), {b} (33 operations)");
}
