/* CWE-121 Stack-based Buffer Overflow: GOOD, the fixed twin of
 * cwe121_07_char_declare_memmove_bad.c.
 * Bug there: the destination points to a 50-byte stack buffer, but 100
 * bytes are written into it with memmove.
 * Fixed here: the destination points to the 100-byte buffer.
 */
#include <stdio.h>
#include <string.h>

int main(void)
{
	char data_bad_buffer[50];
	char data_good_buffer[100];
	char *data;

	data = data_good_buffer;
	data[0] = '\0';
	{
		char source[100];
		memset(source, 'C', 100 - 1);
		source[100 - 1] = '\0';
		memmove(data, source, 100 * sizeof(char));
		data[100 - 1] = '\0';
		printf("%s\n", data);
	}
	return 0;
}
