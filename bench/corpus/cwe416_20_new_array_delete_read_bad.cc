/* CWE-416 Use After Free: BAD.
 * Bug: an element of a new[]'d array is read after delete[].
 * Good twin: cwe416_20_new_array_delete_read_good.cc
 */
#include <cstdio>

int main()
{
	long *data = new long[10];
	long v;

	for (int i = 0; i < 10; i++)
		data[i] = 10 * i;
	delete[] data;
	v = data[5];
	std::printf("%ld\n", v);
	return 0;
}
