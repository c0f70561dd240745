/* CWE-121 Stack-based Buffer Overflow: GOOD, the fixed twin of
 * cwe121_13_char_declare_strcpy_bad.c.
 * Bug there: a 99-character string is copied into a 50-byte stack buffer
 * with strcpy.
 * Fixed here: strncpy bounded by the destination's size, then a terminator.
 */
#include <stdio.h>
#include <string.h>

int main(void)
{
	char data_buffer[100];
	char *data = data_buffer;

	memset(data, 'A', 100 - 1);
	data[100 - 1] = '\0';
	{
		char dest[50] = "";
		strncpy(dest, data, sizeof(dest) - 1);
		dest[sizeof(dest) - 1] = '\0';
		printf("%s\n", dest);
	}
	return 0;
}
