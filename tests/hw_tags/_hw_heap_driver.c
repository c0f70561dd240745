/* Driver for check_hw_heap.py: the MTE primitives (src/arch/aarch64/mte.h,
 * src/platform/mte.c) and the small-object heap (src/kasan/hw_heap.c),
 * linked straight into this program and run under qemu-aarch64 -cpu max.
 * Prints "ok NAME" / "not ok NAME - why". "bench" as argument: timings. */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "arch/aarch64/mte.h"
#include "kasan/hw_heap.h"
#include "platform/mte.h"

#define ALIGN_UP_16(x) (((x) + 15) & ~(size_t)15)

static int failures;

static void check(int cond, const char *name, const char *why)
{
	if (cond) {
		printf("ok %s\n", name);
	} else {
		printf("not ok %s - %s\n", name, why);
		failures++;
	}
	fflush(stdout);
}

/* Every granule of [p, p + n) has tag t. */
static int tags_are(uintptr_t p, size_t n, unsigned t)
{
	for (size_t i = 0; i < n; i += 16)
		if (mte_get_tag(p + i) != t)
			return 0;
	return 1;
}

static sigjmp_buf fault_jmp;
static volatile int fault_code;

static void on_segv(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	fault_code = si->si_code;
	siglongjmp(fault_jmp, 1);
}

/* Read p; the SIGSEGV si_code it raised, or 0. */
static int read_faults(uintptr_t p)
{
	fault_code = 0;
	if (!sigsetjmp(fault_jmp, 1))
		(void)*(volatile char *)p;
	return fault_code;
}

static void test_primitives(void)
{
	check(mte_supported(), "mte_supported on -cpu max", "HWCAP2_MTE clear");
	check(mte_set_mode(MTE_ASYNC) == 0 && mte_mode_now() == MTE_ASYNC, "mode async", "");
	int m = (mte_set_mode(MTE_ASYMM), mte_mode_now());
	check(m == MTE_SYNC || m == MTE_ASYMM, "mode asymm accepted (qemu: sync)", "");
	check(mte_set_mode(MTE_NONE) == 0 && mte_mode_now() == MTE_NONE, "mode none", "");
	check(mte_set_mode(MTE_SYNC) == 0 && mte_mode_now() == MTE_SYNC, "mode sync", "");

	int seen[16] = {0}, seen_ex[16] = {0};
	for (int i = 0; i < 4000; i++) {
		seen[mte_random_tag(0)]++;
		seen_ex[mte_random_tag(1 << 5)]++;
	}
	int all = 1;
	for (int t = 1; t <= 13; t++)
		all &= seen[t] > 0;
	check(all && !seen[0] && !seen[14] && !seen[15], "irg draws exactly tags 1..13",
	      "a tag outside 1..13 drawn, or one inside never");
	check(!seen_ex[5] && !seen_ex[0] && !seen_ex[14], "irg's exclude operand adds to the mask",
	      "excluded tag 5 drawn");

	size_t len = 4 << 20;
	char *mem = mte_map(len);
	check(mem != NULL && tags_are((uintptr_t)mem, len, 0), "mte_map: fresh tags 0", "");
	if (!mem)
		return;
	/* Ranges that start and end inside and across DCZID blocks. */
	static const size_t offs[] = {0, 16, 48, 496, 512, 4096 - 16};
	static const size_t sizes[] = {16, 32, 48, 64, 1008, 1024, 4096, 4112, 65536, 1 << 20};
	int ok = 1;
	for (size_t i = 0; i < sizeof(offs) / sizeof(offs[0]); i++)
		for (size_t j = 0; j < sizeof(sizes) / sizeof(sizes[0]); j++) {
			uintptr_t p = (uintptr_t)mem + 65536 + offs[i];
			unsigned t = 1 + (unsigned)(i * 7 + j) % 13;
			mte_set_tags(p, sizes[j], t);
			ok &= tags_are(p, sizes[j], t) && mte_get_tag(p - 16) == 0 &&
			      mte_get_tag(p + sizes[j]) == 0;
			mte_set_tags(p, sizes[j], 0);
			ok &= tags_are(p - 16, sizes[j] + 32, 0);
		}
	check(ok, "mte_set_tags: exactly the range, every size and offset", "tag wrong");
	check(mte_dc_block() == 512, "DCZID block is 512 bytes under qemu", "");

	struct sigaction sa = {.sa_sigaction = on_segv, .sa_flags = SA_SIGINFO};
	sigaction(SIGSEGV, &sa, NULL);
	uintptr_t g = (uintptr_t)mem + 4096;
	mte_set_tags(g, 64, 3);
	check(read_faults(mte_with_tag(g, 3)) == 0 && read_faults(mte_with_tag(g + 48, 3)) == 0,
	      "matching tag: no fault", "");
	check(read_faults(mte_with_tag(g, 4)) == 9, "mismatch: SEGV_MTESERR", "no sync fault");
	check(read_faults(g + 64) == 0 && read_faults(mte_with_tag(g + 64, 3)) == 9,
	      "the next granule keeps tag 0", "");
	mte_tco_set(1);
	int under_tco = read_faults(mte_with_tag(g, 4));
	mte_tco_set(0);
	check(under_tco == 0 && read_faults(mte_with_tag(g, 4)) == 9, "tco: no checks while set",
	      "");
}

static int seen_before(uintptr_t p)
{
	static uintptr_t seen[1024];
	static int nseen;
	for (int i = 0; i < nseen; i++)
		if (seen[i] == p)
			return 1;
	if (nseen < 1024)
		seen[nseen++] = p;
	return 0;
}

/* Blocks of every class and alignment: aligned, sized, owned, fresh tags
 * 0 and reused ones with the tags left at free, PROT_MTE, double and
 * interior frees refused. */
static void test_heap_basics(void)
{
	int ok_align = 1, ok_tag = 1, ok_size = 1, ok_mte = 1, reused = 0;
	for (size_t align = 16; align <= 4096; align *= 2)
		for (size_t size = 1; size <= HW_HEAP_MAX; size += 37) {
			char *p = hw_heap_alloc(size, align);
			if (!p) {
				/* Only where no class is a multiple of align. */
				ok_size &= size > 4096 && align > 16;
				continue;
			}
			size_t n = hw_heap_size(p);
			ok_align &= (uintptr_t)p % align == 0;
			ok_size &= n >= size && n <= HW_HEAP_MAX && hw_heap_owns((uintptr_t)p);
			int again = seen_before((uintptr_t)p);
			reused += again;
			ok_tag &= tags_are((uintptr_t)p, n, again ? MTE_TAG_FREED : 0);
			unsigned t = 1 + (unsigned)(size % 13);
			mte_set_tags((uintptr_t)p, n, t);
			ok_mte &= tags_are((uintptr_t)p, n, t);
			*(volatile char *)mte_with_tag((uintptr_t)p + n - 1, t) = 1;
			mte_set_tags((uintptr_t)p, n, MTE_TAG_FREED);
			ok_size &= hw_heap_free(p) == 0;
		}
	check(ok_align, "heap: every block aligned as asked", "");
	check(ok_size, "heap: sizes, ownership, NULL only where no class fits", "");
	check(ok_tag && reused > 0, "heap: never-used blocks have tag 0, reused ones the tag left",
	      "");
	check(ok_mte, "heap: blocks are PROT_MTE (stg then ldg)", "");

	void *p = hw_heap_alloc(100, 16);
	struct hw_heap_block b;
	int c = hw_heap_block_of((uintptr_t)p + 50, &b);
	check(c == 0 && b.start == (uintptr_t)p && b.size == 112 && b.allocated,
	      "heap: block_of an interior address", "");
	check(hw_heap_free((char *)p + 16) == -1, "heap: interior free refused", "");
	check(hw_heap_free((void *)mte_with_tag((uintptr_t)p, 7)) == 0, "heap: tagged free", "");
	check(hw_heap_free(p) == -1, "heap: double free refused", "");
	check(hw_heap_block_of((uintptr_t)p, &b) == 0 && !b.allocated, "heap: block_of freed", "");
	int x;
	check(hw_heap_free(&x) == -1 && !hw_heap_owns((uintptr_t)&x), "heap: foreign pointer", "");
	check(!hw_heap_alloc(HW_HEAP_MAX + 1, 16) && !hw_heap_alloc(64, 8192) &&
	          !hw_heap_alloc(64, 48),
	      "heap: too big, too aligned, non-power-of-two alignment: NULL", "");
}

/* Freed blocks come back oldest first, and only after the class queued
 * HW_HEAP_REUSE_BYTES. */
static void test_fifo(void)
{
	enum { N = 100 };
	void *a[N], *later[N];
	for (int i = 0; i < N; i++) /* 4100: the largest class, untouched so far */
		a[i] = hw_heap_alloc(4100, 16);
	void *solo = hw_heap_alloc(4100, 16);
	hw_heap_free(solo);
	void *again = hw_heap_alloc(4100, 16);
	check(again != solo, "fifo: a block freed alone is not handed out again at once", "");
	hw_heap_free(again);
	for (int i = 0; i < N; i++)
		hw_heap_free(a[i]);
	/* Queued: solo, again, a[0..99]; the class reuses while it holds at
	 * least reuse = HW_HEAP_REUSE_BYTES / 4112 blocks. */
	int reuse = (int)(HW_HEAP_REUSE_BYTES / HW_HEAP_MAX), queued = N + 2, in_order = 1;
	for (int i = 0; i < N; i++)
		later[i] = hw_heap_alloc(4100, 16);
	int pops = queued - reuse + 1;
	in_order = later[0] == solo && later[1] == again;
	for (int i = 2; i < pops; i++)
		in_order &= later[i] == a[i - 2];
	int fresh = 1;
	for (int i = pops; i < N; i++)
		for (int j = 0; j < N; j++)
			fresh &= later[i] != a[j];
	check(in_order, "fifo: reused oldest first", "order differs");
	check(fresh, "fifo: reuse stops when the queue falls below the threshold", "");
	for (int i = 0; i < N; i++)
		hw_heap_free(later[i]);
}

/* Threads allocate, tag, fill, check and free blocks of random sizes: no
 * block is handed to two owners (with tag checks on, a second owner's
 * retagging would also fault the first). */
enum { THREADS = 8, LIVE = 64, ROUNDS = 20000 };
static void *thread_main(void *arg)
{
	uintptr_t id = (uintptr_t)arg;
	struct {
		uint64_t *p;
		size_t n;
	} live[LIVE] = {{0, 0}};
	uint64_t seed = id * 0x9e3779b97f4a7c15ull + 1, bad = 0;
	for (int r = 0; r < ROUNDS; r++) {
		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		int i = (int)(seed >> 33) % LIVE;
		if (live[i].p) {
			uint64_t *q = live[i].p;
			size_t w = live[i].n / 8;
			bad += q[0] != (id << 32 | (uint64_t)i) || q[w - 1] != ~q[0];
			mte_set_tags((uintptr_t)q, live[i].n, MTE_TAG_FREED);
			bad += hw_heap_free(q) != 0;
			live[i].p = NULL;
		} else {
			size_t size = 16 + (seed >> 40) % 2000;
			uintptr_t p = (uintptr_t)hw_heap_alloc(size, 16);
			if (!p) {
				bad++;
				continue;
			}
			size_t n = hw_heap_size((void *)p);
			unsigned t = mte_random_tag(0);
			mte_set_tags(p, n, t);
			uint64_t *q = (uint64_t *)mte_with_tag(p, t);
			q[0] = id << 32 | (uint64_t)i;
			q[n / 8 - 1] = ~q[0];
			live[i].p = q;
			live[i].n = n;
		}
	}
	for (int i = 0; i < LIVE; i++)
		if (live[i].p)
			bad += hw_heap_free(live[i].p) != 0;
	return (void *)(uintptr_t)bad;
}

static void test_threads(void)
{
	struct hw_heap_stats before, after;
	hw_heap_get_stats(&before);
	pthread_t t[THREADS];
	uintptr_t bad = 0;
	for (uintptr_t i = 0; i < THREADS; i++)
		pthread_create(&t[i], NULL, thread_main, (void *)i);
	for (int i = 0; i < THREADS; i++) {
		void *r;
		pthread_join(t[i], &r);
		bad += (uintptr_t)r;
	}
	hw_heap_get_stats(&after);
	check(bad == 0, "threads: no block shared, every free accepted", "blocks overlapped");
	check(after.in_use == before.in_use &&
	          after.allocs - before.allocs == after.frees - before.frees,
	      "threads: stats balance", "");
	check(after.mapped % (4 << 20) == 0 && after.mapped <= after.reserved &&
	          after.slabs * 65536 <= after.mapped,
	      "stats: mapped in 4 MiB chunks, within the reservation", "");
}

/* Threads in lockstep take neighbouring blocks of fresh slabs and tag them
 * at once: the first tag stores into each page race (qemu-user loses some
 * unless the heap made one store per page first: mte_touch_tags). */
enum { LOCKSTEP = 4, STEPS = 1000 };
static int step_count[STEPS];
static void *lockstep_main(void *arg)
{
	unsigned t = 1 + (unsigned)(uintptr_t)arg, lost = 0;
	for (int s = 0; s < STEPS; s++) {
		uintptr_t p = (uintptr_t)hw_heap_alloc(496, 16); /* 512 */
		__atomic_add_fetch(&step_count[s], 1, __ATOMIC_SEQ_CST);
		/* Spin, to leave together; yield now and then, in case the
		 * other thread waits for this CPU. */
		for (int spins = 0; __atomic_load_n(&step_count[s], __ATOMIC_SEQ_CST) < LOCKSTEP;)
			if (++spins % 4096 == 0)
				sched_yield();
		mte_set_tags(p, 512, t);
		lost += !tags_are(p, 512, t);
	}
	return (void *)(uintptr_t)lost;
}

static void test_lockstep(void)
{
	pthread_t t[LOCKSTEP];
	uintptr_t lost = 0;
	for (uintptr_t i = 0; i < LOCKSTEP; i++)
		pthread_create(&t[i], NULL, lockstep_main, (void *)i);
	for (int i = 0; i < LOCKSTEP; i++) {
		void *r;
		pthread_join(t[i], &r);
		lost += (uintptr_t)r;
	}
	char why[64];
	snprintf(why, sizeof(why), "%lu blocks lost tags", (unsigned long)lost);
	check(lost == 0, "threads tagging fresh pages at once keep their tags", why);
}

static void test_fork(void)
{
	void *p = hw_heap_alloc(200, 16);
	hw_heap_fork_prepare();
	pid_t pid = fork();
	if (pid == 0) {
		hw_heap_fork_child();
		void *q = hw_heap_alloc(200, 16);
		_exit(q && q != p && hw_heap_free(q) == 0 && hw_heap_free(p) == 0 ? 0 : 1);
	}
	hw_heap_fork_parent();
	int st = 0;
	waitpid(pid, &st, 0);
	check(WIFEXITED(st) && WEXITSTATUS(st) == 0 && hw_heap_free(p) == 0,
	      "fork: the child allocates and frees", "");
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* stg x9, [x9], #16 only: the slowest way, for comparison. */
static void stg_loop(uintptr_t p, size_t n)
{
	register uintptr_t x9 __asm__("x9") = mte_with_tag(p, 5);
	for (uintptr_t end = x9 + n; x9 < end;)
		__asm__ volatile(".inst 0xd9201529" : "+r"(x9) : : "memory");
}

static void dc_loop(uintptr_t p, size_t n)
{
	size_t block = mte_dc_block();
	for (register uintptr_t x9 __asm__("x9") = mte_with_tag(p, 5), end = x9 + n; x9 < end;
	     x9 += block)
		__asm__ volatile(".inst 0xd50b7469" : : "r"(x9) : "memory");
}

/* One way of tagging [p, p + n), by number. */
static void tag_with(int k, uintptr_t p, size_t n)
{
	if (k == 0)
		stg_loop(p, n);
	else if (k == 1)
		mte_st2g_loop(mte_with_tag(p, 5), mte_with_tag(p, 5) + n);
	else if (k == 2)
		dc_loop(p, n < 512 ? 512 : n);
	else
		mte_set_tags(p, n, 5);
}

static void bench(void)
{
	char *mem = mte_map(4 << 20);
	mte_touch_tags((uintptr_t)mem, 4 << 20, 4096);
	/* Offset 16: a block's object, after its header granule. */
	static const struct {
		size_t n, off;
	} cases[] = {{64, 0},    {1024, 16}, {2048, 16},  {4096, 0},
	             {4096, 16}, {65536, 0}, {1 << 20, 0}};
	printf("%-7s %4s %10s %10s %10s %12s  (us per call)\n", "size", "off", "stg", "st2g",
	       "dc gva", "mte_set_tags");
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		size_t n = cases[i].n;
		uintptr_t p = (uintptr_t)mem + 4096 + cases[i].off;
		int reps = (int)((256 << 20) / n);
		reps = reps > 50000 ? 50000 : reps;
		double t[4];
		for (int k = 0; k < 4; k++) {
			tag_with(k, p, n); /* warm up: qemu translates on first use */
			double t0 = now();
			for (int r = 0; r < reps; r++)
				tag_with(k, p, n);
			t[k] = (now() - t0) / reps * 1e6;
		}
		printf("%-7zu %4zu %10.3f %10.3f %10.3f %12.3f\n", n, cases[i].off, t[0], t[1],
		       cases[i].off ? 0.0 : t[2], t[3]);
	}
	static const size_t objs[] = {32, 128, 1024, 4000};
	enum { PAIRS = 200000 };
	printf("%-7s %10s %10s %14s  (ns per alloc+free pair)\n", "object", "glibc", "hw_heap",
	       "hw_heap+tags");
	for (int i = 0; i < 4; i++) {
		for (int r = 0; r < 1000; r++) /* warm up */
			hw_heap_free(hw_heap_alloc(objs[i] + 16, 16));
		double t0 = now();
		for (int r = 0; r < PAIRS; r++) {
			void *volatile p = malloc(objs[i]);
			free(p);
		}
		double t1 = now();
		for (int r = 0; r < PAIRS; r++)
			hw_heap_free(hw_heap_alloc(objs[i] + 16, 16));
		double t2 = now();
		/* What hw_tags mode adds: header and object tagged at
		 * allocation, the object retagged freed at free. */
		for (int r = 0; r < PAIRS; r++) {
			uintptr_t p = (uintptr_t)hw_heap_alloc(objs[i] + 16, 16);
			mte_set_tags(p, 16, MTE_TAG_FREED);
			mte_set_tags(p + 16, ALIGN_UP_16(objs[i]), mte_random_tag(0));
			mte_set_tags(p + 16, ALIGN_UP_16(objs[i]), MTE_TAG_FREED);
			hw_heap_free((void *)p);
		}
		double t3 = now();
		printf("%-7zu %10.0f %10.0f %14.0f\n", objs[i], (t1 - t0) / PAIRS * 1e9,
		       (t2 - t1) / PAIRS * 1e9, (t3 - t2) / PAIRS * 1e9);
	}
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "bench")) {
		bench();
		return 0;
	}
	test_primitives();
	test_fifo();
	test_heap_basics();
	/* A fault in a thread kills the run; tag checks stay on (sync). */
	signal(SIGSEGV, SIG_DFL);
	test_threads();
	test_lockstep();
	test_fork();
	return failures != 0;
}
