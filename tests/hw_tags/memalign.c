// ARCH: aarch64 -- memory tagging is arm64's
// RUN: kasan=on kasan_multi_shot kfence.sample_interval=0
// COUNT: 5 BUG: KASAN:
// EXPECT: BUG: KASAN: invalid-posix-memalign-alignment in main+0x
#include "hw_tags/hw_tags_test.h"

#include <errno.h>
#include <malloc.h>

/* Aligned allocations keep their alignment, are tagged, and their end and
 * start are checked like malloc's. */
static HW_TEST void memalign_oob(void)
{
	char *p = memalign(64, 50);
	HW_CHECK(hw_untag(p) % 64 == 0 && hw_ptr_tag(p) != 0);
	HW_EXPECT_FAIL(hw_int_result = p[64], .type = "slab-out-of-bounds", .rw = "Read", .size = 1, .addr = p + 64, .obj = p, .obj_size = 50, .cache = "memalign", .alloc_line = __LINE__ - 2);
	free(p);
}

static HW_TEST void posix_memalign_oob(void)
{
	void *v = NULL;
	HW_CHECK(posix_memalign(&v, 256, 300) == 0);
	char *p = v;
	HW_CHECK(hw_untag(p) % 256 == 0 && hw_ptr_tag(p) != 0);
	free(malloc(1)); /* re-arm */
	HW_EXPECT_FAIL(p[304] = 1, .type = "slab-out-of-bounds", .rw = "Write", .size = 1, .addr = p + 304, .obj = p, .obj_size = 300, .cache = "memalign", .alloc_line = __LINE__ - 4);
	free(p);
}

static HW_TEST void aligned_alloc_oob(void)
{
	char *p = aligned_alloc(128, 200);
	HW_CHECK(hw_untag(p) % 128 == 0 && hw_ptr_tag(p) != 0);
	HW_CHECK(hw_mem_tag(p + 199) == hw_ptr_tag(p));
	free(malloc(1)); /* re-arm */
	HW_EXPECT_FAIL(hw_int_result = p[-1], .type = "slab-out-of-bounds", .rw = "Read", .size = 1, .addr = p - 1, .obj = p, .obj_size = 200, .cache = "memalign", .alloc_line = __LINE__ - 4);
	free(p);
}

/* valloc and pvalloc: page-aligned, tagged, checked. */
static HW_TEST void valloc_oob(void)
{
	char *v = valloc(100), *pv = pvalloc(100);
	HW_CHECK(v != NULL && hw_untag(v) % 4096 == 0 && hw_ptr_tag(v) != 0);
	HW_CHECK(pv != NULL && hw_untag(pv) % 4096 == 0 && hw_ptr_tag(pv) != 0);
	HW_CHECK(pv && malloc_usable_size(pv) >= 4096);
	if (!v)
		return;
	free(malloc(1)); /* re-arm */
	HW_EXPECT_FAIL(hw_int_result = v[112], .type = "slab-out-of-bounds", .rw = "Read", .size = 1, .addr = v + 112, .obj = v, .obj_size = 100, .cache = "memalign-large", .alloc_line = __LINE__ - 7);
	free(v);
	free(pv);
}

int main(void)
{
	memalign_oob();
	posix_memalign_oob();
	aligned_alloc_oob();
	valloc_oob();
	void *bad;
	/* A bad alignment is reported (ASan's class), then refused as glibc does. */
	HW_CHECK(posix_memalign(&bad, 24, 10) == EINVAL);
	return 0;
}
