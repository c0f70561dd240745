/* CWE-761 Free of Pointer not at Start of Buffer: GOOD, the fixed twin of
 * cwe761_11_new_array_plus_offset_delete_bad.cc.
 * Bug there: delete[] is applied to a pointer 5 elements into a new[]'d
 * array.
 * Fixed here: delete[] is applied to the array's start.
 */
#include <cstdio>

int main()
{
	int *data = new int[10];
	int *middle = data + 5;

	for (int i = 0; i < 10; i++)
		data[i] = i;
	std::printf("%d\n", *middle);
	delete[] data;
	return 0;
}
