/* CWE-127 Buffer Under-read: BAD.
 * Bug: data is set 8 elements before new wchar_t[100] and memmove reads 100
 * wide characters from there.
 * Good twin: cwe127_18_wchar_t_new_array_memmove_good.cc
 */
#include <cstdio>
#include <cstring>
#include <cwchar>

int main()
{
	wchar_t *data_buffer = new wchar_t[100];
	wchar_t *data;
	wchar_t dest[100 * 2];

	std::wmemset(data_buffer, L'A', 100 - 1);
	data_buffer[100 - 1] = L'\0';
	data = data_buffer - 8;
	std::wmemset(dest, L'C', 100 - 1);
	dest[100 - 1] = L'\0';
	std::memmove(dest, data, 100 * sizeof(wchar_t));
	dest[100 - 1] = L'\0';
	std::printf("%ls\n", dest);
	delete[] data_buffer;
	return 0;
}
