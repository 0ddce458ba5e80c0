/* Duration queries: begin/end around commands give CPU timestamps with
 * start <= end inside the dispatch's time span, consecutive commands are
 * ordered, results are read with a stride, reset zeroes them; counter
 * queries are unsupported. */
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "mux_test.h"

#define TIMEOUT_NS 10000000000ull /* against hangs only */
#define SLOTS 6

static mux_device_t device;
static mux_queue_t queue;

static uint64_t now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static void busy(mux_queue_t q, mux_command_buffer_t cb, void *const data) {
  (void)q;
  (void)cb;
  (void)data;
  struct timespec t = {0, 200000};
  nanosleep(&t, NULL);
}

static void run(mux_command_buffer_t command_buffer) {
  mux_fence_t fence = NULL;
  REQUIRE(muxCreateFence(device, mux_test_allocator, &fence) == mux_success);
  CHECK_SUCCESS(muxFinalizeCommandBuffer(command_buffer));
  CHECK_SUCCESS(muxDispatch(queue, command_buffer, fence, NULL, 0, NULL, 0,
                            NULL, NULL));
  CHECK_SUCCESS(muxTryWait(queue, TIMEOUT_NS, fence));
  muxDestroyFence(device, fence, mux_test_allocator);
}

/* Results land `stride` bytes apart; the bytes between stay untouched. */
typedef struct {
  struct mux_query_duration_result_s result;
  uint8_t padding[24];
} strided_result;

static void test_durations(void) {
  mux_query_pool_t pool = NULL;
  CHECK_SUCCESS(muxCreateQueryPool(queue, mux_query_type_duration, SLOTS, NULL,
                                   mux_test_allocator, &pool));
  REQUIRE(pool != NULL);
  CHECK(pool->type == mux_query_type_duration && pool->count == SLOTS);

  /* Slots 0 and 1 each time one command; slots 2..3 are begun and ended
   * together around two commands; 4..5 stay unused. */
  mux_command_buffer_t command_buffer = NULL;
  REQUIRE(muxCreateCommandBuffer(device, NULL, mux_test_allocator,
                                 &command_buffer) == mux_success);
  CHECK_SUCCESS(muxCommandResetQueryPool(command_buffer, pool, 0, SLOTS, 0,
                                         NULL, NULL));
  for (uint32_t slot = 0; slot < 2; slot++) {
    CHECK_SUCCESS(
        muxCommandBeginQuery(command_buffer, pool, slot, 1, 0, NULL, NULL));
    CHECK_SUCCESS(
        muxCommandUserCallback(command_buffer, busy, NULL, 0, NULL, NULL));
    CHECK_SUCCESS(
        muxCommandEndQuery(command_buffer, pool, slot, 1, 0, NULL, NULL));
  }
  CHECK_SUCCESS(muxCommandBeginQuery(command_buffer, pool, 2, 2, 0, NULL, NULL));
  CHECK_SUCCESS(
      muxCommandUserCallback(command_buffer, busy, NULL, 0, NULL, NULL));
  CHECK_SUCCESS(
      muxCommandUserCallback(command_buffer, busy, NULL, 0, NULL, NULL));
  CHECK_SUCCESS(muxCommandEndQuery(command_buffer, pool, 2, 2, 0, NULL, NULL));

  uint64_t before = now_ns();
  run(command_buffer);
  uint64_t after = now_ns();

  strided_result results[SLOTS];
  memset(results, 0xab, sizeof(results));
  CHECK_SUCCESS(muxGetQueryPoolResults(queue, pool, 0, SLOTS, sizeof(results),
                                       results, sizeof(strided_result)));
  for (uint32_t slot = 0; slot < 4; slot++) {
    const struct mux_query_duration_result_s *r = &results[slot].result;
    CHECK(before <= r->start && r->start <= r->end && r->end <= after);
  }
  /* Each span covers its busy command, and nanosleep never returns before
   * its 200 us are up (a bound that cannot flake). */
  CHECK(results[0].result.end - results[0].result.start >= 200000);
  CHECK(results[2].result.end - results[2].result.start >= 400000);
  CHECK(results[0].result.end <= results[1].result.start);
  CHECK(results[1].result.end <= results[2].result.start);
  CHECK(results[2].result.start == results[3].result.start &&
        results[2].result.end == results[3].result.end);
  CHECK(results[4].result.start == 0 && results[4].result.end == 0 &&
        results[5].result.start == 0 && results[5].result.end == 0);
  bool padding_kept = true;
  for (int slot = 0; slot < SLOTS; slot++) {
    for (size_t i = 0; i < sizeof(results[slot].padding); i++) {
      if (results[slot].padding[i] != 0xab) padding_kept = false;
    }
  }
  CHECK(padding_kept);

  /* A sub-range, tightly packed. */
  struct mux_query_duration_result_s two[2];
  CHECK_SUCCESS(muxGetQueryPoolResults(queue, pool, 1, 2, sizeof(two), two,
                                       sizeof(two[0])));
  CHECK(two[0].start == results[1].result.start &&
        two[1].end == results[2].result.end);

  /* Too small a destination, stride or range. */
  CHECK_RESULT(mux_error_invalid_value,
               muxGetQueryPoolResults(queue, pool, 0, 3, sizeof(two), two,
                                      sizeof(two[0])));
  CHECK_RESULT(mux_error_invalid_value,
               muxGetQueryPoolResults(queue, pool, 0, 1, sizeof(two), two, 8));
  CHECK_RESULT(mux_error_invalid_value,
               muxGetQueryPoolResults(queue, pool, SLOTS - 1, 2, sizeof(two),
                                      two, sizeof(two[0])));

  /* Reset part of the pool: those slots read zero, the rest are kept. */
  CHECK_SUCCESS(muxResetCommandBuffer(command_buffer));
  CHECK_SUCCESS(muxCommandResetQueryPool(command_buffer, pool, 1, 2, 0, NULL,
                                         NULL));
  run(command_buffer);
  struct mux_query_duration_result_s after_reset[SLOTS];
  CHECK_SUCCESS(muxGetQueryPoolResults(queue, pool, 0, SLOTS,
                                       sizeof(after_reset), after_reset,
                                       sizeof(after_reset[0])));
  CHECK(after_reset[0].start == results[0].result.start &&
        after_reset[0].end == results[0].result.end);
  CHECK(after_reset[1].start == 0 && after_reset[1].end == 0 &&
        after_reset[2].start == 0 && after_reset[2].end == 0);
  CHECK(after_reset[3].end == results[3].result.end);

  /* An end query needs a begin query for its slots in the same buffer. */
  CHECK_SUCCESS(muxResetCommandBuffer(command_buffer));
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandEndQuery(command_buffer, pool, 0, 1, 0, NULL, NULL));
  CHECK_SUCCESS(muxCommandBeginQuery(command_buffer, pool, 0, 1, 0, NULL, NULL));
  CHECK_RESULT(mux_error_invalid_value,
               muxCommandEndQuery(command_buffer, pool, 0, 2, 0, NULL, NULL));
  CHECK_SUCCESS(muxCommandEndQuery(command_buffer, pool, 0, 1, 0, NULL, NULL));

  muxDestroyCommandBuffer(device, command_buffer, mux_test_allocator);
  muxDestroyQueryPool(queue, pool, mux_test_allocator);
}

static void test_counters_unsupported(void) {
  mux_query_pool_t pool = NULL;
  mux_query_counter_config_t config = {0, NULL};
  CHECK_RESULT(mux_error_feature_unsupported,
               muxCreateQueryPool(queue, mux_query_type_counter, 1, &config,
                                  mux_test_allocator, &pool));
  uint32_t count = 0;
  CHECK_RESULT(mux_error_feature_unsupported,
               muxGetSupportedQueryCounters(device, mux_queue_type_compute, 0,
                                            NULL, NULL, &count));
  uint32_t passes = 0;
  CHECK_RESULT(mux_error_feature_unsupported,
               muxGetQueryCounterRequiredPasses(queue, 1, &config, &passes));
}

int main(void) {
  alarm(60); /* a hang fails the test instead of stalling the suite */
  device = mux_test_create_device();
  queue = mux_test_queue(device);
  test_durations();
  test_counters_unsupported();
  muxDestroyDevice(device, mux_test_allocator);
  return mux_test_finish();
}
