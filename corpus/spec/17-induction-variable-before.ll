; source: seed 000, section "Induction Variable", lines 1378-1398
; typo: the spec prints `call void @llvm.dbg.def(metadata !4, i64 %y)` (line 1383); diopter reads `call void @llvm.dbg.def(metadata !4, metadata i64 %y)` (the second argument must be value-as-metadata).
; typo: the spec prints `call void @llvm.dbg.def(metadata !6, metadata i64 %z)` (line 1386); diopter reads `call void @llvm.dbg.def(metadata !6, metadata i64 %i)`. %z is defined nowhere; the value defined on the line above is %i and !6 is the lifetime of variable "i". (Decision: corrected rather than kept as an opaque entity name, so the file is also valid for a reader that requires referrers to be defined.)
%x = i64 ...
call void @llvm.dbg.def(metadata !2, metadata i64 %x)
...
%y = i64 ...
call void @llvm.dbg.def(metadata !4, metadata i64 %y)
...
%i = i64 ...
call void @llvm.dbg.def(metadata !6, metadata i64 %i)
...
call void @llvm.dbg.kill(metadata !6)
call void @llvm.dbg.kill(metadata !4)
call void @llvm.dbg.kill(metadata !2)

!1 = !DILocalVariable("x", ...)
!2 = distinct !DILifetime(object: !1, location: !DIExpr(DIOpReferrer(i64)))
!3 = !DILocalVariable("y", ...)
!4 = distinct !DILifetime(object: !3, location: !DIExpr(DIOpReferrer(i64)))
!5 = !DILocalVariable("i", ...)
!6 = distinct !DILifetime(object: !5, location: !DIExpr(DIOpReferrer(i64)))
