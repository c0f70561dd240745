/* CWE-590 Free of Memory not on the Heap: GOOD, the fixed twin of
 * cwe590_16_delete_static_object_bad.cc.
 * Bug there: delete is applied to a function-local static object.
 * Fixed here: the object comes from new.
 */
#include <cstdio>

class Logger {
public:
	int level = 2;
};

static Logger *get_logger()
{
	return new Logger;
}

int main()
{
	Logger *l = get_logger();

	std::printf("%d\n", l->level);
	delete l;
	return 0;
}
