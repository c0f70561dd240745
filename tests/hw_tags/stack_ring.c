// ARCH: aarch64 -- memory tagging is arm64's
// RUN: kasan=on kasan_multi_shot kasan.stack_ring_size=64 kfence.sample_interval=0
// COUNT: 2 BUG: KASAN:
#include "hw_tags/hw_tags_test.h"

/* kasan.stack_ring_size: the ring keeps the newest allocations and frees
 * only. While an object's entries are in it, the report names the bug and
 * the stacks; once newer ones pushed them out, it is an invalid-access
 * with no stacks, as the kernel's report_tags.c falls back to: entries of
 * other objects that happen to have the same tag say nothing about it. */
static HW_TEST void stack_ring(void)
{
	char *p = malloc(64);
	free(p);
	HW_EXPECT_FAIL(hw_int_result = p[0], .type = "slab-use-after-free", .rw = "Read", .size = 1, .addr = p, .mem = "0e", .obj = p, .obj_size = 64, .freed = 1, .alloc_line = __LINE__ - 2, .free_line = __LINE__ - 1);
	for (int i = 0; i < 100; i++)
		free(malloc(100)); /* 200 entries: the ring wraps three times */
	/* A newer, unrelated object with p's tag, far from p, freed: it is not
	 * p's object and must not be named. */
	for (int i = 0; i < 1000; i++) {
		char *q = malloc(100);
		free(q);
		if (hw_ptr_tag(q) == hw_ptr_tag(p))
			break;
	}
	expect("BUG: KASAN: invalid-access in stack_ring+0x");
	expect("Pointer tag: [%02x], memory tag: [0e]", hw_ptr_tag(p));
	expect("Call Trace:");
	expect(" tests/hw_tags/stack_ring.c:%d", __LINE__ + 3);
	expect("Memory state around the buggy address:");
	expect("==================================================================");
	hw_int_result = p[1];
}

int main(void)
{
	stack_ring();
	return 0;
}
// NOT: (stack is not available)
