/* A leak on one input ("LK"): libFuzzer's own leak search after an input
 * that mallocs more than it frees (ukasan's malloc hooks and
 * __lsan_do_recoverable_leak_check) must report it and save the input. */
#include <stdint.h>
#include <stdlib.h>

void *volatile sink;

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
	if (n >= 2 && d[0] == 'L' && d[1] == 'K') {
		sink = malloc(16);
		sink = NULL;
	}
	return 0;
}
