/* CWE-590 Free of Memory not on the Heap: BAD.
 * Bug: delete[] is applied to a global array.
 * Good twin: cwe590_17_delete_array_global_array_good.cc
 */
#include <cstdio>

char global_buffer[64];

int main()
{
	char *data = global_buffer;

	data[0] = 'g';
	data[1] = '\0';
	std::printf("%s\n", data);
	delete[] data;
	return 0;
}
