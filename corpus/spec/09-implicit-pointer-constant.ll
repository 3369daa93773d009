; source: seed 000, section "Implicit Pointer Location Description" (%x assigned a constant), lines 1181-1190
; typo: the spec prints `DIOpConstant(i64 ...)` (twice, a placeholder literal); diopter reads `DIOpConstant(i64 42)`.
; note: `return i64 ...` is pseudo IR; opaque instruction, left as printed. The referrers are `i1 undef`; neither expression uses DIOpReferrer.
call void @llvm.dbg.def(metadata !2, metadata i1 undef)
call void @llvm.dbg.def(metadata !4, metadata i1 undef)
return i64 ...

!1 = !DILocalVariable("x", ...)
!2 = distinct !DILifetime(object: !1, location: !DIExpr(DIOpConstant(i64 42)))
!3 = !DILocalVariable("p", ...)
!4 = distinct !DILifetime(object: !3, location: !DIExpr(DIOpConstant(i64 42), DIOpAddrOf(5)))
