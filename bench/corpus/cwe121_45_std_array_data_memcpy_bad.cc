/* CWE-121 Stack-based Buffer Overflow: BAD.
 * Bug: memcpy copies 11 ints into std::array<int, 10>::data() on the stack.
 * Good twin: cwe121_45_std_array_data_memcpy_good.cc
 */
#include <array>
#include <cstdio>
#include <cstring>

int main()
{
	std::array<int, 10> data;
	int source[11] = {0};

	std::memcpy(data.data(), source, sizeof(source));
	std::printf("%d\n", data[0]);
	return 0;
}
