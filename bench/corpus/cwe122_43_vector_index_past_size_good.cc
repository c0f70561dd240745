/* CWE-122 Heap-based Buffer Overflow: GOOD, the fixed twin of
 * cwe122_43_vector_index_past_size_bad.cc.
 * Bug there: operator[] writes element 10 of a std::vector<int> of 10.
 * Fixed here: the write goes through push_back.
 */
#include <cstdio>
#include <vector>

int main()
{
	std::vector<int> values(10, 0);

	values.push_back(42);
	std::printf("%d\n", values[0]);
	return 0;
}
