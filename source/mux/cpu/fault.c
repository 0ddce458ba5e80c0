/* clmux CPU target: a fault in kernel code fails its NDRange, not the
 * process. SIGSEGV, SIGBUS, SIGFPE and SIGILL get one handler, installed
 * once beside whatever handlers the process had. A thread running kernel
 * code arms a jump back to the code that called it (cpu_fault_run); the
 * handler takes that jump when the faulting thread has one armed, and
 * otherwise passes the signal on to the handler that was there before
 * (the application's, a sanitizer's, or the default action), so faults
 * outside kernels behave as they did without clmux.
 *
 * The handler runs with SA_NODEFER, so jumping out of it leaves no signal
 * blocked and arming needs no system call (sigsetjmp without the mask);
 * SA_ONSTACK lets clmux's threads, which have an alternate signal stack,
 * survive a kernel that overflows their stack. */
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "cpu.h"

static const int fault_signals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL};
#define FAULT_SIGNALS (sizeof fault_signals / sizeof *fault_signals)

static struct sigaction previous[FAULT_SIGNALS];
static pthread_once_t install_once = PTHREAD_ONCE_INIT;

/* Initial-exec: the handler may run on any thread, where a dynamic TLS
 * block might first have to be allocated. */
#define FAULT_TLS __thread __attribute__((tls_model("initial-exec")))
static FAULT_TLS sigjmp_buf *armed_jump;
static FAULT_TLS cpu_fault *armed_fault;

static void pass_on(int signal, siginfo_t *info, void *ucontext) {
  const struct sigaction *before = NULL;
  for (size_t i = 0; i < FAULT_SIGNALS; i++) {
    if (fault_signals[i] == signal) before = &previous[i];
  }
  if (before && (before->sa_flags & SA_SIGINFO) && before->sa_sigaction) {
    before->sa_sigaction(signal, info, ucontext);
    return;
  }
  if (before && before->sa_handler != SIG_DFL &&
      before->sa_handler != SIG_IGN) {
    before->sa_handler(signal);
    return;
  }
  /* The default action: returning re-executes the faulting instruction,
   * which now meets it; a signal sent with kill() is raised again. */
  struct sigaction fallback;
  memset(&fallback, 0, sizeof fallback);
  fallback.sa_handler = SIG_DFL;
  sigaction(signal, &fallback, NULL);
  if (info->si_code <= 0) raise(signal);
}

static void on_fault(int signal, siginfo_t *info, void *ucontext) {
  sigjmp_buf *jump = armed_jump;
  /* Only faults of the thread's own kernel code, not signals sent to it. */
  if (jump && info->si_code > 0) {
    armed_jump = NULL;
    armed_fault->signal = signal;
    armed_fault->address = info->si_addr;
    siglongjmp(*jump, 1);
  }
  pass_on(signal, info, ucontext);
}

static void install(void) {
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_sigaction = on_fault;
  action.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
  sigemptyset(&action.sa_mask);
  for (size_t i = 0; i < FAULT_SIGNALS; i++) {
    sigaction(fault_signals[i], &action, &previous[i]);
  }
}

void cpu_fault_install(void) { pthread_once(&install_once, install); }

/* Big enough for the handler and the libc it calls on the way out. */
#define ALTERNATE_STACK_SIZE ((size_t)64 << 10)

void *cpu_fault_thread_enter(void) {
  void *memory = malloc(ALTERNATE_STACK_SIZE);
  if (!memory) return NULL;
  stack_t stack = {.ss_sp = memory, .ss_size = ALTERNATE_STACK_SIZE};
  if (sigaltstack(&stack, NULL) != 0) {
    free(memory);
    return NULL;
  }
  return memory;
}

void cpu_fault_thread_leave(void *stack) {
  if (!stack) return;
  stack_t none = {.ss_flags = SS_DISABLE};
  sigaltstack(&none, NULL);
  free(stack);
}

bool cpu_fault_run(cpu_range_fn fn, void *context, uint64_t begin, uint64_t end,
                   unsigned slot, uint8_t *local_memory, cpu_fault *fault) {
  sigjmp_buf jump;
  /* The floating-point environment the kernel left is undone too. */
  uint32_t mxcsr = __builtin_ia32_stmxcsr();
  if (sigsetjmp(jump, 0)) {
    __builtin_ia32_ldmxcsr(mxcsr);
    cpu_sub_groups_abandon();
    return false;
  }
  armed_fault = fault;
  armed_jump = &jump;
  fn(context, begin, end, slot, local_memory);
  armed_jump = NULL;
  return true;
}
