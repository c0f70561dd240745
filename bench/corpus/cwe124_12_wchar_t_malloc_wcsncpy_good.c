/* CWE-124 Buffer Underwrite: GOOD, the fixed twin of
 * cwe124_12_wchar_t_malloc_wcsncpy_bad.c.
 * Bug there: data is set 8 elements before the start of a 100-wchar_t
 * malloc'd buffer and then written with wcsncpy.
 * Fixed here: data points to the start of the buffer.
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
	data = data_buffer;
	{
		wchar_t source[100];
		wmemset(source, L'C', 100 - 1);
		source[100 - 1] = L'\0';
		wcsncpy(data, source, 100 - 1);
		data[100 - 1] = L'\0';
		printf("%ls\n", data);
	}
	free(data_buffer);
	return 0;
}
