/* CWE-590 Free of Memory not on the Heap: BAD.
 * Bug: a stack wchar_t array is passed to free().
 * Good twin: cwe590_08_wchar_t_declare_free_good.c
 */
#include <stdio.h>
#include <stdlib.h>
#include <wchar.h>

int main(void)
{
	wchar_t *data;
	wchar_t data_buffer[100];
	data = data_buffer;
	wmemset(data, L'A', 100 - 1);
	data[100 - 1] = L'\0';
	printf("%ls\n", data);
	free(data);
	return 0;
}
