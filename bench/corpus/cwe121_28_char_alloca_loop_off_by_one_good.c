/* CWE-121 Stack-based Buffer Overflow: GOOD, the fixed twin of
 * cwe121_28_char_alloca_loop_off_by_one_bad.c.
 * Bug there: a loop copies a 10-character string and its terminator into a
 * 10-byte alloca buffer (CWE-193).
 * Fixed here: the alloca buffer has 10 + 1 bytes.
 */
#include <alloca.h>
#include <stdio.h>
#include <string.h>

#define SRC_STRING "AAAAAAAAAA"

int main(void)
{
	char *data = (char *)alloca(10 + 1);
	char source[10 + 1] = SRC_STRING;
	size_t i, source_len = strlen(source);

	data[0] = '\0';
	for (i = 0; i < source_len + 1; i++)
		data[i] = source[i];
	printf("%s\n", data);
	return 0;
}
