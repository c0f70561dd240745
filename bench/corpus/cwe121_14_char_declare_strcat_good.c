/* CWE-121 Stack-based Buffer Overflow: GOOD, the fixed twin of
 * cwe121_14_char_declare_strcat_bad.c.
 * Bug there: a 99-character string is copied into a 50-byte stack buffer
 * with strcat.
 * Fixed here: strncat bounded by the room left in the destination.
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
		strncat(dest, data, sizeof(dest) - strlen(dest) - 1);
		printf("%s\n", dest);
	}
	return 0;
}
