/* The cost of one guarded allocation plus free, and of its parts.
 *
 *   UKASAN_OPTIONS=kfence.sample_rate=1 LD_PRELOAD=libukasan.so guarded_cost [PAIRS]
 *
 * Under ukasan with sample_rate=1 every malloc(64)+free pair is guarded:
 * each free hands the slot back. The parts are measured here, in the
 * program, with code that does what src/kfence/pool.c does: two mprotect
 * calls on a page inside a PROT_NONE reservation, the canary over the rest
 * of the page set and checked 8 bytes at a time, one stack unwinding (the
 * library's cached DWARF unwinder, src/stack/unwind.c, compiled in; libgcc's
 * _Unwind_Backtrace beside it for comparison), and the thread id, cpu and
 * clock read for the alloc and free records.
 *
 * Output: one "name ns_per_op [note]" line per measurement. Each is the
 * median of REPEATS blocks. */
#define _GNU_SOURCE
#include <malloc.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <unwind.h>

#include "stack/unwind.h"

#define REPEATS 7
#define SLOTS 255 /* kfence.num_objects by default */
#define OBJ 64
#define MAX_FRAMES 64

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* Runs fn(iters) REPEATS times; the median time per iteration in ns. */
static __attribute__((noinline)) double median_ns(void (*fn)(long), long iters)
{
	double t[REPEATS];
	for (int r = 0; r < REPEATS; r++) {
		uint64_t t0 = now_ns();
		fn(iters);
		t[r] = (double)(now_ns() - t0) / (double)iters;
	}
	qsort(t, REPEATS, sizeof(t[0]), cmp_double);
	return t[REPEATS / 2];
}

static void sink(void *p)
{
	__asm__ volatile("" : : "r"(p) : "memory");
}

/* --- malloc + free ------------------------------------------------------ */

static long guarded, allocated;
static void *kept[4 * SLOTS];
static int fill_pending;

/* malloc(64)+free pairs. With fill_pending, the first objects are kept
 * alive: the pool fills to the covered threshold, and the pairs that follow
 * come from the same stack (one malloc call site, one caller), so they are
 * unwound, found covered and left to glibc, as on a busy pool. */
static __attribute__((noinline)) void pairs(long n)
{
	long fill = fill_pending ? 4 * SLOTS : 0;
	fill_pending = 0;
	for (long i = 0; i < fill + n; i++) {
		void *p = malloc(OBJ);
		if (!p)
			abort();
		sink(p);
		if (i < fill) {
			kept[i] = p;
			continue;
		}
		/* ukasan reports a guarded object's exact size; glibc rounds up. */
		guarded += malloc_usable_size(p) == OBJ;
		allocated++;
		free(p);
	}
}

/* --- two mprotect calls, on pages laid out as the pool's --------------- */

static char *pool;
static long page;

static void mprotect_pairs(long n)
{
	for (long i = 0; i < n; i++) {
		char *p = pool + (2 * (i % SLOTS) + 2) * page;
		if (mprotect(p, (size_t)page, PROT_READ | PROT_WRITE) ||
		    mprotect(p, (size_t)page, PROT_NONE))
			abort();
	}
}

/* The same with a write to the page while it is open, as set_canary()
 * does: the difference is what touching the page costs (a page fault, if
 * main() counts any, or TLB work). */
static void mprotect_write_pairs(long n)
{
	for (long i = 0; i < n; i++) {
		char *p = pool + (2 * (i % SLOTS) + 2) * page;
		if (mprotect(p, (size_t)page, PROT_READ | PROT_WRITE))
			abort();
		*(volatile char *)p = 1;
		if (mprotect(p, (size_t)page, PROT_NONE))
			abort();
	}
}

/* --- the canary, as set_canary() and check_side() ------------------------ */

/* As the library: a template page of canary bytes, copied with memcpy and
 * compared with __memcmpeq over the two sides of the object. */
#define CANARY_BYTE(a) ((unsigned char)(0xaa ^ ((uintptr_t)(a)&7)))

extern int __memcmpeq(const void *a, const void *b, size_t n);
static char *pages; /* SLOTS read-write pages */
static unsigned char *canary_tmpl;
static long canary_bad;

static __attribute__((noinline)) void set_canary(uintptr_t pg, uintptr_t obj, size_t size)
{
	uintptr_t end = obj + size;
	memcpy((void *)pg, canary_tmpl, obj - pg);
	memcpy((void *)end, canary_tmpl + (end - pg), pg + (uintptr_t)page - end);
}

static __attribute__((noinline)) int check_canary(uintptr_t pg, uintptr_t obj, size_t size)
{
	uintptr_t end = obj + size;
	return (obj > pg && __memcmpeq((void *)pg, canary_tmpl, obj - pg)) ||
	       (pg + (uintptr_t)page > end &&
		__memcmpeq((void *)end, canary_tmpl + (end - pg), pg + (uintptr_t)page - end));
}

static void canary_pairs(long n)
{
	for (long i = 0; i < n; i++) {
		uintptr_t pg = (uintptr_t)pages + (uintptr_t)((i % SLOTS) * page);
		/* Alternate the object between the start and the end of the
		 * page, as kfence_alloc() places it at random. */
		uintptr_t obj = i & 1 ? pg : pg + (uintptr_t)page - OBJ;
		sink((void *)pg);
		set_canary(pg, obj, OBJ);
		sink((void *)pg);
		canary_bad += check_canary(pg, obj, OBJ);
	}
}

/* --- unwinding, as stack_capture() -------------------------------------- */

struct walk {
	uintptr_t pcs[MAX_FRAMES];
	int n;
};

static _Unwind_Reason_Code walk_frame(struct _Unwind_Context *ctx, void *arg)
{
	struct walk *w = arg;
	int before = 0;
	uintptr_t pc = _Unwind_GetIPInfo(ctx, &before);
	if (!pc)
		return _URC_END_OF_STACK;
	w->pcs[w->n++] = pc;
	return w->n < MAX_FRAMES ? _URC_NO_REASON : _URC_END_OF_STACK;
}

static int frames, use_libgcc;

/* The library's unwinder (src/stack/unwind.c, built into this program by
 * bench/run.py) needs this thread's stack bounds, as the library's
 * stack_bounds() gives them. */
int stack_bounds(uintptr_t *lo, uintptr_t *hi)
{
	static __thread uintptr_t cached_lo, cached_hi;
	if (!cached_hi) {
		pthread_attr_t attr;
		void *addr;
		size_t size;
		if (pthread_getattr_np(pthread_self(), &attr) != 0)
			return -1;
		if (pthread_attr_getstack(&attr, &addr, &size) == 0) {
			cached_lo = (uintptr_t)addr;
			cached_hi = (uintptr_t)addr + size;
		}
		pthread_attr_destroy(&attr);
	}
	*lo = cached_lo;
	*hi = cached_hi;
	return cached_hi ? 0 : -1;
}

/* The rest of what those files call in the library, for this program:
 * it has no runtime frames of its own, and never gives unwind tables back
 * (the library does only when few stacks are captured). */
int stack_is_ours(uintptr_t pc)
{
	(void)pc;
	return 0;
}

size_t os_page_size(void)
{
	return (size_t)sysconf(_SC_PAGESIZE);
}

int os_pages_from_file(uintptr_t lo, uintptr_t hi)
{
	(void)lo;
	(void)hi;
	return 0;
}

void os_discard(void *addr, size_t size)
{
	madvise(addr, size, MADV_DONTNEED);
}

/* The library unwinds from stack_capture() <- kfence_alloc() <- malloc()
 * <- pairs() <- median_ns() <- main(): nest as deep. stack_capture() uses
 * the cached unwinder, and libgcc only where that declines. */
static __attribute__((noinline)) int unwind_at(int depth)
{
	if (depth > 0) {
		int n = unwind_at(depth - 1);
		sink(&n);
		return n;
	}
	struct walk w = {.n = 0};
	if (use_libgcc)
		_Unwind_Backtrace(walk_frame, &w);
	else
		w.n = unwind_fast(w.pcs, MAX_FRAMES, 0);
	sink(&w);
	return w.n;
}

static __attribute__((noinline)) void unwinds(long n)
{
	for (long i = 0; i < n; i++)
		frames = unwind_at(2);
}

/* --- the alloc and free records: tid, cpu, time (track() in pool.c) ---- */

/* The library caches the thread id per thread and reads the cpu through
 * glibc's sched_getcpu (rseq): only the clock is a real call. */
static __thread long tid_cache;

static void track_reads(long n)
{
	for (long i = 0; i < n; i++) {
		if (!tid_cache)
			tid_cache = syscall(SYS_gettid);
		long tid = tid_cache;
		int cpu = sched_getcpu();
		uint64_t t = now_ns();
		sink(&tid);
		sink(&cpu);
		sink(&t);
	}
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 20000;
	page = sysconf(_SC_PAGESIZE);

	/* One call site for both passes, so that both allocate from one stack
	 * (volatile: the compiler must not unroll the loop into two sites). */
	static const char *const pass_name[] = {"pair", "busy_pair"};
	static volatile int passes = 2;
	for (int pass = 0; pass < passes; pass++) {
		fill_pending = pass;
		guarded = allocated = 0;
		double t = median_ns(pairs, n);
		printf("%s %.1f guarded %ld/%ld\n", pass_name[pass], t, guarded, allocated);
	}

	pool = mmap(NULL, (size_t)(2 * SLOTS + 2) * (size_t)page, PROT_NONE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	pages = mmap(NULL, (size_t)SLOTS * (size_t)page, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	canary_tmpl = malloc((size_t)page);
	if (pool == MAP_FAILED || pages == MAP_FAILED || !canary_tmpl)
		abort();
	for (long i = 0; i < page; i++)
		canary_tmpl[i] = CANARY_BYTE(i);
	printf("mprotect2 %.1f\n", median_ns(mprotect_pairs, n));
	struct rusage before, after;
	mprotect_write_pairs(SLOTS); /* the first write to each page faults */
	getrusage(RUSAGE_SELF, &before);
	double t = median_ns(mprotect_write_pairs, n);
	getrusage(RUSAGE_SELF, &after);
	printf("mprotect2_write %.1f minor_faults %ld\n", t, after.ru_minflt - before.ru_minflt);
	t = median_ns(canary_pairs, n);
	printf("canary %.1f bad %ld\n", t, canary_bad);
	t = median_ns(unwinds, n);
	printf("unwind %.1f frames %d\n", t, frames);
	use_libgcc = 1;
	t = median_ns(unwinds, n);
	printf("unwind_libgcc %.1f frames %d\n", t, frames);
	printf("track %.1f\n", median_ns(track_reads, n));
	for (long i = 0; i < 4 * SLOTS; i++)
		free(kept[i]);
	return 0;
}
