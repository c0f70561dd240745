/* CWE-127 Buffer Under-read: BAD.
 * Bug: data is set 8 elements before the start of a 100-wchar_t malloc'd
 * buffer and then read with wcsncpy.
 * Good twin: cwe127_10_wchar_t_malloc_wcsncpy_good.c
 */
#include <stdio.h>
#include <stdlib.h>
#include <wchar.h>

int main(void)
{
	wchar_t *data;
	wchar_t *data_buffer = (wchar_t *)malloc(100 * sizeof(wchar_t));

	if (data_buffer == NULL)
		exit(1);
	wmemset(data_buffer, L'A', 100 - 1);
	data_buffer[100 - 1] = L'\0';
	data = data_buffer - 8;
	{
		wchar_t dest[100 * 2];
		wmemset(dest, L'C', 100 - 1);
		dest[100 - 1] = L'\0';
		wcsncpy(dest, data, wcslen(dest));
		dest[100 - 1] = L'\0';
		printf("%ls\n", dest);
	}
	free(data_buffer);
	return 0;
}
