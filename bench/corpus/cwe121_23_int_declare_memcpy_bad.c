/* CWE-121 Stack-based Buffer Overflow: BAD.
 * Bug: data points to a 50-int stack array and 100 ints are copied into it.
 * Good twin: cwe121_23_int_declare_memcpy_good.c
 */
#include <stdio.h>
#include <string.h>

int main(void)
{
	int data_bad_buffer[50];
	int data_good_buffer[100];
	int *data = data_bad_buffer;
	int source[100] = {0};

	memcpy(data, source, 100 * sizeof(int));
	printf("%d\n", data[0]);
	return 0;
}
