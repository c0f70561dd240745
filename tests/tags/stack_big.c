// MODE: sw_tags
// VARIANTS: gcc clang clang-outline clang-calls
// HWASAN: clean -- a correct program
// NOT: BUG: KASAN
// NOT: Oops
// STDOUT: sum 16384
// A big stack array passed to another function: clang tags its 1024
// granules by a memset of their shadow, which reaches the checked memset
// linked into the program; the shadow itself is not checked (zlib's
// minigzip died on it).
#include "tags_test.h"

static __attribute__((noinline)) long fill(char *buf, size_t n)
{
	long sum = 0;
	memset(buf, 1, n);
	for (size_t i = 0; i < n; i++)
		sum += buf[i];
	return sum;
}

/* Called through a pointer: the compiler cannot prove the array safe. */
static long (*volatile fill_fn)(char *, size_t) = fill;

int main(void)
{
	char buf[16384];
	printf("sum %ld\n", fill_fn(buf, sizeof(buf)));
	return 0;
}
