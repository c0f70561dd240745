// MODE: generic
// VARIANTS: gcc clang
// RUN: kasan.page_alloc.sample=1000 kasan.stats=1 kasan_multi_shot
// Seed 003's sampling in generic mode: with kasan.page_alloc.sample=1000,
// one allocation in 1000 of page order 3 (above 16 KiB) and up is checked.
// The first is (the countdown starts there, as the kernel's), so its
// overflow is reported; the 999 after it are not, and never report: not an
// overflow into the slack glibc gives them, not a read after free. Their
// malloc_usable_size, realloc, calloc's zeroing and free work as glibc's.
// Below the order every allocation stays checked. kasan.stats counts both:
// 998 blocks and the calloc skipped, the first and the 1000th (the
// realloc's new object) sampled.
// EXPECT: BUG: KASAN: slab-out-of-bounds in page_alloc_sample+0x
// EXPECT: which belongs to the cache malloc-large of size 65536
// EXPECT: BUG: KASAN: slab-out-of-bounds in page_alloc_sample+0x
// EXPECT: which belongs to the cache malloc-large of size 16384
// EXPECT: ukasan: kasan statistics of pid
// EXPECT-RE: ^page_alloc sampling: +kasan\.page_alloc\.sample=1000 order=3: 2 sampled, 999 skipped$
// COUNT: 2 BUG: KASAN:
#include "kasan_test.h"

#include <malloc.h>

static char *blocks[1000];

KASAN_TEST void page_alloc_sample(void)
{
	size_t size = 64 << 10;
	char *first = malloc(size); int aline = __LINE__;
	OPTIMIZER_HIDE_VAR(first);
	KASAN_EXPECT_FAIL(first[size] = 1, .type = "slab-out-of-bounds", .rw = "Write", .size = 1, .addr = first + size, .obj = first, .obj_size = size, .cache = "malloc-large", .alloc_line = aline);
	for (int i = 0; i < 998; i++) {
		blocks[i] = malloc(size);
		OPTIMIZER_HIDE_VAR(blocks[i]);
		if (malloc_usable_size(blocks[i]) < size)
			kasan_test_fail("usable size of an unsampled object");
		blocks[i][size - 1] = 1;
		/* glibc's slack past the object: an overflow no check sees */
		blocks[i][size] = 2;
	}
	char *z = calloc(1, size);
	for (size_t i = 0; i < size; i++)
		if (z[i])
			kasan_test_fail("calloc did not zero an unsampled object");
	z = realloc(z, 2 * size); /* checked or not, it moves and keeps its bytes */
	if (!z || z[0])
		kasan_test_fail("realloc of an unsampled object");
	free(z);
	char *gone = blocks[0];
	for (int i = 0; i < 998; i++)
		free(blocks[i]);
	kasan_int_result = ((volatile char *)gone)[100]; /* unchecked: no report */
	/* Below order 3 (16 KiB is order 2): always checked. */
	char *small = malloc(16 << 10); int sline = __LINE__;
	OPTIMIZER_HIDE_VAR(small);
	KASAN_EXPECT_FAIL(small[16 << 10] = 1, .type = "slab-out-of-bounds", .rw = "Write", .size = 1, .addr = small + (16 << 10), .obj = small, .obj_size = 16 << 10, .cache = "malloc-large", .alloc_line = sline);
	free(small);
	free(first);
}

int main(void)
{
	page_alloc_sample();
	return 0;
}
