/* The disk cache under contention: a forked process and four threads put
 * the same keys again and again while two threads read them; every hit
 * must be a whole payload for its key (payloads differ per writer and
 * round, and carry their own check), and afterwards every key hits and no
 * temporary file is left. A second round does the same with a size bound
 * small enough that puts keep evicting each other's entries. */
#include <pthread.h>
#include <stdatomic.h>
#include <sys/wait.h>

#include "cache_test.h"

enum { keys = 24, rounds = 12, writers = 4, readers = 2 };

static const char *directory;
static atomic_int writers_done;
static atomic_int wrong_payloads;
static atomic_int hits;

/* A payload for key `k` from writer `w` in round `r`: its size varies, and
 * every byte follows from the first 12, which name key, writer and round. */
static uint8_t *make_payload(uint32_t k, uint32_t w, uint32_t r, size_t *size) {
  *size = 12 + (k * 977 + w * 131 + r * 17) % 6000;
  uint8_t *bytes = malloc(*size);
  memcpy(bytes, &k, 4);
  memcpy(bytes + 4, &w, 4);
  memcpy(bytes + 8, &r, 4);
  uint32_t state = k * 2654435761u ^ w * 40503u ^ r;
  for (size_t i = 12; i < *size; i++) {
    state = state * 1103515245u + 12345u;
    bytes[i] = (uint8_t)(state >> 16);
  }
  return bytes;
}

static bool payload_is_whole(uint32_t k, const uint8_t *bytes, size_t size) {
  if (size < 12) return false;
  uint32_t key, w, r;
  memcpy(&key, bytes, 4);
  memcpy(&w, bytes + 4, 4);
  memcpy(&r, bytes + 8, 4);
  if (key != k || w > writers || r >= rounds) return false;
  size_t want_size = 0;
  uint8_t *want = make_payload(key, w, r, &want_size);
  bool same = want_size == size && memcmp(want, bytes, size) == 0;
  free(want);
  return same;
}

/* Writer `w` (writers, the forked process is writer `writers`). */
static void write_rounds(uint32_t w) {
  for (uint32_t r = 0; r < rounds; r++) {
    for (uint32_t i = 0; i < keys; i++) {
      uint32_t k = (i + w * 5) % keys; /* writers start at different keys */
      size_t size = 0;
      uint8_t *bytes = make_payload(k, w, r, &size);
      cc_cache_key key = cache_test_key(k);
      cc_cache_put(directory, &key, bytes, size);
      free(bytes);
    }
  }
}

static void *writer(void *arg) {
  write_rounds((uint32_t)(uintptr_t)arg);
  atomic_fetch_add(&writers_done, 1);
  return NULL;
}

static void *reader(void *arg) {
  (void)arg;
  while (atomic_load(&writers_done) < writers) {
    for (uint32_t k = 0; k < keys; k++) {
      cc_cache_key key = cache_test_key(k);
      uint8_t *bytes = NULL;
      size_t size = 0;
      if (cc_cache_get(directory, &key, &bytes, &size)) {
        atomic_fetch_add(&hits, 1);
        if (!payload_is_whole(k, bytes, size)) {
          atomic_fetch_add(&wrong_payloads, 1);
        }
      }
      free(bytes);
    }
  }
  return NULL;
}

/* One contest; the forked writer is started before any thread exists. */
static void contest(void) {
  atomic_store(&writers_done, 0);
  atomic_store(&wrong_payloads, 0);
  atomic_store(&hits, 0);
  pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    write_rounds(writers);
    _exit(0);
  }
  pthread_t threads[writers + readers];
  for (uintptr_t i = 0; i < writers; i++) {
    REQUIRE(pthread_create(&threads[i], NULL, writer, (void *)i) == 0);
  }
  for (int i = 0; i < readers; i++) {
    REQUIRE(pthread_create(&threads[writers + i], NULL, reader, NULL) == 0);
  }
  for (int i = 0; i < writers + readers; i++) pthread_join(threads[i], NULL);
  int status = 0;
  REQUIRE(waitpid(child, &status, 0) == child);
  CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  CHECK_INT(0, atomic_load(&wrong_payloads));
  CHECK_INT(0, cache_test_count(directory, ".tmp-"));
}

/* The bytes of all files in the directory. */
static long long entry_bytes(void) {
  DIR *dir = opendir(directory);
  long long total = 0;
  REQUIRE(dir);
  for (struct dirent *item; (item = readdir(dir));) {
    struct stat info;
    if (item->d_name[0] != '.' &&
        fstatat(dirfd(dir), item->d_name, &info, 0) == 0) {
      total += info.st_size;
    }
  }
  closedir(dir);
  return total;
}

int main(void) {
  unsetenv("CLMUX_CACHE");
  unsetenv("CLMUX_CACHE_MAX_SIZE");
  char *dir = cache_test_directory("cache-concurrent");
  directory = dir;
  contest();
  CHECK(atomic_load(&hits) > 0);
  int whole = 0;
  for (uint32_t k = 0; k < keys; k++) {
    cc_cache_key key = cache_test_key(k);
    uint8_t *bytes = NULL;
    size_t size = 0;
    whole += cc_cache_get(directory, &key, &bytes, &size) &&
             payload_is_whole(k, bytes, size);
    free(bytes);
  }
  CHECK_INT(keys, whole);
  CHECK_INT(keys, cache_test_count(directory, ""));

  /* About four entries fit: puts evict while others read and write. */
  setenv("CLMUX_CACHE_MAX_SIZE", "16K", 1);
  contest();
  CHECK(entry_bytes() <= 16 * 1024);
  CHECK(cache_test_count(directory, "") >= 1);
  unsetenv("CLMUX_CACHE_MAX_SIZE");
  cache_test_remove(dir);
  free(dir);
  return check_finish();
}
