// ARCH: aarch64 -- memory tagging is arm64's
// RUN: kasan=on kfence.sample_interval=0
// COUNT: 1 BUG: KASAN:
#include "hw_tags/hw_tags_test.h"

#define N   64
#define FAR 536 /* from a 24-byte object: inside another object's data */

/* The runtime's distance from addr to an object of len bytes at o (0:
 * inside), by which a report picks the object among those with the
 * pointer's tag. */
static size_t dist(uintptr_t addr, uintptr_t o, size_t len)
{
	return addr < o ? o - addr : addr >= o + len ? addr - (o + len) + 1 : 0;
}

/* Far out of bounds, into other objects' memory: caught when the tag there
 * differs. The test picks an object for which it does (tags collide one
 * time in 13) and whose nearest namesake, among the live objects with its
 * tag, is itself, so that the report must describe it. */
static HW_TEST void oob_far(void)
{
	char *keep[N], *p = NULL;
	int alloc_line = __LINE__ + 2;
	for (int i = 0; i < N; i++)
		keep[i] = malloc(24);
	for (int i = 0; i < N && !p; i++) {
		char *q = keep[i];
		uintptr_t t = hw_untag(q + FAR);
		unsigned m = hw_mem_tag(q + FAR);
		if (m == HW_TAG_NONE || m == hw_ptr_tag(q))
			continue;
		int nearest = 1;
		for (int j = 0; j < N; j++)
			if (j != i && hw_ptr_tag(keep[j]) == hw_ptr_tag(q) &&
			    dist(t, hw_untag(keep[j]), 24) <= dist(t, hw_untag(q), 24))
				nearest = 0;
		if (nearest)
			p = q;
	}
	HW_CHECK(p != NULL);
	if (!p)
		return;
	HW_EXPECT_FAIL(hw_int_result = p[FAR], .type = "slab-out-of-bounds", .rw = "Read", .size = 1, .addr = p + FAR, .obj = p, .obj_size = 24, .alloc_line = alloc_line);
	for (int i = 0; i < N; i++)
		free(keep[i]);
}

int main(void)
{
	oob_far();
	return 0;
}
