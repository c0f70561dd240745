/* CWE-121 Stack-based Buffer Overflow: GOOD, the fixed twin of
 * cwe121_30_wchar_t_declare_wcscat_bad.c.
 * Bug there: a 99-character wide string is appended with wcscat to an empty
 * 50-wchar_t stack buffer.
 * Fixed here: wcsncat bounded by the room left.
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
		wcsncat(dest, data, 50 - wcslen(dest) - 1);
		printf("%ls\n", dest);
	}
	return 0;
}
