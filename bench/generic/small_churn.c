/* Small-object churn: what the per-object cost of the allocator's
 * headers and redzones comes to while the quarantine is not yet full.
 *
 *   small_churn [OPS [SLOTS [MIN [MAX]]]]
 *
 * One thread keeps SLOTS pointers (default 10000) and makes OPS operations
 * (default 3000000) on random slots: an empty slot gets a new object of
 * MIN to MAX bytes (default 17 to 48: list nodes, short strings, small
 * structures), written whole; a full one is read and freed. Every object
 * is freed at the end. The output (a checksum of what was read back)
 * depends only on the arguments. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t state = 88172645463325252ull;

static uint64_t next_random(void)
{
	state ^= state << 13;
	state ^= state >> 7;
	state ^= state << 17;
	return state;
}

int main(int argc, char **argv)
{
	long ops = argc > 1 ? atol(argv[1]) : 3000000;
	size_t slots = argc > 2 ? (size_t)atol(argv[2]) : 10000;
	size_t min = argc > 3 ? (size_t)atol(argv[3]) : 17;
	size_t max = argc > 4 ? (size_t)atol(argv[4]) : 48;
	if (ops < 0 || !slots || !min || max < min)
		return 2;
	unsigned char **slot = calloc(slots, sizeof(*slot));
	if (!slot)
		return 1;
	uint64_t sum = 0;
	for (long i = 0; i < ops; i++) {
		size_t k = next_random() % slots;
		if (slot[k]) {
			sum = sum * 31 + slot[k][0];
			free(slot[k]);
			slot[k] = NULL;
		} else {
			size_t n = min + next_random() % (max - min + 1);
			unsigned char *p = malloc(n);
			if (!p)
				return 1;
			memset(p, (int)(i & 0xff), n);
			slot[k] = p;
		}
	}
	for (size_t k = 0; k < slots; k++)
		free(slot[k]);
	free(slot);
	printf("%llu\n", (unsigned long long)sum);
	return 0;
}
