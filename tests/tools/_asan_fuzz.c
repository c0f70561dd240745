/* check_asan_flags.sh's libFuzzer target: inputs starting "FUZ" overrun a
 * heap object. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

char *volatile fuzz_keep;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size >= 3 && data[0] == 'F' && data[1] == 'U' && data[2] == 'Z') {
		char *p = malloc(8);
		fuzz_keep = p;
		p[size + 5] = 1;
		free(p);
	}
	return 0;
}
