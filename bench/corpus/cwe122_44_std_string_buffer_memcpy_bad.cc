/* CWE-122 Heap-based Buffer Overflow: BAD.
 * Bug: memcpy writes 60 bytes into &s[0] of a 40-character std::string.
 * Good twin: cwe122_44_std_string_buffer_memcpy_good.cc
 */
#include <cstdio>
#include <cstring>
#include <string>

int main()
{
	std::string s(40, ' ');
	char source[60];

	std::memset(source, 'x', sizeof(source));
	std::memcpy(&s[0], source, sizeof(source));
	std::printf("%zu\n", s.size());
	return 0;
}
