/* CWE-416 Use After Free: GOOD, the fixed twin of
 * cwe416_13_wchar_t_wcslen_after_free_bad.c.
 * Bug there: wcslen reads a malloc'd wide string after free.
 * Fixed here: the length is taken before the free.
 */
#include <stdio.h>
#include <stdlib.h>
#include <wchar.h>

int main(void)
{
	wchar_t *data = (wchar_t *)malloc(32 * sizeof(wchar_t));
	size_t len;

	if (data == NULL)
		exit(1);
	wcscpy(data, L"wide text");
	len = wcslen(data);
	free(data);
	printf("%d\n", len > 0);
	return 0;
}
