// MODE: generic
// The kernel's kmalloc_track_caller_oob_right: an object allocated by a
// helper on its caller's behalf, here strdup. A write just past the copy
// is a slab-out-of-bounds, and the allocation stack goes through strdup to
// the line that called it. (Starts with '_': the allocation stack stops at
// strdup: the interceptors in libukasan_static.a are built without frame
// pointers, and the allocator walks frame pointers.)
// EXPECT: BUG: KASAN: slab-out-of-bounds in kmalloc_track_caller_oob_right+0x
// EXPECT-RE: ^Write of size 1 at addr [0-9a-f]{16} by task \S+/\d+$
// EXPECT-RE: ^Allocated by task \d+:\n( \S+ \S+\n)? strdup\+0x[0-9a-f]+/0x[0-9a-f]+ 
// EXPECT: which belongs to the cache malloc of size 11
// EXPECT: The buggy address is located 0 bytes to the right of
// COUNT: 1 BUG: KASAN:
#include "kasan_test.h"

KASAN_TEST void kmalloc_track_caller_oob_right(void)
{
	const char *s = "0123456789";
	char *ptr;

	OPTIMIZER_HIDE_VAR(s);
	ptr = strdup(s); int aline = __LINE__;
	KASAN_EXPECT_FAIL(ptr[11] = 'y', .type = "slab-out-of-bounds", .rw = "Write", .size = 1, .addr = ptr + 11, .obj = ptr, .obj_size = 11, .alloc_line = aline);
	free(ptr);
}

int main(void)
{
	kmalloc_track_caller_oob_right();
	return 0;
}
