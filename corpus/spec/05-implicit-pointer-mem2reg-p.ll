; source: seed 000, section "Implicit Pointer Location Description" (first round of mem2reg promotes %p.addr), lines 1116-1129
; note: `return` (not `ret`) is pseudo IR; read as an opaque instruction.
%x.addr = alloca i64, addrspace(5)
store i64 addrspace(5)* %x.addr, i64 ...
call void @llvm.dbg.def(metadata !2, metadata i64 addrspace(5)* %x.addr)
%p = i64 addrspace(5)* %x.addr
call void @llvm.dbg.def(metadata !4, metadata i64 addrspace(5)* %p)
%0 = load i64 addrspace(5)* %p
return i64 %0

!1 = !DILocalVariable("x", ...)
!2 = distinct !DILifetime(object: !1, location: !DIExpr(DIOpReferrer(i64 addrspace(5)*), DIOpDeref()))
!3 = !DILocalVariable("p", ...)
!4 = distinct !DILifetime(object: !3, location: !DIExpr(DIOpReferrer(i64 addrspace(5)*), DIOpAddrOf(5), DIOpDeref()))
