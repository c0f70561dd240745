// MODE: sw_tags
// VARIANTS: gcc clang clang-outline clang-calls
// HWASAN: caught -- the old pointer's tag differs from the new object's
// The kernel's kmalloc_uaf2 without a quarantine: free an object, allocate
// the same size again until glibc hands back the same slot with another
// tag (1 in 238 collide: up to 16 tries; then the colliding object's
// stacks are the ring's newest for the old pointer), then read through the
// old pointer. The memory tag is now the new object's, not 0xfe: the stack
// ring's newest entry for the old pointer (its tag and slot) is its free,
// so it is a use after free.
// EXPECT: BUG: KASAN: slab-use-after-free in kmalloc_uaf2+0x
// EXPECT: freed 43-byte region
// NOT: TEST FAILED
// COUNT: 1 BUG: KASAN:
#include "tags_test.h"

TAGS_TEST void kmalloc_uaf2(void)
{
	size_t size = 43;
	char *ptr1 = malloc(size); int aline = __LINE__;

	free(ptr1); int fline = __LINE__;
	char *ptr2 = tags_realloc_slot(size, ptr1); int rline = __LINE__;
	if (!ptr2) {
		tags_test_fail("no reuse of the freed slot with another tag in 16 allocations");
		return;
	}
	if (tags_realloc_collided) /* the stacks are the collision's, called from here */
		aline = fline = rline;
	TAGS_EXPECT_FAIL(tags_int_result = ((volatile char *)ptr1)[40], .type = "slab-use-after-free", .rw = "Read", .size = 1, .addr = ptr1 + 40, .obj = ptr1, .obj_size = size, .freed = 1, .alloc_line = aline, .free_line = fline);
	ptr2[0] = ptr2[size - 1] = 1; /* the new object is fine */
	free(ptr2);
}

int main(int argc, char **argv)
{
	tags_select(argc, argv);
	kmalloc_uaf2();
	return 0;
}
