/* Helpers for the hardware tag (MTE) tests, in the spirit of the kernel's
 * KUNIT_EXPECT_KASAN_FAIL for CONFIG_KASAN_HW_TAGS: run an expression and
 * print, as run-time expectations on stdout, the report it must produce
 * (the tagged address, both tags, the source lines of the access, the
 * allocation and the free, the object, and the marked row of memory tags).
 * The runner checks them in order against stderr.
 *
 * The programs are built with plain aarch64-linux-gnu-gcc -O0 and run
 * under the preload with kasan=on: nothing in them is instrumented, the CPU
 * checks every access.
 *
 * Keep each HW_EXPECT_FAIL on one line: the access line it expects in the
 * call trace is the line of the macro. */
#ifndef HW_TAGS_TEST_H
#define HW_TAGS_TEST_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "kfence_test.h"
#include "report_expect.h"

/* The tests' bugs are on purpose: gcc's warnings about them would only be
 * noise (-Wall -Wextra builds). */
#pragma GCC diagnostic ignored "-Wpragmas"
#pragma GCC diagnostic ignored "-Wunknown-warning-option"
#pragma GCC diagnostic ignored "-Wuse-after-free"
#pragma GCC diagnostic ignored "-Wstringop-overflow"
#pragma GCC diagnostic ignored "-Walloc-size-larger-than="
#ifdef __cplusplus
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#endif

#define HW_TAG_SHIFT 56
#define HW_GRANULE   16
#define HW_TAG_FREED 0xe
#define HW_TAG_NONE  0x0
#define HW_ROW_BYTES (16 * HW_GRANULE)

/* Macros, not functions of const void *: gcc takes such a parameter for a
 * read of the memory, and warns of reading a fresh object. */
#define hw_ptr_tag(p) ((unsigned)((uintptr_t)(p) >> HW_TAG_SHIFT) & 0xf)
#define hw_untag(p)   ((uintptr_t)(p) & ~((uintptr_t)0xff << HW_TAG_SHIFT))

/* The memory's tag, with ldg (its encoding: the test itself is built for
 * any arm64, and gcc 12's arm_acle.h hides __arm_mte_get_tag outside
 * +memtag builds). ldg x0, [x1] sets bits 56..59 of x0 and keeps the rest. */
static __attribute__((noinline)) unsigned hw_ldg(uintptr_t p)
{
	register uintptr_t x0 __asm__("x0") = p;
	register uintptr_t x1 __asm__("x1") = p;
	__asm__ volatile(".inst 0xd9600020" : "+r"(x0) : "r"(x1) : "memory");
	return hw_ptr_tag(x0);
}

/* ldg of a page that is not readable faults like a load: probe first with
 * a system call, which says EFAULT instead. Unreadable memory is not ours,
 * and reports show it as untagged. */
#define hw_mem_tag(p) hw_mem_tag_at((uintptr_t)(p))
static inline unsigned hw_mem_tag_at(uintptr_t p)
{
	static int null_fd = -1;
	uintptr_t a = hw_untag(p);
	if (null_fd < 0)
		null_fd = open("/dev/null", O_WRONLY);
	if (write(null_fd, (const void *)a, 1) != 1)
		return HW_TAG_NONE;
	return hw_ldg(a);
}

/* A check that fails the test: the line it prints can never be found in
 * stderr. */
#define HW_CHECK(cond)                                                                             \
	do {                                                                                       \
		if (!(cond))                                                                       \
			expect("TEST FAILED: %s:%d: %s", __FILE__, __LINE__, #cond);               \
	} while (0)

static inline const char *hw_test_src(const char *file)
{
	const char *t = strstr(file, "tests/");
	return t ? t : file;
}

#ifdef __cplusplus
#define HW_CXX 1
#else
#define HW_CXX 0
#endif

struct hw_expect {
	const char *func; /* the function of the access: the title, the first frame */
	const char *file;
	int line;         /* of the access, in the call trace */
	const char *type; /* slab-out-of-bounds, ...; NULL: any */
	const char *rw;   /* "Read", "Write", "Free"; NULL: any */
	size_t size;      /* access size */
	const void *addr; /* as accessed: tagged */
	const void *bad;  /* the first bad granule, when not addr */
	const char *mem;  /* the memory tag ("0e"); NULL: read it now */
	/* The access is inside this (libc) function, called from func. glibc's
	 * memset and memcpy variants (IFUNC targets) have no symbol without
	 * its debug files: then the title names func, and the frame is
	 * only "0x... [libc.so.6+0x...]". */
	const char *callee;
	int callee_unnamed;
	/* The object: the located/region lines, when obj is set. */
	const void *obj;
	size_t obj_size;
	const char *cache; /* default "malloc" */
	int freed;
	int alloc_line; /* "Allocated by task" and this line, when set */
	int free_line;  /* "Freed by task" and this line, when set */
	int alloc_tid;  /* default: this thread */
	int free_tid;   /* default: this thread */
	int no_row;     /* do not expect the marked row (it changes at the access) */
};

/* The marked row of the memory state and the '^' under the bad granule,
 * as the tags are now, before the access. */
static inline void hw_expect_row(const void *bad_p)
{
	uintptr_t bad = hw_untag(bad_p), row = bad & ~(uintptr_t)(HW_ROW_BYTES - 1);
	char line[80], *l = line;
	for (int i = 0; i < 16; i++)
		l += sprintf(l, " %02x", hw_mem_tag((const void *)(row + HW_GRANULE * i)));
	expect(">%016lx:%s", (unsigned long)row, line);
	int col = 19 + 3 * (int)((bad - row) / HW_GRANULE);
	memset(line, ' ', col);
	line[col] = '^';
	line[col + 1] = 0;
	expect("%s", line);
}

static __attribute__((noinline, unused)) void hw_expect_report(const struct hw_expect *ep)
{
	struct hw_expect e = *ep;
	const char *src = hw_test_src(e.file);
	const void *bad = e.bad ? e.bad : e.addr;
	const char *in = e.callee && !e.callee_unnamed ? e.callee : e.func;
	uintptr_t a = (uintptr_t)e.addr, o = hw_untag(e.obj);
	uintptr_t ua = hw_untag(e.addr);
	char comm[17] = "", mem[3];
	int tid = (int)gettid();
	prctl(PR_GET_NAME, comm);
	expect("==================================================================");
	/* C++ frames are demangled: "f()+0x", "f(char*)+0x"; the title names
	 * the function without its parameters, as the kernel's do. */
	const char *after = in == e.func && HW_CXX ? "(" : "+0x";
	if (e.type) {
		expect("BUG: KASAN: %s in %s+0x", e.type, in);
	} else {
		expect("BUG: KASAN: ");
		expect(" in %s+0x", in);
	}
	if (!e.rw)
		expect(" addr %016lx by task %s/%d", (unsigned long)a, comm, tid);
	else if (!strcmp(e.rw, "Free"))
		expect("Free of addr %016lx by task %s/%d", (unsigned long)a, comm, tid);
	else if (!e.size) { /* inside a libc function: whatever width it uses */
		expect("%s of size ", e.rw);
		expect(" at addr %016lx by task %s/%d", (unsigned long)a, comm, tid);
	}
	else
		expect("%s of size %zu at addr %016lx by task %s/%d", e.rw, e.size,
		       (unsigned long)a, comm, tid);
	if (!e.mem) {
		sprintf(mem, "%02x", hw_mem_tag(bad));
		e.mem = mem;
	}
	expect("Pointer tag: [%02x], memory tag: [%s]", hw_ptr_tag(e.addr), e.mem);
	expect("PID: %d Comm: %s", tid, comm);
	expect("Call Trace:");
	if (e.callee && e.callee_unnamed)
		expect(" [libc.so.6+0x");
	else
		expect(" %s%s", e.callee ? e.callee : e.func, after);
	if (e.callee)
		expect(" %s%s", e.func, HW_CXX ? "(" : "+0x");
	expect(" %s:%d", src, e.line);
	expect(" </TASK>");
	struct object_expect oe = {src, tid, e.alloc_line, e.alloc_tid, e.free_line, e.free_tid,
	                          e.obj ? o : 0, e.obj_size, e.cache, e.freed, ua};
	expect_object(&oe);
	expect("Memory state around the buggy address:");
	if (!e.no_row)
		hw_expect_row(bad);
	expect("==================================================================");
}

#define HW_BARRIER() __asm__ __volatile__("" ::: "memory")

/* Run expression, which must produce the report described by the
 * designated initialisers that follow it (in C++, in the order of the
 * fields). */
#define HW_EXPECT_FAIL(expression, ...)                                                            \
	do {                                                                                       \
		struct hw_expect hw_e_ = {                                                         \
		    .func = __func__, .file = __FILE__, .line = __LINE__, __VA_ARGS__};            \
		hw_expect_report(&hw_e_);                                                          \
		HW_BARRIER();                                                                      \
		expression;                                                                        \
		HW_BARRIER();                                                                      \
	} while (0)

/* Keep the compiler from reasoning about a pointer (the kernel's
 * OPTIMIZER_HIDE_VAR). */
#define OPTIMIZER_HIDE_VAR(var) __asm__("" : "=r"(var) : "0"(var))

/* Results of reads the compiler must not drop. */
static volatile long hw_int_result;

#define HW_TEST __attribute__((noinline))

/* Allocate until the slot of old, freed, comes back, as the kernel's
 * kmalloc_uaf2: the new object, when its tag is another. The heap reuses a
 * class's freed blocks oldest first, once it holds 256 KiB of them: keep
 * size large (a few KiB) so that few rounds do, and the stack ring keeps
 * old's entries. NULL if the slot never came back, or came back under
 * old's own tag (one time in about fifteen): then the ring's newest
 * entries for that tag and address are this allocation's and free's, not
 * old's, and the caller starts over with a new old. */
static inline void *hw_realloc_other_tag(void *old, size_t size)
{
	for (int i = 0; i < 20000; i++) {
		void *p = malloc(size);
		if (hw_untag(p) == hw_untag(old) && hw_ptr_tag(p) != hw_ptr_tag(old))
			return p;
		free(p);
		if (hw_untag(p) == hw_untag(old))
			return NULL;
	}
	return NULL;
}

#endif
