; source: seed 000, section "Proven Constant", lines 1456-1463
; typo: the spec prints `DIOpConstant(i64 ...)` (a placeholder literal); diopter reads `DIOpConstant(i64 42)`.
call void @llvm.dbg.def(metadata !2, metadata i64 undef)
...
call void @llvm.dbg.kill(metadata !2)

!1 = !DILocalVariable("x", ...)
!2 = distinct !DILifetime(object: !1, location: !DIExpr(DIOpConstant(i64 42)))
