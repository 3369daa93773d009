; source: seed 000, section "Common Subexpression Elimination (CSE)" (expected result of EarlyCSE), lines 1645-1670
; typo: the spec prints all five calls with swapped arguments, e.g. `call void @llvm.dbg.def(metadata i32* %bar, metadata !19)`; diopter reads `call void @llvm.dbg.def(metadata !19, metadata i32* %bar)` (the DILifetime is the first argument of llvm.dbg.def).
; typo: the spec prints `!21 = distinct !DILifetime(object: !17, location: !DIExpr(DIOpReferrer(i32), DIOpRead()))` (a second !21) and `!22 = distinct !DILifetime(object: !18, ...)`; diopter reads `!22 = ... object: !17 ...` and `!23 = ... object: !18 ...`, matching the calls that def !22 and !23 with %0 (as printed !21 is defined twice and !23 never).
; note: the `!dbg !N` / `!tbaa !N` attachments and `!dbg !8` on the define are left over from the llvm.dbg.value version of this function: !19-!21 are now DILifetimes and !8, !25, !26 are undefined. They are left as printed; diopter ignores instruction and function attachments.
define dso_local i32 @foo(i32* %bar, i32 %arg, i32 %more) #0 !dbg !8 {
entry:
  call void @llvm.dbg.def(metadata !19, metadata i32* %bar), !dbg !19
  call void @llvm.dbg.def(metadata !20, metadata i32 %arg), !dbg !19
  call void @llvm.dbg.def(metadata !21, metadata i32 %more), !dbg !19
  %0 = load i32, i32* %bar, align 4, !dbg !20, !tbaa !21

  call void @llvm.dbg.def(metadata !22, metadata i32 %0), !dbg !19
  call void @llvm.dbg.def(metadata !23, metadata i32 %0), !dbg !19

  %add = add nsw i32 %more, %0, !dbg !25
  ret i32 %add, !dbg !26
}

!14 = !DILocalVariable("bar", ...)
!15 = !DILocalVariable("arg", ...)
!16 = !DILocalVariable("more", ...)
!17 = !DILocalVariable("redundant", ...)
!18 = !DILocalVariable("loaded", ...)
!19 = distinct !DILifetime(object: !14, location: !DIExpr(DIOpReferrer(i32*)))
!20 = distinct !DILifetime(object: !15, location: !DIExpr(DIOpReferrer(i32)))
!21 = distinct !DILifetime(object: !16, location: !DIExpr(DIOpReferrer(i32)))
!22 = distinct !DILifetime(object: !17, location: !DIExpr(DIOpReferrer(i32), DIOpRead()))
!23 = distinct !DILifetime(object: !18, location: !DIExpr(DIOpReferrer(i32), DIOpRead()))
