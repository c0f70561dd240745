/* An AFL++ target with one planted bug of three, chosen by argv[1]: a heap
 * overflow, a use after free or a double free, reached when the input's
 * first byte is '!' (one byte: afl-fuzz's havoc finds it in a few hundred
 * runs). Any other input is handled cleanly, so a crash saved for one is
 * a false one. Usage: _afl_bugs overflow|uaf|double FILE */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static volatile char sink;
/* Through here, so that the compiler cannot pair the calls away. */
static void *volatile held;

__attribute__((noinline)) static void heap_overflow(const unsigned char *d, size_t n)
{
	char *p = malloc(16);
	memcpy(p, d, n < 16 ? n : 16);
	sink = p[16 + (d[1] & 1)];
	free(p);
}

__attribute__((noinline)) static void use_after_free(const unsigned char *d, size_t n)
{
	char *p = malloc(32);
	memcpy(p, d, n < 32 ? n : 32);
	free(p);
	sink = p[d[1] & 7];
}

__attribute__((noinline)) static void double_free(const unsigned char *d, size_t n)
{
	held = malloc(24);
	memcpy(held, d, n < 24 ? n : 24);
	free(held);
	if (d[1] != 0)
		free(held);
}

int main(int argc, char **argv)
{
	unsigned char buf[64] = {0};
	if (argc < 3)
		return 2;
	FILE *f = fopen(argv[2], "rb");
	if (!f)
		return 2;
	size_t n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	if (n < 2 || buf[0] != '!')
		return 0;
	if (!strcmp(argv[1], "overflow"))
		heap_overflow(buf, n);
	else if (!strcmp(argv[1], "uaf"))
		use_after_free(buf, n);
	else if (!strcmp(argv[1], "double"))
		double_free(buf, n);
	return 0;
}
