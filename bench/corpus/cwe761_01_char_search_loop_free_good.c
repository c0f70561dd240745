/* CWE-761 Free of Pointer not at Start of Buffer: GOOD, the fixed twin of
 * cwe761_01_char_search_loop_free_bad.c.
 * Bug there: a loop advances the pointer to a malloc'd string until it
 * finds 'S', then frees the advanced pointer.
 * Fixed here: the search uses an index and the original pointer is freed.
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
	{
		size_t i;
		for (i = 0; i < strlen(data); i++) {
			if (data[i] == SEARCH_CHAR) {
				printf("We have a match!\n");
				break;
			}
		}
		free(data);
	}
	return 0;
}
