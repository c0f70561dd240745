/* CWE-590 Free of Memory not on the Heap: BAD.
 * Bug: delete[] is applied to memory from alloca().
 * Good twin: cwe590_18_delete_alloca_good.cc
 */
#include <alloca.h>
#include <cstdio>
#include <cstring>

int main()
{
	char *data = static_cast<char *>(alloca(32));

	std::strcpy(data, "on the stack?");
	std::printf("%s\n", data);
	delete[] data;
	return 0;
}
