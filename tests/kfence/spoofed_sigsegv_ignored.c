// RUN: kfence.sample_rate=1
// A SIGSEGV another process sends claiming an address in a KFENCE guard
// page, while the program ignores SIGSEGV: discarded, as the kernel
// discards an ignored signal a process sent; nothing reported, the guard
// stays closed and the real overflow into it afterwards is reported.
// EXPECT: BUG: KFENCE: out-of-bounds read in overflow+0x
// COUNT: 1 BUG: KFENCE:
// STDOUT: survived the spoofed signal
#include <signal.h>

#include "_spoof.h"
#include "kfence_test.h"

__attribute__((noinline)) static char overflow(const char *p)
{
	return *(volatile const char *)p;
}

int main(void)
{
	signal(SIGSEGV, SIG_IGN);
	char *p = test_alloc(32, RIGHT);
	char *guard = (char *)(((uintptr_t)p + 4095) & ~(uintptr_t)4095);
	if (spoof_from_child(guard) != 0)
		return 90;
	printf("survived the spoofed signal\n");
	fflush(stdout);
	expect("Out-of-bounds read at %p (%luB right of kfence-#", (void *)guard,
	       (unsigned long)(guard - p));
	overflow(guard);
	free(p);
	return 0;
}
