/* CWE-122 Heap-based Buffer Overflow: GOOD, the fixed twin of
 * cwe122_39_wchar_t_new_array_wcscpy_bad.cc.
 * Bug there: a 99-character wide string is copied with wcscpy into new
 * wchar_t[50].
 * Fixed here: new wchar_t[100].
 */
#include <cstdio>
#include <cwchar>

int main()
{
	wchar_t source[100];
	wchar_t *data = new wchar_t[100];

	std::wmemset(source, L'A', 100 - 1);
	source[100 - 1] = L'\0';
	std::wcscpy(data, source);
	std::printf("%ls\n", data);
	delete[] data;
	return 0;
}
