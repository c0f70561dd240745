/* CWE-121 Stack-based Buffer Overflow: GOOD, the fixed twin of
 * cwe121_46_std_string_c_str_strcpy_bad.cc.
 * Bug there: a 40-character std::string is copied with strcpy(c_str()) into
 * a 16-byte stack buffer.
 * Fixed here: the copy is bounded by the buffer's size.
 */
#include <cstdio>
#include <cstring>
#include <string>

int main()
{
	std::string name(40, 'x');
	char dest[16];

	std::snprintf(dest, sizeof(dest), "%s", name.c_str());
	std::printf("%s\n", dest);
	return 0;
}
