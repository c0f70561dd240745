/* CWE-415 Double Free: GOOD, the fixed twin of
 * cwe415_13_new_delete_twice_bad.cc.
 * Bug there: an object from new is deleted twice.
 * Fixed here: it is deleted once.
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
	data = nullptr;
	return 0;
}
