/* CWE-122 Heap-based Buffer Overflow: BAD.
 * Bug: a 99-character wide string is copied with wcscpy into new
 * wchar_t[50].
 * Good twin: cwe122_39_wchar_t_new_array_wcscpy_good.cc
 */
#include <cstdio>
#include <cwchar>

int main()
{
	wchar_t source[100];
	wchar_t *data = new wchar_t[50];

	std::wmemset(source, L'A', 100 - 1);
	source[100 - 1] = L'\0';
	std::wcscpy(data, source);
	std::printf("%ls\n", data);
	delete[] data;
	return 0;
}
