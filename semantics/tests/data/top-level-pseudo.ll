; The spec's pseudo IR: instruction lines outside any function, `...`
; placeholders, a MIR register, positional variable names, a global in the
; spec's short form with a default lifetime, and argObjects in braces.
@g = i64 !dbg.default !9

%x = i64 ...
call void @llvm.dbg.def(metadata !2, metadata i64 %x)
...
$r1 = MOV ...
DBG_DEF !4, $r1
...
call void @llvm.dbg.kill(metadata !2)
DBG_KILL !4
RETURN

!1 = !DILocalVariable("x", ...)
!2 = distinct !DILifetime(object: !1, location: !DIExpr(DIOpReferrer(i64)))
!3 = distinct !DIFragment()
!4 = distinct !DILifetime(object: !3, location: !DIExpr(DIOpReferrer(i32)))
!5 = !DILocalVariable("y", ...)
!6 = distinct !DILifetime(object: !5, location: !DIExpr(DIOpArg(0, i32), DIOpConstant(i32 1), DIOpAdd()), argObjects: {!3})
!8 = !DIGlobalVariable("g")
!9 = distinct !DILifetime(object: !8, location: !DIExpr(DIOpReferrer(i64 addrspace(1)*), DIOpDeref()))
