/* CWE-590 Free of Memory not on the Heap: GOOD, the fixed twin of
 * cwe590_11_wchar_t_string_literal_free_bad.c.
 * Bug there: a pointer to a wide string literal is passed to free().
 * Fixed here: the string is wcsdup'd.
 */
#include <stdio.h>
#include <stdlib.h>
#include <wchar.h>

int main(void)
{
	wchar_t *data = wcsdup(L"literal");

	if (data == NULL)
		exit(1);
	printf("%ls\n", data);
	free(data);
	return 0;
}
