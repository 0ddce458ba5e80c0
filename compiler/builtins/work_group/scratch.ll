; The work-group collective functions' scratch: one 8-byte slot per
; work-item of the largest work-group (CPU_MAX_WORK_GROUP_SIZE) and one for
; the result. A __local variable, so codegen (local_memory.c) gives it its
; place in each work-group's local memory like a kernel's own; only kernels
; that call a collective function reach it.
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

@__clmux_work_group_scratch_slots = internal addrspace(3) global [1025 x i64] undef, align 8

define ptr addrspace(3) @__clmux_work_group_scratch() {
  ret ptr addrspace(3) @__clmux_work_group_scratch_slots
}
