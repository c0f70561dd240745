/* CWE-415 Double Free: GOOD, the fixed twin of
 * cwe415_14_new_array_delete_twice_bad.cc.
 * Bug there: an array from new[] is deleted with delete[] twice through a
 * helper.
 * Fixed here: it is deleted once.
 */
#include <cstdio>

static void release(long *p)
{
	delete[] p;
}

int main()
{
	long *data = new long[10];

	for (int i = 0; i < 10; i++)
		data[i] = i;
	std::printf("%ld\n", data[9]);
	release(data);

	return 0;
}
