/* CWE-121 Stack-based Buffer Overflow: GOOD, the fixed twin of
 * cwe121_36_wchar_t_declare_wcscpy_off_by_one_bad.c.
 * Bug there: a 10-character wide string and its terminator are copied with
 * wcscpy into a 10-wchar_t stack buffer (CWE-193).
 * Fixed here: the buffer has 10 + 1 wide characters.
 */
#include <stdio.h>
#include <wchar.h>

#define SRC_STRING L"AAAAAAAAAA"

int main(void)
{
	wchar_t data_bad_buffer[10];
	wchar_t data_good_buffer[10 + 1];
	wchar_t *data = data_good_buffer;
	wchar_t source[10 + 1] = SRC_STRING;

	data[0] = L'\0';
	wcscpy(data, source);
	printf("%ls\n", data);
	return 0;
}
