/* CWE-121 Stack-based Buffer Overflow: BAD.
 * Bug: a 99-character wide string is appended with wcscat to an empty
 * 50-wchar_t stack buffer.
 * Good twin: cwe121_30_wchar_t_declare_wcscat_good.c
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
		wcscat(dest, data);
		printf("%ls\n", dest);
	}
	return 0;
}
