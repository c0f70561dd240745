// MODE: generic
// RUN: ukasan.max_malloc_fill_size=0
// ukasan.max_malloc_fill_size=0 (ASan's max_malloc_fill_size=0), given in
// UKASAN_OPTIONS, which wins over the program's ASan options: new objects
// are left as the allocator gives them (fresh memory: zero). calloc's are
// zero still.
// STDOUT: fresh malloc: not filled
// STDOUT: calloc: ok
// NOT: BUG:
#include "_malloc_fill.h"

const char *__asan_default_options(void)
{
	return "max_malloc_fill_size=4096";
}

int main(void)
{
	unsigned char *p = malloc(256);
	FRESH(p);
	printf("fresh malloc: %s\n", all_are(p, 0, 256, 0xbe) ? "filled" : "not filled");
	unsigned char *z = calloc(1, 256);
	FRESH(z);
	say("calloc", all_are(z, 0, 256, 0));
	free(p);
	free(z);
	return 0;
}
