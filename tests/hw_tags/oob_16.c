// ARCH: aarch64 -- memory tagging is arm64's
// RUN: kasan=on kasan_multi_shot kfence.sample_interval=0
// COUNT: 2 BUG: KASAN:
#include "hw_tags/hw_tags_test.h"

/* A 16-byte access (ldp/stp of two registers) that starts in the object's
 * last granule and ends in the next one: the CPU faults at the first
 * granule whose tag is wrong, and the report names that address, as the
 * kernel's report of a tag fault names the fault address register. */
/* Macros: at -O0 a function would be the frame the report names. */
#define load16(p)                                                                                  \
	do {                                                                                       \
		uint64_t a_, b_;                                                                   \
		__asm__ volatile("ldp %0, %1, [%2]" : "=r"(a_), "=r"(b_) : "r"(p) : "memory");     \
		hw_int_result = (long)(a_ + b_);                                                   \
	} while (0)
#define store16(p) __asm__ volatile("stp xzr, xzr, [%0]" : : "r"(p) : "memory")

static HW_TEST void oob_16(void)
{
	char *p = malloc(32);
	load16(p + 16); /* the last granule: fine */
	store16(p + 16);
	HW_EXPECT_FAIL(load16(p + 24), .type = "slab-out-of-bounds", .rw = "Read", .size = 16, .addr = p + 32, .mem = "00", .obj = p, .obj_size = 32, .alloc_line = __LINE__ - 3);
	free(malloc(1)); /* re-arm */
	HW_EXPECT_FAIL(store16(p + 24), .type = "slab-out-of-bounds", .rw = "Write", .size = 16, .addr = p + 32, .mem = "00", .obj = p, .obj_size = 32, .alloc_line = __LINE__ - 5);
	free(p);
}

int main(void)
{
	oob_16();
	return 0;
}
