define i8 @f(i8 range(i8 0, 2) %a) !dbg !5 {
  %x = and i8 %a, 1, !dbg !13
    #dbg_value(i8 %x, !9, !DIExpression(), !13)
  ret i8 %x, !dbg !13
}

define i8 @g(i8 %a) !dbg !11 {
  %x = and i8 %a, 1, !dbg !14
    #dbg_value(i8 %x, !12, !DIExpression(), !14)
  ret i8 %x, !dbg !14
}

define i8 @h(i8 range(i8 -2, 2) %a) !dbg !15 {
  %x = add i8 %a, 2, !dbg !17
    #dbg_value(i8 %x, !16, !DIExpression(), !17)
  ret i8 %x, !dbg !17
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!4}

!0 = distinct !DICompileUnit(language: DW_LANG_C, file: !1, producer: "debugify", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "range.ll", directory: "/")
!4 = !{i32 2, !"Debug Info Version", i32 3}
!5 = distinct !DISubprogram(name: "f", linkageName: "f", scope: null, file: !1, line: 1, type: !6, scopeLine: 1, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !7)
!6 = !DISubroutineType(types: !7)
!7 = !{}
!9 = !DILocalVariable(name: "1", scope: !5, file: !1, line: 1, type: !10)
!10 = !DIBasicType(name: "ty8", size: 8, encoding: DW_ATE_unsigned)
!11 = distinct !DISubprogram(name: "g", linkageName: "g", scope: null, file: !1, line: 1, type: !6, scopeLine: 1, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !7)
!12 = !DILocalVariable(name: "2", scope: !11, file: !1, line: 1, type: !10)
!13 = !DILocation(line: 1, column: 1, scope: !5)
!14 = !DILocation(line: 1, column: 1, scope: !11)
!15 = distinct !DISubprogram(name: "h", linkageName: "h", scope: null, file: !1, line: 1, type: !6, scopeLine: 1, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !7)
!16 = !DILocalVariable(name: "3", scope: !15, file: !1, line: 1, type: !10)
!17 = !DILocation(line: 1, column: 1, scope: !15)
