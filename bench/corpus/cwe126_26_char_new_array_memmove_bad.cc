/* CWE-126 Buffer Over-read: BAD.
 * Bug: memmove reads 99 bytes from new char[50].
 * Good twin: cwe126_26_char_new_array_memmove_good.cc
 */
#include <cstdio>
#include <cstring>

int main()
{
	int n = 50;
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
