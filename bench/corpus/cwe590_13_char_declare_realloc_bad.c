/* CWE-590 Free of Memory not on the Heap: BAD.
 * Bug: a stack array is passed to realloc() to grow it.
 * Good twin: cwe590_13_char_declare_realloc_good.c
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
	char *data;
	char *bigger;
	char data_buffer[16];
	data = data_buffer;
	strcpy(data, "start");
	bigger = (char *)realloc(data, 64);
	if (bigger == NULL)
		exit(1);
	strcat(bigger, " grown");
	printf("%s\n", bigger);
	free(bigger);
	return 0;
}
