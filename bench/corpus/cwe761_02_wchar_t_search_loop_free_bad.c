/* CWE-761 Free of Pointer not at Start of Buffer: BAD.
 * Bug: a loop advances the pointer to a malloc'd wide string until it finds
 * L'S', then frees the advanced pointer.
 * Good twin: cwe761_02_wchar_t_search_loop_free_good.c
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
	for (; *data != L'\0'; data++) {
		if (*data == SEARCH_CHAR) {
			printf("We have a match!\n");
			break;
		}
	}
	free(data);
	return 0;
}
