// MODE: generic
// VARIANTS: gcc clang clang-outline
// RUN: kfence.sample_rate=1
// In generic mode KFENCE still samples, and KASAN leaves its objects to it;
// but the rest of a KFENCE object's page is redzone in the shadow, so a read
// past a left-placed object (inside its page, where no guard page is) is
// caught at the access, and reported as KFENCE reports out-of-bounds
// accesses. A write there is reported once, at the access, not again as a
// corrupted canary at free. A use after free is still the protected page's.
// EXPECT: BUG: KFENCE: out-of-bounds read in read_past+0x
// EXPECT-RE: ^ \[<[0-9a-f]+>\] read_past\+0x[0-9a-f]+/0x[0-9a-f]+ tests/generic/kfence_object_oob.c:\d+\n \[<[0-9a-f]+>\] main\+
// EXPECT: , size=24, cache=malloc
// EXPECT: BUG: KFENCE: out-of-bounds write in write_past+0x
// EXPECT-RE: ^ \[<[0-9a-f]+>\] write_past\+0x[0-9a-f]+/0x[0-9a-f]+ tests/generic/kfence_object_oob.c:\d+\n \[<[0-9a-f]+>\] main\+
// EXPECT: BUG: KFENCE: use-after-free read in read_past+0x
// COUNT: 3 BUG: KFENCE:
// NOT: BUG: KASAN
// NOT: memory corruption
#include "kasan_test.h"

__attribute__((noinline)) char read_past(volatile char *p, int i) { return p[i]; }
__attribute__((noinline)) void write_past(volatile char *p, int i) { p[i] = 1; }

int main(void)
{
	char *p = test_alloc(24, LEFT);
	expect("Out-of-bounds read at %p (24B right of kfence-#", (void *)(p + 24));
	read_past(p, 24);
	char *q = test_alloc(40, LEFT);
	expect("Out-of-bounds write at %p (43B right of kfence-#", (void *)(q + 43));
	write_past(q, 43);
	free(q);
	free(p);
	expect("Use-after-free read at %p (in kfence-#", (void *)(p + 3));
	read_past(p, 3);
	return 0;
}
