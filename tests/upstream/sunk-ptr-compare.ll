; InstCombine 19 sinks a compare into the only block that uses it and
; salvages the entry's record over the pointers (`%a, null, DW_OP_ne`),
; which is the compare for every pointer. The i1 record before reads a
; register whose upper bits LLVM leaves open; the salvage shows 0 or 1:
; a refinement (reduced from InstCombine/assume.ll, run8's adcece94).
define i1 @nonnull(ptr %a) {
entry:
  %cmp = icmp ne ptr %a, null
  br label %taken

taken:
  ret i1 %cmp
}
