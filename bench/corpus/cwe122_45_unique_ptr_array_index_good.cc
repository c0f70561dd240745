/* CWE-122 Heap-based Buffer Overflow: GOOD, the fixed twin of
 * cwe122_45_unique_ptr_array_index_bad.cc.
 * Bug there: index 10 of a std::unique_ptr<char[]> holding new char[10] is
 * written.
 * Fixed here: the array has 11 elements.
 */
#include <cstdio>
#include <memory>

int main()
{
	const int n = 10;
	std::unique_ptr<char[]> name(new char[n + 1]);

	for (int i = 0; i < n; i++)
		name[i] = 'a' + i;
	name[n] = '\0';
	std::printf("%s\n", name.get());
	return 0;
}
