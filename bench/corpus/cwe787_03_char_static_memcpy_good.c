/* CWE-787 Out-of-bounds Write (to globals and statics): GOOD, the fixed twin of
 * cwe787_03_char_static_memcpy_bad.c.
 * Bug there: memcpy writes 100 bytes into a 50-byte function-local static
 * buffer.
 * Fixed here: the buffer has 100 bytes.
 */
#include <stdio.h>
#include <string.h>

static char *format_line(const char *source)
{
	static char line[100];

	memcpy(line, source, 100);
	line[100 - 1] = '\0';
	return line;
}

int main(void)
{
	char source[100];

	memset(source, 'C', 100 - 1);
	source[100 - 1] = '\0';
	printf("%s\n", format_line(source));
	return 0;
}
