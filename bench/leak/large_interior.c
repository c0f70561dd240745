/* The leak scan's lookup of large objects: 20,000 words pointing near the
 * end of a 256 MiB object, each found by the scan. Before the scan sorted
 * the live large objects, each word walked the metadata back a page at a
 * time to the object's start (4.6 s of CPU here; 0.11 s after). Run by
 * hand: ukasan-cc -O1 bench/leak/large_interior.c && time ./a.out */
#include <stdlib.h>
char *buf;
char **ptrs;
int main(void)
{
	size_t big = 256u << 20;
	buf = malloc(big);
	size_t n = 20000;
	ptrs = malloc(n * sizeof(*ptrs));
	for (size_t i = 0; i < n; i++)
		ptrs[i] = buf + big - 4096 * (i % 64) - 1;
	void *volatile lost = malloc(100);
	lost = 0;
	return 0;
}
