/* CWE-126 Buffer Over-read: GOOD, the fixed twin of
 * cwe126_27_vector_data_memcpy_read_bad.cc.
 * Bug there: memcpy reads 11 ints from the data() of a std::vector<int> of
 * 10.
 * Fixed here: memcpy reads the vector's size.
 */
#include <cstdio>
#include <cstring>
#include <vector>

int main()
{
	std::vector<int> values(10, 7);
	int copy[11] = {0};

	std::memcpy(copy, values.data(), values.size() * sizeof(int));
	std::printf("%d\n", copy[0]);
	return 0;
}
