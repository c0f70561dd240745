/* CWE-121 Stack-based Buffer Overflow: BAD.
 * Bug: an index of 10 from a source function is checked only for >= 0 and
 * then used to write into a 10-int stack array.
 * Good twin: cwe121_02_int_declare_index_large_good.c
 */
#include <stdio.h>

static int source(void)
{
	return 10; /* a value computed elsewhere, larger than the array */
}

static void sink(int data)
{
	int buffer[10] = {0};
	int i;

	if (data >= 0) {
		buffer[data] = 1;
		for (i = 0; i < 10; i++)
			printf("%d\n", buffer[i]);
	} else {
		printf("index out of range\n");
	}
}

int main(void)
{
	sink(source());
	return 0;
}
