/* CWE-127 Buffer Under-read: GOOD, the fixed twin of
 * cwe127_09_wchar_t_declare_wcscpy_bad.c.
 * Bug there: data is set 8 elements before the start of a 100-wchar_t stack
 * buffer and then read with wcscpy.
 * Fixed here: data points to the start of the buffer.
 */
#include <stdio.h>
#include <stdlib.h>
#include <wchar.h>

int main(void)
{
	wchar_t *data;
	wchar_t data_buffer[100];

	wmemset(data_buffer, L'A', 100 - 1);
	data_buffer[100 - 1] = L'\0';
	data = data_buffer;
	{
		wchar_t dest[100 * 2];
		wmemset(dest, L'C', 100 - 1);
		dest[100 - 1] = L'\0';
		wcscpy(dest, data);
		printf("%ls\n", dest);
	}
	return 0;
}
