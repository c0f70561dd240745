/* CWE-121 Stack-based Buffer Overflow: GOOD, the fixed twin of
 * cwe121_47_wchar_t_std_wstring_wcscpy_bad.cc.
 * Bug there: a 40-character std::wstring is copied with wcscpy into a
 * 16-wchar_t stack buffer.
 * Fixed here: wcsncpy bounded by the buffer's length, then a terminator.
 */
#include <cstdio>
#include <cwchar>
#include <string>

int main()
{
	std::wstring name(40, L'x');
	wchar_t dest[16];

	std::wcsncpy(dest, name.c_str(), 16 - 1);
	dest[16 - 1] = L'\0';
	std::printf("%ls\n", dest);
	return 0;
}
