/* The in-process inflater (src/symbolize/inflate.c) on one zlib stream:
 * prints "same" when its output is the expected file's bytes, inflated
 * whole and then again a part at a time (as a lazily read debug section
 * is), and how many steps that took.
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
	/* Some bytes more wanted each step: each stops where it has them,
	 * within a block or between two. */
	static unsigned char again[1 << 22], tables[ZLIB_TABLES];
	struct zlib_stream z;
	size_t have = 0;
	int state = 0, steps = 0;
	zlib_stream_init(&z, in, n, tables);
	while (state == 0 && steps < 1 << 20) {
		state = zlib_inflate_more(&z, again, sizeof(again), &have, have + 1 + steps % 700);
		steps++;
	}
	printf("in parts, %d steps: %s\n", steps,
	       state == 1 && have == m && !memcmp(again, want, m) ? "same" : "different");
	return 0;
}
