// MODE: generic
// VARIANTS: gcc clang
// A fuzzer's input buffer poisoned and unpoisoned around every input
// (libhfuzz: 8 MiB, unpoisoned whole then poisoned past the input) must
// cost the shadow that changes, not the region: unpoisoning shadow never
// written must not write it (each page would be faulted in and kept), and
// poisoning a tail again must leave the rest as it was. Without it the
// first unpoisoning below made 8 MiB of shadow resident.
// The same next to shadow in use: arm64 maps its shadow in 4 MiB chunks on
// demand, and a region whose shadow begins in a chunk already mapped (shadow
// written just below it: a fake stack's below a fresh mapping) must not map
// the next chunks nor fault their pages in. Before, 1 MiB of shadow at each
// chunk boundary was made resident (512 pages here), a fake stack's region
// below the buffer sufficed, and this test ran with fake stacks off on arm64.
// NOT: BUG: KASAN
// STDOUT: resident shadow after unpoisoning next to shadow in use: 0 pages
// STDOUT: resident shadow after unpoisoning fresh memory: 0 pages
// STDOUT: poisoned tail: ok
#define _GNU_SOURCE
#include <sanitizer/asan_interface.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "kasan_test.h"

#define LEN (64ul << 20)

/* Pages of p's shadow in memory; a hole (shadow mapped on demand, never
 * touched) counts as none. */
static long resident_shadow(const char *p, size_t len)
{
	long page = sysconf(_SC_PAGESIZE), n = 0;
	uintptr_t s = ((uintptr_t)p >> 3) + KASAN_TEST_SHADOW_OFFSET;
	uintptr_t e = (((uintptr_t)p + len) >> 3) + KASAN_TEST_SHADOW_OFFSET;
	for (uintptr_t a = s & ~(uintptr_t)(page - 1); a < e; a += page) {
		unsigned char v = 0;
		if (mincore((void *)a, page, &v) == 0 && (v & 1))
			n++;
	}
	return n;
}

/* Shadow written just below the region (one granule poisoned and
 * unpoisoned: a page of shadow in memory); the region starts 64 KiB above,
 * its shadow two pages after. Made first: a region unmapped before leaves
 * its chunks mapped, and the next one may take its place. Its shadow must
 * cross a chunk boundary from its first chunk: it is 8 MiB long, and its
 * first page must not be 1 MiB aligned (the batches of pages the
 * unpoisoning looks at are 1 MiB from there, and one ending on the
 * boundary never crossed it). */
KASAN_TEST char *unpoison_next_to_shadow_in_use(void)
{
	size_t gap = 64 << 10;
	char *q =
	    mmap(NULL, LEN + 2 * gap, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (q == MAP_FAILED)
		kasan_test_fail("mmap");
	char *p = q + gap;
	if (((((uintptr_t)p >> 3) + KASAN_TEST_SHADOW_OFFSET) & ((1ul << 20) - 4096)) == 0)
		p += gap;
	ASAN_POISON_MEMORY_REGION(q, 8);
	ASAN_UNPOISON_MEMORY_REGION(q, 8);
	if (__asan_address_is_poisoned(q))
		kasan_test_fail("unpoisoned granule");
	ASAN_UNPOISON_MEMORY_REGION(p, LEN);
	printf("resident shadow after unpoisoning next to shadow in use: %ld pages\n",
	       resident_shadow(p, LEN));
	return q;
}

KASAN_TEST void poison_large_region(void)
{
	char *p = mmap(NULL, LEN, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		kasan_test_fail("mmap");
	ASAN_UNPOISON_MEMORY_REGION(p, LEN);
	printf("resident shadow after unpoisoning fresh memory: %ld pages\n",
	       resident_shadow(p, LEN));

	for (size_t len = 4096; len < LEN; len *= 3) {
		ASAN_UNPOISON_MEMORY_REGION(p, LEN);
		ASAN_POISON_MEMORY_REGION(p + len, LEN - len);
		if (__asan_address_is_poisoned(p + len - 1) || !__asan_address_is_poisoned(p + len) ||
		    !__asan_address_is_poisoned(p + LEN - 1) || __asan_address_is_poisoned(p))
			kasan_test_fail("poisoned tail");
	}
	ASAN_UNPOISON_MEMORY_REGION(p, LEN);
	if (__asan_region_is_poisoned(p + LEN - 4096, 4096))
		kasan_test_fail("unpoisoned");
	printf("poisoned tail: ok\n");
	munmap(p, LEN);
}

int main(void)
{
	char *q = unpoison_next_to_shadow_in_use();
	poison_large_region();
	munmap(q, LEN + (128 << 10));
	return 0;
}
