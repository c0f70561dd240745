// MODE: sw_tags
// VARIANTS: gcc clang
// RUN: kasan_multi_shot
// HWASAN: ukasan-only caught caught -- HWASan frees an interior pointer's chunk without a word (its allocator finds the chunk); a foreign tag it reports
// The kernel's kmalloc_invalid_free: free of a pointer one byte into a live
// object (an invalid free, not a double free); and free of the object's
// address with another tag, which its memory does not carry (the kernel
// calls that a double-free, as its check sees an inaccessible tag; the
// type is not asserted there, but the object it hit must be described),
// also when the tag is that of a live object just before it (the ring's
// nearest object under the pointer's tag, which an access past that
// object would concern, but a free is given its object's own address).
// The object stays allocated: it can still be used and freed properly.
// EXPECT: BUG: KASAN: invalid-free in kmalloc_invalid_free+0x
// EXPECT: The buggy address is located 1 bytes inside of
// EXPECT: allocated 200-byte region
// EXPECT: in kmalloc_invalid_free+0x
// EXPECT: The buggy address is located 0 bytes inside of
// EXPECT: allocated 200-byte region
// EXPECT: in kmalloc_invalid_free+0x
// EXPECT: The buggy address is located 0 bytes inside of
// EXPECT: allocated 96-byte region
// NOT: Freed by task
// COUNT: 3 BUG: KASAN:
#include "tags_test.h"

TAGS_TEST void kmalloc_invalid_free(void)
{
	size_t size = 200;
	char *ptr = malloc(size); int aline = __LINE__;

	OPTIMIZER_HIDE_VAR(ptr);
	TAGS_CASE {
		TAGS_EXPECT_FAIL(free(ptr + 1), .type = "invalid-free", .rw = "Free", .addr = ptr + 1, .obj = ptr, .obj_size = size, .alloc_line = aline);
	}
	TAGS_CASE {
		/* Another tag, never match-all or invalid, on an object of its
		 * own: HWASan (the reference run, all cases in one process) freed
		 * the first at case 1, and then called this free a use after free
		 * or an invalid free as its random tags fell. */
		char *q = malloc(size); int qline = __LINE__;
		OPTIMIZER_HIDE_VAR(q);
		unsigned t = tags_ptr_tag(q) % 0xfc + 1;
		char *other = (char *)((uintptr_t)q & ~(0xfful << 56)) + ((uintptr_t)t << 56);
		TAGS_EXPECT_FAIL(free(other), .rw = "Free", .addr = other, .obj = q, .obj_size = size, .alloc_line = qline);
		free(q);
	}
	TAGS_CASE {
		/* ptr's tag on an object of another size (not case 2's slot, freed
		 * with a tag of its own); one that took ptr's tag is kept aside. */
		char *q = malloc(96), *kept = NULL; int qline = __LINE__; if (tags_ptr_tag(q) == tags_ptr_tag(ptr)) { kept = q; q = malloc(96); }
		OPTIMIZER_HIDE_VAR(q);
		char *other = (char *)(((uintptr_t)q & ~(0xfful << 56)) | ((uintptr_t)tags_ptr_tag(ptr) << 56));
		TAGS_EXPECT_FAIL(free(other), .rw = "Free", .addr = other, .obj = q, .obj_size = 96, .alloc_line = qline);
		free(q);
		free(kept);
	}
	ptr[0] = ptr[size - 1] = 1;
	free(ptr);
}

int main(int argc, char **argv)
{
	tags_select(argc, argv);
	kmalloc_invalid_free();
	return 0;
}
