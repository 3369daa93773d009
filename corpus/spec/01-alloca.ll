; source: seed 000, section "Variable Located In An `alloca`", lines 1037-1046
; note: `store i64* %x.addr, ...` is pseudo IR (pointer type without addrspace(5)); read as an opaque instruction, left as printed.
%x.addr = alloca i64, addrspace(5)
call void @llvm.dbg.def(metadata !2, metadata i64 addrspace(5)* %x.addr)
store i64* %x.addr, ...
...
call void @llvm.dbg.kill(metadata !2)

!1 = !DILocalVariable("x", ...)
!2 = distinct !DILifetime(object: !1, location: !DIExpr(DIOpReferrer(i64 addrspace(5)*), DIOpDeref()))
