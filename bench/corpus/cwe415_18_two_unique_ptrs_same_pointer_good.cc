/* CWE-415 Double Free: GOOD, the fixed twin of
 * cwe415_18_two_unique_ptrs_same_pointer_bad.cc.
 * Bug there: two std::unique_ptr objects are made from the same raw
 * pointer.
 * Fixed here: the second shares ownership through a std::shared_ptr.
 */
#include <cstdio>
#include <memory>

int main()
{
	int *raw = new int(42);
	std::shared_ptr<int> first(raw);
	std::shared_ptr<int> second(first);

	std::printf("%d %d\n", *first, *second);
	return 0;
}
