/* A bug behind a 19-byte string match: mutation alone does not guess it
 * in a run of seconds; libFuzzer does with strcmp's operands, which reach
 * it through the comparison hooks (ukasan's strcmp interceptor calls
 * them, libFuzzer's own being left out of the link). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

char *volatile sink;

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
	char buf[32];
	if (n < 19 || n >= sizeof(buf))
		return 0;
	memcpy(buf, d, n);
	buf[n] = 0;
	if (strcmp(buf, "ukasan-fuzz-token!!") != 0)
		return 0;
	sink = malloc(4);
	sink[4] = 1;
	free(sink);
	return 0;
}
