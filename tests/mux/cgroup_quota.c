/* The CPU quota of the process's control group, read from a made-up /proc
 * and /sys under a temporary folder: cgroup v2 and v1 layouts, limits on
 * the group and on groups above it, "max", and files that are missing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "cpu.h"

static char root[64];

/* Writes `text` to root + `path`, making the folders on the way. */
static void put(const char *path, const char *text) {
  char full[512];
  snprintf(full, sizeof full, "%s%s", root, path);
  for (char *slash = strchr(full + strlen(root) + 1, '/'); slash;
       slash = strchr(slash + 1, '/')) {
    *slash = '\0';
    mkdir(full, 0700);
    *slash = '/';
  }
  FILE *file = fopen(full, "w");
  REQUIRE(file != NULL);
  fputs(text, file);
  fclose(file);
}

static void fresh_root(void) {
  char command[128];
  if (root[0]) {
    snprintf(command, sizeof command, "rm -rf %s", root);
    REQUIRE(system(command) == 0);
  }
  strcpy(root, "/tmp/clmux-cgroup-XXXXXX");
  REQUIRE(mkdtemp(root) != NULL);
}

static int near(double a, double b) { return a - b < 1e-9 && b - a < 1e-9; }

int main(void) {
  /* cgroup v2: the parent limits to 2 CPUs, the group itself says "max". */
  fresh_root();
  put("/proc/self/cgroup", "0::/box/job\n");
  put("/sys/fs/cgroup/box/cpu.max", "200000 100000\n");
  put("/sys/fs/cgroup/box/job/cpu.max", "max 100000\n");
  CHECK(near(cpu_cgroup_quota(root), 2.0));

  /* The tightest along the path wins. */
  put("/sys/fs/cgroup/box/job/cpu.max", "50000 100000\n");
  CHECK(near(cpu_cgroup_quota(root), 0.5));

  /* A container's own namespace: its group is the root of the mount. */
  fresh_root();
  put("/proc/self/cgroup", "0::/\n");
  put("/sys/fs/cgroup/cpu.max", "250000 100000\n");
  CHECK(near(cpu_cgroup_quota(root), 2.5));

  /* No limit anywhere, and no files at all. */
  put("/sys/fs/cgroup/cpu.max", "max 100000\n");
  CHECK(near(cpu_cgroup_quota(root), 0));
  fresh_root();
  CHECK(near(cpu_cgroup_quota(root), 0));
  put("/proc/self/cgroup", "0::/gone\n");
  CHECK(near(cpu_cgroup_quota(root), 0));

  /* cgroup v1: the cpu controller's hierarchy, -1 meaning no quota. */
  fresh_root();
  put("/proc/self/cgroup",
      "4:memory:/docker/x\n3:cpu,cpuacct:/docker/x\n0::/\n");
  put("/sys/fs/cgroup/cpu,cpuacct/docker/x/cpu.cfs_quota_us", "150000\n");
  put("/sys/fs/cgroup/cpu,cpuacct/docker/x/cpu.cfs_period_us", "100000\n");
  put("/sys/fs/cgroup/cpu,cpuacct/cpu.cfs_quota_us", "-1\n");
  put("/sys/fs/cgroup/cpu,cpuacct/cpu.cfs_period_us", "100000\n");
  CHECK(near(cpu_cgroup_quota(root), 1.5));
  put("/sys/fs/cgroup/cpu,cpuacct/docker/x/cpu.cfs_quota_us", "-1\n");
  CHECK(near(cpu_cgroup_quota(root), 0));

  /* A controller list that only contains "cpu" as part of a name. */
  fresh_root();
  put("/proc/self/cgroup", "2:cpuset:/a\n");
  put("/sys/fs/cgroup/cpu/a/cpu.cfs_quota_us", "100000\n");
  put("/sys/fs/cgroup/cpu/a/cpu.cfs_period_us", "100000\n");
  CHECK(near(cpu_cgroup_quota(root), 0));

  /* This machine's real files parse (whatever they say). */
  CHECK(cpu_cgroup_quota("") >= 0);
  /* The pool never gets more workers than the quota allows. */
  double quota = cpu_cgroup_quota("");
  if (quota > 0 && !getenv("CLMUX_NUM_THREADS")) {
    CHECK(cpu_worker_count() <= (unsigned)quota + 1);
  }
  fresh_root();
  rmdir(root);
  return check_finish();
}
