/* CWE-121 Stack-based Buffer Overflow: GOOD, the fixed twin of
 * cwe121_17_char_declare_snprintf_strlen_bad.c.
 * Bug there: a 99-character string is copied into a 50-byte stack buffer
 * with snprintf bounded by strlen(source).
 * Fixed here: snprintf bounded by the destination's size.
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
		snprintf(dest, sizeof(dest), "%s", data);
		printf("%s\n", dest);
	}
	return 0;
}
