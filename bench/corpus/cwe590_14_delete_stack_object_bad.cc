/* CWE-590 Free of Memory not on the Heap: BAD.
 * Bug: delete is applied to the address of a stack object.
 * Good twin: cwe590_14_delete_stack_object_good.cc
 */
#include <cstdio>

struct TwoInts {
	int a;
	int b;
};

int main()
{
	TwoInts *data;
	TwoInts local{1, 2};
	data = &local;
	std::printf("%d %d\n", data->a, data->b);
	delete data;
	return 0;
}
