; The spec's "Proven Constant" before-program (seed 000, lines 1444-1452,
; corpus/spec/19-proven-constant-before.ll) with the value the spec elides
; (`%x = i64 ...`) written as the constant the pass proves (the spec's
; after-program uses 42). `diopter transform --pass proven-constant` of it.
%x = i64 42
call void @llvm.dbg.def(metadata !2, metadata i64 %x)
...
call void @llvm.dbg.kill(metadata !2)

!1 = !DILocalVariable("x", ...)
!2 = distinct !DILifetime(object: !1, location: !DIExpr(DIOpReferrer(i64)))
