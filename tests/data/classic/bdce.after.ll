; ModuleID = 'bdce.sroa.ll'
source_filename = "bdce.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; Function Attrs: noinline nounwind uwtable
define dso_local i32 @f(i8 noundef signext %0) #0 !dbg !10 {
    #dbg_value(i8 %0, !16, !DIExpression(), !17)
  %2 = zext i8 %0 to i32, !dbg !18
    #dbg_value(i32 %2, !19, !DIExpression(), !17)
  %3 = shl i32 %2, 24, !dbg !20
  %4 = ashr i32 %3, 24, !dbg !21
  %5 = and i32 %4, 255, !dbg !22
  ret i32 %5, !dbg !23
}

attributes #0 = { noinline nounwind uwtable "frame-pointer"="all" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2, !3, !4, !5, !6, !7, !8}
!llvm.ident = !{!9}

!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, producer: "Debian clang version 19.1.7 (3~deb12u1)", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug, splitDebugInlining: false, nameTableKind: None)
!1 = !DIFile(filename: "bdce.c", directory: "/tmp/cl", checksumkind: CSK_MD5, checksum: "f643e6f6f48c7f02b7fb77010595b158")
!2 = !{i32 7, !"Dwarf Version", i32 5}
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{i32 1, !"wchar_size", i32 4}
!5 = !{i32 8, !"PIC Level", i32 2}
!6 = !{i32 7, !"PIE Level", i32 2}
!7 = !{i32 7, !"uwtable", i32 2}
!8 = !{i32 7, !"frame-pointer", i32 2}
!9 = !{!"Debian clang version 19.1.7 (3~deb12u1)"}
!10 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 1, type: !11, scopeLine: 1, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !0, retainedNodes: !15)
!11 = !DISubroutineType(types: !12)
!12 = !{!13, !14}
!13 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!14 = !DIBasicType(name: "signed char", size: 8, encoding: DW_ATE_signed_char)
!15 = !{}
!16 = !DILocalVariable(name: "c", arg: 1, scope: !10, file: !1, line: 1, type: !14)
!17 = !DILocation(line: 0, scope: !10)
!18 = !DILocation(line: 2, column: 11, scope: !10)
!19 = !DILocalVariable(name: "x", scope: !10, file: !1, line: 2, type: !13)
!20 = !DILocation(line: 3, column: 13, scope: !10)
!21 = !DILocation(line: 3, column: 20, scope: !10)
!22 = !DILocation(line: 3, column: 26, scope: !10)
!23 = !DILocation(line: 3, column: 3, scope: !10)
