/* CWE-416 Use After Free: BAD.
 * Bug: wcslen reads a malloc'd wide string after free.
 * Good twin: cwe416_13_wchar_t_wcslen_after_free_good.c
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
	free(data);
	len = wcslen(data);
	printf("%d\n", len > 0);
	return 0;
}
