/* CWE-126 Buffer Over-read: GOOD, the fixed twin of
 * cwe126_02_char_declare_loop_bad.c.
 * Bug there: data points to a 50-element stack buffer, but strlen(dest)
 * (99) elements are read from it with a copy loop.
 * Fixed here: data points to a 100-element buffer.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
	char *data;
	char data_bad_buffer[50];
	char data_good_buffer[100];

	memset(data_bad_buffer, 'A', 50 - 1);
	data_bad_buffer[50 - 1] = '\0';
	memset(data_good_buffer, 'A', 100 - 1);
	data_good_buffer[100 - 1] = '\0';
	data = data_good_buffer;
	{
		size_t i, dest_len;
		char dest[100];
		memset(dest, 'C', 100 - 1);
		dest[100 - 1] = '\0';
		dest_len = strlen(dest);
		for (i = 0; i < dest_len; i++)
			dest[i] = data[i];
		dest[100 - 1] = '\0';
		printf("%s\n", dest);
	}
	return 0;
}
