/* Helpers for the software-tag KASAN tests (UKASAN_MODE=sw_tags), in the
 * spirit of the kernel's KUNIT_EXPECT_KASAN_FAIL for the tag modes: run an
 * expression and print, as run-time expectations, the report it must
 * produce. The runner checks them in order against stderr.
 *
 * What a tag report must say is known only at run time: the tagged
 * address, the pointer's tag (its top byte), the memory tag of the first
 * granule whose tag differs (read from the shadow at
 * 0x100000000000 + (untagged address >> 4)), the object's untagged bounds
 * and the row of memory tags around the bad granule.
 *
 * Keep each TAGS_EXPECT_FAIL on one line: the access line it expects in the
 * call trace is the line of the macro.
 *
 * Programs may take the arguments "one N" (only case N runs, and only its
 * expectations are printed) or "from N" (see tags_select), for
 * tests/tags/check_hwasan_reference.py, which compares with HWASan case by
 * case. */
#ifndef TAGS_TEST_H
#define TAGS_TEST_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

/* The tests use freed memory on purpose. */
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 12
#pragma GCC diagnostic ignored "-Wuse-after-free"
#endif

#define TAGS_SHADOW_OFFSET 0x100000000000ul
#define TAGS_GRANULE       16ul
#define TAGS_MATCH_ALL     0xffu
#define TAGS_INVALID       0xfeu

/* Reads of the shadow and of object bytes by the test itself are not
 * accesses under test. */
#define TAGS_NOCHECK __attribute__((no_sanitize("hwaddress")))

/* Expectations go to stdout. Unbuffered: a buffer would be malloc'ed at the
 * first printf, and with no quarantine it could take a slot a test has
 * just freed, giving it a new tag. */
__attribute__((constructor)) static void tags_test_init(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
}

static inline void expect(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char line[512];
	int n = vsnprintf(line, sizeof(line) - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if (n > (int)sizeof(line) - 2)
		n = (int)sizeof(line) - 2;
	line[n] = '\n';
	/* One write per line: the runner reads whole "EXPECT: " lines. */
	char out[520] = "EXPECT: ";
	memcpy(out + 8, line, (size_t)n + 1);
	if (write(1, out, (size_t)n + 9) < 0)
		return;
}

#include "report_expect.h"

static inline void tags_test_fail(const char *what)
{
	expect("TEST FAILED: %s", what);
}

static inline const char *tags_test_src(const char *file)
{
	const char *t = strstr(file, "tests/");
	return t ? t : file;
}

static inline uintptr_t tags_untag(const void *p)
{
	return (uintptr_t)p & 0x00fffffffffffffful;
}

static inline unsigned tags_ptr_tag(const void *p)
{
	return (unsigned)((uintptr_t)p >> 56);
}

/* The memory tag of the granule holding p. Out of line: GCC inlines a
 * no_sanitize function into an instrumented caller and instruments it
 * there. And through a match-all pointer, in case a compiler checks it
 * anyway (the shadow has no shadow). */
TAGS_NOCHECK static __attribute__((noinline, unused)) unsigned tags_mem_tag(const void *p)
{
	uintptr_t s = TAGS_SHADOW_OFFSET + (tags_untag(p) >> 4);
	return *(volatile uint8_t *)(s | (uintptr_t)TAGS_MATCH_ALL << 56);
}

/* The first byte of [p, p + size) whose granule's tag differs from p's, as
 * the report's "first bad address"; p itself when none does. */
static inline uintptr_t tags_first_bad(const void *p, size_t size)
{
	uintptr_t a = tags_untag(p), end = a + (size ? size : 1);
	unsigned t = tags_ptr_tag(p);
	for (uintptr_t g = a; g < end; g = (g & ~(TAGS_GRANULE - 1)) + TAGS_GRANULE)
		if (tags_mem_tag((void *)g) != t)
			return g;
	return a;
}

/* The marked row of the tag dump, and its '^' under the bad granule. */
static inline void tags_expect_row(uintptr_t bad)
{
	uintptr_t row = bad & ~(uintptr_t)255;
	char line[80], *l = line;
	for (int i = 0; i < 16; i++)
		l += sprintf(l, " %02x", tags_mem_tag((void *)(row + TAGS_GRANULE * i)));
	expect(">%016lx:%s", (unsigned long)row, line);
	int col = 19 + 3 * (int)((bad - row) / TAGS_GRANULE);
	memset(line, ' ', col);
	line[col] = '^';
	line[col + 1] = 0;
	expect("%s", line);
}

struct tags_expect {
	const char *func; /* the function named in the title */
	const char *file;
	int line;         /* of the access: in the call trace */
	const char *type; /* slab-out-of-bounds, ...; NULL: any */
	const char *rw;   /* "Read", "Write", "Free"; NULL: any */
	size_t size;      /* access size */
	const void *addr; /* the (tagged) address of the access */
	/* The object: the located/region lines, when obj is set. */
	const void *obj;
	size_t obj_size;
	int freed;
	int alloc_line;    /* "Allocated by task" and this line, when set */
	int free_line;     /* "Freed by task" and this line, when set */
	int alloc_tid;     /* default: this thread */
	int free_tid;      /* default: this thread */
	const char *cache; /* default "malloc" */
};

static __attribute__((noinline, unused)) uintptr_t tags_expect_report(const struct tags_expect *ep)
{
	struct tags_expect e = *ep;
	const char *src = tags_test_src(e.file);
	uintptr_t a = (uintptr_t)e.addr, ua = tags_untag(e.addr), o = tags_untag(e.obj);
	int free_ = e.rw && !strcmp(e.rw, "Free");
	uintptr_t bad = free_ ? ua : tags_first_bad(e.addr, e.size);
	char comm[17] = "";
	int tid = (int)gettid();
	prctl(PR_GET_NAME, comm);
	if (e.type) {
		expect("BUG: KASAN: %s in %s+0x", e.type, e.func);
	} else {
		expect("BUG: KASAN: ");
		expect(" in %s+0x", e.func);
	}
	if (!e.rw)
		expect(" addr %016lx by task %s/%d", (unsigned long)a, comm, tid);
	else if (free_)
		expect("Free of addr %016lx by task %s/%d", (unsigned long)a, comm, tid);
	else
		expect("%s of size %zu at addr %016lx by task %s/%d", e.rw, e.size,
		       (unsigned long)a, comm, tid);
	expect("Pointer tag: [%02x], memory tag: [%02x]", tags_ptr_tag(e.addr),
	       tags_mem_tag((void *)bad));
	expect("PID: %d Comm: %s", tid, comm);
	expect("Call Trace:");
	expect(" %s+0x", e.func);
	expect(" %s:%d", src, e.line);
	struct object_expect oe = {src, tid, e.alloc_line, e.alloc_tid, e.free_line, e.free_tid,
	                          e.obj ? o : 0, e.obj_size, e.cache, e.freed, ua};
	expect_object(&oe);
	expect("Memory state around the buggy address:");
	tags_expect_row(bad);
	expect("==================================================================");
	return bad;
}

#define TAGS_BARRIER() __asm__ __volatile__("" ::: "memory")

/* Which cases run: all (tags_only 0), the one given as "one N" on the
 * command line, or N and those after it ("from N"), each announced on
 * stderr as "tags: case N" (check_hwasan_reference.py runs a program's
 * cases in one process and tells their reports apart by these lines). */
static int tags_only, tags_from;
static int tags_case;

static inline void tags_select(int argc, char **argv)
{
	if (argc > 2 && !strcmp(argv[1], "one"))
		tags_only = atoi(argv[2]);
	if (argc > 2 && !strcmp(argv[1], "from"))
		tags_from = atoi(argv[2]);
}

static inline int tags_case_runs(void)
{
	tags_case++;
	if (tags_from) {
		if (tags_case < tags_from)
			return 0;
		char line[32];
		int n = snprintf(line, sizeof(line), "tags: case %d\n", tags_case);
		if (write(2, line, (size_t)n) < 0)
			return 1;
		return 1;
	}
	return !tags_only || tags_only == tags_case;
}

/* A case of a multi-case program: TAGS_CASE { ... } runs its block when it
 * is selected. */
#define TAGS_CASE if (tags_case_runs())

/* Run expression, which must produce the report described by the
 * designated initialisers that follow it. Built with -DTAGS_REFERENCE (the
 * HWASan builds of check_hwasan_reference.py, whose shadow is elsewhere):
 * only the expression. */
#ifdef TAGS_REFERENCE
#define TAGS_EXPECT_FAIL(expression, ...)                                                          \
	do {                                                                                       \
		TAGS_BARRIER();                                                                    \
		expression;                                                                        \
		TAGS_BARRIER();                                                                    \
	} while (0)
#else
#define TAGS_EXPECT_FAIL(expression, ...)                                                          \
	do {                                                                                       \
		tags_expect_report(&(struct tags_expect){                                          \
		    .func = __func__, .file = __FILE__, .line = __LINE__, __VA_ARGS__});           \
		TAGS_BARRIER();                                                                    \
		expression;                                                                        \
		TAGS_BARRIER();                                                                    \
	} while (0)
#endif

/* Keep the compiler from reasoning about a pointer (the kernel's
 * OPTIMIZER_HIDE_VAR). */
#define OPTIMIZER_HIDE_VAR(var) __asm__("" : "=r"(var) : "0"(var))

/* After free(old): allocate size bytes again until glibc hands back old's
 * slot with another tag (no quarantine: the freed slot comes back at
 * once), as the kernel's tests retry when two tags collide (1 in 238).
 * NULL after 16 tries. */
/* Set when tags_realloc_slot freed an object of old's slot and old's tag
 * (1 in about 250 runs): that free and its allocation are then the stack
 * ring's newest entries for the old pointer, and the report rightly shows
 * them. */
static int tags_realloc_collided;

static __attribute__((noinline, unused)) void *tags_realloc_slot(size_t size, const void *old)
{
	for (int i = 0; i < 16; i++) {
		void *p = malloc(size);
		if (tags_untag(p) == tags_untag(old) && tags_ptr_tag(p) != tags_ptr_tag(old))
			return p;
		if (tags_untag(p) == tags_untag(old))
			tags_realloc_collided = 1;
		free(p);
	}
	return NULL;
}

static volatile long tags_int_result;
static void *volatile tags_ptr_result;

#define TAGS_TEST __attribute__((noinline))

#endif
