/* CWE-761 Free of Pointer not at Start of Buffer: BAD.
 * Bug: delete[] is applied to a pointer 5 elements into a new[]'d array.
 * Good twin: cwe761_11_new_array_plus_offset_delete_good.cc
 */
#include <cstdio>

int main()
{
	int *data = new int[10];
	int *middle = data + 5;

	for (int i = 0; i < 10; i++)
		data[i] = i;
	std::printf("%d\n", *middle);
	delete[] middle;
	return 0;
}
