/* CWE-121 Stack-based Buffer Overflow: GOOD, the fixed twin of
 * cwe121_29_wchar_t_declare_wcscpy_bad.c.
 * Bug there: a 99-character wide string is copied with wcscpy into a
 * 50-wchar_t stack buffer.
 * Fixed here: wcsncpy bounded by the destination's length, then a
 * terminator.
 */
#include <stdio.h>
#include <wchar.h>

int main(void)
{
	wchar_t data_buffer[100];
	wchar_t *data = data_buffer;

	wmemset(data, L'A', 100 - 1);
	data[100 - 1] = L'\0';
	{
		wchar_t dest[50] = L"";
		wcsncpy(dest, data, 50 - 1);
		dest[50 - 1] = L'\0';
		printf("%ls\n", dest);
	}
	return 0;
}
