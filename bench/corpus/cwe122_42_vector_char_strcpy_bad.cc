/* CWE-122 Heap-based Buffer Overflow: BAD.
 * Bug: a 10-character string and its terminator are strcpy'd into the
 * data() of a std::vector<char> of 10.
 * Good twin: cwe122_42_vector_char_strcpy_good.cc
 */
#include <cstdio>
#include <cstring>
#include <vector>

int main()
{
	const char *source = "0123456789";
	std::vector<char> buffer(std::strlen(source));

	std::strcpy(buffer.data(), source);
	std::printf("%s\n", buffer.data());
	return 0;
}
