/* A user-space rebuild of the kernel's test_vmalloc.sh performance tests
 * (seed 000), over page-multiple malloc, posix_memalign and free: the
 * shapes of the eight tests, not their code.
 *
 *   vmalloc [--threads N] [--loops L] [--only NAME] [--max-shift S] [--touch byte|pages]
 *
 * Each test runs in N threads at once, as test_vmalloc.sh runs a test on
 * every CPU. One line per test, "NAME usec", the wall time from starting
 * the threads to joining the last one; then "total usec".
 *
 * Every thread uses its own xorshift generator with a fixed seed, so that
 * every build does the same allocations in the same order. Each object's
 * first byte is written, as the kernel test does, so that the pages are
 * really touched and the allocations cannot be optimized away. With
 * --touch pages, one byte of every page of each object is written instead,
 * as programs write the memory they allocate: then what an allocator does
 * with the pages of freed memory (keeps them, or gives them back and
 * faults them in again) shows.
 *
 * align_shift sweeps alignments 2^0..2^S (S = --max-shift, default 20; the
 * kernel's sweep goes to BITS_PER_LONG - 1 and stops at the first refusal,
 * as this one does). The default stops at 1 MiB because gcc ASan poisons
 * the shadow of an aligned chunk's whole left padding and quarantines the
 * chunk by its requested size only: with the full sweep it held 24 GB of
 * RSS before it was killed, and at 2^63 it fails an internal CHECK. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define PAGE 4096UL

static long loops = 20000;
static unsigned max_shift = 20;
static int touch_pages;
static volatile uintptr_t sink;

struct thread {
	uint64_t rng;
	uintptr_t acc;
	long failures;
	int fatal;
};

static uint64_t next(struct thread *t)
{
	uint64_t x = t->rng;
	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return t->rng = x;
}

/* Uniform enough in lo..hi for a benchmark's sizes. */
static unsigned long pick(struct thread *t, unsigned long lo, unsigned long hi)
{
	return lo + next(t) % (hi - lo + 1);
}

static void touch(char *p, size_t size)
{
	*(volatile char *)p = 1;
	if (touch_pages)
		for (size_t off = PAGE; off < size; off += PAGE)
			*(volatile char *)(p + off) = 1;
}

static void *get(struct thread *t, size_t size)
{
	char *p = malloc(size);
	if (!p) {
		t->fatal = 1;
		return NULL;
	}
	touch(p, size);
	t->acc += (uintptr_t)p;
	return p;
}

static void *get_aligned(struct thread *t, size_t align, size_t size)
{
	void *p;
	if (posix_memalign(&p, align, size)) {
		t->fatal = 1;
		return NULL;
	}
	touch(p, size);
	t->acc += (uintptr_t)p;
	return p;
}

static void fix_size(struct thread *t)
{
	for (long i = 0; i < loops && !t->fatal; i++)
		free(get(t, 3 * PAGE));
}

static void full_fit(struct thread *t)
{
	/* The kernel's 2 CPUs x 32 MiB of one-page pairs, scaled down by 8. */
	size_t pairs = 2 * (32UL << 20) / PAGE / 8;
	void **keep = calloc(pairs, sizeof(*keep));
	void **junk = calloc(pairs, sizeof(*junk));
	if (!keep || !junk) {
		t->fatal = 1;
		goto out;
	}
	for (size_t i = 0; i < pairs; i++) {
		keep[i] = get(t, PAGE);
		junk[i] = get(t, PAGE);
	}
	/* Leaves holes that the loop's objects should fit. */
	for (size_t i = 0; i < pairs; i++)
		free(junk[i]);
	for (long i = 0; i < loops && !t->fatal; i++)
		free(get(t, PAGE));
	for (size_t i = 0; i < pairs; i++)
		free(keep[i]);
out:
	free(keep);
	free(junk);
}

static void long_busy_list(struct thread *t)
{
	enum { BUSY = 15000 };
	void **busy = calloc(BUSY, sizeof(*busy));
	if (!busy) {
		t->fatal = 1;
		return;
	}
	for (int i = 0; i < BUSY; i++)
		busy[i] = get(t, PAGE);
	for (long i = 0; i < loops && !t->fatal; i++) {
		void *p1 = get(t, 100 * PAGE);
		void *p2 = get(t, PAGE);
		free(p1);
		free(p2);
	}
	for (int i = 0; i < BUSY; i++)
		free(busy[i]);
	free(busy);
}

static void random_size(struct thread *t)
{
	for (long i = 0; i < loops && !t->fatal; i++)
		free(get(t, pick(t, 1, 100) * PAGE));
}

static void fix_align(struct thread *t)
{
	for (long i = 0; i < loops && !t->fatal; i++)
		free(get_aligned(t, 32 * 1024, 5 * PAGE));
}

static void random_size_align(struct thread *t)
{
	for (long i = 0; i < loops && !t->fatal; i++) {
		size_t align = 1UL << pick(t, 12, 17);
		size_t size = pick(t, 1, 8) * PAGE;
		free(get_aligned(t, align, size));
	}
}

static void align_shift(struct thread *t)
{
	long sweeps = loops / 1000 > 0 ? loops / 1000 : 1;
	for (long s = 0; s < sweeps; s++) {
		for (unsigned i = 0; i <= max_shift; i++) {
			size_t align = 1UL << i;
			void *p;
			if (align < sizeof(void *))
				align = sizeof(void *);
			/* Past what the address space can give, allocators refuse, and the
			 * kernel's test stops at the first refusal: so does this sweep. */
			if (posix_memalign(&p, align, PAGE)) {
				t->failures++;
				break;
			}
			*(volatile char *)p = 1;
			t->acc += (uintptr_t)p;
			free(p);
		}
	}
}

static void pcpu(struct thread *t)
{
	enum { LIVE = 35000 };
	long repeats = loops / 10000 > 0 ? loops / 10000 : 1;
	void **live = calloc(LIVE, sizeof(*live));
	if (!live) {
		t->fatal = 1;
		return;
	}
	for (long r = 0; r < repeats && !t->fatal; r++) {
		for (int i = 0; i < LIVE; i++)
			live[i] = get_aligned(t, 1UL << pick(t, 3, 11), pick(t, 1, PAGE / 4));
		for (int i = 0; i < LIVE; i++)
			free(live[i]);
	}
	free(live);
}

static const struct test {
	const char *name;
	void (*run)(struct thread *);
} tests[] = {
    {"fix_size", fix_size},
    {"full_fit", full_fit},
    {"long_busy_list", long_busy_list},
    {"random_size", random_size},
    {"fix_align", fix_align},
    {"random_size_align", random_size_align},
    {"align_shift", align_shift},
    {"pcpu", pcpu},
};

struct job {
	const struct test *test;
	struct thread t;
	pthread_t tid;
};

static void *start(void *arg)
{
	struct job *j = arg;
	j->test->run(&j->t);
	return NULL;
}

static double now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static void usage(void)
{
	fprintf(stderr, "usage: vmalloc [--threads N] [--loops L] [--only NAME] [--max-shift S] "
	                "[--touch byte|pages]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	int threads = 1;
	const char *only = NULL;
	for (int i = 1; i < argc; i++) {
		if (i + 1 >= argc)
			usage();
		if (!strcmp(argv[i], "--threads"))
			threads = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--loops"))
			loops = atol(argv[++i]);
		else if (!strcmp(argv[i], "--max-shift"))
			max_shift = (unsigned)atoi(argv[++i]);
		else if (!strcmp(argv[i], "--only"))
			only = argv[++i];
		else if (!strcmp(argv[i], "--touch") && !strcmp(argv[i + 1], "pages"))
			touch_pages = 1, i++;
		else if (!strcmp(argv[i], "--touch") && !strcmp(argv[i + 1], "byte"))
			touch_pages = 0, i++;
		else
			usage();
	}
	if (threads < 1 || loops < 1 || max_shift >= 8 * sizeof(long))
		usage();
	struct job *jobs = calloc((size_t)threads, sizeof(*jobs));
	if (!jobs)
		return 1;
	double total = 0;
	int ran = 0;
	for (size_t k = 0; k < sizeof(tests) / sizeof(tests[0]); k++) {
		if (only && strcmp(only, tests[k].name))
			continue;
		for (int i = 0; i < threads; i++) {
			jobs[i].test = &tests[k];
			memset(&jobs[i].t, 0, sizeof(jobs[i].t));
			/* Fixed and distinct per thread and test: identical work in every build. */
			jobs[i].t.rng = 0x9e3779b97f4a7c15ULL * (k * 64 + (size_t)i + 1);
		}
		double t0 = now_us();
		for (int i = 0; i < threads; i++) {
			if (pthread_create(&jobs[i].tid, NULL, start, &jobs[i])) {
				fprintf(stderr, "vmalloc: pthread_create failed\n");
				return 1;
			}
		}
		for (int i = 0; i < threads; i++)
			pthread_join(jobs[i].tid, NULL);
		double us = now_us() - t0;
		for (int i = 0; i < threads; i++) {
			if (jobs[i].t.fatal) {
				fprintf(stderr, "vmalloc: %s: an allocation failed\n",
				        tests[k].name);
				return 1;
			}
			sink += jobs[i].t.acc;
		}
		printf("%s %.0f\n", tests[k].name, us);
		total += us;
		ran++;
	}
	if (!ran) {
		fprintf(stderr, "vmalloc: no test named %s\n", only);
		return 2;
	}
	printf("total %.0f\n", total);
	free(jobs);
	return 0;
}
