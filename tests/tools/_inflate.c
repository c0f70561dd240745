/* The in-process inflater (src/symbolize/inflate.c) on one zlib stream:
 * prints "same" when its output is the expected file's bytes.
 * Usage: _inflate STREAM EXPECTED */
#include <stdio.h>
#include <string.h>

#include "inflate.h"

int main(int argc, char **argv)
{
	static unsigned char in[1 << 22], out[1 << 22], want[1 << 22];
	if (argc < 3)
		return 2;
	FILE *f = fopen(argv[1], "rb"), *g = fopen(argv[2], "rb");
	if (!f || !g)
		return 2;
	size_t n = fread(in, 1, sizeof(in), f), m = fread(want, 1, sizeof(want), g);
	fclose(f);
	fclose(g);
	long got = zlib_inflate(in, n, out, sizeof(out));
	printf("%ld of %zu: %s\n", got, m,
	       got == (long)m && !memcmp(out, want, m) ? "same" : "different");
	return 0;
}
