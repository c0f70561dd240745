/* CWE-415 Double Free: BAD.
 * Bug: two std::unique_ptr objects are made from the same raw pointer.
 * Good twin: cwe415_18_two_unique_ptrs_same_pointer_good.cc
 */
#include <cstdio>
#include <memory>

int main()
{
	int *raw = new int(42);
	std::unique_ptr<int> first(raw);
	std::unique_ptr<int> second(raw);

	std::printf("%d %d\n", *first, *second);
	return 0;
}
