/* clmux compiler — where the disk cache lives and how big it may grow. */
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

#define DEFAULT_LIMIT (UINT64_C(256) << 20)

bool cc_cache_disabled(void) {
  const char *value = getenv("CLMUX_CACHE");
  if (!value) return false;
  return strcmp(value, "0") == 0 || strcasecmp(value, "off") == 0 ||
         strcasecmp(value, "no") == 0 || strcasecmp(value, "false") == 0;
}

uint64_t cc_cache_size_limit(void) {
  const char *value = getenv("CLMUX_CACHE_MAX_SIZE");
  if (!value || !*value) return DEFAULT_LIMIT;
  char *end = NULL;
  errno = 0;
  unsigned long long number = strtoull(value, &end, 10);
  if (errno || end == value) return DEFAULT_LIMIT;
  unsigned shift = 0;
  switch (*end) {
    case 'k':
    case 'K':
      shift = 10;
      end++;
      break;
    case 'm':
    case 'M':
      shift = 20;
      end++;
      break;
    case 'g':
    case 'G':
      shift = 30;
      end++;
      break;
    default:
      break;
  }
  if (*end || number > (UINT64_MAX >> shift)) return DEFAULT_LIMIT;
  return (uint64_t)number << shift;
}

/* A path joined from a non-empty environment variable and a suffix. */
static char *from_variable(const char *name, const char *suffix) {
  const char *value = getenv(name);
  if (!value || !*value) return NULL;
  char *path = NULL;
  return asprintf(&path, "%s%s", value, suffix) < 0 ? NULL : path;
}

char *cc_cache_directory(void) {
  if (cc_cache_disabled()) return NULL;
  char *path = from_variable("CLMUX_CACHE_DIR", "");
  /* The XDG base directory spec ignores relative values. */
  const char *xdg = getenv("XDG_CACHE_HOME");
  if (!path && xdg && xdg[0] == '/')
    path = from_variable("XDG_CACHE_HOME", "/clmux");
  if (!path) path = from_variable("HOME", "/.cache/clmux");
  return path;
}

bool cc_cache_make_directory(const char *directory) {
  struct stat info;
  if (!directory[0]) return false;
  if (stat(directory, &info) == 0) return S_ISDIR(info.st_mode);
  char *path = strdup(directory);
  if (!path) return false;
  /* Each missing component, outermost first; another process creating
   * one at the same time is fine (EEXIST). */
  for (char *slash = strchr(path + 1, '/');; slash = strchr(slash + 1, '/')) {
    if (slash) *slash = '\0';
    if (mkdir(path, 0700) != 0 && errno != EEXIST) break;
    if (!slash) break;
    *slash = '/';
  }
  free(path);
  return stat(directory, &info) == 0 && S_ISDIR(info.st_mode);
}

/* Whether the folder or entry that `info` describes (`found`: stat
 * succeeded) is this user's alone. As ssh does with its keys, code is
 * only loaded from files that no one else can have written; the first
 * refusal of a process says why on stderr. */
static bool trusted(bool found, const struct stat *info, const char *path) {
  if (!found) return false;
  const char *why = info->st_uid != geteuid() ? "it belongs to another user"
                    : info->st_mode & 022     ? "others may write to it"
                                              : NULL;
  static atomic_bool warned;
  if (why && !atomic_exchange(&warned, true)) {
    fprintf(stderr, "clmux: kernel cache %s not used: %s\n", path, why);
  }
  return why == NULL;
}

bool cc_cache_trusted_directory(const char *directory) {
  struct stat info;
  return trusted(stat(directory, &info) == 0, &info, directory);
}

bool cc_cache_trusted_entry(int fd, const char *path) {
  struct stat info;
  return trusted(fstat(fd, &info) == 0, &info, path);
}

bool cc_cache_is_entry_name(const char *name) {
  for (unsigned i = 0; i < CC_CACHE_NAME_LENGTH; i++) {
    char c = name[i];
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return name[CC_CACHE_NAME_LENGTH] == '\0';
}
