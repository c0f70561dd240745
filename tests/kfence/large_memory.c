// RUN: kfence.sample_rate=1 kfence.large_objects=2
// NOT: BUG: KFENCE
// STDOUT: large slots ok
#include <string.h>
#include <unistd.h>

#include "kfence_test.h"

/* A large slot's memory goes back to the OS when its object is freed: the
 * pool holds memory only for the large objects allocated in it, and a new
 * object, calloc's or not, starts on fresh zero pages. There are
 * kfence.large_objects slots; more large objects at once go to the
 * program's allocator. */
static unsigned char *guarded(unsigned char *p)
{
	if (!p || !ukasan_is_kfence_address(p))
		exit(71);
	return p;
}

int main(void)
{
	long before = resident_kb();
	for (int i = 0; i < 32; i++) {
		size_t n = i % 2 ? 1 << 20 : 300000;
		unsigned char *p = guarded(i % 4 < 2 ? calloc(1, n) : calloc(n / 4, 4));
		for (size_t j = 0; j < n; j++)
			if (p[j])
				return 72;
		memset(p, 0xff, n);
		free(p);
	}
	for (int i = 0; i < 32; i++) {
		unsigned char *p = guarded(malloc(1 << 20));
		memset(p, 1, 1 << 20);
		free(p);
	}
	/* Both slots were filled many times over: kept, they would hold 2 MiB. */
	long grown = resident_kb() - before;
	if (grown > 768) {
		printf("resident memory grew by %ld KiB\n", grown);
		return 73;
	}
	void *held[4];
	int n = 0;
	for (int i = 0; i < 4; i++) {
		held[i] = malloc(64 << 10);
		n += ukasan_is_kfence_address(held[i]) != 0;
	}
	if (n != 2) {
		printf("%d of 4 live 64 KiB objects guarded\n", n);
		return 74;
	}
	for (int i = 0; i < 4; i++)
		free(held[i]);
	printf("large slots ok\n");
	return 0;
}
