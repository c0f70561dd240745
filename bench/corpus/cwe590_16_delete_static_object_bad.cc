/* CWE-590 Free of Memory not on the Heap: BAD.
 * Bug: delete is applied to a function-local static object.
 * Good twin: cwe590_16_delete_static_object_good.cc
 */
#include <cstdio>

class Logger {
public:
	int level = 2;
};

static Logger *get_logger()
{
	static Logger instance;
	return &instance;
}

int main()
{
	Logger *l = get_logger();

	std::printf("%d\n", l->level);
	delete l;
	return 0;
}
