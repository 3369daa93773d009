; BEFORE: the input of AMD's test llvm/test/Transforms/SROA/heterogeneous-poison.ll
; (RadeonOpenCompute/llvm-project, commit f2f33aa5cd0504209eabed6758fa411c5a0c3481; RUN: opt -passes='sroa<preserve-cfg>'),
; functions @t1, @t3 and @t4 (the others describe the variable per branch), trimmed to what the records need.
; The after file is corpus/amd/ll/sroa-poison.after.ll.
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"

%struct.pair = type { i32, i32 }

define i32 @t1() !dbg !9 {
  %local = alloca i32, align 4
  tail call void @llvm.dbg.declare(metadata ptr %local, metadata !13, metadata !DIExpression(DIOpArg(0, ptr addrspace(5)), DIOpDeref(i32))), !dbg !15
  store i32 2, ptr %local, align 4
  %read = load i32, ptr %local, align 4
  ret i32 %read
}

define void @t3() !dbg !19 {
  %local = alloca %struct.pair, align 4
  tail call void @llvm.dbg.declare(metadata ptr %local, metadata !20, metadata !DIExpression(DIOpArg(0, ptr addrspace(5)), DIOpDeref(%struct.pair))), !dbg !25
  %first = getelementptr inbounds %struct.pair, ptr %local, i32 0, i32 0
  store i32 42, ptr %first, align 4
  %second = getelementptr inbounds %struct.pair, ptr %local, i32 0, i32 1
  store i32 43, ptr %second, align 4
  ret void
}

define i32 @t4() !dbg !26 {
  %local = alloca i32, align 4
  tail call void @llvm.dbg.value(metadata ptr %local, metadata !27, metadata !DIExpression(DIOpArg(0, ptr addrspace(5)), DIOpDeref(i32))), !dbg !28
  store i32 42, ptr %local, align 4
  %loaded = load i32, ptr %local, align 4
  ret i32 %loaded
}

declare void @llvm.dbg.declare(metadata, metadata, metadata)
declare void @llvm.dbg.value(metadata, metadata, metadata)

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}

!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !1, producer: "clang 19", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug, splitDebugInlining: false, nameTableKind: None)
!1 = !DIFile(filename: "t.cpp", directory: "/")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!9 = distinct !DISubprogram(name: "t1", linkageName: "t1", scope: !1, file: !1, line: 7, type: !10, scopeLine: 7, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!10 = !DISubroutineType(types: !11)
!11 = !{null}
!13 = !DILocalVariable(name: "local", scope: !9, file: !1, line: 8, type: !14)
!14 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!15 = !DILocation(line: 8, column: 3, scope: !9)
!19 = distinct !DISubprogram(name: "t3", linkageName: "t3", scope: !1, file: !1, line: 7, type: !10, scopeLine: 7, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!20 = !DILocalVariable(name: "local", scope: !19, file: !1, line: 1, type: !21)
!21 = distinct !DICompositeType(tag: DW_TAG_structure_type, name: "pair", file: !1, line: 2, size: 64, flags: DIFlagTypePassByValue, elements: !22, identifier: "pair")
!22 = !{!23, !24}
!23 = !DIDerivedType(tag: DW_TAG_member, name: "s1", scope: !21, file: !1, line: 3, baseType: !14, size: 32)
!24 = !DIDerivedType(tag: DW_TAG_member, name: "s2", scope: !21, file: !1, line: 4, baseType: !14, size: 32, offset: 32)
!25 = !DILocation(line: 1, column: 1, scope: !19)
!26 = distinct !DISubprogram(name: "t4", linkageName: "t4", scope: !1, file: !1, line: 7, type: !10, scopeLine: 7, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!27 = !DILocalVariable(name: "local", scope: !26, file: !1, line: 1, type: !14)
!28 = !DILocation(line: 1, column: 1, scope: !26)
