/* CWE-121 Stack-based Buffer Overflow: GOOD, the fixed twin of
 * cwe121_03_int_declare_index_from_string_bad.c.
 * Bug there: an index parsed from fixed text (as if read from input) is 10,
 * checked only for >= 0 and used to write into a 10-int stack array.
 * Fixed here: the index is also checked against the array's length.
 */
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
	const char *input = "10"; /* stands for a line read from a file */
	int data = (int)strtol(input, NULL, 10);
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
