/* CWE-126 Buffer Over-read: GOOD, the fixed twin of
 * cwe126_26_char_new_array_memmove_bad.cc.
 * Bug there: memmove reads 99 bytes from new char[50].
 * Fixed here: the array has 100 bytes.
 */
#include <cstdio>
#include <cstring>

int main()
{
	int n = 100;
	char *data = new char[n];
	char dest[100];

	std::memset(data, 'A', n - 1);
	data[n - 1] = '\0';
	std::memset(dest, 'C', 100 - 1);
	dest[100 - 1] = '\0';
	std::memmove(dest, data, std::strlen(dest) * sizeof(char));
	dest[100 - 1] = '\0';
	std::printf("%s\n", dest);
	delete[] data;
	return 0;
}
