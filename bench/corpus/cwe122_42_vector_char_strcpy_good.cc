/* CWE-122 Heap-based Buffer Overflow: GOOD, the fixed twin of
 * cwe122_42_vector_char_strcpy_bad.cc.
 * Bug there: a 10-character string and its terminator are strcpy'd into the
 * data() of a std::vector<char> of 10.
 * Fixed here: the vector has room for the terminator.
 */
#include <cstdio>
#include <cstring>
#include <vector>

int main()
{
	const char *source = "0123456789";
	std::vector<char> buffer(std::strlen(source) + 1);

	std::strcpy(buffer.data(), source);
	std::printf("%s\n", buffer.data());
	return 0;
}
