; source: seed 000, section "Implicit Pointer Location Description" (simplify adjacent DIOpAddrOf(5), DIOpDeref()), lines 1166-1176
; typo: the spec prints `call void @llvm.dbg.def(metadata !2, metadata i64 %x)` twice (line 1169); diopter reads `call void @llvm.dbg.def(metadata !4, metadata i64 %x)` for the second. The previous stage defs !2 and !4 with %x; as printed !2 would have two llvm.dbg.def calls and !4 (which uses DIOpReferrer) none, which is ill-formed.
%x = i64 ...
call void @llvm.dbg.def(metadata !2, metadata i64 %x)
call void @llvm.dbg.def(metadata !4, metadata i64 %x)
return i64 %x

!1 = !DILocalVariable("x", ...)
!2 = distinct !DILifetime(object: !1, location: !DIExpr(DIOpReferrer(i64)))
!3 = !DILocalVariable("p", ...)
!4 = distinct !DILifetime(object: !3, location: !DIExpr(DIOpReferrer(i64), DIOpAddrOf(5)))
