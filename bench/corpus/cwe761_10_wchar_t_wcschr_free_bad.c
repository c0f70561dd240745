/* CWE-761 Free of Pointer not at Start of Buffer: BAD.
 * Bug: the tail of a wcsdup'd wide string, found with wcschr, is freed.
 * Good twin: cwe761_10_wchar_t_wcschr_free_good.c
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
	free(last);
	return 0;
}
