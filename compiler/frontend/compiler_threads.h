/* clmux compiler: the threads compiles run on (compiler_threads.c). */
#ifndef CLMUX_COMPILER_THREADS_H
#define CLMUX_COMPILER_THREADS_H

/* Runs fn(data) on one of the compiler's own threads and returns when it
 * is done; at once on the calling thread when that is one of them, or
 * when no thread can be had. fn must not wait for other such calls. */
void cc_on_compiler_thread(void (*fn)(void *data), void *data);

#endif /* CLMUX_COMPILER_THREADS_H */
