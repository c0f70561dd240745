/* CWE-122 Heap-based Buffer Overflow: BAD.
 * Bug: operator[] writes element 10 of a std::vector<int> of 10.
 * Good twin: cwe122_43_vector_index_past_size_good.cc
 */
#include <cstdio>
#include <vector>

int main()
{
	std::vector<int> values(10, 0);

	values[values.size()] = 42;
	std::printf("%d\n", values[0]);
	return 0;
}
