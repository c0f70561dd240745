/* CWE-121 Stack-based Buffer Overflow: GOOD, the fixed twin of
 * cwe121_45_std_array_data_memcpy_bad.cc.
 * Bug there: memcpy copies 11 ints into std::array<int, 10>::data() on the
 * stack.
 * Fixed here: memcpy copies the array's size.
 */
#include <array>
#include <cstdio>
#include <cstring>

int main()
{
	std::array<int, 10> data;
	int source[11] = {0};

	std::memcpy(data.data(), source, data.size() * sizeof(int));
	std::printf("%d\n", data[0]);
	return 0;
}
