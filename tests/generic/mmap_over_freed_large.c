// MODE: generic
// RUN-ALSO: kasan.quarantine_size=0
// The program maps memory over a large block it freed (LLVM's
// Posix/large_allocator_unpoisons_on_free.cpp): the new mapping is the
// program's, accessible, and the allocator must never hand those pages out
// again nor give them back to the system (MADV_DONTNEED would zero the
// program's data). Freed blocks wait in the quarantine by default; with
// kasan.quarantine_size=0 they are free extents at once, cut around the
// mapping. The rest of the freed block is still a use after free.
// EXPECT: mapped page written
// EXPECT: BUG: KASAN: use-after-free in main
// EXPECT: Read of size 1 at addr
// EXPECT: done
// COUNT: 1 BUG: KASAN:
// STATUS: 1
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../../include/ukasan.h"

int main(void)
{
	long page = sysconf(_SC_PAGESIZE);
	void *p;
	if (posix_memalign(&p, (size_t)page, 1 << 20))
		return 2;
	free(p);
	/* Its second page: pages of the freed block on both sides. */
	char *q = mmap((char *)p + page, (size_t)page, PROT_READ | PROT_WRITE,
	               MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	if (q != (char *)p + page)
		return 3;
	memset(q, 42, (size_t)page);
	fprintf(stderr, "mapped page written\n");
	/* The first page is still the freed block's. */
	volatile char c = ((volatile char *)p)[10];
	(void)c;

	/* Many large blocks, freed and purged: none may reuse the page, and
	 * the page keeps what the program wrote. */
	for (int round = 0; round < 3; round++) {
		char *blocks[64];
		for (int i = 0; i < 64; i++) {
			size_t size = (size_t)(i % 8 + 1) * (size_t)page * 16;
			blocks[i] = malloc(size);
			if ((uintptr_t)blocks[i] < (uintptr_t)q + (uintptr_t)page &&
			    (uintptr_t)blocks[i] + size > (uintptr_t)q) {
				fprintf(stderr, "TEST FAILED: block %p reuses the mapped page %p\n",
				        (void *)blocks[i], (void *)q);
				return 4;
			}
			memset(blocks[i], 1, size);
		}
		for (int i = 0; i < 64; i++)
			free(blocks[i]);
		if (ukasan_purge)
			ukasan_purge();
	}
	for (long i = 0; i < page; i++)
		if (((volatile char *)q)[i] != 42) {
			fprintf(stderr, "TEST FAILED: the mapped page lost its data at %ld\n", i);
			return 5;
		}
	munmap(q, (size_t)page);
	fprintf(stderr, "done\n");
	return 0;
}
