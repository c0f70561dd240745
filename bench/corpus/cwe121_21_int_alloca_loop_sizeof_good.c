/* CWE-121 Stack-based Buffer Overflow: GOOD, the fixed twin of
 * cwe121_21_int_alloca_loop_sizeof_bad.c.
 * Bug there: alloca(10) allocates 10 bytes where 10 ints are meant
 * (CWE-131), and a loop copies 10 ints into it.
 * Fixed here: alloca(10 * sizeof(int)).
 */
#include <alloca.h>
#include <stdio.h>

int main(void)
{
	int *data = (int *)alloca(10 * sizeof(int));
	int source[10] = {0};
	size_t i;

	for (i = 0; i < 10; i++)
		data[i] = source[i];
	printf("%d\n", data[0]);
	return 0;
}
