/* CWE-126 Buffer Over-read: BAD.
 * Bug: memcpy reads 11 ints from the data() of a std::vector<int> of 10.
 * Good twin: cwe126_27_vector_data_memcpy_read_good.cc
 */
#include <cstdio>
#include <cstring>
#include <vector>

int main()
{
	std::vector<int> values(10, 7);
	int copy[11] = {0};

	std::memcpy(copy, values.data(), sizeof(copy));
	std::printf("%d\n", copy[0]);
	return 0;
}
