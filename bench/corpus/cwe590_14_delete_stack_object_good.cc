/* CWE-590 Free of Memory not on the Heap: GOOD, the fixed twin of
 * cwe590_14_delete_stack_object_bad.cc.
 * Bug there: delete is applied to the address of a stack object.
 * Fixed here: the object comes from new.
 */
#include <cstdio>

struct TwoInts {
	int a;
	int b;
};

int main()
{
	TwoInts *data;
	data = new TwoInts{1, 2};
	std::printf("%d %d\n", data->a, data->b);
	delete data;
	return 0;
}
