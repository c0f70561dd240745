/* CWE-126 Buffer Over-read: BAD.
 * Bug: wcslen runs over a 10-wchar_t stack buffer with no terminator.
 * Good twin: cwe126_22_wchar_t_declare_wcslen_unterminated_good.c
 */
#include <stdio.h>
#include <wchar.h>

int main(void)
{
	wchar_t buffer[10];

	wmemset(buffer, L'A', 10);

	printf("%zu\n", wcslen(buffer));
	return 0;
}
