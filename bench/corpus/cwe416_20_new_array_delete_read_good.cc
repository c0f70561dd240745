/* CWE-416 Use After Free: GOOD, the fixed twin of
 * cwe416_20_new_array_delete_read_bad.cc.
 * Bug there: an element of a new[]'d array is read after delete[].
 * Fixed here: it is read before delete[].
 */
#include <cstdio>

int main()
{
	long *data = new long[10];
	long v;

	for (int i = 0; i < 10; i++)
		data[i] = 10 * i;
	v = data[5];
	delete[] data;
	std::printf("%ld\n", v);
	return 0;
}
