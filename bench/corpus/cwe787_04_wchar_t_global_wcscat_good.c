/* CWE-787 Out-of-bounds Write (to globals and statics): GOOD, the fixed twin of
 * cwe787_04_wchar_t_global_wcscat_bad.c.
 * Bug there: wcscat appends past the end of a 16-wchar_t global array.
 * Fixed here: wcsncat bounded by the room left.
 */
#include <stdio.h>
#include <wchar.h>

wchar_t global_path[16] = L"/usr/";

int main(void)
{
	wcsncat(global_path, L"local/share/doc", 16 - wcslen(global_path) - 1);
	printf("%ls\n", global_path);
	return 0;
}
