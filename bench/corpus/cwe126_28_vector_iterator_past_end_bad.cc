/* CWE-126 Buffer Over-read: BAD.
 * Bug: a loop over a std::vector<int> runs one element past end().
 * Good twin: cwe126_28_vector_iterator_past_end_good.cc
 */
#include <cstdio>
#include <vector>

int main()
{
	std::vector<int> values{3, 1, 4, 1, 5, 9, 2, 6};
	int total = 0;
	const int *p = values.data();

	for (size_t i = 0; i <= values.size(); i++)
		total += p[i];
	std::printf("%d\n", total);
	return 0;
}
