// MODE: generic
// RUN: kfence.sample_rate=1
// A KFENCE object in a large slot, in generic mode: the rest of its last
// page is redzone in the shadow, so a read past it inside that page is
// caught at the access and reported as KFENCE's out-of-bounds access, as
// for a small object; a read past its last page faults in the slot's
// guard part; a use after free is the protected pages'.
// EXPECT: BUG: KFENCE: out-of-bounds read in read_past+0x
// EXPECT: , size=10000, cache=malloc
// EXPECT: BUG: KFENCE: out-of-bounds read in read_past+0x
// EXPECT: , size=65536, cache=malloc
// EXPECT: BUG: KFENCE: use-after-free read in read_past+0x
// COUNT: 3 BUG: KFENCE:
// NOT: BUG: KASAN
// NOT: memory corruption
#include "kasan_test.h"

__attribute__((noinline)) char read_past(volatile char *p, int i) { return p[i]; }

int main(void)
{
	char *p = test_alloc(10000, LEFT);
	expect("Out-of-bounds read at %p (10000B right of kfence-#", (void *)(p + 10000));
	read_past(p, 10000);
	char *q = test_alloc(65536, ANY);
	expect("Out-of-bounds read at %p (65536B right of kfence-#", (void *)(q + 65536));
	read_past(q, 65536);
	free(q);
	free(p);
	expect("Use-after-free read at %p (in kfence-#", (void *)(p + 5000));
	read_past(p, 5000);
	return 0;
}
