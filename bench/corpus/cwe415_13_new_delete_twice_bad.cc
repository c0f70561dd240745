/* CWE-415 Double Free: BAD.
 * Bug: an object from new is deleted twice.
 * Good twin: cwe415_13_new_delete_twice_good.cc
 */
#include <cstdio>

struct TwoInts {
	int a;
	int b;
};

int main()
{
	TwoInts *data = new TwoInts{1, 2};

	std::printf("%d %d\n", data->a, data->b);
	delete data;
	delete data;
	return 0;
}
