// RUN: kfence.sample_rate=1
// EXPECT: BUG: KFENCE: out-of-bounds write in write_int+0x
// EXPECT-RE: ^ \[<[0-9a-f]+>\] write_int\+0x[0-9a-f]+/0x[0-9a-f]+ tests/kfence/oob_write_right.c:9$
// EXPECT-RE: ^ \[<[0-9a-f]+>\] main\+0x[0-9a-f]+/0x[0-9a-f]+ tests/kfence/oob_write_right.c:\d+$
// COUNT: 1 BUG: KFENCE:
// NOT: memory corruption
#include "kfence_test.h"

__attribute__((noinline)) void write_int(volatile int *p) { *p = 42; }

int main(void)
{
	char *p = test_alloc(64, RIGHT);
	expect("Out-of-bounds write at %p (64B right of kfence-#", (void *)(p + 64));
	write_int((int *)(p + 64));
	free(p);
	return 0;
}
