; source: seed 000, section "Implicit Pointer Location Description", lines 1091-1106
; note: `%p.addr = alloca i64*, addrspace(5)` allocates an `i64*` although the stored value and the referrer are `i64 addrspace(5)*`; opaque instruction, left as printed.
%x.addr = alloca i64, addrspace(5)
call void @llvm.dbg.def(metadata !2, metadata i64 addrspace(5)* %x.addr)
store i64 addrspace(5)* %x.addr, i64 ...
%p.addr = alloca i64*, addrspace(5)
call void @llvm.dbg.def(metadata !4, metadata i64 addrspace(5)* addrspace(5)* %p.addr)
store i64 addrspace(5)* addrspace(5)* %p.addr, i64 addrspace(5)* %x.addr
%0 = load i64 addrspace(5)* addrspace(5)* %p.addr
%1 = load i64 addrspace(5)* %0
ret i64 %1

!1 = !DILocalVariable("x", ...)
!2 = distinct !DILifetime(object: !1, location: !DIExpr(DIOpReferrer(i64 addrspace(5)*), DIOpDeref()))
!3 = !DILocalVariable("p", ...)
!4 = distinct !DILifetime(object: !3, location: !DIExpr(DIOpReferrer(i64 addrspace(5)* addrspace(5)*), DIOpDeref()))
