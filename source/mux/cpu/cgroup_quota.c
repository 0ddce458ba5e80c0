/* clmux CPU target: the CPU time the process's control group may use.
 *
 * A container limited to 2 CPUs of a 64-core host sees all 64 cores in its
 * cpuset; the limit is a quota (cgroup v2 `cpu.max`, v1
 * `cpu.cfs_quota_us` / `cpu.cfs_period_us`) on its group or any group
 * above it. The tightest one along the path counts. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu.h"

static FILE *open_in(const char *folder, const char *name) {
  char path[4096];
  int length = snprintf(path, sizeof path, "%s/%s", folder, name);
  if (length < 0 || (size_t)length >= sizeof path) return NULL;
  return fopen(path, "re");
}

/* One number from folder/name; false if missing or unreadable. */
static bool read_number(const char *folder, const char *name, double *value) {
  FILE *file = open_in(folder, name);
  if (!file) return false;
  bool read = fscanf(file, "%lf", value) == 1;
  fclose(file);
  return read;
}

/* CPUs granted by one group's files in `folder`, or 0 when unlimited or
 * unreadable. */
static double folder_quota(const char *folder, bool v2) {
  double quota = 0, period = 0;
  if (v2) {
    FILE *file = open_in(folder, "cpu.max");
    if (!file) return 0;
    char text[64] = "";
    if (fscanf(file, "%63s %lf", text, &period) == 2 &&
        strcmp(text, "max") != 0) {
      quota = strtod(text, NULL);
    }
    fclose(file);
  } else if (!read_number(folder, "cpu.cfs_quota_us", &quota) ||
             !read_number(folder, "cpu.cfs_period_us", &period)) {
    return 0;
  }
  return quota > 0 && period > 0 ? quota / period : 0;
}

/* The tightest quota from `mount` + `group` up to `mount`. */
static double path_quota(const char *mount, const char *group, bool v2) {
  char folder[4096];
  int length = snprintf(folder, sizeof folder, "%s%s", mount, group);
  if (length < 0 || (size_t)length >= sizeof folder) return 0;
  size_t mount_length = strlen(mount);
  double tightest = 0;
  for (;;) {
    double quota = folder_quota(folder, v2);
    if (quota > 0 && (tightest == 0 || quota < tightest)) tightest = quota;
    char *slash = strrchr(folder, '/');
    if (!slash || (size_t)(slash - folder) < mount_length) break;
    *slash = '\0';
  }
  return tightest;
}

static bool has_controller(const char *list, const char *name) {
  size_t length = strlen(name);
  for (const char *at = list; (at = strstr(at, name)); at += length) {
    bool starts = at == list || at[-1] == ',';
    bool ends = at[length] == '\0' || at[length] == ',';
    if (starts && ends) return true;
  }
  return false;
}

double cpu_cgroup_quota(const char *root) {
  char path[4096];
  snprintf(path, sizeof path, "%s/proc/self/cgroup", root);
  FILE *file = fopen(path, "re");
  if (!file) return 0;
  double tightest = 0;
  char line[4096];
  while (fgets(line, sizeof line, file)) {
    line[strcspn(line, "\n")] = '\0';
    /* hierarchy-id:controllers:path */
    char *controllers = strchr(line, ':');
    char *group = controllers ? strchr(controllers + 1, ':') : NULL;
    if (!group) continue;
    *controllers++ = '\0';
    *group++ = '\0';
    static const char *const v1_mounts[] = {"cpu,cpuacct", "cpuacct,cpu",
                                            "cpu"};
    static const char *const v2_mounts[] = {"", "/unified"};
    bool v2 = *controllers == '\0';
    if (!v2 && !has_controller(controllers, "cpu")) continue;
    size_t mounts = v2 ? 2 : 3;
    for (size_t i = 0; i < mounts; i++) {
      char mount[4096];
      snprintf(mount, sizeof mount, "%s/sys/fs/cgroup%s%s", root, v2 ? "" : "/",
               v2 ? v2_mounts[i] : v1_mounts[i]);
      double quota = path_quota(mount, strcmp(group, "/") ? group : "", v2);
      if (quota > 0 && (tightest == 0 || quota < tightest)) tightest = quota;
    }
  }
  fclose(file);
  return tightest;
}
