// RUN: kfence.sample_rate=1
// EXPECT: ==================================================================
// EXPECT: BUG: KFENCE: out-of-bounds read in read_byte+0x
// EXPECT-RE: ^ \[<[0-9a-f]+>\] read_byte\+0x[0-9a-f]+/0x[0-9a-f]+ tests/kfence/oob_read_right.c:13$
// EXPECT-RE: ^ \[<[0-9a-f]+>\] main\+0x[0-9a-f]+/0x[0-9a-f]+ tests/kfence/oob_read_right.c:22$
// EXPECT: , size=32, cache=malloc
// EXPECT-RE: ^allocated by task \d+ on cpu \d+ at \d+\.\d{6}s:\n test_alloc\+0x[0-9a-f]+/0x[0-9a-f]+ tests/kfence_test.h:\d+\n main\+0x[0-9a-f]+/0x[0-9a-f]+ tests/kfence/oob_read_right.c:20$
// EXPECT-RE: ^CPU: \d+ UID: \d+ PID: \d+ Comm: \S+\n=+$
// NOT: freed by task
// COUNT: 1 BUG: KFENCE:
#include "kfence_test.h"

__attribute__((noinline)) char read_byte(volatile char *p) { return *p; }

int main(void)
{
	/* A right-placed 32-byte object ends at its page boundary: the next
	 * byte is in the guard page. The kernel counts the distance on the
	 * right from the object's start. */
	char *p = test_alloc(32, RIGHT);
	expect("Out-of-bounds read at %p (32B right of kfence-#", (void *)(p + 32));
	read_byte(p + 32);
	expect("kfence-#");
	expect(": %p-%p, size=32, cache=malloc", (void *)p, (void *)(p + 31));
	return 0;
}
