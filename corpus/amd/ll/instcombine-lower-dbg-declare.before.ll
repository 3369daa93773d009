; BEFORE: the input of AMD's test llvm/test/Transforms/InstCombine/heterogeneous-poison-lower-dbg-declare.ll
; (RadeonOpenCompute/llvm-project, commit f2f33aa5cd0504209eabed6758fa411c5a0c3481; RUN: opt -passes=instcombine),
; trimmed to what the records need. The after file is corpus/amd/ll/instcombine-lower-dbg-declare.after.ll.
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define i32 @foo() !dbg !5 {
entry:
  %var = alloca i32, align 4
  tail call void @llvm.dbg.declare(metadata ptr %var, metadata !11, metadata !DIExpression(DIOpArg(0, ptr), DIOpDeref(i32))), !dbg !12
  store i32 42, ptr %var, align 4
  call void @escape(ptr %var)
  %0 = load i32, ptr %var, align 4
  ret i32 %0
}

declare void @llvm.dbg.declare(metadata, metadata, metadata)
declare void @escape(ptr)

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}

!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, producer: "clang 19.0.0", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug, splitDebugInlining: false, nameTableKind: None)
!1 = !DIFile(filename: "t.c", directory: "/")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!5 = distinct !DISubprogram(name: "main", scope: !6, file: !6, line: 4, type: !7, scopeLine: 4, spFlags: DISPFlagDefinition, unit: !0)
!6 = !DIFile(filename: "t.cpp", directory: "/")
!7 = !DISubroutineType(types: !8)
!8 = !{!9}
!9 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!11 = !DILocalVariable(name: "var", scope: !5, file: !6, line: 5, type: !9)
!12 = !DILocation(line: 1, column: 1, scope: !5)
