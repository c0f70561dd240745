/* CWE-122 Heap-based Buffer Overflow: BAD.
 * Bug: a 99-character wide string is written into a 50-wchar_t malloc'd
 * buffer with wcscpy.
 * Good twin: cwe122_22_wchar_t_malloc_wcscpy_good.c
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

int main(void)
{
	wchar_t *data = (wchar_t *)malloc(100 * sizeof(wchar_t));
	wchar_t *dest = (wchar_t *)malloc(50 * sizeof(wchar_t));

	if (data == NULL || dest == NULL)
		exit(1);
	wmemset(data, L'A', 100 - 1);
	data[100 - 1] = L'\0';
	dest[0] = L'\0';
	wcscpy(dest, data);
	printf("%ls\n", dest);
	free(dest);
	free(data);
	return 0;
}
