/* CWE-121 Stack-based Buffer Overflow: GOOD, the fixed twin of
 * cwe121_44_placement_new_array_bad.cc.
 * Bug there: placement new[] builds 10 ints in a 20-byte stack buffer.
 * Fixed here: the buffer holds 10 ints.
 */
#include <cstdio>
#include <new>

int main()
{
	alignas(int) char buffer[10 * sizeof(int)];
	int *data = new (buffer) int[10];

	for (int i = 0; i < 10; i++)
		data[i] = i;
	std::printf("%d\n", data[0] + data[9]);
	return 0;
}
