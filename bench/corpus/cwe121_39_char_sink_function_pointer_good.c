/* CWE-121 Stack-based Buffer Overflow: GOOD, the fixed twin of
 * cwe121_39_char_sink_function_pointer_bad.c.
 * Bug there: a fill function reached through a function pointer is told a
 * 16-byte stack buffer holds 32 bytes.
 * Fixed here: the function is given the buffer's real size.
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

	filler(name, sizeof(name));
	printf("%s\n", name);
	return 0;
}
