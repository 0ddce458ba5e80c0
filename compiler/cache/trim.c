/* clmux compiler — keeping the disk cache under its size bound: least
 * recently used entries (oldest modification time, which a hit renews)
 * go first. Several processes may trim at once; an entry already gone is
 * simply skipped. */
#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"

/* A temporary file this old belongs to a writer that died. */
#define STALE_TEMP_SECONDS 3600

typedef struct entry {
  char name[CC_CACHE_NAME_LENGTH + 1];
  uint64_t size;
  struct timespec used;
} entry;

static int older_first(const void *a, const void *b) {
  const struct timespec *x = &((const entry *)a)->used;
  const struct timespec *y = &((const entry *)b)->used;
  if (x->tv_sec != y->tv_sec) return x->tv_sec < y->tv_sec ? -1 : 1;
  return (x->tv_nsec > y->tv_nsec) - (x->tv_nsec < y->tv_nsec);
}

void cc_cache_trim(const char *directory, uint64_t limit) {
  DIR *dir = opendir(directory);
  if (!dir) return;
  int dir_fd = dirfd(dir);
  entry *entries = NULL;
  size_t count = 0, capacity = 0;
  uint64_t total = 0;
  time_t now = time(NULL);
  for (struct dirent *item; (item = readdir(dir));) {
    struct stat info;
    bool is_entry = cc_cache_is_entry_name(item->d_name);
    bool is_temp = strncmp(item->d_name, CC_CACHE_TEMP_PREFIX,
                           strlen(CC_CACHE_TEMP_PREFIX)) == 0;
    if ((!is_entry && !is_temp) ||
        fstatat(dir_fd, item->d_name, &info, AT_SYMLINK_NOFOLLOW) != 0 ||
        !S_ISREG(info.st_mode)) {
      continue;
    }
    if (is_temp) {
      if (now - info.st_mtim.tv_sec > STALE_TEMP_SECONDS) {
        unlinkat(dir_fd, item->d_name, 0);
      }
      continue;
    }
    if (count == capacity) {
      size_t grown = capacity ? 2 * capacity : 64;
      entry *more = realloc(entries, grown * sizeof *entries);
      if (!more) break;
      entries = more;
      capacity = grown;
    }
    memcpy(entries[count].name, item->d_name, sizeof entries[count].name);
    entries[count].size = (uint64_t)info.st_size;
    entries[count].used = info.st_mtim;
    total += (uint64_t)info.st_size;
    count++;
  }
  if (total > limit) {
    qsort(entries, count, sizeof *entries, older_first);
    for (size_t i = 0; i < count && total > limit; i++) {
      unlinkat(dir_fd, entries[i].name, 0);
      total -= entries[i].size;
    }
  }
  free(entries);
  closedir(dir);
}
