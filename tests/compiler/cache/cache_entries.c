/* The disk cache, one process: SHA-256 against the FIPS 180-4 examples,
 * key framing, hit and miss, replacing, the directory made 0700, damaged
 * entries (truncated, any header byte or payload byte flipped, extended,
 * renamed) are misses, the environment variables (CLMUX_CACHE=0,
 * CLMUX_CACHE_DIR, XDG_CACHE_HOME, HOME, CLMUX_CACHE_MAX_SIZE), unusable
 * directories (a file in the way, no permission) and least recently used
 * eviction. */
#include <errno.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <time.h>

#include "cache_test.h"

static char *scratch;

static bool digest_is(const uint8_t digest[32], const char *hex) {
  char text[65];
  for (int i = 0; i < 32; i++) sprintf(text + 2 * i, "%02x", digest[i]);
  return strcmp(text, hex) == 0;
}

static void test_sha256(void) {
  uint8_t digest[32];
  cc_sha256_bytes("", 0, digest);
  CHECK(digest_is(digest,
                  "e3b0c44298fc1c149afbf4c8996fb924"
                  "27ae41e4649b934ca495991b7852b855"));
  cc_sha256_bytes("abc", 3, digest);
  CHECK(digest_is(digest,
                  "ba7816bf8f01cfea414140de5dae2223"
                  "b00361a396177a9cb410ff61f20015ad"));
  const char *two_blocks =
      "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
  cc_sha256_bytes(two_blocks, strlen(two_blocks), digest);
  CHECK(digest_is(digest,
                  "248d6a61d20638b8e5c026930c3e6039"
                  "a33ce45964ff2167f6ecedd419db06c1"));
  /* A million 'a', fed in uneven pieces: every buffering path. */
  static char a[1000000];
  memset(a, 'a', sizeof a);
  cc_sha256 hash;
  cc_sha256_init(&hash);
  for (size_t at = 0, step = 1; at < sizeof a;
       at += step, step = step * 3 % 131 + 1) {
    cc_sha256_update(&hash, a + at,
                     at + step > sizeof a ? sizeof a - at : step);
  }
  cc_sha256_final(&hash, digest);
  CHECK(digest_is(digest,
                  "cdc76e5c9914fb9281a1c7e284d73e67"
                  "f1809a48a497200e046d39ccc7112cd0"));
}

static bool same_key(const cc_cache_key *a, const cc_cache_key *b) {
  uint8_t x[32], y[32];
  cc_sha256 ca = a->hash, cb = b->hash;
  cc_sha256_final(&ca, x);
  cc_sha256_final(&cb, y);
  return memcmp(x, y, 32) == 0 && a->length == b->length;
}

static void test_keys(void) {
  cc_cache_key ab_c, a_bc, null_key, empty_key, copy;
  cc_cache_key_init(&ab_c);
  cc_cache_key_add_string(&ab_c, "ab");
  cc_cache_key_add_string(&ab_c, "c");
  cc_cache_key_init(&a_bc);
  cc_cache_key_add_string(&a_bc, "a");
  cc_cache_key_add_string(&a_bc, "bc");
  CHECK(!same_key(&ab_c, &a_bc));
  cc_cache_key_init(&null_key);
  cc_cache_key_add_string(&null_key, NULL);
  cc_cache_key_init(&empty_key);
  cc_cache_key_add_string(&empty_key, "");
  CHECK(!same_key(&null_key, &empty_key));
  /* A copied prefix grows like the original. */
  copy = ab_c;
  cc_cache_key_add(&copy, "x", 1);
  cc_cache_key_add(&ab_c, "x", 1);
  CHECK(same_key(&copy, &ab_c));
  cc_cache_key_add(&copy, "y", 1);
  CHECK(!same_key(&copy, &ab_c));
  /* The compiler identity is stable within a process and part of the key. */
  cc_cache_key plain = cache_test_key(1), id1 = cache_test_key(1),
               id2 = cache_test_key(1);
  cc_cache_key_add_compiler_identity(&id1);
  cc_cache_key_add_compiler_identity(&id2);
  CHECK(same_key(&id1, &id2));
  CHECK(!same_key(&plain, &id1));
}

static bool get_is(const char *dir, const cc_cache_key *key, const void *want,
                   size_t want_size) {
  uint8_t *bytes = NULL;
  size_t size = 99;
  bool hit = cc_cache_get(dir, key, &bytes, &size);
  bool same = hit && size == want_size && memcmp(bytes, want, size) == 0;
  free(bytes);
  return same;
}

static bool is_miss(const char *dir, const cc_cache_key *key) {
  uint8_t *bytes = (uint8_t *)1;
  size_t size = 99;
  bool hit = cc_cache_get(dir, key, &bytes, &size);
  free(hit ? bytes : NULL);
  return !hit && bytes == NULL && size == 0;
}

static void test_hit_and_miss(void) {
  char *dir = NULL;
  REQUIRE(asprintf(&dir, "%s/made/on/first/put", scratch) > 0);
  cc_cache_key one = cache_test_key(1), two = cache_test_key(2);
  CHECK(is_miss(dir, &one));
  CHECK_INT(-1, cache_test_count(dir, "")); /* a get creates nothing */
  const char payload[] = "compiled code";
  CHECK(cc_cache_put(dir, &one, payload, sizeof payload));
  struct stat info;
  CHECK(stat(dir, &info) == 0 && (info.st_mode & 0777) == 0700);
  CHECK(get_is(dir, &one, payload, sizeof payload));
  CHECK(is_miss(dir, &two));
  CHECK(cc_cache_put(dir, &two, "other", 5));
  CHECK(get_is(dir, &two, "other", 5));
  CHECK(get_is(dir, &one, payload, sizeof payload));
  /* Replacing, and an empty payload. */
  CHECK(cc_cache_put(dir, &one, "", 0));
  CHECK(get_is(dir, &one, "", 0));
  CHECK(cc_cache_put(dir, &one, "again", 5));
  CHECK(get_is(dir, &one, "again", 5));
  CHECK_INT(2, cache_test_count(dir, ""));
  CHECK_INT(0, cache_test_count(dir, ".tmp-"));
  /* A key grown by one more part is another key. */
  cc_cache_key longer = one;
  cc_cache_key_add_u64(&longer, 0);
  CHECK(is_miss(dir, &longer));
  free(dir);
}

/* Writes `size` bytes of `bytes` as the file at `path`. */
static void write_file(const char *path, const uint8_t *bytes, size_t size) {
  FILE *file = fopen(path, "wb");
  REQUIRE(file);
  REQUIRE(fwrite(bytes, 1, size, file) == size);
  REQUIRE(fclose(file) == 0);
}

static uint8_t *read_file(const char *path, size_t *size) {
  FILE *file = fopen(path, "rb");
  REQUIRE(file);
  static uint8_t bytes[4096];
  *size = fread(bytes, 1, sizeof bytes, file);
  fclose(file);
  uint8_t *copy = malloc(*size);
  memcpy(copy, bytes, *size);
  return copy;
}

static void test_damage(void) {
  char *dir = cache_test_directory("cache-damage");
  cc_cache_key key = cache_test_key(7), other = cache_test_key(8);
  uint8_t payload[300];
  for (int i = 0; i < 300; i++) payload[i] = (uint8_t)(i * 13 + 1);
  REQUIRE(cc_cache_put(dir, &key, payload, sizeof payload));
  char *path = cache_test_entry_path(dir, &key);
  size_t size = 0;
  uint8_t *good = read_file(path, &size);
  CHECK_INT(96 + 300, size);
  /* Truncated anywhere, including an empty file. */
  int misses = 0, tries = 0;
  for (size_t length = 0; length < size; length += length < 100 ? 1 : 37) {
    write_file(path, good, length);
    misses += is_miss(dir, &key);
    tries++;
  }
  CHECK_INT(tries, misses);
  /* Every header byte and every 7th payload byte flipped. */
  misses = tries = 0;
  for (size_t at = 0; at < size; at += at < 96 ? 1 : 7) {
    uint8_t *bad = malloc(size);
    memcpy(bad, good, size);
    bad[at] ^= (uint8_t)(1u << (at % 8));
    write_file(path, bad, size);
    misses += is_miss(dir, &key);
    tries++;
    free(bad);
  }
  CHECK_INT(tries, misses);
  /* One byte too many. */
  uint8_t *longer = malloc(size + 1);
  memcpy(longer, good, size);
  longer[size] = 0;
  write_file(path, longer, size + 1);
  CHECK(is_miss(dir, &key));
  free(longer);
  /* Restored, it hits again: the checks above were not just misses. */
  write_file(path, good, size);
  CHECK(get_is(dir, &key, payload, sizeof payload));
  /* An entry under another key's name (a collision of names). */
  char *other_path = cache_test_entry_path(dir, &other);
  write_file(other_path, good, size);
  CHECK(is_miss(dir, &other));
  /* A directory or a symbolic link where the entry should be. */
  unlink(other_path);
  REQUIRE(mkdir(other_path, 0700) == 0);
  CHECK(is_miss(dir, &other));
  rmdir(other_path);
  REQUIRE(symlink(path, other_path) == 0);
  CHECK(is_miss(dir, &other));
  /* A put replaces what is in the way (the link, not its target). */
  CHECK(cc_cache_put(dir, &other, "fresh", 5));
  CHECK(get_is(dir, &other, "fresh", 5));
  CHECK(get_is(dir, &key, payload, sizeof payload));
  free(other_path);
  free(good);
  free(path);
  cache_test_remove(dir);
  free(dir);
}

static void set_age(const char *path, time_t seconds_ago) {
  struct timespec times[2] = {{time(NULL) - seconds_ago, 0},
                              {time(NULL) - seconds_ago, 0}};
  REQUIRE(utimensat(AT_FDCWD, path, times, 0) == 0);
}

static void set(const char *name, const char *value) {
  if (value) {
    setenv(name, value, 1);
  } else {
    unsetenv(name);
  }
}

static bool directory_is(const char *expected) {
  char *got = cc_cache_directory();
  bool same = expected ? got && strcmp(got, expected) == 0 : got == NULL;
  if (!same)
    fprintf(stderr, "cache directory %s, expected %s\n", got ? got : "(none)",
            expected ? expected : "(none)");
  free(got);
  return same;
}

static void test_environment(void) {
  set("CLMUX_CACHE", NULL);
  set("CLMUX_CACHE_DIR", "/somewhere/cache");
  set("XDG_CACHE_HOME", "/xdg");
  set("HOME", "/home/user");
  CHECK(directory_is("/somewhere/cache"));
  set("CLMUX_CACHE_DIR", "");
  CHECK(directory_is("/xdg/clmux"));
  set("CLMUX_CACHE_DIR", NULL);
  CHECK(directory_is("/xdg/clmux"));
  set("XDG_CACHE_HOME", "relative/xdg"); /* ignored, as XDG says */
  CHECK(directory_is("/home/user/.cache/clmux"));
  set("XDG_CACHE_HOME", NULL);
  CHECK(directory_is("/home/user/.cache/clmux"));
  set("HOME", NULL);
  CHECK(directory_is(NULL));
  set("CLMUX_CACHE", "1");
  set("CLMUX_CACHE_DIR", "/somewhere/cache");
  CHECK(directory_is("/somewhere/cache"));
  set("CLMUX_CACHE", "0");
  CHECK(directory_is(NULL));

  /* A NULL directory means the environment's. */
  char *dir = cache_test_directory("cache-env");
  set("CLMUX_CACHE", NULL);
  set("CLMUX_CACHE_DIR", dir);
  cc_cache_key key = cache_test_key(3);
  CHECK(cc_cache_put(NULL, &key, "abc", 3));
  CHECK(get_is(NULL, &key, "abc", 3));
  CHECK(get_is(dir, &key, "abc", 3));
  CHECK_INT(1, cache_test_count(dir, ""));
  /* CLMUX_CACHE=0 turns off every call, even with a directory given. */
  set("CLMUX_CACHE", "0");
  CHECK(is_miss(NULL, &key));
  CHECK(is_miss(dir, &key));
  cc_cache_key fresh = cache_test_key(4);
  CHECK(!cc_cache_put(dir, &fresh, "x", 1));
  CHECK(!cc_cache_put(NULL, &fresh, "x", 1));
  set("CLMUX_CACHE", "off");
  CHECK(is_miss(dir, &key));
  set("CLMUX_CACHE", NULL);
  CHECK(is_miss(dir, &fresh));
  CHECK(get_is(dir, &key, "abc", 3));
  CHECK_INT(1, cache_test_count(dir, ""));

  /* CLMUX_CACHE_MAX_SIZE bounds the directory after each put. */
  set("CLMUX_CACHE_MAX_SIZE", "1K");
  uint8_t big[600] = {0};
  cc_cache_key k5 = cache_test_key(5), k6 = cache_test_key(6);
  CHECK(cc_cache_put(dir, &k5, big, sizeof big));
  /* File times may tick coarsely: make the order explicit. */
  char *k3_path = cache_test_entry_path(dir, &key);
  char *k5_path = cache_test_entry_path(dir, &k5);
  set_age(k3_path, 20);
  set_age(k5_path, 10);
  free(k3_path);
  free(k5_path);
  CHECK(cc_cache_put(dir, &k6, big, sizeof big)); /* 2 x 696 > 1024 */
  CHECK_INT(1, cache_test_count(dir, ""));
  CHECK(get_is(dir, &k6, big, sizeof big)); /* the newest stays */
  set("CLMUX_CACHE_MAX_SIZE", "junk");      /* the default bound */
  CHECK(cc_cache_put(dir, &k5, big, sizeof big));
  CHECK_INT(2, cache_test_count(dir, ""));
  set("CLMUX_CACHE_MAX_SIZE", NULL);
  set("CLMUX_CACHE_DIR", NULL);
  cache_test_remove(dir);
  free(dir);
}

/* In a child: `expect_put` and `expect_hit` as another user sees them. */
static void check_as_nobody(const char *dir, const cc_cache_key *key,
                            bool expect_put, bool expect_hit) {
  pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    if (setgid(65534) != 0 || setuid(65534) != 0) _exit(3);
    bool put = cc_cache_put(dir, key, "n", 1);
    uint8_t *bytes = NULL;
    size_t size = 0;
    bool hit = cc_cache_get(dir, key, &bytes, &size);
    free(bytes);
    _exit((put != expect_put) | (hit != expect_hit) << 1);
  }
  int status = 0;
  REQUIRE(waitpid(child, &status, 0) == child);
  CHECK(WIFEXITED(status));
  CHECK_INT(0, WEXITSTATUS(status));
}

static void test_unusable_directories(void) {
  /* A regular file where a folder of the path should be. */
  char *file = NULL, *below = NULL;
  REQUIRE(asprintf(&file, "%s/a-file", scratch) > 0);
  REQUIRE(asprintf(&below, "%s/cache", file) > 0);
  write_file(file, (const uint8_t *)"x", 1);
  cc_cache_key key = cache_test_key(11);
  CHECK(!cc_cache_put(below, &key, "abc", 3));
  CHECK(is_miss(below, &key));
  CHECK(!cc_cache_put(file, &key, "abc", 3));
  CHECK(!cc_cache_put("", &key, "abc", 3));
  CHECK(is_miss("", &key));
  CHECK(!cc_cache_put("/proc/clmux-cache", &key, "abc", 3));

  /* Permissions: as root, test them as another user in a child. */
  char *dir = cache_test_directory("cache-perm");
  CHECK(cc_cache_put(dir, &key, "abc", 3));
  if (geteuid() == 0) {
    /* The cache belongs to "nobody", who may not write to it. */
    char *entry = cache_test_entry_path(dir, &key);
    REQUIRE(chown(dir, 65534, 65534) == 0 && chown(entry, 65534, 65534) == 0);
    REQUIRE(chmod(dir, 0500) == 0);
    check_as_nobody(dir, &key, false, true); /* read-only: hits, no puts */
    REQUIRE(chmod(dir, 0000) == 0);
    check_as_nobody(dir, &key, false, false); /* unreadable: nothing */
    REQUIRE(chmod(dir, 0700) == 0);
    /* Root does not use nobody's cache (test_untrusted); give it back. */
    REQUIRE(chown(dir, 0, 0) == 0 && chown(entry, 0, 0) == 0);
    free(entry);
  } else {
    REQUIRE(chmod(dir, 0500) == 0);
    cc_cache_key other = cache_test_key(12);
    CHECK(!cc_cache_put(dir, &other, "abc", 3));
    CHECK(get_is(dir, &key, "abc", 3));
    REQUIRE(chmod(dir, 0000) == 0);
    CHECK(is_miss(dir, &key));
    REQUIRE(chmod(dir, 0700) == 0);
  }
  CHECK(get_is(dir, &key, "abc", 3));
  CHECK_INT(1, cache_test_count(dir, ""));
  cache_test_remove(dir);
  free(dir);
  free(below);
  free(file);
}

/* Whether `call` run with stderr in a file printed a line naming why
 * the cache is not used. */
static bool warns(bool (*call)(const char *, const cc_cache_key *),
                  const char *dir, const cc_cache_key *key, bool *result) {
  char *log = NULL;
  REQUIRE(asprintf(&log, "%s/stderr", scratch) > 0);
  fflush(stderr);
  int saved = dup(2);
  int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  REQUIRE(saved >= 0 && fd >= 0);
  dup2(fd, 2);
  close(fd);
  *result = call(dir, key);
  fflush(stderr);
  dup2(saved, 2);
  close(saved);
  size_t size = 0;
  uint8_t *text = read_file(log, &size);
  bool said = text && size > 0 && strstr((char *)text, "not used");
  free(text);
  unlink(log);
  free(log);
  return said;
}

static bool put_abc(const char *dir, const cc_cache_key *key) {
  return cc_cache_put(dir, key, "abc", 3);
}

static bool get_abc(const char *dir, const cc_cache_key *key) {
  return get_is(dir, key, "abc", 3);
}

/* A folder or entry someone else could have written is not used, as ssh
 * refuses such keys: the cache would run whatever code is planted there.
 * The first refusal of a process says why, once. */
static void test_untrusted(void) {
  char *dir = cache_test_directory("cache-trust");
  cc_cache_key key = cache_test_key(21), other = cache_test_key(22);
  CHECK(cc_cache_put(dir, &key, "abc", 3));
  REQUIRE(chmod(dir, 0777) == 0);
  bool result = true;
  CHECK(warns(get_abc, dir, &key, &result)); /* the first refusal speaks */
  CHECK(!result);
  CHECK(!warns(put_abc, dir, &other, &result)); /* once per process */
  CHECK(!result);
  REQUIRE(chmod(dir, 0720) == 0); /* the group may write: no better */
  CHECK(is_miss(dir, &key));
  REQUIRE(chmod(dir, 0755) == 0); /* others may read: fine */
  CHECK(get_is(dir, &key, "abc", 3));
  /* An entry others may write. */
  char *entry = cache_test_entry_path(dir, &key);
  REQUIRE(chmod(entry, 0666) == 0);
  CHECK(is_miss(dir, &key));
  REQUIRE(chmod(entry, 0600) == 0);
  CHECK(get_is(dir, &key, "abc", 3));
  if (geteuid() == 0) {
    /* Owned by another user: root does not run nobody's code. */
    REQUIRE(chown(entry, 65534, 65534) == 0);
    CHECK(is_miss(dir, &key));
    REQUIRE(chown(entry, 0, 0) == 0 && chown(dir, 65534, 65534) == 0);
    CHECK(is_miss(dir, &key));
    CHECK(!cc_cache_put(dir, &other, "abc", 3));
    REQUIRE(chown(dir, 0, 0) == 0);
    CHECK(get_is(dir, &key, "abc", 3));
  }
  free(entry);
  cache_test_remove(dir);
  free(dir);
}

static void test_eviction(void) {
  char *dir = cache_test_directory("cache-trim");
  uint8_t payload[904] = {1}; /* 1000 bytes per file */
  cc_cache_key keys[10];
  for (int i = 0; i < 10; i++) {
    keys[i] = cache_test_key(100 + (uint64_t)i);
    REQUIRE(cc_cache_put(dir, &keys[i], payload, sizeof payload));
    char *path = cache_test_entry_path(dir, &keys[i]);
    set_age(path, 1000 - i * 10); /* key 0 the oldest */
    free(path);
  }
  /* A hit makes key 1 the most recently used. */
  CHECK(get_is(dir, &keys[1], payload, sizeof payload));
  /* Files that are not entries: a fresh temporary file (a writer at work)
   * stays, a day-old one (a writer that died) goes, others are not ours. */
  char *fresh = NULL, *stale = NULL, *foreign = NULL;
  REQUIRE(asprintf(&fresh, "%s/.tmp-fresh", dir) > 0);
  REQUIRE(asprintf(&stale, "%s/.tmp-stale", dir) > 0);
  REQUIRE(asprintf(&foreign, "%s/README", dir) > 0);
  write_file(fresh, payload, sizeof payload);
  write_file(stale, payload, sizeof payload);
  uint8_t *large = calloc(1, 100000);
  write_file(foreign, large, 100000);
  free(large);
  set_age(stale, 86400);
  set_age(foreign, 100000);
  cc_cache_trim(dir, 5500);
  CHECK(access(fresh, F_OK) == 0);
  CHECK(access(stale, F_OK) != 0);
  CHECK(access(foreign, F_OK) == 0);
  CHECK_INT(5, cache_test_count(dir, "") - 2);
  /* Kept: key 1 (just used) and keys 6..9 (the newest). */
  int kept = get_is(dir, &keys[1], payload, sizeof payload);
  for (int i = 6; i < 10; i++)
    kept += get_is(dir, &keys[i], payload, sizeof payload);
  CHECK_INT(5, kept);
  for (int i = 0; i < 10; i++) {
    if (i != 1 && i < 6) CHECK(is_miss(dir, &keys[i]));
  }
  cc_cache_trim(dir, 0);
  CHECK_INT(2, cache_test_count(dir, ""));
  cc_cache_trim("/nonexistent/clmux", 0); /* nothing to do, no crash */
  free(fresh);
  free(stale);
  free(foreign);
  cache_test_remove(dir);
  free(dir);
}

int main(void) {
  set("CLMUX_CACHE", NULL);
  set("CLMUX_CACHE_MAX_SIZE", NULL);
  scratch = cache_test_directory("cache-entries");
  test_sha256();
  test_keys();
  test_hit_and_miss();
  test_damage();
  test_environment();
  test_untrusted();
  test_unusable_directories();
  test_eviction();
  cache_test_remove(scratch);
  free(scratch);
  return check_finish();
}
