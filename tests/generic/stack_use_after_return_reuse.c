// MODE: generic
// RUN: kasan.stack_use_after_return=on
// Each fake-stack class is a ring of frames: a returned frame stays
// poisoned (stack-use-after-return) until its slot comes round again. 5000
// calls of a function with a 200-byte array go round its class's ring
// (2048 frames of 512 bytes) more than twice; a slot in use again must be
// clear, as the compiler's prologue marks only the frame's redzones. Then
// a pointer into the last returned frame is still caught.
// STDOUT: sum 157276
// EXPECT: BUG: KASAN: stack-use-after-return in main+0x
// EXPECT-RE: ^Read of size 1 at addr [0-9a-f]{16} by task
// EXPECT-RE: ^ f(\.\w+\.\d+)?\+0x0/0x[0-9a-f]+\n\nThis frame has 1 object:\n \[\d+, \d+\) 'buf'$
// COUNT: 1 BUG: KASAN:
#include <stdio.h>
#include <string.h>

static char *volatile kept;

__attribute__((noinline)) static int f(int n)
{
	char buf[200];
	memset(buf, n, sizeof buf);
	kept = buf;
	return buf[n];
}

int main(void)
{
	int s = 0;
	for (int i = 0; i < 5000; i++)
		s += f(i & 63);
	printf("sum %d\n", s);
	fflush(stdout);
	return kept[0] == 99; /* returned: reported */
}
