/* clmux CPU target: the device description, read once from hwloc. */
#include "cpu.h"

struct mux_device_info_s *cpu_device_info(void) { return NULL; }

unsigned cpu_worker_count(void) { return 1; }
