/* CWE-121 Stack-based Buffer Overflow: GOOD, the fixed twin of
 * cwe121_35_wchar_t_alloca_wmemcpy_bad.c.
 * Bug there: data points to a 50-wchar_t alloca buffer and wmemcpy copies
 * 100 wide characters into it.
 * Fixed here: data points to a 100-wchar_t alloca buffer.
 */
#include <alloca.h>
#include <stdio.h>
#include <wchar.h>

int main(void)
{
	wchar_t *data_bad_buffer = (wchar_t *)alloca(50 * sizeof(wchar_t));
	wchar_t *data_good_buffer = (wchar_t *)alloca(100 * sizeof(wchar_t));
	wchar_t *data = data_good_buffer;
	wchar_t source[100];

	wmemset(source, L'C', 100 - 1);
	source[100 - 1] = L'\0';
	wmemcpy(data, source, 100);
	printf("%ls\n", data);
	return 0;
}
