/* CWE-126 Buffer Over-read: GOOD, the fixed twin of
 * cwe126_28_vector_iterator_past_end_bad.cc.
 * Bug there: a loop over a std::vector<int> runs one element past end().
 * Fixed here: the loop stops at end().
 */
#include <cstdio>
#include <vector>

int main()
{
	std::vector<int> values{3, 1, 4, 1, 5, 9, 2, 6};
	int total = 0;
	const int *p = values.data();

	for (size_t i = 0; i < values.size(); i++)
		total += p[i];
	std::printf("%d\n", total);
	return 0;
}
