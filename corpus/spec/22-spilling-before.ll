; source: seed 000, section "Example Ideas" / "Spilling", lines 1755-1763
%x = i32 ...
call void @llvm.dbg.def(metadata !1, metadata i32 %x)
...
call void @llvm.dbg.kill(metadata !1)

!0 = !DILocalVariable("x")
!1 = distinct !DILifetime(object: !0, location: !DIExpr(DIOpReferrer(i32)))
