/* CWE-124 Buffer Underwrite: BAD.
 * Bug: data is set 8 elements before new wchar_t[100] and wcsncpy writes 99
 * wide characters there.
 * Good twin: cwe124_20_wchar_t_new_array_wcsncpy_good.cc
 */
#include <cstdio>
#include <cwchar>

int main()
{
	wchar_t *data_buffer = new wchar_t[100];
	wchar_t *data;
	wchar_t source[100];

	std::wmemset(data_buffer, L'A', 100 - 1);
	data_buffer[100 - 1] = L'\0';
	data = data_buffer - 8;
	std::wmemset(source, L'C', 100 - 1);
	source[100 - 1] = L'\0';
	std::wcsncpy(data, source, 100 - 1);
	data[100 - 1] = L'\0';
	std::printf("%ls\n", data);
	delete[] data_buffer;
	return 0;
}
