/* CWE-124 Buffer Underwrite: GOOD, the fixed twin of
 * cwe124_14_int_declare_negative_index_bad.c.
 * Bug there: an index of -1 from a source function is checked only against
 * the upper bound and then written into a 10-int stack array.
 * Fixed here: the index is also checked for >= 0.
 */
#include <stdio.h>

static int source(void)
{
	return -1;
}

int main(void)
{
	int data = source();
	int buffer[10] = {0};
	int i;

	if (data >= 0 && data < 10) {
		buffer[data] = 1;
		for (i = 0; i < 10; i++)
			printf("%d\n", buffer[i]);
	} else {
		printf("index out of range\n");
	}
	return 0;
}
