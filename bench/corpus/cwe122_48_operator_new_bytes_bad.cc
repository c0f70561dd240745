/* CWE-122 Heap-based Buffer Overflow: BAD.
 * Bug: ::operator new(10) provides 10 bytes where 10 ints are stored
 * (CWE-131).
 * Good twin: cwe122_48_operator_new_bytes_good.cc
 */
#include <cstdio>
#include <new>

int main()
{
	int *data = static_cast<int *>(::operator new(10));

	for (int i = 0; i < 10; i++)
		data[i] = i;
	std::printf("%d\n", data[9]);
	::operator delete(data);
	return 0;
}
