// ARCH: aarch64 -- memory tagging is arm64's
// RUN: kasan=on kfence.sample_interval=0
// COUNT: 1 BUG: KASAN:
#include <errno.h>

#include "hw_tags/hw_tags_test.h"

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

int main(void)
{
	calloc_oob();
	return 0;
}
