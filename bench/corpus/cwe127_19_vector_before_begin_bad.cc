/* CWE-127 Buffer Under-read: BAD.
 * Bug: a backward loop over a std::vector<int> runs to i >= -1 and reads
 * element -1.
 * Good twin: cwe127_19_vector_before_begin_good.cc
 */
#include <cstdio>
#include <vector>

int main()
{
	std::vector<int> values{5, 4, 3, 2, 1};
	const int *p = values.data();
	int total = 0;

	for (int i = (int)values.size() - 1; i >= -1; i--)
		total += p[i];
	std::printf("%d\n", total);
	return 0;
}
