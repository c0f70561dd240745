// MODE: generic
// RUN: kasan.quarantine_size=256K
// The quarantine is bounded by kasan.quarantine_size (here 256 KiB, with a
// K suffix): once more than that has been freed after an object, the
// object's memory is given back and a read of it is no longer caught. The
// churn uses 128 KiB objects, which get their own mappings, so the small
// object's memory is not handed out again in between.
// EXPECT: BUG: KASAN: slab-use-after-free in kasan_quarantine_size_small+0x
// EXPECT: done
// COUNT: 1 BUG: KASAN:
#include "kasan_test.h"

KASAN_TEST void kasan_quarantine_size_small(void)
{
	char *p = malloc(64); int aline = __LINE__;

	free(p); int fline = __LINE__;
	/* Still quarantined: caught. */
	KASAN_EXPECT_FAIL(kasan_int_result = ((volatile char *)p)[10], .type = "slab-use-after-free", .rw = "Read", .size = 1, .addr = p + 10, .obj = p, .obj_size = 64, .freed = 1, .alloc_line = aline, .free_line = fline);
	for (int i = 0; i < 16; i++)
		free(malloc(128 << 10));
	/* 2 MiB freed since: gone from the quarantine. */
	kasan_int_result = ((volatile char *)p)[10];
	fprintf(stderr, "done\n");
}

int main(void)
{
	kasan_quarantine_size_small();
	return 0;
}
