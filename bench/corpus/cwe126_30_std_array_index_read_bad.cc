/* CWE-126 Buffer Over-read: BAD.
 * Bug: operator[] reads element 8 of a std::array<char, 8> on the stack.
 * Good twin: cwe126_30_std_array_index_read_good.cc
 */
#include <array>
#include <cstdio>

static int checksum(const std::array<char, 8> &a, size_t n)
{
	int sum = 0;

	for (size_t i = 0; i < n; i++)
		sum += a[i];
	return sum;
}

int main()
{
	std::array<char, 8> bytes{{1, 2, 3, 4, 5, 6, 7, 8}};

	std::printf("%d\n", checksum(bytes, bytes.size() + 1));
	return 0;
}
