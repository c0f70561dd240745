/* CWE-122 Heap-based Buffer Overflow: BAD.
 * Bug: a loop over new int[10] runs to i <= 10.
 * Good twin: cwe122_38_int_new_array_loop_off_by_one_good.cc
 */
#include <cstdio>

int main()
{
	int n = 10;
	int *data = new int[n];

	for (int i = 0; i <= n; i++)
		data[i] = i * i;
	std::printf("%d\n", data[n - 1]);
	delete[] data;
	return 0;
}
