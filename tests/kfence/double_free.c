// RUN: kfence.sample_rate=1
// EXPECT: BUG: KFENCE: invalid free in main+0x
// EXPECT-RE: ^ \[<[0-9a-f]+>\] main\+0x[0-9a-f]+/0x[0-9a-f]+ tests/kfence/double_free.c:16$
// EXPECT-RE: ^freed by task \d+ on cpu \d+ at \d+\.\d{6}s:\n main\+0x[0-9a-f]+/0x[0-9a-f]+ tests/kfence/double_free.c:15$
// COUNT: 1 BUG: KFENCE:
#include "kfence_test.h"

int main(void)
{
	char *p = test_alloc(48, ANY);
	expect("Invalid free of %p (in kfence-#", (void *)p);
	/* The second free is reported and ignored, so the program goes on
	 * and the slot is not put on the freelist twice. */
	void *volatile v = p;
	free(v);
	free(v);
	void *a = malloc(48), *b = malloc(48);
	if (a == b)
		return 97;
	free(a);
	free(b);
	return 0;
}
