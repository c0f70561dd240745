/* CWE-121 Stack-based Buffer Overflow: BAD.
 * Bug: a 99-character wide string is copied with wcscpy into a 50-wchar_t
 * stack buffer.
 * Good twin: cwe121_29_wchar_t_declare_wcscpy_good.c
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
		wcscpy(dest, data);
		printf("%ls\n", dest);
	}
	return 0;
}
