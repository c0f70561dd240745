/* CWE-590 Free of Memory not on the Heap: GOOD, the fixed twin of
 * cwe590_15_delete_array_stack_array_bad.cc.
 * Bug there: delete[] is applied to a stack array.
 * Fixed here: the array comes from new[].
 */
#include <cstdio>

static void release(int *p)
{
	delete[] p;
}

int main()
{
	int *data;
	data = new int[10];
	for (int i = 0; i < 10; i++)
		data[i] = i;
	std::printf("%d\n", data[9]);
	release(data);
	return 0;
}
