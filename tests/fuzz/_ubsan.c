/* A fuzz target with undefined behaviour behind two bytes of input: a
 * shift past an int's width, which UBSan reports. */
#include <stdint.h>
#include <stddef.h>
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
	if (n < 3 || d[0] != 'U' || d[1] != 'B')
		return 0;
	int shift = d[2] + 40; /* past an int's width, whatever the byte */
	volatile int x = 1;
	return x << shift;
}
