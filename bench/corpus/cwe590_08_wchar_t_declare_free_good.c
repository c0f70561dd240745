/* CWE-590 Free of Memory not on the Heap: GOOD, the fixed twin of
 * cwe590_08_wchar_t_declare_free_bad.c.
 * Bug there: a stack wchar_t array is passed to free().
 * Fixed here: the buffer is malloc'd.
 */
#include <stdio.h>
#include <stdlib.h>
#include <wchar.h>

int main(void)
{
	wchar_t *data;
	data = (wchar_t *)malloc(100 * sizeof(wchar_t));
	if (data == NULL)
		exit(1);
	wmemset(data, L'A', 100 - 1);
	data[100 - 1] = L'\0';
	printf("%ls\n", data);
	free(data);
	return 0;
}
