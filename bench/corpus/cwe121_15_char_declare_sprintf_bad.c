/* CWE-121 Stack-based Buffer Overflow: BAD.
 * Bug: a 99-character string is copied into a 50-byte stack buffer with
 * sprintf.
 * Good twin: cwe121_15_char_declare_sprintf_good.c
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
		sprintf(dest, "%s", data);
		printf("%s\n", dest);
	}
	return 0;
}
