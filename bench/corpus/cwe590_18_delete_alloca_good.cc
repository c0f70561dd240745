/* CWE-590 Free of Memory not on the Heap: GOOD, the fixed twin of
 * cwe590_18_delete_alloca_bad.cc.
 * Bug there: delete[] is applied to memory from alloca().
 * Fixed here: the array comes from new[].
 */
#include <alloca.h>
#include <cstdio>
#include <cstring>

int main()
{
	char *data = new char[32];

	std::strcpy(data, "on the stack?");
	std::printf("%s\n", data);
	delete[] data;
	return 0;
}
