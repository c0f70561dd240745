/* CWE-122 Heap-based Buffer Overflow: BAD.
 * Bug: memcpy copies 11 ints into the data() of a std::vector<int> of 10.
 * Good twin: cwe122_41_vector_data_memcpy_good.cc
 */
#include <cstdio>
#include <cstring>
#include <vector>

int main()
{
	std::vector<int> data(10);
	int source[11] = {0};

	std::memcpy(data.data(), source, sizeof(source));
	std::printf("%d\n", data[0]);
	return 0;
}
