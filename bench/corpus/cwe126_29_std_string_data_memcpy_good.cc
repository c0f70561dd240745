/* CWE-126 Buffer Over-read: GOOD, the fixed twin of
 * cwe126_29_std_string_data_memcpy_bad.cc.
 * Bug there: memcpy reads 64 bytes from the data() of a short std::string
 * local.
 * Fixed here: memcpy reads size() + 1 bytes.
 */
#include <cstdio>
#include <cstring>
#include <string>

int main()
{
	std::string word("hello");
	char copy[64];

	std::memcpy(copy, word.data(), word.size() + 1);
	std::printf("%s\n", copy);
	return 0;
}
