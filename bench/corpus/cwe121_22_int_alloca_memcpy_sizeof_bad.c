/* CWE-121 Stack-based Buffer Overflow: BAD.
 * Bug: alloca(10) allocates 10 bytes where 10 ints are meant (CWE-131), and
 * memcpy copies 10 ints into it.
 * Good twin: cwe121_22_int_alloca_memcpy_sizeof_good.c
 */
#include <alloca.h>
#include <stdio.h>
#include <string.h>

int main(void)
{
	int *data = (int *)alloca(10);
	int source[10] = {0};

	memcpy(data, source, 10 * sizeof(int));
	printf("%d\n", data[0]);
	return 0;
}
