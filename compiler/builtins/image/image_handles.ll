; The builtin library's window onto OpenCL C's opaque handles, which
; OpenCL C itself cannot convert: an image argument is a pointer to the
; CPU target's cpu_image_view (source/mux/cpu/work_group_abi.h), a sampler
; its CLK_* bits in a pointer-sized value (kernel arguments and
; program-scope constant samplers alike, the latter through
; __translate_sampler_initializer, which Clang calls). Plain definitions:
; llvm-link would drop linkonce ones no library source uses, and
; cc_builtins_link makes every definition linkonce_odr anyway.
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define ptr addrspace(1) @_Z18__clmux_image_view14ocl_image1d_ro(ptr addrspace(1) %image) #0 {
  ret ptr addrspace(1) %image
}

define ptr addrspace(1) @_Z18__clmux_image_view14ocl_image1d_wo(ptr addrspace(1) %image) #0 {
  ret ptr addrspace(1) %image
}

define ptr addrspace(1) @_Z18__clmux_image_view21ocl_image1d_buffer_ro(ptr addrspace(1) %image) #0 {
  ret ptr addrspace(1) %image
}

define ptr addrspace(1) @_Z18__clmux_image_view21ocl_image1d_buffer_wo(ptr addrspace(1) %image) #0 {
  ret ptr addrspace(1) %image
}

define ptr addrspace(1) @_Z18__clmux_image_view20ocl_image1d_array_ro(ptr addrspace(1) %image) #0 {
  ret ptr addrspace(1) %image
}

define ptr addrspace(1) @_Z18__clmux_image_view20ocl_image1d_array_wo(ptr addrspace(1) %image) #0 {
  ret ptr addrspace(1) %image
}

define ptr addrspace(1) @_Z18__clmux_image_view14ocl_image2d_ro(ptr addrspace(1) %image) #0 {
  ret ptr addrspace(1) %image
}

define ptr addrspace(1) @_Z18__clmux_image_view14ocl_image2d_wo(ptr addrspace(1) %image) #0 {
  ret ptr addrspace(1) %image
}

define ptr addrspace(1) @_Z18__clmux_image_view20ocl_image2d_array_ro(ptr addrspace(1) %image) #0 {
  ret ptr addrspace(1) %image
}

define ptr addrspace(1) @_Z18__clmux_image_view20ocl_image2d_array_wo(ptr addrspace(1) %image) #0 {
  ret ptr addrspace(1) %image
}

define ptr addrspace(1) @_Z18__clmux_image_view14ocl_image3d_ro(ptr addrspace(1) %image) #0 {
  ret ptr addrspace(1) %image
}

define ptr addrspace(1) @_Z18__clmux_image_view14ocl_image3d_wo(ptr addrspace(1) %image) #0 {
  ret ptr addrspace(1) %image
}

define i32 @__clmux_sampler_bits(ptr addrspace(2) %sampler) #0 {
  %bits = ptrtoint ptr addrspace(2) %sampler to i64
  %low = trunc i64 %bits to i32
  ret i32 %low
}

define ptr addrspace(2) @__translate_sampler_initializer(i32 %bits) #0 {
  %wide = zext i32 %bits to i64
  %sampler = inttoptr i64 %wide to ptr addrspace(2)
  ret ptr addrspace(2) %sampler
}

attributes #0 = { alwaysinline nounwind willreturn memory(none) }
