/* CWE-121 Stack-based Buffer Overflow: BAD.
 * Bug: a fill function reached through a function pointer is told a 16-byte
 * stack buffer holds 32 bytes.
 * Good twin: cwe121_39_char_sink_function_pointer_good.c
 */
#include <stdio.h>
#include <string.h>

static void fill(char *dst, size_t n)
{
	size_t i;

	for (i = 0; i < n - 1; i++)
		dst[i] = 'x';
	dst[n - 1] = '\0';
}

static void (*volatile filler)(char *, size_t) = fill;

int main(void)
{
	char name[16];

	filler(name, 32);
	printf("%s\n", name);
	return 0;
}
