; The builtin library's window onto OpenCL C's opaque handles, which
; OpenCL C itself cannot convert: an image argument is a pointer to the
; CPU target's cpu_image_view (include/clmux/cpu_abi/work_group_abi.h), a
; sampler its CLK_* bits in a pointer-sized value (kernel arguments and
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

define ptr addrspace(1) @_Z18__clmux_image_view20ocl_image2d_depth_ro(ptr addrspace(1) %image) #0 {
  ret ptr addrspace(1) %image
}

define ptr addrspace(1) @_Z18__clmux_image_view20ocl_image2d_depth_wo(ptr addrspace(1) %image) #0 {
  ret ptr addrspace(1) %image
}

define ptr addrspace(1) @_Z18__clmux_image_view20ocl_image2d_depth_rw(ptr addrspace(1) %image) #0 {
  ret ptr addrspace(1) %image
}

define ptr addrspace(1) @_Z18__clmux_image_view26ocl_image2d_array_depth_ro(ptr addrspace(1) %image) #0 {
  ret ptr addrspace(1) %image
}

define ptr addrspace(1) @_Z18__clmux_image_view26ocl_image2d_array_depth_wo(ptr addrspace(1) %image) #0 {
  ret ptr addrspace(1) %image
}

define ptr addrspace(1) @_Z18__clmux_image_view26ocl_image2d_array_depth_rw(ptr addrspace(1) %image) #0 {
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

; OpenCL C 2.0 on: read_write images.
define ptr addrspace(1) @_Z18__clmux_image_view14ocl_image1d_rw(ptr addrspace(1) %image) #0 {
  ret ptr addrspace(1) %image
}

define ptr addrspace(1) @_Z18__clmux_image_view21ocl_image1d_buffer_rw(ptr addrspace(1) %image) #0 {
  ret ptr addrspace(1) %image
}

define ptr addrspace(1) @_Z18__clmux_image_view20ocl_image1d_array_rw(ptr addrspace(1) %image) #0 {
  ret ptr addrspace(1) %image
}

define ptr addrspace(1) @_Z18__clmux_image_view14ocl_image2d_rw(ptr addrspace(1) %image) #0 {
  ret ptr addrspace(1) %image
}

define ptr addrspace(1) @_Z18__clmux_image_view20ocl_image2d_array_rw(ptr addrspace(1) %image) #0 {
  ret ptr addrspace(1) %image
}

define ptr addrspace(1) @_Z18__clmux_image_view14ocl_image3d_rw(ptr addrspace(1) %image) #0 {
  ret ptr addrspace(1) %image
}

; Copies a view field by field with every load !invariant.load: a view
; never changes while a kernel runs, which lets the optimizer hoist its
; fields (the format above all) out of work-item loops past the kernel's
; own stores, and unswitch those loops on them. Offsets follow
; clmux_image_view (image_internal.h).
define void @__clmux_image_load_view(ptr addrspace(1) %view, ptr %out) #1 {
  %data = load ptr addrspace(1), ptr addrspace(1) %view, align 8, !invariant.load !0
  store ptr addrspace(1) %data, ptr %out, align 8
  %row_pitch.in = getelementptr inbounds i8, ptr addrspace(1) %view, i64 8
  %row_pitch = load i64, ptr addrspace(1) %row_pitch.in, align 8, !invariant.load !0
  %row_pitch.out = getelementptr inbounds i8, ptr %out, i64 8
  store i64 %row_pitch, ptr %row_pitch.out, align 8
  %slice_pitch.in = getelementptr inbounds i8, ptr addrspace(1) %view, i64 16
  %slice_pitch = load i64, ptr addrspace(1) %slice_pitch.in, align 8, !invariant.load !0
  %slice_pitch.out = getelementptr inbounds i8, ptr %out, i64 16
  store i64 %slice_pitch, ptr %slice_pitch.out, align 8
  %width.in = getelementptr inbounds i8, ptr addrspace(1) %view, i64 24
  %width = load i32, ptr addrspace(1) %width.in, align 4, !invariant.load !0
  %width.out = getelementptr inbounds i8, ptr %out, i64 24
  store i32 %width, ptr %width.out, align 4
  %height.in = getelementptr inbounds i8, ptr addrspace(1) %view, i64 28
  %height = load i32, ptr addrspace(1) %height.in, align 4, !invariant.load !0
  %height.out = getelementptr inbounds i8, ptr %out, i64 28
  store i32 %height, ptr %height.out, align 4
  %depth.in = getelementptr inbounds i8, ptr addrspace(1) %view, i64 32
  %depth = load i32, ptr addrspace(1) %depth.in, align 4, !invariant.load !0
  %depth.out = getelementptr inbounds i8, ptr %out, i64 32
  store i32 %depth, ptr %depth.out, align 4
  %array_size.in = getelementptr inbounds i8, ptr addrspace(1) %view, i64 36
  %array_size = load i32, ptr addrspace(1) %array_size.in, align 4, !invariant.load !0
  %array_size.out = getelementptr inbounds i8, ptr %out, i64 36
  store i32 %array_size, ptr %array_size.out, align 4
  %channel_order.in = getelementptr inbounds i8, ptr addrspace(1) %view, i64 40
  %channel_order = load i32, ptr addrspace(1) %channel_order.in, align 4, !invariant.load !0
  %channel_order.out = getelementptr inbounds i8, ptr %out, i64 40
  store i32 %channel_order, ptr %channel_order.out, align 4
  %channel_type.in = getelementptr inbounds i8, ptr addrspace(1) %view, i64 44
  %channel_type = load i32, ptr addrspace(1) %channel_type.in, align 4, !invariant.load !0
  %channel_type.out = getelementptr inbounds i8, ptr %out, i64 44
  store i32 %channel_type, ptr %channel_type.out, align 4
  %pixel_size.in = getelementptr inbounds i8, ptr addrspace(1) %view, i64 48
  %pixel_size = load i32, ptr addrspace(1) %pixel_size.in, align 4, !invariant.load !0
  %pixel_size.out = getelementptr inbounds i8, ptr %out, i64 48
  store i32 %pixel_size, ptr %pixel_size.out, align 4
  %dimensions.in = getelementptr inbounds i8, ptr addrspace(1) %view, i64 52
  %dimensions = load i32, ptr addrspace(1) %dimensions.in, align 4, !invariant.load !0
  %dimensions.out = getelementptr inbounds i8, ptr %out, i64 52
  store i32 %dimensions, ptr %dimensions.out, align 4
  ret void
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
attributes #1 = { alwaysinline nounwind willreturn memory(argmem: readwrite) }

!0 = !{}
