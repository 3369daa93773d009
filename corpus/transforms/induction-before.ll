; The spec's "Induction Variable" before-program (seed 000, lines
; 1378-1398, corpus/spec/17-induction-variable-before.ll, with its typos read
; as noted there) with the computation the spec elides (`%i = i64 ...`)
; written as the sum the pass recognises, `%i = add i64 %x, %y` (the spec's
; after-program describes i as x + y). `diopter transform --pass induction`
; of this file.
%x = i64 ...
call void @llvm.dbg.def(metadata !2, metadata i64 %x)
...
%y = i64 ...
call void @llvm.dbg.def(metadata !4, metadata i64 %y)
...
%i = add i64 %x, %y
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
