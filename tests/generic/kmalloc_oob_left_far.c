// MODE: generic
// RUN: kasan.quarantine_size=0
// An underwrite of 20 bytes, past the object's 16-byte header into glibc's
// size field of its chunk, when the chunk before it has gone back to glibc
// (no quarantine here), so that no neighbour's redzone covers it: still
// reported, as the size field is poisoned for as long as the object lives.
// EXPECT: BUG: KASAN: slab-out-of-bounds in kmalloc_oob_left_far+0x
// EXPECT: The buggy address is located 20 bytes to the left of
// COUNT: 1 BUG: KASAN:
#include "kasan_test.h"

KASAN_TEST void kmalloc_oob_left_far(void)
{
	char *before = malloc(40);
	int *buffer = calloc(10, sizeof(int)); int aline = __LINE__;
	free(before);
	OPTIMIZER_HIDE_VAR(buffer);
	int *p = buffer - 5;
	KASAN_EXPECT_FAIL(*(volatile int *)p = 1, .type = "slab-out-of-bounds", .rw = "Write", .size = 4, .addr = p, .obj = buffer, .obj_size = 40, .cache = "calloc", .alloc_line = aline);
	/* Not freed: the write went through (report mode) and glibc would
	 * abort on the size field it broke. */
}

int main(void)
{
	kmalloc_oob_left_far();
	return 0;
}
