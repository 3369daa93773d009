; The pattern of llvm#46640 after LLVM's fixed BDCE (its later
; test dbg-sext-to-zext.ll prints this record): the variable keeps the sign
; extension through two DW_OP_LLVM_convert operations on the narrow value.
define i32 @test(i32 %a) !dbg !5 {
entry:
  %zext = zext i32 %a to i64
    #dbg_value(i32 %a, !9, !DIExpression(DW_OP_LLVM_convert, 32, DW_ATE_signed, DW_OP_LLVM_convert, 64, DW_ATE_signed, DW_OP_stack_value), !10)
  %or = or i64 %zext, 5
  %trunc = trunc i64 %or to i32
  ret i32 %trunc
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3, !4}

!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, producer: "clang", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "test.c", directory: "/")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{i32 2, !"Dwarf Version", i32 5}
!5 = distinct !DISubprogram(name: "test", scope: !1, file: !1, line: 1, type: !6, scopeLine: 1, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !8)
!6 = !DISubroutineType(types: !7)
!7 = !{!11, !11}
!8 = !{!9}
!9 = !DILocalVariable(name: "extended", scope: !5, file: !1, line: 2, type: !12)
!10 = !DILocation(line: 2, column: 1, scope: !5)
!11 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!12 = !DIBasicType(name: "long", size: 64, encoding: DW_ATE_signed)
