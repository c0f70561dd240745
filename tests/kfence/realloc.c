// RUN: kfence.sample_rate=1
// EXPECT: BUG: KFENCE: use-after-free read in main+0x
// EXPECT: cache=malloc
// EXPECT-RE: ^freed by task \d+ on cpu \d+ at \d+\.\d{6}s:\n main\+0x[0-9a-f]+/0x[0-9a-f]+ tests/kfence/realloc.c:19$
// COUNT: 1 BUG: KFENCE:
#include <string.h>

#include "kfence_test.h"

int main(void)
{
	/* realloc of a guarded object copies the contents and frees the old
	 * one, so a stale pointer to it is caught. */
	char *p = test_alloc(16, ANY);
	memcpy(p, "0123456789abcde", 16);
	if (malloc_usable_size(p) != 16)
		return 94;
	char *volatile old = p;
	char *q = realloc(p, 40);
	if (!q || q == old || strcmp(q, "0123456789abcde"))
		return 93;
	expect("Use-after-free read at %p (in kfence-#", (void *)(old + 2));
	char c = old[2];
	(void)c;
	/* Shrinking keeps the prefix. */
	q = realloc(q, 4);
	if (!q || memcmp(q, "0123", 4))
		return 92;
	free(q);
	return 0;
}
