; A store through %a makes %a non-null (storing through null is undefined
; in address space 0), so InstCombine folds `icmp eq ptr %a, null` to
; false under the record (reduced from InstCombine/assume.ll by run8's
; recheck). diopter does not model that fact: the folded compare stays
; undefined, the refutation inconclusive, never a finding.
define i1 @nonnull(ptr %a) {
  store i32 0, ptr %a, align 4
  %rval = icmp eq ptr %a, null
  ret i1 %rval
}
