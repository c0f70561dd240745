/* CWE-761 Free of Pointer not at Start of Buffer: GOOD, the fixed twin of
 * cwe761_10_wchar_t_wcschr_free_bad.c.
 * Bug there: the tail of a wcsdup'd wide string, found with wcschr, is
 * freed.
 * Fixed here: the string's start is freed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <wchar.h>

int main(void)
{
	wchar_t *path = wcsdup(L"/usr/local/bin");
	wchar_t *last;

	if (path == NULL)
		exit(1);
	last = wcsrchr(path, L'/');
	printf("%ls\n", last);
	free(path);
	return 0;
}
