// ARCH: aarch64 -- memory tagging is arm64's
// RUN: kasan=on kasan_multi_shot kfence.sample_interval=0
// COUNT: 3 BUG: KASAN:
#include "hw_tags/hw_tags_test.h"

#include <new>

/* C++ new and delete in their forms are tagged like malloc, and the
 * reports name their caches (new, new[]). */
struct alignas(64) Wide {
	char b[100];
};

static HW_TEST void cxx_new()
{
	int *a = new int[10];
	HW_CHECK(hw_ptr_tag(a) != 0 && hw_mem_tag(a + 9) == hw_ptr_tag(a));
	HW_EXPECT_FAIL(hw_int_result = a[12], .type = "slab-out-of-bounds", .rw = "Read", .size = 4, .addr = a + 12, .mem = "00", .obj = a, .obj_size = 40, .cache = "new[]", .alloc_line = __LINE__ - 2);
	delete[] a;
	long *l = new long(5);
	delete l;
	HW_EXPECT_FAIL(hw_int_result = *l, .type = "slab-use-after-free", .rw = "Read", .size = 8, .addr = l, .mem = "0e", .obj = l, .obj_size = 8, .cache = "new", .freed = 1, .alloc_line = __LINE__ - 2, .free_line = __LINE__ - 1);
	free(malloc(1)); /* re-arm */
	Wide *w = new Wide;
	HW_CHECK(hw_untag(w) % 64 == 0 && hw_ptr_tag(w) != 0);
	char *wb = (char *)w;
	HW_CHECK(sizeof(Wide) == 128);
	HW_EXPECT_FAIL(wb[128] = 1, .type = "slab-out-of-bounds", .rw = "Write", .size = 1, .addr = wb + 128, .mem = "00", .obj = w, .obj_size = 128, .cache = "new", .alloc_line = __LINE__ - 4);
	delete w;
	int *n = new (std::nothrow) int[3];
	n[2] = 1;
	delete[] n;
}

int main()
{
	cxx_new();
	return 0;
}
