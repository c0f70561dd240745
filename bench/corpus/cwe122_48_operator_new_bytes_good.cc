/* CWE-122 Heap-based Buffer Overflow: GOOD, the fixed twin of
 * cwe122_48_operator_new_bytes_bad.cc.
 * Bug there: ::operator new(10) provides 10 bytes where 10 ints are stored
 * (CWE-131).
 * Fixed here: ::operator new(10 * sizeof(int)).
 */
#include <cstdio>
#include <new>

int main()
{
	int *data = static_cast<int *>(::operator new(10 * sizeof(int)));

	for (int i = 0; i < 10; i++)
		data[i] = i;
	std::printf("%d\n", data[9]);
	::operator delete(data);
	return 0;
}
