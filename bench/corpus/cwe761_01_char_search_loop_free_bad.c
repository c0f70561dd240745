/* CWE-761 Free of Pointer not at Start of Buffer: BAD.
 * Bug: a loop advances the pointer to a malloc'd string until it finds 'S',
 * then frees the advanced pointer.
 * Good twin: cwe761_01_char_search_loop_free_good.c
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SEARCH_CHAR 'S'

int main(void)
{
	char *data = (char *)malloc(100 * sizeof(char));

	if (data == NULL)
		exit(1);
	strcpy(data, "the string to Search in"); /* stands for input */
	for (; *data != '\0'; data++) {
		if (*data == SEARCH_CHAR) {
			printf("We have a match!\n");
			break;
		}
	}
	free(data);
	return 0;
}
