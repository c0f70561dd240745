/* CWE-124 Buffer Underwrite: GOOD, the fixed twin of
 * cwe124_21_vector_data_negative_index_bad.cc.
 * Bug there: element -1 of a std::vector<int>'s data() is written.
 * Fixed here: element 0 is written.
 */
#include <cstdio>
#include <vector>

static int position(const std::vector<int> &v, int value)
{
	for (size_t i = 0; i < v.size(); i++)
		if (v[i] == value)
			return (int)i;
	return -1;
}

int main()
{
	std::vector<int> v{1, 2, 3, 4};
	int pos = position(v, 9);

	if (pos >= 0)
		v.data()[pos] = 0;
	std::printf("%d\n", v[0]);
	return 0;
}
