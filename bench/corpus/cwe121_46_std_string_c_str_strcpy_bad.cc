/* CWE-121 Stack-based Buffer Overflow: BAD.
 * Bug: a 40-character std::string is copied with strcpy(c_str()) into a
 * 16-byte stack buffer.
 * Good twin: cwe121_46_std_string_c_str_strcpy_good.cc
 */
#include <cstdio>
#include <cstring>
#include <string>

int main()
{
	std::string name(40, 'x');
	char dest[16];

	std::strcpy(dest, name.c_str());
	std::printf("%s\n", dest);
	return 0;
}
