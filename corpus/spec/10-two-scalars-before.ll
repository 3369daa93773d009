; source: seed 000, section "Variable Broken Into Two Scalars", lines 1215-1223
; note: the referrer is `i64 addrspace(5)* %x` while the next block composes two i32 halves into an i64 ("Transformed a `i64` SSA value"); readable and well-formed as printed, left as printed (see NOTES.md).
%x = ...
call void @llvm.dbg.def(metadata !2, metadata i64 addrspace(5)* %x)
...
call void @llvm.dbg.kill(metadata !2)

!1 = !DILocalVariable("x", ...)
!2 = distinct !DILifetime(object: !1, location: !DIExpr(DIOpReferrer(i64 addrspace(5)*)))
