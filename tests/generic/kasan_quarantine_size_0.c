// MODE: generic
// RUN: kasan.quarantine_size=0
// With kasan.quarantine_size=0 a freed object goes straight back to the
// allocator: its memory is glibc's free memory at once, which reads as heap
// redzone (as ASan's chunk recycled at once with quarantine_size_mb=0), so
// a read right after the free is caught, as an out-of-bounds access with
// no object to name. The next allocation of the same size gets the same
// memory (glibc's per-thread cache is last-in, first-out), so the stale
// pointer then reads a live object, and that is not caught.
// EXPECT: BUG: KASAN: slab-out-of-bounds in kasan_quarantine_size_0+0x
// EXPECT: done
// COUNT: 1 BUG: KASAN:
// NOT: The buggy address belongs to
#include "kasan_test.h"

KASAN_TEST void kasan_quarantine_size_0(void)
{
	char *p = malloc(64);

	OPTIMIZER_HIDE_VAR(p);
	free(p);
	KASAN_EXPECT_FAIL(kasan_int_result = ((volatile char *)p)[10], .type = "slab-out-of-bounds", .rw = "Read", .size = 1, .addr = p + 10);
	char *q = malloc(64);
	if (q != p)
		kasan_test_fail("the freed object was not reused at once");
	kasan_int_result = ((volatile char *)p)[10];
	free(q);
	fprintf(stderr, "done\n");
}

int main(void)
{
	kasan_quarantine_size_0();
	return 0;
}
