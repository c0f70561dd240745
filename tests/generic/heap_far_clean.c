// MODE: generic
// RUN: kasan.quarantine_size=0 kasan.page_alloc.sample=2 kasan.page_alloc.sample.order=0
// glibc's heap memory not handed out yet is poisoned (heap_far_top.c); no
// memory glibc hands to anyone else reads poisoned to instrumented code:
// the program's own sbrk and brk memory, where the break's heap was
// poisoned and trimmed back; the program's own __libc_malloc, calloc,
// realloc (grown in place, into the top) and memalign calls; unsampled
// large objects (glibc's chunks handed on as they are); chunks that went
// back to glibc, merged with the top and were trimmed, in threads that
// share and grow arenas with memalign and realloc; a fork's child. Every
// byte handed out is written and read by instrumented code.
// NOT: BUG:
// NOT: ukasan: internal
// STDOUT: clean
#define _GNU_SOURCE
#include <malloc.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);
extern void __libc_free(void *);

static volatile unsigned long sink;

/* Instrumented writes and reads of every byte. */
static void touch(void *p, size_t n)
{
	volatile unsigned char *c = p;
	for (size_t i = 0; i < n; i++)
		c[i] = (unsigned char)i;
	for (size_t i = 0; i < n; i++)
		sink += c[i];
}

static void program_break(void)
{
	static char *a[400];
	for (int i = 0; i < 400; i++)
		touch(a[i] = malloc(3000), 3000);
	for (int i = 0; i < 400; i++)
		free(a[i]);
	malloc_trim(0);
	size_t n = 1 << 20;
	char *s = sbrk((intptr_t)n);
	if (s == (void *)-1)
		return;
	touch(s, n);
	char *end = sbrk(0);
	if (brk(end + 65536) == 0) {
		touch(end, 65536);
		brk(end);
	}
	sbrk(-(intptr_t)n);
}

static void *libc_calls(void *arg)
{
	(void)arg;
	void *first = malloc(20); /* the thread's arena, found and poisoned */
	touch(first, 20);
	char *p = __libc_malloc(3000);
	touch(p, 3000);
	p = __libc_realloc(p, 9000);
	touch(p, 9000);
	__libc_free(p);
	p = __libc_calloc(100, 30);
	touch(p, 3000);
	__libc_free(p);
	p = __libc_memalign(256, 700);
	touch(p, 700);
	__libc_free(p);
	for (int i = 0; i < 8; i++) { /* one in 2 from glibc's arena */
		char *q = malloc(8000 + i * 1000);
		touch(q, 8000 + i * 1000);
		free(q);
	}
	free(first);
	return NULL;
}

static unsigned rnd(unsigned *s)
{
	*s = *s * 1103515245u + 12345u;
	return *s >> 8;
}

static void *churn(void *arg)
{
	unsigned seed = (unsigned)(uintptr_t)arg;
	enum { SLOTS = 256 };
	char *slot[SLOTS] = {0};
	size_t size[SLOTS] = {0};
	for (int i = 0; i < 20000; i++) {
		unsigned k = rnd(&seed) % SLOTS, what = rnd(&seed) % 8;
		size_t n = 1 + rnd(&seed) % (what == 7 ? 4000 : 600);
		if (slot[k] && what < 3) {
			slot[k] = realloc(slot[k], n);
			touch(slot[k], n);
			size[k] = n;
			continue;
		}
		free(slot[k]);
		if (what == 3) {
			void *m = NULL;
			if (posix_memalign(&m, (size_t)32 << (rnd(&seed) % 3), n))
				abort();
			slot[k] = m;
		} else if (what == 4) {
			slot[k] = calloc(1, n);
		} else {
			slot[k] = malloc(n);
		}
		touch(slot[k], n);
		size[k] = n;
		if (arg == (void *)1 && i % 3000 == 0)
			malloc_trim(0);
	}
	for (int k = 0; k < SLOTS; k++) {
		if (slot[k])
			touch(slot[k], size[k]);
		free(slot[k]);
	}
	return NULL;
}

int main(void)
{
	program_break();
	pthread_t t[4];
	pthread_create(&t[0], NULL, libc_calls, NULL);
	pthread_join(t[0], NULL);
	for (int i = 0; i < 4; i++)
		pthread_create(&t[i], NULL, churn, (void *)(uintptr_t)(i + 1));
	churn((void *)99);
	for (int i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	pid_t pid = fork();
	if (pid == 0) {
		churn((void *)7);
		program_break();
		_exit(0);
	}
	int status = -1;
	waitpid(pid, &status, 0);
	printf(WIFEXITED(status) && WEXITSTATUS(status) == 0 ? "clean\n" : "child failed\n");
	return 0;
}
