; source: seed 000, section "Example Ideas" / "Spilling" (spill %x), lines 1767-1776
; typo: the spec prints `call void @llvm.dbg.def(metadata !1, metadata i32 *%x)` (line 1770); diopter reads `call void @llvm.dbg.def(metadata !1, metadata i32 addrspace(5)* %x.addr)`. The expression derefs its referrer as an `i32 addrspace(5)*`, so the referrer is the stack slot %x.addr (defined by the alloca above), not %x (not defined in this block), and its type is the alloca's `i32 addrspace(5)*`.
; note: `store i32* %x.addr, ...` is pseudo IR; opaque instruction, left as printed.
%x.addr = alloca i32, addrspace(5)
store i32* %x.addr, ...
call void @llvm.dbg.def(metadata !1, metadata i32 addrspace(5)* %x.addr)
...
call void @llvm.dbg.kill(metadata !1)

!0 = !DILocalVariable("x")
!1 = distinct !DILifetime(object: !0, location: !DIExpr(DIOpReferrer(i32 addrspace(5)*), DIOpDeref()))
