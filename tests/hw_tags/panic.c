// ARCH: aarch64 -- memory tagging is arm64's
// RUN: kasan=on kasan.fault=panic kfence.sample_interval=0
// STATUS: signal SIGABRT
// COUNT: 1 BUG: KASAN:
// NOT: not reached
#include "hw_tags/hw_tags_test.h"

/* kasan.fault=panic: the report, then the process ends with SIGABRT. */
static HW_TEST void panic(void)
{
	long *p = malloc(64);
	free(p);
	HW_EXPECT_FAIL(p[1] = 1, .type = "slab-use-after-free", .rw = "Write", .size = 8, .addr = p + 1, .mem = "0e", .obj = p, .obj_size = 64, .freed = 1, .alloc_line = __LINE__ - 2, .free_line = __LINE__ - 1);
	fprintf(stderr, "not reached\n");
}

int main(void)
{
	panic();
	return 0;
}
