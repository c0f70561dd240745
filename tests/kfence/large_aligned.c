// RUN: kfence.sample_rate=1
// EXPECT: BUG: KFENCE: out-of-bounds write in main+0x
// EXPECT: size=65536, cache=memalign
// EXPECT: BUG: KFENCE: out-of-bounds write in main+0x
// EXPECT: size=524288, cache=memalign
// EXPECT: BUG: KFENCE: out-of-bounds write in main+0x
// EXPECT: size=12288, cache=memalign
// EXPECT: BUG: KFENCE: memory corruption in main+0x
// EXPECT: size=100, cache=memalign
// COUNT: 4 BUG: KFENCE:
// STDOUT: aligned ok
#include <errno.h>
#include <malloc.h>
#include <stdint.h>
#include <string.h>

#include "kfence_test.h"

/* Alignments over a page go to the large slots too, honoured on either
 * side of the slot, while size and alignment together fit in
 * kfence.large_size (1 MiB); beyond that the allocator the program would
 * have used serves them. */
static char *guarded(char *p, size_t align)
{
	if (!p || (uintptr_t)p % align || !ukasan_is_kfence_address(p)) {
		printf("%p: not guarded or not aligned to %zu\n", (void *)p, align);
		exit(80);
	}
	return p;
}

int main(void)
{
	char *a = guarded(aligned_alloc(64 << 10, 64 << 10), 64 << 10);
	void *b = NULL;
	if (posix_memalign(&b, 512 << 10, 512 << 10))
		return 81;
	guarded(b, 512 << 10);
	char *c = guarded(memalign(8192, 12288), 8192);
	char *d = guarded(memalign(8192, 100), 8192); /* a small object, aligned past a page */
	memset(a, 1, 64 << 10);
	memset(b, 1, 512 << 10);
	memset(c, 1, 12288);
	memset(d, 1, 100);
	expect("Out-of-bounds write at %p (65536B right of kfence-#", (void *)(a + (64 << 10)));
	((volatile char *)a)[64 << 10] = 2;
	expect("Out-of-bounds write at %p (524288B right of kfence-#",
	       (void *)((char *)b + (512 << 10)));
	((volatile char *)b)[512 << 10] = 2;
	expect("Out-of-bounds write at %p (12288B right of kfence-#", (void *)(c + 12288));
	((volatile char *)c)[12288] = 2;
	/* d ends inside its page: the byte after it is canary, found at free. */
	((volatile char *)d)[100] = 2;
	expect("Corrupted memory at %p [ 0x02 ", (void *)(d + 100));
	free(a);
	free(b);
	free(c);
	free(d);
	/* Too large an alignment for the slots: the program's allocator. */
	void *e = NULL;
	if (posix_memalign(&e, 1 << 20, 4096) || (uintptr_t)e % (1 << 20) ||
	    ukasan_is_kfence_address(e))
		return 82;
	free(e);
	if (posix_memalign(&e, 3 << 12, 4096) != EINVAL)
		return 83;
	printf("aligned ok\n");
	return 0;
}
