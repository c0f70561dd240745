/* Thread stacks come back from glibc's stack cache with whatever shadow the
 * last thread left there: a thread cancelled deep in instrumented frames
 * never ran their epilogues, so its stack redzones stay poisoned, and a new
 * thread's uninstrumented frames on the same memory would be reported. Each
 * thread therefore starts and ends with its stack's shadow cleared, as
 * AddressSanitizer's threads do: at the end for memory glibc unmaps and
 * something else maps later. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>

#include "../core/common.h"
#include "../platform/dynlink.h"
#include "../report/stack.h"
#include "../shadow/shadow.h"
#include "kasan.h"

extern void *__libc_malloc(size_t size);
extern void __libc_free(void *p);

struct start {
	void *(*fn)(void *);
	void *arg;
};

static void clear_stack_shadow(void *unused)
{
	(void)unused;
	uintptr_t lo, hi;
	if (stack_bounds(&lo, &hi) == 0)
		shadow_release(lo, hi - lo);
}

/* Its destructor runs however the thread ends: return, pthread_exit or
 * cancellation, after every instrumented frame is gone. */
static pthread_key_t exit_key;
static pthread_once_t exit_key_once = PTHREAD_ONCE_INIT;

static void make_exit_key(void)
{
	pthread_key_create(&exit_key, clear_stack_shadow);
}

static void *thread_start(void *p)
{
	struct start s = *(struct start *)p;
	__libc_free(p);
	clear_stack_shadow(NULL);
	pthread_once(&exit_key_once, make_exit_key);
	pthread_setspecific(exit_key, (void *)1);
	return s.fn(s.arg);
}

typedef int (*create_fn)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);

UKASAN_EXPORT int pthread_create(pthread_t *t, const pthread_attr_t *attr, void *(*fn)(void *),
                                 void *arg)
{
	static create_fn real;
	if (!real)
		real = (create_fn)dl_next_definition((void *)&thread_start, "pthread_create", NULL);
	struct start *s = kasan_enabled ? __libc_malloc(sizeof(*s)) : NULL;
	if (!s)
		return real(t, attr, fn, arg);
	s->fn = fn;
	s->arg = arg;
	int r = real(t, attr, thread_start, s);
	if (r)
		__libc_free(s);
	return r;
}
