/* CWE-126 Buffer Over-read: BAD.
 * Bug: data points to a 50-element alloca buffer, but strlen(dest) (99)
 * elements are read from it with memcpy.
 * Good twin: cwe126_03_char_alloca_memcpy_good.c
 */
#include <alloca.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
	char *data;
	char *data_bad_buffer = (char *)alloca(50 * sizeof(char));
	char *data_good_buffer = (char *)alloca(100 * sizeof(char));

	memset(data_bad_buffer, 'A', 50 - 1);
	data_bad_buffer[50 - 1] = '\0';
	memset(data_good_buffer, 'A', 100 - 1);
	data_good_buffer[100 - 1] = '\0';
	data = data_bad_buffer;
	{
		char dest[100];
		memset(dest, 'C', 100 - 1);
		dest[100 - 1] = '\0';
		memcpy(dest, data, strlen(dest) * sizeof(char));
		dest[100 - 1] = '\0';
		printf("%s\n", dest);
	}
	return 0;
}
