/* CWE-121 Stack-based Buffer Overflow: BAD.
 * Bug: a 40-character std::wstring is copied with wcscpy into a 16-wchar_t
 * stack buffer.
 * Good twin: cwe121_47_wchar_t_std_wstring_wcscpy_good.cc
 */
#include <cstdio>
#include <cwchar>
#include <string>

int main()
{
	std::wstring name(40, L'x');
	wchar_t dest[16];

	std::wcscpy(dest, name.c_str());
	std::printf("%ls\n", dest);
	return 0;
}
