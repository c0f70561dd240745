// MODE: generic
// VARIANTS: gcc clang
// Memory the program gives back takes its shadow with it: a range poisoned
// by the program (a pool's free space, a fiber stack's redzones) then
// unmapped, moved away by mremap, or discarded by madvise(MADV_DONTNEED)
// is accessible when something is mapped there next, and its shadow is not
// left resident. Without it, each access below would be a
// use-after-poison.
// NOT: BUG: KASAN
// STDOUT: munmap, mremap, madvise: ok
#define _GNU_SOURCE
#include <sanitizer/asan_interface.h>
#include <stdio.h>
#include <sys/mman.h>

#include "kasan_test.h"

#define LEN (4u << 20)

static char *map_at(void *where)
{
	char *p = mmap(where, LEN, PROT_READ | PROT_WRITE,
	               MAP_PRIVATE | MAP_ANONYMOUS | (where ? MAP_FIXED_NOREPLACE : 0), -1, 0);
	if (p == MAP_FAILED || (where && p != where))
		kasan_test_fail("mmap");
	return p;
}

KASAN_TEST void munmap_forget(void)
{
	char *p = map_at(NULL);
	ASAN_POISON_MEMORY_REGION(p, LEN);
	munmap(p, LEN);
	p = map_at(p);
	kasan_int_result = ((volatile char *)p)[LEN / 2];

	ASAN_POISON_MEMORY_REGION(p, LEN);
	char *q = mremap(p, LEN, 2 * LEN, MREMAP_MAYMOVE);
	if (q == MAP_FAILED)
		kasan_test_fail("mremap");
	if (q != p) {
		p = map_at(p);
		kasan_int_result = ((volatile char *)p)[LEN - 1];
		munmap(p, LEN);
	}
	kasan_int_result = ((volatile char *)q)[LEN + 1]; /* the new part */
	ASAN_POISON_MEMORY_REGION(q, 2 * LEN);
	madvise(q, 2 * LEN, MADV_DONTNEED);
	kasan_int_result = ((volatile char *)q)[7];
	munmap(q, 2 * LEN);
	printf("munmap, mremap, madvise: ok\n");
}

int main(void)
{
	munmap_forget();
	return 0;
}
