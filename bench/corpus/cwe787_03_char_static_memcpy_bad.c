/* CWE-787 Out-of-bounds Write (to globals and statics): BAD.
 * Bug: memcpy writes 100 bytes into a 50-byte function-local static buffer.
 * Good twin: cwe787_03_char_static_memcpy_good.c
 */
#include <stdio.h>
#include <string.h>

static char *format_line(const char *source)
{
	static char line[50];

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
