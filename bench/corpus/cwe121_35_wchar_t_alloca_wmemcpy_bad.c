/* CWE-121 Stack-based Buffer Overflow: BAD.
 * Bug: data points to a 50-wchar_t alloca buffer and wmemcpy copies 100
 * wide characters into it.
 * Good twin: cwe121_35_wchar_t_alloca_wmemcpy_good.c
 */
#include <alloca.h>
#include <stdio.h>
#include <wchar.h>

int main(void)
{
	wchar_t *data_bad_buffer = (wchar_t *)alloca(50 * sizeof(wchar_t));
	wchar_t *data_good_buffer = (wchar_t *)alloca(100 * sizeof(wchar_t));
	wchar_t *data = data_bad_buffer;
	wchar_t source[100];

	wmemset(source, L'C', 100 - 1);
	source[100 - 1] = L'\0';
	wmemcpy(data, source, 100);
	printf("%ls\n", data);
	return 0;
}
