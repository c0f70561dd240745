/* CWE-122 Heap-based Buffer Overflow: GOOD, the fixed twin of
 * cwe122_44_std_string_buffer_memcpy_bad.cc.
 * Bug there: memcpy writes 60 bytes into &s[0] of a 40-character
 * std::string.
 * Fixed here: memcpy writes at most the string's size.
 */
#include <cstdio>
#include <cstring>
#include <string>

int main()
{
	std::string s(40, ' ');
	char source[60];

	std::memset(source, 'x', sizeof(source));
	std::memcpy(&s[0], source, s.size());
	std::printf("%zu\n", s.size());
	return 0;
}
