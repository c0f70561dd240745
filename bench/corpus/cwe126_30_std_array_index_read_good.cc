/* CWE-126 Buffer Over-read: GOOD, the fixed twin of
 * cwe126_30_std_array_index_read_bad.cc.
 * Bug there: operator[] reads element 8 of a std::array<char, 8> on the
 * stack.
 * Fixed here: the last element read is 7.
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

	std::printf("%d\n", checksum(bytes, bytes.size()));
	return 0;
}
