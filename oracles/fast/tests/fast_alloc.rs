//! The fast evaluator does not allocate per operation: with a warmed-up
//! `Scratch`, its own compact result (`Compiled::run`) allocates nothing,
//! a failure's message included until it is asked for, and the conversion
//! to the reference's `Outcome` allocates only for that result, however
//! many operations ran. Counted with a global allocator that counts.

use diopter_fast::{self as fast, Scratch};
use diopter_semantics::check::BareInputs;
use diopter_semantics::context::Context;
use diopter_semantics::syntax::parse_bare;
use diopter_semantics::types::TypeTable;
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

struct Counting;

// Counted per thread: the test harness runs this file's tests on several
// threads at once, and another test's allocations are not this one's.
thread_local! {
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

fn bump() {
    // `try_with`: the allocator may run while the thread is torn down.
    let _ = ALLOCATIONS.try_with(|c| c.set(c.get() + 1));
}

fn allocated() -> usize {
    ALLOCATIONS.with(Cell::get)
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        bump();
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        bump();
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// `line` compiled, and the context `ctx` parsed.
fn program(line: &str, ctx: &str) -> (fast::Compiled, Context) {
    let b = parse_bare(line).expect("parses");
    let ctx = Context::parse(ctx).expect("parses");
    let types = TypeTable::default();
    let inputs = BareInputs::of(&b, &ctx.datalayout, &types);
    let env = inputs.env(b.expr.dialect, &ctx.datalayout, &types);
    (fast::compile(&b.expr, &env).expect("well-formed"), ctx)
}

/// Allocations of the second evaluation of `line` in `ctx` (the first one
/// grows the scratch).
fn allocations(line: &str, ctx: &str) -> usize {
    let (p, ctx) = program(line, ctx);
    let mut scratch = Scratch::new();
    let first = p.eval(&ctx, &mut scratch);
    let before = allocated();
    let second = p.eval(&ctx, &mut scratch);
    let n = allocated() - before;
    drop(second);
    assert!(first.is_ok(), "{first:?}");
    n
}

/// Allocations of the second compact evaluation of `line` in `ctx`, and
/// then of writing its message (0 when it succeeds); `prepared`: in the
/// context prepared beforehand (preparing it allocates, running does not).
fn compact_allocations(line: &str, ctx: &str, prepared: bool) -> (usize, usize, bool) {
    let (p, ctx) = program(line, ctx);
    let pre = fast::PreparedContext::new(&ctx);
    let mut scratch = Scratch::new();
    fn run<'a>(
        p: &'a fast::Compiled,
        ctx: &'a Context,
        pre: Option<&'a fast::PreparedContext<'_>>,
        scratch: &'a mut Scratch,
    ) -> fast::Evaluation<'a> {
        match pre {
            Some(pre) => p.run_prepared(pre, scratch),
            None => p.run(ctx, scratch),
        }
    }
    let pre = prepared.then_some(&pre);
    drop(run(&p, &ctx, pre, &mut scratch));
    let before = allocated();
    let run = run(&p, &ctx, pre, &mut scratch);
    let ok = run.is_ok() && run.single_count() == 1;
    let n = allocated() - before;
    let before = allocated();
    let message = run.failure().map(|f| f.message());
    let m = allocated() - before;
    drop(message);
    drop(run);
    (n, m, ok)
}

#[test]
fn the_compact_result_allocates_nothing() {
    let ctx = "mem 1 0x20 = 01 02 03 04 05 06 07 08\n%x = i32 7\n%p = ptr addrspace(1) 0x20\n\
               arg 0 = %p\narg 1 = %x | mem(1, 0x20)\narg 2 = composite(%x : 16, mem(1, 0x22) : 16)\nlane 3";
    let ok = "[ptr addrspace(1), i32, i32] DIOpArg(0, ptr addrspace(1)), DIOpDeref(i32), DIOpArg(2, i32), \
              DIOpAdd(), DIOpPushLane(i32), DIOpMul(), DIOpArg(2, i32), DIOpExtend(2), DIOpReinterpret(i64), \
              DIOpConvert(i32), DIOpSub()";
    for prepared in [false, true] {
        assert_eq!(compact_allocations(ok, ctx, prepared), (0, 0, true));
        // Failures: arg 1's two single locations disagree; a read past the
        // end of an entity; division by zero. The message is written on
        // demand.
        for failing in [
            "[ptr addrspace(1), i32, i32] DIOpArg(1, i32), DIOpConstant(i32 1), DIOpAdd()",
            "[ptr addrspace(1), i32, i32] DIOpArg(1, i32), DIOpConstant(i32 8), DIOpBitOffset(i64), DIOpRead()",
            "[ptr addrspace(1), i32, i32] DIOpConstant(i32 1), DIOpConstant(i32 0), DIOpDiv()",
        ] {
            let (n, m, ok) = compact_allocations(failing, ctx, prepared);
            assert!(!ok, "{failing} should fail");
            assert_eq!(n, 0, "{failing}: the failing run allocated");
            assert!(m >= 1, "{failing}: the message was not written");
        }
    }
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
