// MODE: generic
// RUN-ALSO: kfence.sample_rate=1
// New objects start filled as ASan's do by default: their first 4096 bytes
// (max_malloc_fill_size=0x1000) hold 0xbe (malloc_fill_byte), so a read of
// memory never written sees 0xbe on every run, not the zeros of fresh
// pages; calloc's objects are zero; realloc's new tail is filled. The
// same when KFENCE samples every object (kfence.sample_rate=1), so that
// sampling changes nothing a program sees.
// STDOUT: malloc: ok
// STDOUT: large malloc: ok
// STDOUT: aligned_alloc: ok
// STDOUT: posix_memalign: ok
// STDOUT: calloc: ok
// STDOUT: realloc kept: ok
// STDOUT: realloc tail: ok
// STDOUT: beyond the limit: not filled
// NOT: BUG:
#include "_malloc_fill.h"

int main(void)
{
	fill_checks(0xbe, 4096);
	/* Past the first 4096 bytes a new large object is left as it came:
	 * fresh pages, zero. */
	unsigned char *big = malloc(64 << 10);
	FRESH(big);
	printf("beyond the limit: %s\n", big[8192] == 0xbe ? "filled" : "not filled");
	free(big);
	return 0;
}
