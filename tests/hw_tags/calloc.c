// ARCH: aarch64 -- memory tagging is arm64's
// RUN: kasan=on kfence.sample_interval=0
// COUNT: 1 BUG: KASAN:
#include "hw_tags/hw_tags_test.h"

#include <errno.h>

/* calloc's memory is zeroed and tagged like malloc's, even when its slot
 * held another object before; an overflowing count gives ENOMEM. */
static HW_TEST void calloc_oob(void)
{
	for (int i = 0; i < 50; i++) {
		unsigned char *d = malloc(72);
		memset(d, 0xa5, 72);
		free(d);
	}
	unsigned char *p = calloc(9, 8);
	for (int i = 0; i < 72; i++)
		HW_CHECK(p[i] == 0);
	HW_CHECK(hw_mem_tag(p + 64) == hw_ptr_tag(p));
	HW_EXPECT_FAIL(hw_int_result = p[80], .type = "slab-out-of-bounds", .rw = "Read", .size = 1, .addr = p + 80, .mem = "00", .obj = p, .obj_size = 72, .cache = "calloc", .alloc_line = __LINE__ - 4);
	free(p);
	errno = 0;
	HW_CHECK(calloc((size_t)1 << 40, (size_t)1 << 40) == NULL && errno == ENOMEM);
}

/* Large ones too, in memory that held dirty objects before (reused
 * extents are not fresh zero pages): every byte zero, every granule tagged. */
static HW_TEST void calloc_large(size_t size)
{
	for (int i = 0; i < 5; i++) {
		unsigned char *d = malloc(size);
		memset(d, 0xa5, size);
		free(d);
	}
	unsigned char *p = calloc(1, size);
	HW_CHECK(p != NULL && hw_ptr_tag(p) != 0);
	if (!p)
		return;
	size_t nonzero = 0, untagged = 0;
	for (size_t i = 0; i < size; i++)
		nonzero += p[i] != 0;
	for (size_t i = 0; i < size; i += HW_GRANULE)
		untagged += hw_mem_tag(p + i) != hw_ptr_tag(p);
	HW_CHECK(nonzero == 0 && untagged == 0);
	free(p);
}

int main(void)
{
	calloc_large(1 << 20);
	calloc_oob();
	calloc_large(64 << 10);
	calloc_large(2000);
	return 0;
}
