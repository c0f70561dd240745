/* CWE-121 Stack-based Buffer Overflow: GOOD, the fixed twin of
 * cwe121_12_char_declare_memset_bad.c.
 * Bug there: the destination points to a 50-byte stack buffer, but 100
 * bytes are written into it with memset.
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
		memset(data, 'A', 100 - 1);
		data[100 - 1] = '\0';
		printf("%s\n", data);
	}
	return 0;
}
