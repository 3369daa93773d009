; An AMDGPU function in the DIExpression dialect of AMD's LLVM fork, written
; the way `clang -g` and `opt -S` print it: debug records holding DIOp
; expressions (one with a !DIArgList), an old-style llvm.dbg.value call, a
; global described by a DIGlobalVariableExpression, a multi-line switch, and
; the usual module tail.
target datalayout = "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

%struct.pair = type { i32, i32 }

@counter = hidden addrspace(1) externally_initialized global i32 0, align 4, !dbg !0

; Function Attrs: convergent mustprogress noinline nounwind
define hidden void @update(ptr addrspace(1) noundef %out, i32 noundef %n, i64 %idx) #0 !dbg !10 {
entry:
  %n.addr = alloca i32, align 4, addrspace(5)
  %p = alloca %struct.pair, align 4, addrspace(5)
    #dbg_declare(ptr addrspace(5) %n.addr, !15, !DIExpression(DIOpArg(0, ptr addrspace(5)), DIOpDeref(i32)), !20)
  store i32 %n, ptr addrspace(5) %n.addr, align 4
    #dbg_value(!DIArgList(ptr addrspace(1) %out, i64 %idx), !16, !DIExpression(DIOpArg(0, ptr addrspace(1)), DIOpArg(1, i64), DIOpConstant(i64 4), DIOpMul(), DIOpByteOffset(i32)), !20)
  %cmp = icmp sgt i32 %n, 0, !dbg !21
  br i1 %cmp, label %if.then, label %if.end, !dbg !21

if.then:                                          ; preds = %entry
  %gep = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %idx, !dbg !22
  store i32 %n, ptr addrspace(1) %gep, align 4, !dbg !22
  call void @llvm.dbg.value(metadata i32 %n, metadata !17, metadata !DIExpression(DIOpArg(0, i32))), !dbg !20
  switch i32 %n, label %if.end [
    i32 1, label %one
    i32 2, label %if.end
  ], !dbg !22

one:                                              ; preds = %if.then
    #dbg_value(i32 poison, !17, !DIExpression(DIOpArg(0, i32)), !20)
    #dbg_declare(ptr addrspace(5) %p, !18, !DIExpression(DIOpArg(0, ptr addrspace(5)), DIOpDeref(%struct.pair)), !20)
  br label %if.end

if.end:                                           ; preds = %one, %if.then, %entry
    #dbg_value(i32 %n, !17, !DIExpression(), !20)
  ret void, !dbg !23
}

declare void @llvm.dbg.value(metadata, metadata, metadata) #1

attributes #0 = { convergent mustprogress noinline nounwind "amdgpu-flat-work-group-size"="1,256" }
attributes #1 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }

!llvm.dbg.cu = !{!2}
!llvm.module.flags = !{!7, !8}
!llvm.ident = !{!9}

!0 = !DIGlobalVariableExpression(var: !1, expr: !DIExpression(DIOpArg(0, ptr addrspace(1)), DIOpDeref(i32)))
!1 = distinct !DIGlobalVariable(name: "counter", scope: !2, file: !3, line: 2, type: !14, isLocal: false, isDefinition: true, memorySpace: DW_MSPACE_LLVM_global)
!2 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !3, producer: "clang version 19.0.0", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug, globals: !4, splitDebugInlining: false, nameTableKind: None)
!3 = !DIFile(filename: "kernel.hip", directory: "/tmp", checksumkind: CSK_MD5, checksum: "0123456789abcdef0123456789abcdef")
!4 = !{!0}
!7 = !{i32 2, !"Debug Info Version", i32 3}
!8 = !{i32 7, !"Dwarf Version", i32 5}
!9 = !{!"clang version 19.0.0"}
!10 = distinct !DISubprogram(name: "update", linkageName: "_Z6updatePU3AS1iil", scope: !3, file: !3, line: 4, type: !11, scopeLine: 4, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !2, retainedNodes: !13)
!11 = !DISubroutineType(types: !12)
!12 = !{null, !24, !14, !25}
!13 = !{}
!14 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!15 = !DILocalVariable(name: "n", arg: 2, scope: !10, file: !3, line: 4, type: !14)
!16 = !DILocalVariable(name: "slot", scope: !10, file: !3, line: 5, type: !24, flags: DIFlagArtificial | DIFlagObjectPointer)
!17 = !DILocalVariable(name: "v", scope: !10, file: !3, line: 6, type: !14)
!18 = !DILocalVariable(name: "p", scope: !10, file: !3, line: 7, type: !26)
!20 = !DILocation(line: 4, column: 1, scope: !10)
!21 = !DILocation(line: 8, column: 7, scope: !10)
!22 = !DILocation(line: 9, column: 5, scope: !10)
!23 = !DILocation(line: 11, column: 1, scope: !10)
!24 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !14, size: 64, dwarfAddressSpace: 1)
!25 = !DIBasicType(name: "long", size: 64, encoding: DW_ATE_signed)
!26 = !DICompositeType(tag: DW_TAG_structure_type, name: "pair", file: !3, line: 1, size: 64, flags: DIFlagTypePassByValue, elements: !27, identifier: "_ZTS4pair")
!27 = !{!28, !29}
!28 = !DIDerivedType(tag: DW_TAG_member, name: "a", scope: !26, file: !3, line: 1, baseType: !14, size: 32)
!29 = !DIDerivedType(tag: DW_TAG_member, name: "b", scope: !26, file: !3, line: 1, baseType: !14, size: 32, offset: 32)
