; ModuleID = 'ip0.ll'
source_filename = "ip.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; Function Attrs: noinline nounwind uwtable
define dso_local i32 @twice() #0 !dbg !10 {
entry:
  %call = call i32 @bump(i32 noundef 5), !dbg !14
  %call1 = call i32 @bump(i32 noundef 5), !dbg !15
  %add = add nsw i32 %call, %call1, !dbg !16
  ret i32 %add, !dbg !17
}

; Function Attrs: noinline nounwind uwtable
define internal i32 @bump(i32 noundef %x) #0 !dbg !18 {
entry:
    #dbg_value(i32 %x, !22, !DIExpression(), !23)
  %add = add nsw i32 %x, 1, !dbg !24
    #dbg_value(i32 %add, !25, !DIExpression(), !23)
  call void @use(i32 noundef %add), !dbg !26
  ret i32 %add, !dbg !27
}

declare void @use(i32 noundef) #1

attributes #0 = { noinline nounwind uwtable "frame-pointer"="all" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #1 = { "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2, !3, !4, !5, !6, !7, !8}
!llvm.ident = !{!9}

!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, producer: "Debian clang version 19.1.7 (3~deb12u1)", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug, splitDebugInlining: false, nameTableKind: None)
!1 = !DIFile(filename: "ip.c", directory: "", checksumkind: CSK_MD5, checksum: "92b86fbff4ce339a112f02b9c68e99a1")
!2 = !{i32 7, !"Dwarf Version", i32 5}
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{i32 1, !"wchar_size", i32 4}
!5 = !{i32 8, !"PIC Level", i32 2}
!6 = !{i32 7, !"PIE Level", i32 2}
!7 = !{i32 7, !"uwtable", i32 2}
!8 = !{i32 7, !"frame-pointer", i32 2}
!9 = !{!"Debian clang version 19.1.7 (3~deb12u1)"}
!10 = distinct !DISubprogram(name: "twice", scope: !1, file: !1, line: 7, type: !11, scopeLine: 7, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !0)
!11 = !DISubroutineType(types: !12)
!12 = !{!13}
!13 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!14 = !DILocation(line: 7, column: 26, scope: !10)
!15 = !DILocation(line: 7, column: 36, scope: !10)
!16 = !DILocation(line: 7, column: 34, scope: !10)
!17 = !DILocation(line: 7, column: 19, scope: !10)
!18 = distinct !DISubprogram(name: "bump", scope: !1, file: !1, line: 2, type: !19, scopeLine: 2, flags: DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition, unit: !0, retainedNodes: !21)
!19 = !DISubroutineType(types: !20)
!20 = !{!13, !13}
!21 = !{}
!22 = !DILocalVariable(name: "x", arg: 1, scope: !18, file: !1, line: 2, type: !13)
!23 = !DILocation(line: 0, scope: !18)
!24 = !DILocation(line: 3, column: 13, scope: !18)
!25 = !DILocalVariable(name: "a", scope: !18, file: !1, line: 3, type: !13)
!26 = !DILocation(line: 4, column: 3, scope: !18)
!27 = !DILocation(line: 5, column: 3, scope: !18)
