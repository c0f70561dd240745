/* CWE-121 Stack-based Buffer Overflow: BAD.
 * Bug: a helper copies a caller-supplied string into a caller-supplied
 * 8-byte stack buffer without knowing its size.
 * Good twin: cwe121_40_char_sink_pointer_copy_good.c
 */
#include <stdio.h>
#include <string.h>

static void copy_name(char *dst, const char *src)
{
	strcpy(dst, src);
}

int main(void)
{
	char name[8];
	const char *input = "a-name-longer-than-eight";

	copy_name(name, input);
	printf("%s\n", name);
	return 0;
}
