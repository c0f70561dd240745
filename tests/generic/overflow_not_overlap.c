// MODE: generic
// A copy that overflows its destination into the next object can overlap
// its source too (a source right after the destination): the overflow is
// the bug, reported as out-of-bounds, not as memcpy-param-overlap (the
// Juliet corpus's CWE-121 copies were all titled param-overlap).
// EXPECT: BUG: KASAN: slab-out-of-bounds in overflow_into+0x
// EXPECT-RE: Write of size 30 at addr
// NOT: param-overlap
// COUNT: 1 BUG: KASAN:
#include "kasan_test.h"

KASAN_TEST void overflow_into(char *d, const char *s, size_t n)
{
	memcpy(d, s, n);
}

int main(void)
{
	/* One object: the source [60, 90) is in it, the destination [70,
	 * 100) runs past its end and over the source. */
	char *a = malloc(96);
	memset(a, 1, 96);
	OPTIMIZER_HIDE_VAR(a);
	overflow_into(a + 70, a + 60, 30);
	free(a);
	return 0;
}
