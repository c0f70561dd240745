/* CWE-122 Heap-based Buffer Overflow: BAD.
 * Bug: the buffer for a wide string is allocated as wcslen + 1 bytes,
 * without the factor sizeof(wchar_t) (CWE-131), then wcscpy fills it.
 * Good twin: cwe122_16_wchar_t_malloc_missing_sizeof_good.c
 */
#include <stdio.h>
#include <stdlib.h>
#include <wchar.h>

int main(void)
{
	const wchar_t *source = L"0123456789";
	wchar_t *data = (wchar_t *)malloc(wcslen(source) + 1);

	if (data == NULL)
		exit(1);
	wcscpy(data, source);
	printf("%ls\n", data);
	free(data);
	return 0;
}
