/* CWE-122 Heap-based Buffer Overflow: BAD.
 * Bug: data = new char[50], and memcpy copies 100 bytes into it.
 * Good twin: cwe122_37_char_new_array_memcpy_good.cc
 */
#include <cstdio>
#include <cstring>

int main()
{
	char *data = new char[50];
	char source[100];

	data[0] = '\0';
	std::memset(source, 'C', 100 - 1);
	source[100 - 1] = '\0';
	std::memcpy(data, source, 100 * sizeof(char));
	data[100 - 1] = '\0';
	std::printf("%s\n", data);
	delete[] data;
	return 0;
}
