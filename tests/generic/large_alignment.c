// MODE: generic
// Large objects (64 KiB and up) start at a random cache line of their first
// page, so that page-aligned arrays and their shadow do not all fall on the
// same cache sets; requested alignments still hold, and the first byte past
// the end is still a page redzone.
// STDOUT: malloc: 16 objects, all 64-byte aligned, at 2 or more page offsets
// STDOUT: posix_memalign 4096: page-aligned
// STDOUT: posix_memalign 256: 256-byte aligned
// STDOUT: aligned_alloc 2 MiB: aligned
// EXPECT: BUG: KASAN: slab-out-of-bounds in large_alignment+0x
// EXPECT-RE: ^Write of size 1 at addr [0-9a-f]{16} by task \S+/\d+$
// COUNT: 1 BUG: KASAN:
#include "kasan_test.h"

KASAN_TEST void large_alignment(void)
{
	enum { N = 16 };
	char *p[N];
	int offsets = 0, aligned = 1;
	unsigned long seen = 0;
	for (int i = 0; i < N; i++) {
		p[i] = malloc(100000 + i);
		aligned &= ((uintptr_t)p[i] & 63) == 0;
		unsigned long bit = 1ul << (((uintptr_t)p[i] & 4095) / 64);
		offsets += !(seen & bit);
		seen |= bit;
	}
	printf("malloc: %d objects, all 64-byte aligned%s, at %s page offsets\n", N,
	       aligned ? "" : " NOT", offsets >= 2 ? "2 or more" : "one");
	void *a = NULL, *b = NULL;
	if (posix_memalign(&a, 4096, 1 << 20) == 0)
		printf("posix_memalign 4096: %s\n", ((uintptr_t)a & 4095) ? "NOT aligned" : "page-aligned");
	if (posix_memalign(&b, 256, 200000) == 0)
		printf("posix_memalign 256: %s\n", ((uintptr_t)b & 255) ? "NOT aligned" : "256-byte aligned");
	char *c = aligned_alloc(2 << 20, 3 << 20);
	printf("aligned_alloc 2 MiB: %s\n", c && !((uintptr_t)c & ((2 << 20) - 1)) ? "aligned" : "NOT aligned");
	fflush(stdout);
	char *last = p[N - 1];
	OPTIMIZER_HIDE_VAR(last);
	KASAN_EXPECT_FAIL(((volatile char *)last)[100000 + N - 1] = 1, .type = "slab-out-of-bounds", .rw = "Write", .size = 1, .addr = last + 100000 + N - 1, .obj = last, .obj_size = 100000 + N - 1, .cache = "malloc-large");
	for (int i = 0; i < N; i++)
		free(p[i]);
	free(a);
	free(b);
	free(c);
}

int main(void)
{
	large_alignment();
	return 0;
}
