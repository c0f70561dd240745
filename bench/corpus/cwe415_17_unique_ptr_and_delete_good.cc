/* CWE-415 Double Free: GOOD, the fixed twin of
 * cwe415_17_unique_ptr_and_delete_bad.cc.
 * Bug there: an object owned by a std::unique_ptr is also deleted by hand;
 * the unique_ptr deletes it again.
 * Fixed here: ownership is released from the unique_ptr before the delete.
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
	owner.release();
	delete raw;
	return 0;
}
