/* clmux OpenCL API tests: a kernel that faults fails its command, not the
 * process. A kernel writing terabytes past its buffer (SIGSEGV on every
 * worker at once), one that traps (SIGILL) and one dividing integers by
 * zero (SIGFPE) each complete with a negative status; what waits for them
 * gets CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST; a fault while one
 * sub-group waits for another leaves none waiting; stderr names the
 * kernel, the signal and the buffer argument near the address; the same
 * queue then runs a correct kernel correctly. A fault of the application's
 * own, outside kernels, still reaches the handler the application had
 * installed before clmux was loaded. */
#include <setjmp.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cl_test.h"

static const char source[] =
    "kernel void wild(global int *p, ulong far) {\n"
    "  p[get_global_id(0) + far] = 1;\n"
    "}\n"
    "kernel void trap(global const int *p) {\n"
    "  if (p[get_global_id(0)] < 0) __builtin_trap();\n"
    "}\n"
    "kernel void divide(global const int *a, global const int *b,\n"
    "                   global int *out) {\n"
    "  size_t i = get_global_id(0);\n"
    "  out[i] = a[i] / b[i];\n"
    "}\n"
    "/* Item 0 waits for the group's last item, which faults first: the\n"
    "   fault is taken in a sub-group's turn on a stack of its own. */\n"
    "kernel void wait_then_fault(global int *p, ulong far) {\n"
    "  local int flag;\n"
    "  size_t l = get_local_id(0);\n"
    "  if (l == 0) flag = 0;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  if (l == 0) while (atomic_add(&flag, 0) == 0) ;\n"
    "  if (l == get_local_size(0) - 1) {\n"
    "    p[get_global_id(0) + far] = 1;\n"
    "    atomic_inc(&flag);\n"
    "  }\n"
    "}\n"
    "kernel void square(global int *p) {\n"
    "  size_t i = get_global_id(0);\n"
    "  p[i] = (int)(i * i);\n"
    "}\n";

#define ITEMS 4096

static sigjmp_buf application_jump;
static volatile sig_atomic_t application_faults;

static void application_handler(int signal) {
  (void)signal;
  application_faults++;
  siglongjmp(application_jump, 1);
}

static cl_command_queue queue;
static cl_program program;
static cl_context context;

/* Enqueues kernel `name` on ITEMS items (`items` when non-zero) with
 * `buffer` as every buffer argument (and `far` as a second argument when
 * non-zero); returns its event. */
static cl_event launch_on(const char *name, cl_mem buffer, cl_ulong far,
                          int buffer_args, size_t items) {
  cl_int error = CL_SUCCESS;
  cl_kernel kernel = clCreateKernel(program, name, &error);
  REQUIRE(error == CL_SUCCESS);
  for (int a = 0; a < buffer_args; a++) {
    CHECK_CL_SUCCESS(
        clSetKernelArg(kernel, (cl_uint)a, sizeof buffer, &buffer));
  }
  if (far) CHECK_CL_SUCCESS(clSetKernelArg(kernel, 1, sizeof far, &far));
  size_t global = items ? items : ITEMS, local = 64;
  cl_event event = NULL;
  CHECK_CL_SUCCESS(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global,
                                          &local, 0, NULL, &event));
  clReleaseKernel(kernel);
  return event;
}

static cl_event launch(const char *name, cl_mem buffer, cl_ulong far,
                       int buffer_args) {
  return launch_on(name, buffer, far, buffer_args, 0);
}

static cl_int status_of(cl_event event) {
  cl_int status = CL_COMPLETE;
  CHECK_CL_SUCCESS(clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS,
                                  sizeof status, &status, NULL));
  return status;
}

/* The correct kernel, after a failed one, on the same queue. */
static void check_queue_still_works(cl_mem buffer) {
  cl_event event = launch("square", buffer, 0, 1);
  CHECK_CL_SUCCESS(clWaitForEvents(1, &event));
  CHECK_INT(CL_COMPLETE, status_of(event));
  clReleaseEvent(event);
  static cl_int host[ITEMS];
  CHECK_CL_SUCCESS(clEnqueueReadBuffer(queue, buffer, CL_TRUE, 0, sizeof host,
                                       host, 0, NULL, NULL));
  size_t bad = 0;
  for (size_t i = 0; i < ITEMS; i++) bad += host[i] != (cl_int)(i * i);
  CHECK(bad == 0);
}

/* Runs the wild kernel on `items` items from element `far` of `buffer`,
 * with stderr going to a file; returns what clmux wrote there. */
static char *run_wild(cl_mem buffer, cl_ulong far, size_t items,
                      cl_event *event) {
  char path[] = "/tmp/clmux-fault-XXXXXX";
  int file = mkstemp(path);
  REQUIRE(file >= 0);
  unlink(path);
  fflush(stderr);
  int saved = dup(2);
  dup2(file, 2);
  *event = launch_on("wild", buffer, far, 1, items);
  cl_int host[4];
  /* What depends on it fails too, and says so. */
  CHECK_CL(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
           clEnqueueReadBuffer(queue, buffer, CL_TRUE, 0, sizeof host, host, 1,
                               event, NULL));
  CHECK_CL(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
           clWaitForEvents(1, event));
  fflush(stderr);
  dup2(saved, 2);
  close(saved);
  static char text[4096];
  ssize_t got = pread(file, text, sizeof text - 1, 0);
  text[got > 0 ? got : 0] = 0;
  close(file);
  return text;
}

int main(void) {
  /* The application's own handler, there before clmux. */
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_handler = application_handler;
  sigemptyset(&action.sa_mask);
  REQUIRE(sigaction(SIGSEGV, &action, NULL) == 0);

  cl_device_id device = cl_test_device();
  context = cl_test_context(device);
  queue = cl_test_queue(context, device, 0);
  program = cl_test_build(context, device, source, NULL);
  cl_int error = CL_SUCCESS;
  cl_mem buffer = clCreateBuffer(context, CL_MEM_READ_WRITE,
                                 ITEMS * sizeof(cl_int), NULL, &error);
  REQUIRE(error == CL_SUCCESS);

  /* A terabyte past the buffer, every item: every worker faults. */
  cl_event wild = NULL;
  const char *said = run_wild(buffer, (cl_ulong)1 << 38, ITEMS, &wild);
  CHECK(status_of(wild) < 0);
  bool named = strstr(said, "kernel wild: SIGSEGV") != NULL;
  if (!named) fprintf(stderr, "stderr said: %s\n", said);
  CHECK(named);
  clReleaseEvent(wild);
  CHECK_CL_SUCCESS(clFinish(queue));
  check_queue_still_works(buffer);

  /* One group 4 KiB past the end of a 1 MiB buffer, in the guard page
   * after it: the message names the argument and the offset. */
  const size_t big = (size_t)1 << 18; /* ints */
  cl_mem large = clCreateBuffer(context, CL_MEM_READ_WRITE, big * sizeof(int),
                                NULL, &error);
  REQUIRE(error == CL_SUCCESS);
  cl_event near = NULL;
  said = run_wild(large, big + 1025, 64, &near);
  CHECK(status_of(near) < 0);
  /* Which of the group's stores faults first is the compiler's choice:
   * any byte the group writes. */
  const char *offset = strstr(said,
                              "near argument 0 (a buffer of 1048576 "
                              "bytes) at offset ");
  long long at = offset ? strtoll(strchr(offset, ')') + 11, NULL, 10) : -1;
  const long long first = (long long)(big + 1025) * 4;
  named = strstr(said, "kernel wild: SIGSEGV") != NULL && at >= first &&
          at < first + 64 * 4;
  if (!named) fprintf(stderr, "stderr said: %s\n", said);
  CHECK(named);
  clReleaseEvent(near);
  CHECK_CL_SUCCESS(clReleaseMemObject(large));
  check_queue_still_works(buffer);

  /* SIGILL: a trap taken by items whose value is negative. */
  cl_int negative = -1;
  CHECK_CL_SUCCESS(clEnqueueFillBuffer(queue, buffer, &negative,
                                       sizeof negative, 0,
                                       ITEMS * sizeof(cl_int), 0, NULL, NULL));
  cl_event trap = launch("trap", buffer, 0, 1);
  CHECK_CL(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
           clWaitForEvents(1, &trap));
  CHECK(status_of(trap) < 0);
  clReleaseEvent(trap);
  check_queue_still_works(buffer);

  /* A fault while a sub-group waits for another: the waiting one is
   * dropped with the NDRange, and the next waiting kernel runs. */
  cl_event waiting =
      launch_on("wait_then_fault", buffer, (cl_ulong)1 << 38, 1, 64);
  clWaitForEvents(1, &waiting);
  CHECK(status_of(waiting) < 0);
  clReleaseEvent(waiting);
  waiting = launch_on("wait_then_fault", buffer, 1, 1, 64);
  CHECK_CL_SUCCESS(clWaitForEvents(1, &waiting));
  CHECK_INT(CL_COMPLETE, status_of(waiting));
  clReleaseEvent(waiting);
  check_queue_still_works(buffer);

  /* SIGFPE where the division is done by an instruction that faults; the
   * process survives whichever way the compiler divides. */
  cl_int zero = 0;
  CHECK_CL_SUCCESS(clEnqueueFillBuffer(queue, buffer, &zero, sizeof zero, 0,
                                       ITEMS * sizeof(cl_int), 0, NULL, NULL));
  cl_event divide = launch("divide", buffer, 0, 3);
  clWaitForEvents(1, &divide);
  clReleaseEvent(divide);
  check_queue_still_works(buffer);

  /* A fault of the application's own still reaches its handler. */
  long page = sysconf(_SC_PAGESIZE);
  volatile int *guard =
      mmap(NULL, (size_t)page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  REQUIRE(guard != MAP_FAILED);
  if (sigsetjmp(application_jump, 1) == 0) *guard = 1;
  CHECK_INT(1, application_faults);
  munmap((void *)guard, (size_t)page);

  CHECK_CL_SUCCESS(clReleaseMemObject(buffer));
  CHECK_CL_SUCCESS(clReleaseProgram(program));
  CHECK_CL_SUCCESS(clReleaseCommandQueue(queue));
  CHECK_CL_SUCCESS(clReleaseContext(context));
  return check_finish();
}
