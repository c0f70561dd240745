/* CWE-121 Stack-based Buffer Overflow: BAD.
 * Bug: the destination points to a 50-byte stack buffer, but 100 bytes are
 * written into it with strncpy.
 * Good twin: cwe121_09_char_declare_strncpy_good.c
 */
#include <stdio.h>
#include <string.h>

int main(void)
{
	char data_bad_buffer[50];
	char data_good_buffer[100];
	char *data;

	data = data_bad_buffer;
	data[0] = '\0';
	{
		char source[100];
		memset(source, 'C', 100 - 1);
		source[100 - 1] = '\0';
		strncpy(data, source, 100 - 1);
		data[100 - 1] = '\0';
		printf("%s\n", data);
	}
	return 0;
}
