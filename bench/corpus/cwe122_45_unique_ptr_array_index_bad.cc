/* CWE-122 Heap-based Buffer Overflow: BAD.
 * Bug: index 10 of a std::unique_ptr<char[]> holding new char[10] is
 * written.
 * Good twin: cwe122_45_unique_ptr_array_index_good.cc
 */
#include <cstdio>
#include <memory>

int main()
{
	const int n = 10;
	std::unique_ptr<char[]> name(new char[n]);

	for (int i = 0; i < n; i++)
		name[i] = 'a' + i;
	name[n] = '\0';
	std::printf("%s\n", name.get());
	return 0;
}
