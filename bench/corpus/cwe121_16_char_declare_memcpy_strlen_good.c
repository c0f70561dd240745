/* CWE-121 Stack-based Buffer Overflow: GOOD, the fixed twin of
 * cwe121_16_char_declare_memcpy_strlen_bad.c.
 * Bug there: a 99-character string is copied into a 50-byte stack buffer
 * with memcpy of strlen(source) bytes.
 * Fixed here: memcpy of at most the destination's size less one.
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
		memcpy(dest, data, (sizeof(dest) - 1) * sizeof(char));
		dest[50 - 1] = '\0';
		printf("%s\n", dest);
	}
	return 0;
}
