/* CWE-121 Stack-based Buffer Overflow: BAD.
 * Bug: data points to a 50-wchar_t stack buffer, but 100 wide characters
 * are written into it with swprintf.
 * Good twin: cwe121_34_wchar_t_declare_swprintf_good.c
 */
#include <stdio.h>
#include <string.h>
#include <wchar.h>

int main(void)
{
	wchar_t data_bad_buffer[50];
	wchar_t data_good_buffer[100];
	wchar_t *data = data_bad_buffer;

	data[0] = L'\0';
	{
		wchar_t source[100];
		wmemset(source, L'C', 100 - 1);
		source[100 - 1] = L'\0';
		swprintf(data, 100, L"%ls", source);
		printf("%ls\n", data);
	}
	return 0;
}
