/* CWE-126 Buffer Over-read: GOOD, the fixed twin of
 * cwe126_07_wchar_t_declare_memcpy_bad.c.
 * Bug there: data points to a 50-element wchar_t stack buffer, but
 * strlen(dest) (99) elements are read from it with memcpy.
 * Fixed here: data points to a 100-element buffer.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

int main(void)
{
	wchar_t *data;
	wchar_t data_bad_buffer[50];
	wchar_t data_good_buffer[100];

	wmemset(data_bad_buffer, L'A', 50 - 1);
	data_bad_buffer[50 - 1] = L'\0';
	wmemset(data_good_buffer, L'A', 100 - 1);
	data_good_buffer[100 - 1] = L'\0';
	data = data_good_buffer;
	{
		wchar_t dest[100];
		wmemset(dest, L'C', 100 - 1);
		dest[100 - 1] = L'\0';
		memcpy(dest, data, wcslen(dest) * sizeof(wchar_t));
		dest[100 - 1] = L'\0';
		printf("%ls\n", dest);
	}
	return 0;
}
