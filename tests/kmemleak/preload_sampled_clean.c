// Under the preload at its defaults, with KFENCE guarding one allocation
// in two on average: the sampled objects the program still points to are
// no leaks, wherever the pointer is: in a global, in an object of glibc's
// allocator (which no one tracks here), on the main thread's stack, in a
// live thread's stack, in memory the program mapped itself, through a
// list whose links alternate between sampled and unsampled objects, and in
// glibc's own state (an open FILE, the environment, a thread's key). Only
// the one object lost on purpose is reported: the check ran.
// RUN: kfence.sample_rate=2
// CFLAGS: -O1 -pthread
// STATUS: 0
// EXPECT-RE: ^unreferenced object 0x[0-9a-f]{16} \(size 24\):
// EXPECT-RE: ^    \[<[0-9a-f]+>\] lose_one\+0x[0-9a-f]+/0x[0-9a-f]+ tests/kmemleak/preload_sampled_clean.c:\d+
// EXPECT: ukasan: kmemleak: 1 new suspected memory leak (24 bytes) from 1 allocation stack
// COUNT: 1 BUG: memory leak
// STDOUT: all placed
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "leak_test.h"

int __sanitizer_get_ownership(const volatile void *p) __attribute__((weak));

static int guarded(void *p)
{
	return __sanitizer_get_ownership && __sanitizer_get_ownership(p);
}

/* An object of the kind asked for: sampled by KFENCE, or glibc's. Those
 * of the other kind are kept in a global list (reachable, sampled or not). */
static void **spare;
static void *alloc_kind(size_t size, int want_sampled)
{
	for (int i = 0; i < 10000; i++) {
		void **p = calloc(1, size < 16 ? 16 : size);
		if (guarded(p) == want_sampled)
			return p;
		p[0] = spare;
		spare = p;
	}
	return NULL;
}

void *in_global;
void **in_mapped;
static int placed;

struct link {
	struct link *next;
	char pad[24];
};
struct link *list;

static int pipefd[2];
static void *thread_main(void *arg)
{
	/* Only this thread's stack holds it, while it waits. */
	void *volatile mine = alloc_kind(32, 1);
	placed += mine != NULL;
	char c;
	(void)arg;
	ssize_t r = read(pipefd[0], &c, 1); /* never written: blocks until exit */
	__asm__ volatile("" : : "r"(mine), "r"(r) : "memory");
	return NULL;
}

static pthread_key_t key;

LEAK_TEST void place_all(void)
{
	in_global = alloc_kind(64, 1);
	void **holder = alloc_kind(64, 0); /* glibc's, kept from a global */
	holder[1] = alloc_kind(64, 1);
	in_mapped = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	in_mapped[7] = alloc_kind(64, 1);
	for (int i = 0; i < 6; i++) {
		struct link *l = alloc_kind(sizeof(*l), i & 1);
		l->next = list;
		list = l;
	}
	holder[0] = spare;
	spare = holder;
	pthread_key_create(&key, free);
	pthread_setspecific(key, alloc_kind(48, 1));
	placed += in_global && holder[1] && in_mapped[7] && list;
}

LEAK_TEST void lose_one(void)
{
	char *p = alloc_kind(24, 1);
	HIDE(p);
	strcpy(p, "lost");
	HIDE(p);
}

int main(void)
{
	/* glibc's own: a stream it keeps in its list, the environment. */
	FILE *f = fopen("/proc/self/status", "r");
	setenv("UKASAN_TEST_SAMPLED", "kept by glibc", 1);
	pipe(pipefd);
	pthread_t t;
	pthread_create(&t, NULL, thread_main, NULL);
	run_deep(place_all);
	run_deep(lose_one);
	void *on_stack = alloc_kind(80, 1);
	clear_stack();
	while (__atomic_load_n(&placed, __ATOMIC_ACQUIRE) < 2)
		usleep(1000);
	printf("%s\n", f && on_stack ? "all placed" : "missing");
	fflush(stdout);
	__asm__ volatile("" : : "r"(on_stack), "r"(f) : "memory");
	exit(0); /* the thread still waits in read() */
}
