/* clmux OpenCL front-end: cl_khr_device_uuid. Identities that stay the same
 * from process to process: a device's from its name and the root device's
 * cores it runs on (sub-devices of other cores differ), the driver's from
 * clmux's version. There is no LUID (a Windows notion) and no node mask. */
#include <string.h>

#include "clx.h"

/* 128 bits of FNV-1a: two 64-bit hashes from different starting points. */
typedef struct uuid_hash {
  uint64_t part[2];
} uuid_hash;

static void hash_bytes(uuid_hash *h, const void *data, size_t length) {
  const unsigned char *bytes = data;
  for (size_t i = 0; i < length; i++) {
    for (int p = 0; p < 2; p++) {
      h->part[p] = (h->part[p] ^ bytes[i]) * 0x100000001b3ull;
    }
  }
}

static void hash_start(uuid_hash *h, const char *what) {
  h->part[0] = 0xcbf29ce484222325ull;
  h->part[1] = 0x84222325cbf29ce4ull;
  hash_bytes(h, what, strlen(what) + 1);
}

static void hash_finish(const uuid_hash *h, cl_uchar out[CL_UUID_SIZE_KHR]) {
  memcpy(out, h->part, CL_UUID_SIZE_KHR);
}

cl_int clx_device_uuid_info(cl_device_id device, cl_device_info param_name,
                            size_t param_value_size, void *param_value,
                            size_t *param_value_size_ret) {
  cl_uchar uuid[CL_UUID_SIZE_KHR];
  uuid_hash h;
  switch (param_name) {
    case CL_DEVICE_UUID_KHR:
      hash_start(&h, "clmux device");
      hash_bytes(&h, device->info->device_name,
                 strlen(device->info->device_name));
      if (device->cores) {
        hash_bytes(&h, device->cores,
                   device->info->compute_units * sizeof *device->cores);
      }
      hash_finish(&h, uuid);
      return clx_info(uuid, sizeof uuid, param_value_size, param_value,
                      param_value_size_ret);
    case CL_DRIVER_UUID_KHR:
      hash_start(&h, "clmux driver " CLX_VERSION_STRING);
      hash_finish(&h, uuid);
      return clx_info(uuid, sizeof uuid, param_value_size, param_value,
                      param_value_size_ret);
    case CL_DEVICE_LUID_VALID_KHR: {
      cl_bool valid = CL_FALSE;
      return clx_info(&valid, sizeof valid, param_value_size, param_value,
                      param_value_size_ret);
    }
    case CL_DEVICE_LUID_KHR: {
      cl_uchar luid[CL_LUID_SIZE_KHR] = {0};
      return clx_info(luid, sizeof luid, param_value_size, param_value,
                      param_value_size_ret);
    }
    case CL_DEVICE_NODE_MASK_KHR: {
      cl_uint mask = 0;
      return clx_info(&mask, sizeof mask, param_value_size, param_value,
                      param_value_size_ret);
    }
    default:
      return CL_INVALID_VALUE;
  }
}
