// MODE: generic
// TAG-MODES: sw_tags hw_tags
// Clean twin: objects reachable from a global, from another heap object,
// from TLS, from a live thread's stack, through an interior pointer, from
// a registered root region, ignored or allocated while disabled, and
// glibc's own (stdio, dlopen, thread TLS, setlocale): no report, in the
// check on demand and in the one at exit after it. The globals are not
// static: stores to a static nothing reads are dropped by the compiler,
// and the object would be a leak indeed.
// NOT: memory leak
// NOT: BUG:
// STDOUT: clean
#include <dlfcn.h>
#include <locale.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "leak_test.h"

LSAN_API void __lsan_ignore_object(const void *p);
LSAN_API void __lsan_disable(void);
LSAN_API void __lsan_enable(void);
LSAN_API void __lsan_register_root_region(const void *p, size_t size);
LSAN_API int __lsan_do_recoverable_leak_check(void);

struct node {
	struct node *next;
	char pad[40];
};
struct node *list;
__thread void *tls_held;
char *interior;
void **aligned; /* a 64-byte aligned object holds the only pointer to another */
void *region[4];
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t c = PTHREAD_COND_INITIALIZER;
static int stage;

LEAK_TEST void allocate(void)
{
	for (int i = 0; i < 3; i++) { /* a list: global, then heap objects */
		struct node *n = malloc(sizeof(*n));
		n->next = list;
		list = n;
	}
	tls_held = malloc(48);
	aligned = aligned_alloc(64, 128);
	aligned[0] = malloc(24);
	interior = (char *)malloc(100) + 60;
	__lsan_ignore_object(malloc(24));
	__lsan_disable();
	void *q = malloc(32);
	HIDE(q);
	__lsan_enable();
	region[2] = malloc(56);
	static char *region_mem;
	region_mem = (char *)region;
	__lsan_register_root_region(region_mem, sizeof(region));
}

/* A live thread's TLS holds its object while the check runs; the thread
 * frees it before it exits (a dead thread's TLS is no root). */
static void *thread_tls(void *arg)
{
	tls_held = malloc(80);
	pthread_mutex_lock(&m);
	stage = 1;
	pthread_cond_broadcast(&c);
	while (stage != 2)
		pthread_cond_wait(&c, &m);
	pthread_mutex_unlock(&m);
	free(tls_held);
	return arg;
}

int main(void)
{
	allocate();
	setlocale(LC_ALL, "C.UTF-8"); /* read from files: _nl_make_l10nflist's lists */
	printf("clean\n");
	fflush(stdout);
	void *h = dlopen("libm.so.6", RTLD_NOW);
	pthread_t t;
	pthread_create(&t, NULL, thread_tls, NULL);
	pthread_mutex_lock(&m);
	while (stage != 1)
		pthread_cond_wait(&c, &m);
	pthread_mutex_unlock(&m);
	clear_stack();
	int r = __lsan_do_recoverable_leak_check();
	pthread_mutex_lock(&m);
	stage = 2;
	pthread_cond_broadcast(&c);
	pthread_mutex_unlock(&m);
	pthread_join(t, NULL);
	if (r)
		return 2;
	(void)h;
	return 0;
}
