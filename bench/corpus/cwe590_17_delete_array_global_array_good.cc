/* CWE-590 Free of Memory not on the Heap: GOOD, the fixed twin of
 * cwe590_17_delete_array_global_array_bad.cc.
 * Bug there: delete[] is applied to a global array.
 * Fixed here: the array comes from new[].
 */
#include <cstdio>

char *global_buffer = new char[64];

int main()
{
	char *data = global_buffer;

	data[0] = 'g';
	data[1] = '\0';
	std::printf("%s\n", data);
	delete[] data;
	return 0;
}
