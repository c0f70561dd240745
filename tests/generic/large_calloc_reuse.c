// MODE: generic
// VARIANTS: gcc clang
// calloc of a large object is zero even when its extent held another
// object before: freed large extents keep their bytes while they wait for
// reuse (their pages stay resident until a purge), so calloc must clear
// them. Found by bench/generic/compute.c, whose results changed.
// NOT: BUG: KASAN
// STDOUT: calloc after reuse: zero
#include "kasan_test.h"

#include <stdio.h>
#include <string.h>

#define SIZE (64 << 10)

int main(void)
{
	/* Fill and free more than the large objects' quarantine holds (4 MiB),
	 * so that later allocations of the same size reuse these extents. */
	for (int i = 0; i < 256; i++) {
		char *p = malloc(SIZE);
		OPTIMIZER_HIDE_VAR(p);
		memset(p, 0xa5, SIZE);
		KASAN_BARRIER();
		free(p);
	}
	for (int i = 0; i < 256; i++) {
		unsigned char *p = calloc(1, SIZE);
		for (size_t j = 0; j < SIZE; j++)
			if (p[j]) {
				printf("calloc after reuse: byte %zu of object %d is %#x\n", j, i, p[j]);
				kasan_test_fail("calloc returned memory that is not zero");
				return 0;
			}
		OPTIMIZER_HIDE_VAR(p);
		memset(p, 0x5a, SIZE);
		KASAN_BARRIER();
		free(p);
	}
	printf("calloc after reuse: zero\n");
	return 0;
}
