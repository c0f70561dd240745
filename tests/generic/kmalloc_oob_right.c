// MODE: generic
// VARIANTS: gcc clang gcc-outline clang-outline
// EXPECT: BUG: KASAN: slab-out-of-bounds in kmalloc_oob_right+0x
// EXPECT-RE: ^Write of size 1 at addr [0-9a-f]{16} by task \S+/\d+$
// EXPECT-RE: ^ \[<[0-9a-f]+>\] kmalloc_oob_right\+0x[0-9a-f]+/0x[0-9a-f]+ tests/generic/kmalloc_oob_right.c:18$
// EXPECT-RE: ^Allocated by task \d+:\n kmalloc_oob_right\+0x[0-9a-f]+/0x[0-9a-f]+ tests/generic/kmalloc_oob_right.c:16$
// EXPECT: which belongs to the cache malloc of size 123
// EXPECT: The buggy address is located 0 bytes to the right of
// EXPECT: Memory state around the buggy address:
// NOT: Freed by task
// COUNT: 1 BUG: KASAN:
#include "kfence_test.h"

__attribute__((noinline)) static void kmalloc_oob_right(void)
{
	char *volatile p = malloc(123);
	expect(" allocated 123-byte region [%016lx, %016lx)", (unsigned long)p, (unsigned long)p + 123);
	p[123] = 'x';
	free(p);
}

int main(void)
{
	kmalloc_oob_right();
	return 0;
}
