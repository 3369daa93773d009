; The spec's "Variable Broken Into Two Scalars" before-program (seed 000,
; lines 1215-1223, corpus/spec/10-two-scalars-before.ll) in the form the
; pass rewrites: the referrer is the i64 SSA value the spec's after-program
; composes from two i32 halves (the spec prints `i64 addrspace(5)* %x`, see
; corpus/spec/NOTES.md). `diopter transform --pass sroa` of this file.
%x = i64 ...
call void @llvm.dbg.def(metadata !2, metadata i64 %x)
...
call void @llvm.dbg.kill(metadata !2)

!1 = !DILocalVariable("x", ...)
!2 = distinct !DILifetime(object: !1, location: !DIExpr(DIOpReferrer(i64)))
