/* CWE-126 Buffer Over-read: BAD.
 * Bug: memcpy reads 64 bytes from the data() of a short std::string local.
 * Good twin: cwe126_29_std_string_data_memcpy_good.cc
 */
#include <cstdio>
#include <cstring>
#include <string>

int main()
{
	std::string word("hello");
	char copy[64];

	std::memcpy(copy, word.data(), sizeof(copy));
	std::printf("%s\n", copy);
	return 0;
}
