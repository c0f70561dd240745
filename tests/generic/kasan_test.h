/* Helpers for the generic KASAN tests, in the spirit of the kernel's
 * KUNIT_EXPECT_KASAN_FAIL: run an expression and print, as run-time
 * expectations, the report it must produce (exact addresses, sizes, the
 * source line of the access, of the allocation and of the free). The runner
 * checks them in order against stderr.
 *
 * Keep each KASAN_EXPECT_FAIL on one line: the access line it expects in
 * the call trace is the line of the macro. */
#ifndef KASAN_TEST_H
#define KASAN_TEST_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "kfence_test.h"
#include "report_expect.h"

/* Reports print source files relative to the directory the test runs in,
 * the repository root. */
static inline const char *kasan_test_src(const char *file)
{
	const char *t = strstr(file, "tests/");
	return t ? t : file;
}

struct kasan_expect {
	const char *func; /* the function named in the title */
	const char *file;
	int line;         /* of the access: in the call trace */
	const char *type; /* slab-out-of-bounds, ...; NULL: any */
	const char *rw;   /* "Read", "Write", "Free" (double/invalid frees); NULL: any */
	size_t size;      /* access size */
	const void *addr;
	/* The object: the located/region lines, when obj is set. */
	const void *obj;
	size_t obj_size;
	const char *cache; /* default "malloc" */
	int freed;
	int alloc_line; /* "Allocated by task" and this line, when set */
	int free_line;  /* "Freed by task" and this line, when set */
	const void *bad; /* the first bad byte, when not addr: the shadow row shown */
	/* A global: the variable the address is in (or in the redzone of). */
	const char *var;
	const void *var_addr;
	size_t var_size; /* with its redzone */
	int var_line;    /* GCC also names the declaration, as __FILE__:line */
	/* The stack: the frame of this function and the object in it. */
	const char *stack_object;
	int alloca;      /* a VLA: no frame description */
	/* The call is in a header's inline wrapper (_FORTIFY_SOURCE's): the
	 * trace names the header's line, not the test's. */
	int inlined;
	int alloc_tid;  /* default: this thread */
	int free_tid;   /* default: this thread */
};

/* Nonzero: expect the marked row only up to the bad byte's shadow. For
 * calls that check after libc has run (scanf, mblen...), where libc's own
 * first-use allocations may land just right of the object, between the
 * row read before the call and the report. */
static int kasan_expect_row_to_bad;

/* An expectation that cannot be met: fails the test with a message. */
static inline void kasan_test_fail(const char *what)
{
	expect("TEST FAILED: %s", what);
}

/* The shadow byte of addr (the generic mode's mapping: the offsets of
 * src/arch/<arch>/arch.h). */
#if defined(__aarch64__)
#define KASAN_TEST_SHADOW_OFFSET 0x100000000000ul
#define KASAN_TEST_VA_END        0x1000000000000ul
#else
#define KASAN_TEST_SHADOW_OFFSET 0x7fff8000ul
#define KASAN_TEST_VA_END        0x800000000000ul
#endif
__attribute__((no_sanitize("kernel-address"))) static inline uint8_t kasan_test_shadow(uintptr_t addr)
{
	return *(volatile uint8_t *)((addr >> 3) + KASAN_TEST_SHADOW_OFFSET);
}

/* The row of the shadow dump that a report marks for bad, and the '^'
 * under bad's shadow byte: the shadow as it is now, before the access. */
__attribute__((no_sanitize("kernel-address"))) static inline void
kasan_expect_shadow_row(uintptr_t bad)
{
	uintptr_t row = bad & ~(uintptr_t)127;
	char line[80], *l = line;
	int upto = kasan_expect_row_to_bad ? (int)((bad - row) / 8) + 1 : 16;
	for (int i = 0; i < upto; i++)
		l += sprintf(l, " %02x", kasan_test_shadow(row + 8 * i));
	expect(">%016lx:%s", (unsigned long)row, line);
	int col = 19 + 3 * (int)((bad - row) / 8);
	memset(line, ' ', col);
	line[col] = '^';
	line[col + 1] = 0;
	expect("%s", line);
}

/* Out of line: its locals must not join the test function's frame; and
 * uninstrumented, so that its frame has no redzones in the shadow it reads
 * (the stack below a test's frame, as shown in stack reports). It takes a
 * pointer: GCC drops the check of an address it has checked before
 * unless a call in between may free memory, and a call with an aggregate
 * passed by value does not count as one. */
static __attribute__((noinline, unused, no_sanitize("kernel-address"))) void
kasan_expect_report(const struct kasan_expect *ep)
{
	struct kasan_expect e = *ep;
	const char *src = kasan_test_src(e.file);
	uintptr_t a = (uintptr_t)e.addr, o = (uintptr_t)e.obj;
	char comm[17] = "";
	int tid = (int)gettid();
	prctl(PR_GET_NAME, comm);
	if (e.type) {
		expect("BUG: KASAN: %s in %s+0x", e.type, e.func);
	} else { /* any bug type */
		expect("BUG: KASAN: ");
		expect(" in %s+0x", e.func);
	}
	if (!e.rw) /* any kind of access or free */
		expect(" addr %016lx by task %s/%d", (unsigned long)a, comm, tid);
	else if (!strcmp(e.rw, "Free"))
		expect("Free of addr %016lx by task %s/%d", (unsigned long)a, comm, tid);
	else
		expect("%s of size %zu at addr %016lx by task %s/%d", e.rw, e.size, (unsigned long)a,
		       comm, tid);
	expect("PID: %d Comm: %s", tid, comm);
	expect("Call Trace:");
	expect(" %s+0x", e.func);
	if (!e.inlined)
		expect(" %s:%d", src, e.line);
	struct object_expect oe = {src, tid, e.alloc_line, e.alloc_tid, e.free_line, e.free_tid,
	                          e.obj ? o : 0, e.obj_size, e.cache, e.freed, a};
	expect_object(&oe);
	if (e.var) {
		expect("The buggy address belongs to the variable:");
#ifdef __clang__
		expect(" %s+0x%lx/0x%zx", e.var, (unsigned long)(a - (uintptr_t)e.var_addr),
		       e.var_size);
#else
		expect(" %s+0x%lx/0x%zx %s:%d", e.var, (unsigned long)(a - (uintptr_t)e.var_addr),
		       e.var_size, e.file, e.var_line);
#endif
	}
	if (e.stack_object || e.alloca)
		expect("The buggy address belongs to stack of task %s/%d", comm, tid);
	if (e.stack_object) {
		expect(" and is located at offset ");
		expect(" %s+0x0/0x", e.func);
		expect("This frame has ");
		expect("'%s'", e.stack_object);
	}
	expect("Memory state around the buggy address:");
}

/* The marked row is the one of the first bad byte, as it is at the access. */
static __attribute__((noinline, unused, no_sanitize("kernel-address"))) void
kasan_expect_report_end(uintptr_t bad)
{
	kasan_expect_shadow_row(bad);
	expect("==================================================================");
}

static inline uintptr_t kasan_expect_bad(const struct kasan_expect *e)
{
	return (uintptr_t)(e->bad ? e->bad : e->addr);
}

static inline uintptr_t kasan_expect_report_now(const struct kasan_expect *e)
{
	kasan_expect_report(e);
	kasan_expect_report_end(kasan_expect_bad(e));
	return 0;
}

#define KASAN_BARRIER() __asm__ __volatile__("" ::: "memory")

#ifdef __cplusplus
/* C++ has no compound literals: a temporary, by reference. Designated
 * initialisers must follow the order of the fields there. */
static inline void kasan_expect_report_ref(const kasan_expect &e)
{
	kasan_expect_report(&e);
}
#endif
/* Both print the expectations up to the shadow row. The row must show the
 * shadow as it is at the access. In C it is read before: the compound
 * literal lives to the end of KASAN_EXPECT_FAIL's block, and the call
 * under test may change the shadow itself (allocate, free). In C++ a
 * temporary dies at the end of its statement, and use-after-scope poisons
 * it then, so the row is read after the access: the C++ form gives the
 * address whose row to read, the C form 0. */
#ifdef __cplusplus
#define KASAN_EXPECT_CALL(...)                                                                     \
	[&](const char *kasan_fn_) {                                                               \
		kasan_expect e_{__VA_ARGS__};                                                      \
		e_.func = kasan_fn_; /* here __func__ is the lambda's */                           \
		kasan_expect_report_ref(e_);                                                       \
		return kasan_expect_bad(&e_);                                                      \
	}(__func__)
#else
#define KASAN_EXPECT_CALL(...) kasan_expect_report_now(&(struct kasan_expect){__VA_ARGS__})
#endif

/* Run expression, which must produce the report described by the
 * designated initialisers that follow it. A test may define it first, to
 * run the same program without the expectations. */
#ifndef KASAN_EXPECT_FAIL
#define KASAN_EXPECT_FAIL(expression, ...)                                                          \
	do {                                                                                       \
		uintptr_t kasan_bad_ = KASAN_EXPECT_CALL(.func = __func__, .file = __FILE__,        \
		                                         .line = __LINE__, __VA_ARGS__);          \
		KASAN_BARRIER();                                                                   \
		expression;                                                                        \
		KASAN_BARRIER();                                                                   \
		if (kasan_bad_)                                                                    \
			kasan_expect_report_end(kasan_bad_);                                       \
	} while (0)
#endif

/* Keep the compiler from reasoning about a pointer (the kernel's
 * OPTIMIZER_HIDE_VAR). */
#define OPTIMIZER_HIDE_VAR(var) __asm__("" : "=r"(var) : "0"(var))

/* Results of reads the compiler must not drop. */
static volatile long kasan_int_result;
static void *volatile kasan_ptr_result;

#define KASAN_TEST __attribute__((noinline))

#endif
