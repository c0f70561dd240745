/* CWE-121 Stack-based Buffer Overflow: BAD.
 * Bug: placement new[] builds 10 ints in a 20-byte stack buffer.
 * Good twin: cwe121_44_placement_new_array_good.cc
 */
#include <cstdio>
#include <new>

int main()
{
	alignas(int) char buffer[20];
	int *data = new (buffer) int[10];

	for (int i = 0; i < 10; i++)
		data[i] = i;
	std::printf("%d\n", data[0] + data[9]);
	return 0;
}
