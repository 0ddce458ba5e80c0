/* Each work-item counts itself at its linear global id and records what
 * the work-item functions told it; `probe` is a dimension known only at
 * run time (possibly out of range). */
#define FIELDS 25
kernel void ids(global uint *records, global uint *counts, uint probe) {
  size_t gx = get_global_id(0) - get_global_offset(0);
  size_t gy = get_global_id(1) - get_global_offset(1);
  size_t gz = get_global_id(2) - get_global_offset(2);
  size_t linear = (gz * get_global_size(1) + gy) * get_global_size(0) + gx;
  counts[linear] += 1;
  global uint *r = records + linear * FIELDS;
  for (uint d = 0; d < 3; d++) {
    r[0 + d] = get_global_id(d);
    r[3 + d] = get_local_id(d);
    r[6 + d] = get_group_id(d);
    r[9 + d] = get_global_size(d);
    r[12 + d] = get_local_size(d);
    r[15 + d] = get_num_groups(d);
    r[18 + d] = get_global_offset(d);
  }
  r[21] = get_work_dim();
  r[22] = get_global_size(probe);
  r[23] = get_global_id(probe);
  r[24] = get_local_size(probe) * 100 + get_num_groups(probe);
}

/* Only global ids and sizes: the target may run rows of its groups as one
 * call (CPU_BINARY_KERNEL_MERGES_GROUPS). Each item counts itself and
 * records its global ids. */
kernel void global_ids(global uint *records, global uint *counts,
                       uint3 offset) {
  size_t gx = get_global_id(0) - offset.x;
  size_t gy = get_global_id(1) - offset.y;
  size_t gz = get_global_id(2) - offset.z;
  size_t linear = (gz * get_global_size(1) + gy) * get_global_size(0) + gx;
  counts[linear] += 1;
  global uint *r = records + linear * 4;
  r[0] = get_global_id(0);
  r[1] = get_global_id(1);
  r[2] = get_global_id(2);
  r[3] = get_work_dim();
}
