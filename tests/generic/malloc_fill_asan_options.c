// MODE: generic
// ASan's malloc_fill_byte and max_malloc_fill_size (here from the
// program's __asan_default_options, read as ASAN_OPTIONS is) set the byte
// and how many of an object's first bytes get it: 'A' in the first 16.
// STDOUT: malloc: ok
// STDOUT: large malloc: ok
// STDOUT: aligned_alloc: ok
// STDOUT: posix_memalign: ok
// STDOUT: calloc: ok
// STDOUT: realloc kept: ok
// STDOUT: realloc tail: ok
// STDOUT: byte 16: not filled
// NOT: BUG:
#include "_malloc_fill.h"

const char *__asan_default_options(void)
{
	return "malloc_fill_byte=65:max_malloc_fill_size=16";
}

int main(void)
{
	fill_checks('A', 16);
	unsigned char *p = malloc(256);
	FRESH(p);
	printf("byte 16: %s\n", p[16] == 'A' || p[16] == 0xbe ? "filled" : "not filled");
	free(p);
	return 0;
}
