/* Gives the C heap's free pages back to the system after compiler work.
 * LLVM allocates tens of megabytes while it compiles, on whichever thread
 * asked (often the application's own), and glibc keeps every thread's
 * arena at its high-water mark: an application that builds programs from
 * many threads would see resident memory climb in steps without any leak.
 * At most once a second: a trim makes the next compile fault its pages in
 * again, which per build would cost more than the build (measured with
 * clmux-cl-stress, whose builds mostly hit the cache: a third the
 * iterations). */
#include "clx.h"
#include "engine.h"

#include <stdatomic.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#define RELEASE_INTERVAL_NS 1000000000ull

void clx_heap_release(void) {
#ifdef __GLIBC__
  static atomic_ullong last_ns;
  unsigned long long now = clx_now_ns();
  unsigned long long last = atomic_load(&last_ns);
  if (now - last < RELEASE_INTERVAL_NS ||
      !atomic_compare_exchange_strong(&last_ns, &last, now)) {
    return;
  }
  malloc_trim(0);
#endif
}
