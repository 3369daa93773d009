; source: seed 000, section "Implicit Pointer Location Description" (simplify by eliminating %p), lines 1133-1145
; note: `load i64 %0, i64 addrspace(5)* %x.addr` is malformed as LLVM IR (no `%0 =`); read as an opaque instruction, left as printed.
%x.addr = alloca i64, addrspace(5)
store i64 addrspace(5)* %x.addr, i64 ...
call void @llvm.dbg.def(metadata !2, metadata i64 addrspace(5)* %x.addr)
call void @llvm.dbg.def(metadata !4, metadata i64 addrspace(5)* %x.addr)
load i64 %0, i64 addrspace(5)* %x.addr
return i64 %0

!1 = !DILocalVariable("x", ...)
!2 = distinct !DILifetime(object: !1, location: !DIExpr(DIOpReferrer(i64 addrspace(5)*), DIOpDeref()))
!3 = !DILocalVariable("p", ...)
!4 = distinct !DILifetime(object: !3, location: !DIExpr(DIOpReferrer(i64 addrspace(5)*)))
