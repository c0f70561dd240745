// RUN: kfence.sample_rate=1
// EXPECT: BUG: KFENCE: memory corruption in main+0x
// EXPECT: size=8205, cache=malloc
// EXPECT: BUG: KFENCE: memory corruption in main+0x
// EXPECT: size=8205, cache=malloc
// EXPECT: BUG: KFENCE: memory corruption in main+0x
// EXPECT: size=70001, cache=malloc
// COUNT: 3 BUG: KFENCE:
// NOT: out-of-bounds
#include <string.h>

#include "kfence_test.h"

/* The bytes of a large object's first and last pages outside it hold the
 * canary, checked at free, one report per side, as for a small object. */
int main(void)
{
	/* At the end of its slot: 3 bytes after it to the 16-byte boundary,
	 * and its first page's bytes before it. */
	char *p = test_alloc(8205, RIGHT);
	memset(p, 0, 8205);
	volatile char *v = p;
	v[-1] = 0x11;
	v[8205] = 0x22;
	expect("Corrupted memory at %p [ 0x11 ] (in kfence-#", (void *)(p - 1));
	expect("Corrupted memory at %p [ 0x22 . . ] (in kfence-#", (void *)(p + 8205));
	free(p);
	/* At the start of its slot: the rest of its last page. */
	char *q = test_alloc(70001, LEFT);
	v = q;
	v[70001 + 100] = 0x33;
	expect("Corrupted memory at %p [ 0x33 . . . . . . . . . . . . . . . ] (in kfence-#",
	       (void *)(q + 70101));
	free(q);
	return 0;
}
