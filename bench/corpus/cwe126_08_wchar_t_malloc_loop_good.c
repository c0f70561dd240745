/* CWE-126 Buffer Over-read: GOOD, the fixed twin of
 * cwe126_08_wchar_t_malloc_loop_bad.c.
 * Bug there: data points to a 50-element wchar_t malloc'd buffer, but
 * strlen(dest) (99) elements are read from it with a copy loop.
 * Fixed here: data points to a 100-element buffer.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

int main(void)
{
	wchar_t *data = (wchar_t *)malloc(100 * sizeof(wchar_t));

	if (data == NULL)
		exit(1);
	wmemset(data, L'A', 100 - 1);
	data[100 - 1] = L'\0';
	{
		size_t i, dest_len;
		wchar_t dest[100];
		wmemset(dest, L'C', 100 - 1);
		dest[100 - 1] = L'\0';
		dest_len = wcslen(dest);
		for (i = 0; i < dest_len; i++)
			dest[i] = data[i];
		dest[100 - 1] = L'\0';
		printf("%ls\n", dest);
	}
	free(data);
	return 0;
}
