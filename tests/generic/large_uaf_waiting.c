// MODE: generic
// VARIANTS: gcc clang
// A large object freed and not yet reused stays caught on use after free,
// long after it left the large objects' quarantine (1/64 of
// kasan.quarantine_size: 4 MiB): 96 MiB of other large objects come and go
// after it, and it waits poisoned among the free extents, since none of
// them wants its size.
// EXPECT: BUG: KASAN: use-after-free in large_uaf_waiting+0x
// EXPECT-RE: ^Read of size 1 at addr [0-9a-f]{16} by task \S+/\d+$
// EXPECT: Allocated by task
// EXPECT: Freed by task
// EXPECT: The buggy address is located 4097 bytes inside of
// EXPECT: freed 65536-byte region
// COUNT: 1 BUG: KASAN:
#include "kasan_test.h"

KASAN_TEST void large_uaf_waiting(void)
{
	size_t size = 64 << 10;
	char *ptr = malloc(size); int aline = __LINE__;
	free(ptr); int fline = __LINE__;
	for (int i = 0; i < 96; i++) {
		char *other = malloc(1 << 20);
		OPTIMIZER_HIDE_VAR(other);
		other[0] = 1;
		free(other);
	}
	KASAN_EXPECT_FAIL(kasan_int_result = ((volatile char *)ptr)[4097], .type = "use-after-free", .rw = "Read", .size = 1, .addr = ptr + 4097, .obj = ptr, .obj_size = size, .cache = "malloc-large", .freed = 1, .alloc_line = aline, .free_line = fline);
}

int main(void)
{
	large_uaf_waiting();
	return 0;
}
