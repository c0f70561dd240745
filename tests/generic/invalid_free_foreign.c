// MODE: generic
// RUN: kasan_multi_shot
// Frees of pointers malloc never returned (the kernel's kfree of a non-slab
// address): a page from mmap, the address of a local variable and of a
// global. Each is an invalid-free; the stack one is described as the
// task's stack, the global one names the variable. Nothing is freed.
// EXPECT: BUG: KASAN: invalid-free in invalid_free_foreign+0x
// EXPECT-RE: ^Free of addr [0-9a-f]{16} by task \S+/\d+$
// EXPECT: BUG: KASAN: invalid-free in invalid_free_foreign+0x
// EXPECT: The buggy address belongs to stack of task
// EXPECT: BUG: KASAN: invalid-free in invalid_free_foreign+0x
// EXPECT: The buggy address belongs to the variable:
// EXPECT-RE: ^ global_array\+0x0/0x60( \S*tests/generic/invalid_free_foreign.c:\d+)?$
// NOT: double-free
// NOT: Allocated by task
// COUNT: 3 BUG: KASAN:
#include "kasan_test.h"

#include <sys/mman.h>

char global_array[64];

KASAN_TEST void invalid_free_foreign(void)
{
	char local[64];
	char *page = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *volatile p;

	p = page;
	KASAN_EXPECT_FAIL(free(p), .type = "invalid-free", .rw = "Free", .addr = p);
	p = local;
	KASAN_EXPECT_FAIL(free(p), .type = "invalid-free", .rw = "Free", .addr = p);
	p = global_array;
	KASAN_EXPECT_FAIL(free(p), .type = "invalid-free", .rw = "Free", .addr = p);
	/* None of them was touched. */
	page[0] = local[0] = global_array[0] = 1;
	kasan_int_result = page[0] + local[0] + global_array[0];
	munmap(page, 4096);
}

int main(void)
{
	invalid_free_foreign();
	return 0;
}
