/* The part of a KASAN report that every mode prints alike after its call
 * trace: the allocation and free stacks (by the test's source lines) and
 * the object the address belongs to. Shared by the test headers of the
 * three modes (generic/kasan_test.h, tags/tags_test.h,
 * hw_tags/hw_tags_test.h), which define expect() before including it. */
#ifndef REPORT_EXPECT_H
#define REPORT_EXPECT_H

#include <stddef.h>
#include <stdint.h>

struct object_expect {
	const char *src; /* the test's file, as reports print it */
	int tid;         /* the reporting thread: the default for both stacks */
	int alloc_line, alloc_tid, free_line, free_tid;
	uintptr_t obj; /* untagged; 0: no object lines */
	size_t obj_size;
	const char *cache; /* NULL: "malloc" */
	int freed;
	uintptr_t addr; /* untagged */
};

static inline void expect_object(const struct object_expect *e)
{
	if (e->alloc_line) {
		expect("Allocated by task %d:", e->alloc_tid ? e->alloc_tid : e->tid);
		expect(" %s:%d", e->src, e->alloc_line);
	}
	if (e->free_line) {
		expect("Freed by task %d:", e->free_tid ? e->free_tid : e->tid);
		expect(" %s:%d", e->src, e->free_line);
	}
	if (!e->obj)
		return;
	uintptr_t o = e->obj, a = e->addr;
	expect("The buggy address belongs to the object at %016lx", (unsigned long)o);
	expect(" which belongs to the cache %s of size %zu", e->cache ? e->cache : "malloc",
	       e->obj_size);
	if (a < o)
		expect("The buggy address is located %lu bytes to the left of", (unsigned long)(o - a));
	else if (a >= o + e->obj_size)
		expect("The buggy address is located %lu bytes to the right of",
		       (unsigned long)(a - o - e->obj_size));
	else
		expect("The buggy address is located %lu bytes inside of", (unsigned long)(a - o));
	expect(" %s %zu-byte region [%016lx, %016lx)", e->freed ? "freed" : "allocated", e->obj_size,
	       (unsigned long)o, (unsigned long)(o + e->obj_size));
}

#endif
