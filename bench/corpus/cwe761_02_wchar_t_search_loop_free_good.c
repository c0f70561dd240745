/* CWE-761 Free of Pointer not at Start of Buffer: GOOD, the fixed twin of
 * cwe761_02_wchar_t_search_loop_free_bad.c.
 * Bug there: a loop advances the pointer to a malloc'd wide string until it
 * finds L'S', then frees the advanced pointer.
 * Fixed here: the search uses an index and the original pointer is freed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <wchar.h>

#define SEARCH_CHAR L'S'

int main(void)
{
	wchar_t *data = (wchar_t *)malloc(100 * sizeof(wchar_t));

	if (data == NULL)
		exit(1);
	wcscpy(data, L"the string to Search in");
	{
		size_t i;
		for (i = 0; i < wcslen(data); i++) {
			if (data[i] == SEARCH_CHAR) {
				printf("We have a match!\n");
				break;
			}
		}
		free(data);
	}
	return 0;
}
