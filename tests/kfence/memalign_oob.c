// RUN: kfence.sample_rate=1
// EXPECT: BUG: KFENCE: out-of-bounds write in main+0x
// EXPECT: cache=memalign
// COUNT: 1 BUG: KFENCE:
#include <errno.h>
#include <string.h>

#include "kfence_test.h"

int main(void)
{
	void *p = NULL;
	/* Alignment is honoured in the pool, on both sides of the page. */
	for (int i = 0; i < 64; i++) {
		void *a = aligned_alloc(256, 256), *b;
		if ((uintptr_t)a % 256 || posix_memalign(&b, 512, 100) || (uintptr_t)b % 512)
			return 96;
		if (!p && ukasan_is_kfence_address(a) && ((uintptr_t)a + 256) % 4096 == 0)
			p = a;
		else
			free(a);
		free(b);
	}
	if (!p || posix_memalign(&p, 3, 8) != EINVAL)
		return 95;
	p = NULL;
	for (int i = 0; i < 64 && !p; i++) {
		char *a = aligned_alloc(64, 64);
		if (ukasan_is_kfence_address(a) && ((uintptr_t)a + 64) % 4096 == 0)
			p = a;
	}
	expect("Out-of-bounds write at %p (64B right of kfence-#", (void *)((char *)p + 64));
	((volatile char *)p)[64] = 1;
	return 0;
}
