/* The real-project checks' overflow through zlib's API (check_zlib.sh,
 * tests/real/check_arm64_real.py): uncompress() is told the buffer holds
 * 120 bytes; it holds 100, so zlib's own code writes past its end (into
 * the redzone). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "zlib.h"

int main(void)
{
	static unsigned char text[4096], packed[8192];
	uLongf packed_len = sizeof(packed), out_len = 120;
	memset(text, 'a', sizeof(text));
	if (compress(packed, &packed_len, text, sizeof(text)) != Z_OK)
		return 2;
	unsigned char *volatile out = malloc(100);
	int ret = uncompress(out, &out_len, packed, packed_len);
	printf("uncompress: %d\n", ret);
	return 0;
}
