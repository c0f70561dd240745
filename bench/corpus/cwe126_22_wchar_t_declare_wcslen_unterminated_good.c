/* CWE-126 Buffer Over-read: GOOD, the fixed twin of
 * cwe126_22_wchar_t_declare_wcslen_unterminated_bad.c.
 * Bug there: wcslen runs over a 10-wchar_t stack buffer with no terminator.
 * Fixed here: the last element is a terminator.
 */
#include <stdio.h>
#include <wchar.h>

int main(void)
{
	wchar_t buffer[10];

	wmemset(buffer, L'A', 10);
	buffer[10 - 1] = L'\0';
	printf("%zu\n", wcslen(buffer));
	return 0;
}
