// RUN: kfence.sample_rate=1
// EXPECT: BUG: KFENCE: use-after-free read in main+0x
// EXPECT-RE: ^ \[<[0-9a-f]+>\] main\+0x[0-9a-f]+/0x[0-9a-f]+ tests/kfence/use_after_free.c:19$
// EXPECT: , size=24, cache=malloc
// EXPECT-RE: ^allocated by task \d+ on cpu \d+ at \d+\.\d{6}s:\n main\+0x[0-9a-f]+/0x[0-9a-f]+ tests/kfence/use_after_free.c:14$
// EXPECT-RE: ^freed by task \d+ on cpu \d+ at \d+\.\d{6}s:\n main\+0x[0-9a-f]+/0x[0-9a-f]+ tests/kfence/use_after_free.c:18$
// EXPECT: BUG: KFENCE: use-after-free write in main+0x
// COUNT: 2 BUG: KFENCE:
#include "kfence_test.h"

int main(void)
{
	/* Allocation and free are on known lines for the stack checks. */
	char *p = malloc(24);
	if (!placed(p, 24, ANY))
		return 98;
	expect("Use-after-free read at %p (in kfence-#", (void *)(p + 5));
	free(p);
	char c = ((volatile char *)p)[5];
	(void)c;
	/* A second object, written after free. */
	char *q = test_alloc(200, ANY);
	free(q);
	expect("Use-after-free write at %p (in kfence-#", (void *)(q + 199));
	((volatile char *)q)[199] = 1;
	return 0;
}
