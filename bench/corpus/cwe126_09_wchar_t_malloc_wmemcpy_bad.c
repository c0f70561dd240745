/* CWE-126 Buffer Over-read: BAD.
 * Bug: data points to a 50-element wchar_t malloc'd buffer, but
 * strlen(dest) (99) elements are read from it with wmemcpy.
 * Good twin: cwe126_09_wchar_t_malloc_wmemcpy_good.c
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

int main(void)
{
	wchar_t *data = (wchar_t *)malloc(50 * sizeof(wchar_t));

	if (data == NULL)
		exit(1);
	wmemset(data, L'A', 50 - 1);
	data[50 - 1] = L'\0';
	{
		wchar_t dest[100];
		wmemset(dest, L'C', 100 - 1);
		dest[100 - 1] = L'\0';
		wmemcpy(dest, data, wcslen(dest));
		dest[100 - 1] = L'\0';
		printf("%ls\n", dest);
	}
	free(data);
	return 0;
}
