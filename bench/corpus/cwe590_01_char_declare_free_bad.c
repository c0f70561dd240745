/* CWE-590 Free of Memory not on the Heap: BAD.
 * Bug: a stack char array is passed to free().
 * Good twin: cwe590_01_char_declare_free_good.c
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
	char *data;
	char data_buffer[100];
	data = data_buffer;
	memset(data, 'A', 100 - 1);
	data[100 - 1] = '\0';
	printf("%s\n", data);
	free(data);
	return 0;
}
