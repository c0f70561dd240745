/* CWE-590 Free of Memory not on the Heap: BAD.
 * Bug: a pointer to a wide string literal is passed to free().
 * Good twin: cwe590_11_wchar_t_string_literal_free_good.c
 */
#include <stdio.h>
#include <stdlib.h>
#include <wchar.h>

int main(void)
{
	wchar_t *data = (wchar_t *)L"literal";

	if (data == NULL)
		exit(1);
	printf("%ls\n", data);
	free(data);
	return 0;
}
