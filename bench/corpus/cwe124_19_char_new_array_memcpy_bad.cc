/* CWE-124 Buffer Underwrite: BAD.
 * Bug: data is set 8 bytes before new char[100] and memcpy writes 100 bytes
 * there.
 * Good twin: cwe124_19_char_new_array_memcpy_good.cc
 */
#include <cstdio>
#include <cstring>

int main()
{
	char *data_buffer = new char[100];
	char *data;
	char source[100];

	std::memset(data_buffer, 'A', 100 - 1);
	data_buffer[100 - 1] = '\0';
	data = data_buffer - 8;
	std::memset(source, 'C', 100 - 1);
	source[100 - 1] = '\0';
	std::memcpy(data, source, 100 * sizeof(char));
	data[100 - 1] = '\0';
	std::printf("%s\n", data);
	delete[] data_buffer;
	return 0;
}
