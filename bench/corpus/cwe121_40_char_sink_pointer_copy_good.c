/* CWE-121 Stack-based Buffer Overflow: GOOD, the fixed twin of
 * cwe121_40_char_sink_pointer_copy_bad.c.
 * Bug there: a helper copies a caller-supplied string into a
 * caller-supplied 8-byte stack buffer without knowing its size.
 * Fixed here: the helper is given the size and bounds the copy.
 */
#include <stdio.h>
#include <string.h>

static void copy_name(char *dst, size_t size, const char *src)
{
	snprintf(dst, size, "%s", src);
}

int main(void)
{
	char name[8];
	const char *input = "a-name-longer-than-eight";

	copy_name(name, sizeof(name), input);
	printf("%s\n", name);
	return 0;
}
