// RUN: kfence.sample_rate=1
// EXPECT: BUG: KFENCE: memory corruption in main+0x
// COUNT: 1 BUG: KFENCE:
#include "kfence_test.h"

int main(void)
{
	/* Right-placed: the bytes before the object are canary. The shown
	 * bytes stop at the object's start. */
	char *p = test_alloc(32, RIGHT);
	p[-3] = 0x11;
	expect("Corrupted memory at %p [ 0x11 . . ] (in kfence-#", (void *)(p - 3));
	free(p);
	return 0;
}
