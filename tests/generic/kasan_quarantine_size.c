// MODE: generic
// With the default quarantine (256 MiB), a freed object stays poisoned
// through 1000 more allocations and frees of the same size: a read of it
// afterwards is still a slab-use-after-free, with its own allocation and
// free stacks, and its memory was not handed out again.
// EXPECT: BUG: KASAN: slab-use-after-free in kasan_quarantine_size+0x
// EXPECT: freed 64-byte region
// COUNT: 1 BUG: KASAN:
#include "kasan_test.h"

KASAN_TEST void kasan_quarantine_size(void)
{
	char *p = malloc(64); int aline = __LINE__;

	free(p); int fline = __LINE__;
	for (int i = 0; i < 1000; i++) {
		char *q = malloc(64);
		if (q == p)
			kasan_test_fail("a quarantined object was reused");
		q[0] = q[63] = 1;
		free(q);
	}
	KASAN_EXPECT_FAIL(kasan_int_result = ((volatile char *)p)[10], .type = "slab-use-after-free", .rw = "Read", .size = 1, .addr = p + 10, .obj = p, .obj_size = 64, .freed = 1, .alloc_line = aline, .free_line = fline);
}

int main(void)
{
	kasan_quarantine_size();
	return 0;
}
