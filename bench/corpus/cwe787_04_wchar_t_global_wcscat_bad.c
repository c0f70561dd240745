/* CWE-787 Out-of-bounds Write (to globals and statics): BAD.
 * Bug: wcscat appends past the end of a 16-wchar_t global array.
 * Good twin: cwe787_04_wchar_t_global_wcscat_good.c
 */
#include <stdio.h>
#include <wchar.h>

wchar_t global_path[16] = L"/usr/";

int main(void)
{
	wcscat(global_path, L"local/share/doc");
	printf("%ls\n", global_path);
	return 0;
}
