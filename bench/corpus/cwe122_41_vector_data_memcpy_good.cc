/* CWE-122 Heap-based Buffer Overflow: GOOD, the fixed twin of
 * cwe122_41_vector_data_memcpy_bad.cc.
 * Bug there: memcpy copies 11 ints into the data() of a std::vector<int> of
 * 10.
 * Fixed here: memcpy copies the vector's size.
 */
#include <cstdio>
#include <cstring>
#include <vector>

int main()
{
	std::vector<int> data(10);
	int source[11] = {0};

	std::memcpy(data.data(), source, data.size() * sizeof(int));
	std::printf("%d\n", data[0]);
	return 0;
}
