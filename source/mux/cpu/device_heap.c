/* clmux CPU target: the memory of buffers and images, apart from the C
 * heap. Kernels written for GPUs often write a little past a buffer's end
 * (a global size rounded up past it); in malloc's heap that overwrites the
 * heap's own bookkeeping and the process aborts later, far from the cause.
 * Here every allocation has at least DEVICE_HEAP_SLACK bytes of padding
 * after its end, and no bookkeeping lives in mapped memory:
 *   - small allocations are blocks of a power-of-two size class in slabs
 *     (1 MiB mappings of one class, a guard page after each), tracked by
 *     bitmaps held in the C heap;
 *   - large ones are mappings of their own between two inaccessible guard
 *     pages, so that an overrun past the padding faults at once. */
#include "device_heap.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define SLAB_BYTES ((size_t)1 << 20)
#define MIN_CLASS 6  /* 64-byte blocks */
#define MAX_CLASS 16 /* 64 KiB blocks: larger allocations are mapped alone */
#define CLASS_COUNT (MAX_CLASS - MIN_CLASS + 1)
#define HUGE_PAGE ((size_t)2 << 20)

typedef struct slab {
  struct slab *next;
  uint8_t *base;
  unsigned block_shift, block_count, used_count;
  uint64_t used[]; /* one bit a block */
} slab;

static struct {
  pthread_mutex_t lock;
  slab *classes[CLASS_COUNT];
} heap = {PTHREAD_MUTEX_INITIALIZER, {0}};

static size_t page_size(void) { return (size_t)sysconf(_SC_PAGESIZE); }

static size_t round_up(size_t value, size_t to) {
  return (value + to - 1) & ~(to - 1);
}

/* Maps `length` bytes aligned to `alignment` (a power of two, at least a
 * page) with an inaccessible guard page before and after. */
static uint8_t *map_guarded(size_t length, size_t alignment) {
  size_t guard = page_size();
  size_t total = guard + length + guard + alignment;
  if (total < length) return NULL;
  uint8_t *raw =
      mmap(NULL, total, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) return NULL;
  uint8_t *data = (uint8_t *)round_up((uintptr_t)raw + guard, alignment);
  uint8_t *start = data - guard, *end = data + length + guard;
  if (start > raw) munmap(raw, (size_t)(start - raw));
  if (raw + total > end) munmap(end, (size_t)(raw + total - end));
  if (mprotect(data, length, PROT_READ | PROT_WRITE) != 0) {
    munmap(start, length + 2 * guard);
    return NULL;
  }
  return data;
}

static void unmap_guarded(uint8_t *data, size_t length) {
  size_t guard = page_size();
  munmap(data - guard, length + 2 * guard);
}

/* The class (log2 of the block size) for `size` bytes plus the slack,
 * aligned to `alignment`; MAX_CLASS + 1 when too large for a slab. */
static unsigned class_of(size_t size, size_t alignment) {
  size_t need = size + DEVICE_HEAP_SLACK;
  if (need < alignment) need = alignment;
  if (need < size || alignment > page_size()) return MAX_CLASS + 1;
  unsigned shift = MIN_CLASS;
  while (shift <= MAX_CLASS && ((size_t)1 << shift) < need) shift++;
  return shift;
}

static slab *slab_new(unsigned shift) {
  unsigned count = (unsigned)(SLAB_BYTES >> shift);
  slab *s = calloc(1, sizeof *s + (count + 63) / 64 * sizeof(uint64_t));
  if (!s) return NULL;
  s->base = map_guarded(SLAB_BYTES, page_size());
  if (!s->base) {
    free(s);
    return NULL;
  }
  s->block_shift = shift;
  s->block_count = count;
  return s;
}

static void *slab_take(slab *s) {
  for (unsigned w = 0; w < (s->block_count + 63) / 64; w++) {
    if (s->used[w] == UINT64_MAX) continue;
    unsigned bit = (unsigned)__builtin_ctzll(~s->used[w]);
    s->used[w] |= (uint64_t)1 << bit;
    s->used_count++;
    return s->base + ((size_t)(w * 64 + bit) << s->block_shift);
  }
  return NULL;
}

static void *small_allocate(unsigned shift, device_heap_block *block) {
  pthread_mutex_lock(&heap.lock);
  slab **list = &heap.classes[shift - MIN_CLASS];
  slab *s = *list;
  while (s && s->used_count == s->block_count) s = s->next;
  if (!s) {
    s = slab_new(shift);
    if (s) {
      s->next = *list;
      *list = s;
    }
  }
  void *data = s ? slab_take(s) : NULL;
  pthread_mutex_unlock(&heap.lock);
  block->slab = s;
  return data;
}

static void small_release(slab *s, void *data) {
  pthread_mutex_lock(&heap.lock);
  size_t index = (size_t)((uint8_t *)data - s->base) >> s->block_shift;
  s->used[index / 64] &= ~((uint64_t)1 << (index % 64));
  s->used_count--;
  /* An empty slab goes back to the system unless it is its class's only
   * one (kept, so that a buffer created and released in a loop does not
   * map and unmap each time). */
  slab **list = &heap.classes[s->block_shift - MIN_CLASS];
  if (s->used_count == 0 && !(*list == s && !s->next)) {
    for (slab **at = list; *at; at = &(*at)->next) {
      if (*at == s) {
        *at = s->next;
        break;
      }
    }
    unmap_guarded(s->base, SLAB_BYTES);
    free(s);
  }
  pthread_mutex_unlock(&heap.lock);
}

void *device_heap_allocate(size_t size, size_t alignment,
                           device_heap_block *block) {
  memset(block, 0, sizeof *block);
  unsigned shift = class_of(size, alignment);
  if (shift <= MAX_CLASS) return small_allocate(shift, block);
  size_t length = round_up(size + DEVICE_HEAP_SLACK, page_size());
  if (length < size) return NULL;
  /* Huge-page aligned from 2 MiB on, so that the kernel may back the
   * buffer with huge pages. */
  if (length >= HUGE_PAGE && alignment < HUGE_PAGE) alignment = HUGE_PAGE;
  if (alignment < page_size()) alignment = page_size();
  uint8_t *data = map_guarded(length, alignment);
  if (!data) return NULL;
  if (length >= HUGE_PAGE) madvise(data, length, MADV_HUGEPAGE); /* a hint */
  block->mapped_length = length;
  return data;
}

void device_heap_release(void *data, const device_heap_block *block) {
  if (!data) return;
  if (block->slab) {
    small_release(block->slab, data);
  } else {
    unmap_guarded(data, block->mapped_length);
  }
}
