/* CWE-415 Double Free: BAD.
 * Bug: an object owned by a std::unique_ptr is also deleted by hand; the
 * unique_ptr deletes it again.
 * Good twin: cwe415_17_unique_ptr_and_delete_good.cc
 */
#include <cstdio>
#include <memory>

struct Widget {
	int id = 7;
};

int main()
{
	Widget *raw = new Widget;
	std::unique_ptr<Widget> owner(raw);

	std::printf("%d\n", owner->id);

	delete raw;
	return 0;
}
