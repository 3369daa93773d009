; ModuleID = 'salv.sroa.ll'
source_filename = "salv.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; Function Attrs: noinline nounwind uwtable
define dso_local i64 @g1(i64 noundef %0) #0 !dbg !12 {
    #dbg_value(i64 %0, !16, !DIExpression(), !17)
    #dbg_value(i64 %0, !18, !DIExpression(DW_OP_plus_uconst, 8, DW_OP_stack_value), !17)
    #dbg_value(i64 %0, !19, !DIExpression(DW_OP_constu, 3, DW_OP_mul, DW_OP_constu, 7, DW_OP_minus, DW_OP_stack_value), !17)
  ret i64 0, !dbg !20
}

; Function Attrs: noinline nounwind uwtable
define dso_local i32 @g2(i32 noundef %0) #0 !dbg !21 {
    #dbg_value(i32 %0, !25, !DIExpression(), !26)
    #dbg_value(i32 %0, !27, !DIExpression(DW_OP_constu, 5, DW_OP_mul, DW_OP_constu, 3, DW_OP_minus, DW_OP_stack_value), !26)
    #dbg_value(i32 %0, !28, !DIExpression(DW_OP_plus_uconst, 100, DW_OP_stack_value), !26)
  ret i32 0, !dbg !29
}

; Function Attrs: noinline nounwind uwtable
define dso_local i64 @g3(i32 noundef %0) #0 !dbg !30 {
    #dbg_value(i32 %0, !33, !DIExpression(), !34)
    #dbg_value(i32 %0, !35, !DIExpression(DW_OP_LLVM_convert, 32, DW_ATE_signed, DW_OP_LLVM_convert, 64, DW_ATE_signed, DW_OP_stack_value), !34)
  ret i64 0, !dbg !36
}

; Function Attrs: noinline nounwind uwtable
define dso_local i32 @g4(i32 noundef %0, i32 noundef %1) #0 !dbg !37 {
    #dbg_value(i32 %0, !40, !DIExpression(), !41)
    #dbg_value(i32 %1, !42, !DIExpression(), !41)
    #dbg_value(!DIArgList(i32 %0, i32 %1), !43, !DIExpression(DW_OP_LLVM_arg, 0, DW_OP_LLVM_arg, 1, DW_OP_minus, DW_OP_stack_value), !41)
    #dbg_value(!DIArgList(i32 %0, i32 %1), !44, !DIExpression(DW_OP_LLVM_arg, 0, DW_OP_LLVM_arg, 1, DW_OP_lt, DW_OP_LLVM_convert, 1, DW_ATE_unsigned, DW_OP_LLVM_convert, 32, DW_ATE_unsigned, DW_OP_stack_value), !41)
  ret i32 0, !dbg !45
}

attributes #0 = { noinline nounwind uwtable "frame-pointer"="all" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!4, !5, !6, !7, !8, !9, !10}
!llvm.ident = !{!11}

!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, producer: "Debian clang version 19.1.7 (3~deb12u1)", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug, retainedTypes: !2, splitDebugInlining: false, nameTableKind: None)
!1 = !DIFile(filename: "salv.c", directory: "/tmp/cl", checksumkind: CSK_MD5, checksum: "7f404f62567ddaa032b4076696be4d97")
!2 = !{!3}
!3 = !DIBasicType(name: "long", size: 64, encoding: DW_ATE_signed)
!4 = !{i32 7, !"Dwarf Version", i32 5}
!5 = !{i32 2, !"Debug Info Version", i32 3}
!6 = !{i32 1, !"wchar_size", i32 4}
!7 = !{i32 8, !"PIC Level", i32 2}
!8 = !{i32 7, !"PIE Level", i32 2}
!9 = !{i32 7, !"uwtable", i32 2}
!10 = !{i32 7, !"frame-pointer", i32 2}
!11 = !{!"Debian clang version 19.1.7 (3~deb12u1)"}
!12 = distinct !DISubprogram(name: "g1", scope: !1, file: !1, line: 1, type: !13, scopeLine: 1, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !0, retainedNodes: !15)
!13 = !DISubroutineType(types: !14)
!14 = !{!3, !3}
!15 = !{}
!16 = !DILocalVariable(name: "a", arg: 1, scope: !12, file: !1, line: 1, type: !3)
!17 = !DILocation(line: 0, scope: !12)
!18 = !DILocalVariable(name: "t", scope: !12, file: !1, line: 1, type: !3)
!19 = !DILocalVariable(name: "u", scope: !12, file: !1, line: 1, type: !3)
!20 = !DILocation(line: 1, column: 55, scope: !12)
!21 = distinct !DISubprogram(name: "g2", scope: !1, file: !1, line: 2, type: !22, scopeLine: 2, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !0, retainedNodes: !15)
!22 = !DISubroutineType(types: !23)
!23 = !{!24, !24}
!24 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!25 = !DILocalVariable(name: "a", arg: 1, scope: !21, file: !1, line: 2, type: !24)
!26 = !DILocation(line: 0, scope: !21)
!27 = !DILocalVariable(name: "t", scope: !21, file: !1, line: 2, type: !24)
!28 = !DILocalVariable(name: "s", scope: !21, file: !1, line: 2, type: !24)
!29 = !DILocation(line: 2, column: 53, scope: !21)
!30 = distinct !DISubprogram(name: "g3", scope: !1, file: !1, line: 3, type: !31, scopeLine: 3, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !0, retainedNodes: !15)
!31 = !DISubroutineType(types: !32)
!32 = !{!3, !24}
!33 = !DILocalVariable(name: "a", arg: 1, scope: !30, file: !1, line: 3, type: !24)
!34 = !DILocation(line: 0, scope: !30)
!35 = !DILocalVariable(name: "w", scope: !30, file: !1, line: 3, type: !3)
!36 = !DILocation(line: 3, column: 36, scope: !30)
!37 = distinct !DISubprogram(name: "g4", scope: !1, file: !1, line: 4, type: !38, scopeLine: 4, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !0, retainedNodes: !15)
!38 = !DISubroutineType(types: !39)
!39 = !{!24, !24, !24}
!40 = !DILocalVariable(name: "a", arg: 1, scope: !37, file: !1, line: 4, type: !24)
!41 = !DILocation(line: 0, scope: !37)
!42 = !DILocalVariable(name: "b", arg: 2, scope: !37, file: !1, line: 4, type: !24)
!43 = !DILocalVariable(name: "t", scope: !37, file: !1, line: 4, type: !24)
!44 = !DILocalVariable(name: "c", scope: !37, file: !1, line: 4, type: !24)
!45 = !DILocation(line: 4, column: 54, scope: !37)
