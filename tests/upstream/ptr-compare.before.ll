; A pointer compare under a record (`icmp ne ptr %a, null`, an i1 in an
; 8-bit variable as debugify makes it). ptr-compare.after.ll salvages it
; as InstCombine does when it sinks the compare (DW_OP_ne over the two
; pointers) in @sunk, and with the wrong operation in @wrong.
define i1 @sunk(ptr %a) !dbg !5 {
entry:
  %cmp = icmp ne ptr %a, null, !dbg !12
    #dbg_value(i1 %cmp, !9, !DIExpression(), !12)
  br label %taken

taken:
  ret i1 %cmp
}

define i1 @wrong(ptr %a) !dbg !13 {
entry:
  %cmp = icmp ne ptr %a, null, !dbg !15
    #dbg_value(i1 %cmp, !14, !DIExpression(), !15)
  br label %taken

taken:
  ret i1 %cmp
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!4}

!0 = distinct !DICompileUnit(language: DW_LANG_C, file: !1, producer: "debugify", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "ptr-compare.ll", directory: "/")
!4 = !{i32 2, !"Debug Info Version", i32 3}
!5 = distinct !DISubprogram(name: "sunk", linkageName: "sunk", scope: null, file: !1, line: 1, type: !6, scopeLine: 1, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !7)
!6 = !DISubroutineType(types: !7)
!7 = !{}
!8 = !DIBasicType(name: "ty8", size: 8, encoding: DW_ATE_unsigned)
!9 = !DILocalVariable(name: "1", scope: !5, file: !1, line: 1, type: !8)
!12 = !DILocation(line: 1, column: 1, scope: !5)
!13 = distinct !DISubprogram(name: "wrong", linkageName: "wrong", scope: null, file: !1, line: 2, type: !6, scopeLine: 2, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !7)
!14 = !DILocalVariable(name: "2", scope: !13, file: !1, line: 2, type: !8)
!15 = !DILocation(line: 2, column: 1, scope: !13)
