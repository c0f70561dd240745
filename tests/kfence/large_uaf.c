// RUN: kfence.sample_rate=1
// EXPECT: BUG: KFENCE: use-after-free read in main+0x
// EXPECT: size=200000, cache=malloc
// EXPECT-RE: ^freed by task \d+ on cpu \d+ at \d+\.\d{6}s:\n main\+0x[0-9a-f]+/0x[0-9a-f]+
// tests/kfence/large_uaf.c:23$ EXPECT: BUG: KFENCE: use-after-free write in main+0x EXPECT: BUG:
// KFENCE: invalid free in main+0x EXPECT: double-free EXPECT: BUG: KFENCE: invalid free in main+0x
// EXPECT: size=100000, cache=malloc
// COUNT: 4 BUG: KFENCE:
// NOT: memory corruption
#include <string.h>

#include "kfence_test.h"

/* A large object's pages go back to the OS at free but stay inaccessible:
 * a use after free is caught anywhere in it, and a double or invalid free
 * is named as for a small one. */
int main(void)
{
	char *p = test_alloc(200000, ANY);
	memset(p, 7, 200000);
	free(p);
	volatile char *v = p;
	expect("Use-after-free read at %p (in kfence-#", (void *)(p + 150000));
	char c = v[150000];
	(void)c;
	/* Another page of it: reported too. */
	expect("Use-after-free write at %p (in kfence-#", (void *)(p + 10));
	v[10] = 1;
	expect("Invalid free of %p (in kfence-#", (void *)p);
	void *volatile again = p;
	free(again);
	char *q = test_alloc(100000, ANY);
	expect("Invalid free of %p (in kfence-#", (void *)(q + 4096));
	void *volatile inner = q + 4096;
	free(inner);
	free(q);
	return 0;
}
