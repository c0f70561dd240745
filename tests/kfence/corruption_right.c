// RUN: kfence.sample_rate=1
// EXPECT: BUG: KFENCE: memory corruption in main+0x
// EXPECT-RE: ^ \[<[0-9a-f]+>\] main\+0x[0-9a-f]+/0x[0-9a-f]+ tests/kfence/corruption_right.c:19$
// EXPECT-RE: ^freed by task \d+ on cpu \d+ at \d+\.\d{6}s:\n main\+0x[0-9a-f]+/0x[0-9a-f]+ tests/kfence/corruption_right.c:19$
// COUNT: 1 BUG: KFENCE:
#include "kfence_test.h"

int main(void)
{
	/* Left-placed, so the bytes after the object are canary, not guard:
	 * the write is found when the object is freed. Every corrupted byte of
	 * the 16 from the first one is shown, '.' for intact ones. */
	char *p = test_alloc(73, LEFT);
	p[73] = 0x42;
	p[75] = 0x43;
	expect("Corrupted memory at %p [ 0x42 . 0x43 . . . . . . . . . . . . . ] (in kfence-#",
	       (void *)(p + 73));
	expect(": %p-%p, size=73, cache=malloc", (void *)p, (void *)(p + 72));
	free(p);
	return 0;
}
