// RUN: kfence.sample_interval=1
// NOT: BUG: KFENCE
// STDOUT: small pages ok
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "kfence_test.h"

/* Sampling by time (the defaults, here every millisecond): a small object's
 * page goes back to the OS when it is freed, as a large one's. The free
 * list is a FIFO, so without that every slot's page stays resident once
 * used: 255 slots, a megabyte, after a few hundred samples. Memory, not
 * code: pages of files (the code the loop runs first) are not counted. */
int main(void)
{
	long before = resident_kb_of(1);
	int guarded = 0;
	struct timespec pause = {0, 1000000};
	/* Twice round the pool's 255 slots, each page written while live. */
	for (int i = 0; i < 20000 && guarded < 600; i++) {
		char *p = malloc(64);
		if (!p)
			return 71;
		if (ukasan_is_kfence_address && ukasan_is_kfence_address(p)) {
			guarded++;
			memset(p, 1, 64);
		}
		free(p);
		nanosleep(&pause, NULL);
	}
	if (guarded < 600) {
		printf("only %d objects guarded\n", guarded);
		return 72;
	}
	long grown = resident_kb_of(1) - before;
	if (grown > 384) {
		printf("resident memory grew by %ld KiB\n", grown);
		return 73;
	}
	printf("small pages ok\n");
	return 0;
}
