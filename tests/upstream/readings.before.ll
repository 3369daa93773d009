; ModuleID = 'readings.ll'
source_filename = "readings.ll"

define i32 @f(i16 %a, i32 %b, i32 %c) !dbg !5 {
  %z = zext i16 %a to i32, !dbg !14
  %q = udiv i32 %z, -1, !dbg !14
    #dbg_value(i32 %q, !9, !DIExpression(), !14)
  %p = udiv i32 %b, -1, !dbg !15
    #dbg_value(i32 %p, !11, !DIExpression(), !15)
  %s = lshr i32 %c, 3, !dbg !16
    #dbg_value(i32 %s, !12, !DIExpression(), !16)
  %t = lshr i32 %c, 5, !dbg !17
    #dbg_value(i32 %t, !13, !DIExpression(), !17)
  %d = sdiv i32 %c, 5, !dbg !18
    #dbg_value(i32 %d, !19, !DIExpression(), !18)
  %r = add i32 %z, %q, !dbg !18
  %r1 = add i32 %r, %p, !dbg !18
  %r2 = add i32 %r1, %s, !dbg !18
  %r3 = add i32 %r2, %t, !dbg !18
  %r4 = add i32 %r3, %d, !dbg !18
  ret i32 %r4, !dbg !18
}

!llvm.dbg.cu = !{!0}
!llvm.debugify = !{!2, !3}
!llvm.module.flags = !{!4}

!0 = distinct !DICompileUnit(language: DW_LANG_C, file: !1, producer: "debugify", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "readings.ll", directory: "/")
!2 = !{i32 5}
!3 = !{i32 4}
!4 = !{i32 2, !"Debug Info Version", i32 3}
!5 = distinct !DISubprogram(name: "f", linkageName: "f", scope: null, file: !1, line: 1, type: !6, scopeLine: 1, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !8)
!6 = !DISubroutineType(types: !7)
!7 = !{}
!8 = !{!9, !11, !12, !13, !19}
!9 = !DILocalVariable(name: "1", scope: !5, file: !1, line: 1, type: !10)
!10 = !DIBasicType(name: "ty32", size: 32, encoding: DW_ATE_unsigned)
!11 = !DILocalVariable(name: "2", scope: !5, file: !1, line: 2, type: !10)
!12 = !DILocalVariable(name: "3", scope: !5, file: !1, line: 3, type: !10)
!13 = !DILocalVariable(name: "4", scope: !5, file: !1, line: 4, type: !10)
!14 = !DILocation(line: 1, column: 1, scope: !5)
!15 = !DILocation(line: 2, column: 1, scope: !5)
!16 = !DILocation(line: 3, column: 1, scope: !5)
!17 = !DILocation(line: 4, column: 1, scope: !5)
!18 = !DILocation(line: 5, column: 1, scope: !5)
!19 = !DILocalVariable(name: "5", scope: !5, file: !1, line: 5, type: !10)
