/* CWE-122 Heap-based Buffer Overflow: GOOD, the fixed twin of
 * cwe122_37_char_new_array_memcpy_bad.cc.
 * Bug there: data = new char[50], and memcpy copies 100 bytes into it.
 * Fixed here: new char[100].
 */
#include <cstdio>
#include <cstring>

int main()
{
	char *data = new char[100];
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
