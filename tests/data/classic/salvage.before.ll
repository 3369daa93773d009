; ModuleID = 'salv.ll'
source_filename = "salv.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; Function Attrs: noinline nounwind uwtable
define dso_local i64 @g1(i64 noundef %0) #0 !dbg !12 {
    #dbg_value(i64 %0, !16, !DIExpression(), !17)
  %2 = add nsw i64 %0, 8, !dbg !18
    #dbg_value(i64 %2, !19, !DIExpression(), !17)
  %3 = mul nsw i64 %0, 3, !dbg !20
  %4 = sub nsw i64 %3, 7, !dbg !21
    #dbg_value(i64 %4, !22, !DIExpression(), !17)
  ret i64 0, !dbg !23
}

; Function Attrs: noinline nounwind uwtable
define dso_local i32 @g2(i32 noundef %0) #0 !dbg !24 {
    #dbg_value(i32 %0, !28, !DIExpression(), !29)
  %2 = mul nsw i32 %0, 5, !dbg !30
  %3 = sub nsw i32 %2, 3, !dbg !31
    #dbg_value(i32 %3, !32, !DIExpression(), !29)
  %4 = add nsw i32 %0, 100, !dbg !33
    #dbg_value(i32 %4, !34, !DIExpression(), !29)
  ret i32 0, !dbg !35
}

; Function Attrs: noinline nounwind uwtable
define dso_local i64 @g3(i32 noundef %0) #0 !dbg !36 {
    #dbg_value(i32 %0, !39, !DIExpression(), !40)
  %2 = sext i32 %0 to i64, !dbg !41
    #dbg_value(i64 %2, !42, !DIExpression(), !40)
  ret i64 0, !dbg !43
}

; Function Attrs: noinline nounwind uwtable
define dso_local i32 @g4(i32 noundef %0, i32 noundef %1) #0 !dbg !44 {
    #dbg_value(i32 %0, !47, !DIExpression(), !48)
    #dbg_value(i32 %1, !49, !DIExpression(), !48)
  %3 = sub nsw i32 %0, %1, !dbg !50
    #dbg_value(i32 %3, !51, !DIExpression(), !48)
  %4 = icmp slt i32 %0, %1, !dbg !52
  %5 = zext i1 %4 to i32, !dbg !52
    #dbg_value(i32 %5, !53, !DIExpression(), !48)
  ret i32 0, !dbg !54
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
!18 = !DILocation(line: 1, column: 30, scope: !12)
!19 = !DILocalVariable(name: "t", scope: !12, file: !1, line: 1, type: !3)
!20 = !DILocation(line: 1, column: 46, scope: !12)
!21 = !DILocation(line: 1, column: 50, scope: !12)
!22 = !DILocalVariable(name: "u", scope: !12, file: !1, line: 1, type: !3)
!23 = !DILocation(line: 1, column: 55, scope: !12)
!24 = distinct !DISubprogram(name: "g2", scope: !1, file: !1, line: 2, type: !25, scopeLine: 2, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !0, retainedNodes: !15)
!25 = !DISubroutineType(types: !26)
!26 = !{!27, !27}
!27 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!28 = !DILocalVariable(name: "a", arg: 1, scope: !24, file: !1, line: 2, type: !27)
!29 = !DILocation(line: 0, scope: !24)
!30 = !DILocation(line: 2, column: 27, scope: !24)
!31 = !DILocation(line: 2, column: 31, scope: !24)
!32 = !DILocalVariable(name: "t", scope: !24, file: !1, line: 2, type: !27)
!33 = !DILocation(line: 2, column: 46, scope: !24)
!34 = !DILocalVariable(name: "s", scope: !24, file: !1, line: 2, type: !27)
!35 = !DILocation(line: 2, column: 53, scope: !24)
!36 = distinct !DISubprogram(name: "g3", scope: !1, file: !1, line: 3, type: !37, scopeLine: 3, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !0, retainedNodes: !15)
!37 = !DISubroutineType(types: !38)
!38 = !{!3, !27}
!39 = !DILocalVariable(name: "a", arg: 1, scope: !36, file: !1, line: 3, type: !27)
!40 = !DILocation(line: 0, scope: !36)
!41 = !DILocation(line: 3, column: 27, scope: !36)
!42 = !DILocalVariable(name: "w", scope: !36, file: !1, line: 3, type: !3)
!43 = !DILocation(line: 3, column: 36, scope: !36)
!44 = distinct !DISubprogram(name: "g4", scope: !1, file: !1, line: 4, type: !45, scopeLine: 4, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !0, retainedNodes: !15)
!45 = !DISubroutineType(types: !46)
!46 = !{!27, !27, !27}
!47 = !DILocalVariable(name: "a", arg: 1, scope: !44, file: !1, line: 4, type: !27)
!48 = !DILocation(line: 0, scope: !44)
!49 = !DILocalVariable(name: "b", arg: 2, scope: !44, file: !1, line: 4, type: !27)
!50 = !DILocation(line: 4, column: 34, scope: !44)
!51 = !DILocalVariable(name: "t", scope: !44, file: !1, line: 4, type: !27)
!52 = !DILocation(line: 4, column: 49, scope: !44)
!53 = !DILocalVariable(name: "c", scope: !44, file: !1, line: 4, type: !27)
!54 = !DILocation(line: 4, column: 54, scope: !44)
