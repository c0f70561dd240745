/* CWE-590 Free of Memory not on the Heap: BAD.
 * Bug: delete[] is applied to a stack array.
 * Good twin: cwe590_15_delete_array_stack_array_good.cc
 */
#include <cstdio>

static void release(int *p)
{
	delete[] p;
}

int main()
{
	int *data;
	int data_buffer[10];
	data = data_buffer;
	for (int i = 0; i < 10; i++)
		data[i] = i;
	std::printf("%d\n", data[9]);
	release(data);
	return 0;
}
