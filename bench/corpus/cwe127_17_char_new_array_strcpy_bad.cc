/* CWE-127 Buffer Under-read: BAD.
 * Bug: data is set 8 bytes before new char[100] and strcpy reads from
 * there.
 * Good twin: cwe127_17_char_new_array_strcpy_good.cc
 */
#include <cstdio>
#include <cstring>

int main()
{
	char *data_buffer = new char[100];
	char *data;
	char dest[100 * 2];

	std::memset(data_buffer, 'A', 100 - 1);
	data_buffer[100 - 1] = '\0';
	data = data_buffer - 8;
	std::memset(dest, 'C', 100 - 1);
	dest[100 - 1] = '\0';
	std::strcpy(dest, data);
	std::printf("%s\n", dest);
	delete[] data_buffer;
	return 0;
}
