/* CWE-122 Heap-based Buffer Overflow: GOOD, the fixed twin of
 * cwe122_26_int64_calloc_loop_bad.c.
 * Bug there: data is calloc'd for 50 int64_t, and a loop copies 100 into
 * it.
 * Fixed here: calloc of 100 elements.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
	int64_t *data = (int64_t *)calloc(100, sizeof(int64_t));
	int64_t source[100] = {0};
	size_t i;

	if (data == NULL)
		exit(1);
	for (i = 0; i < 100; i++)
		data[i] = source[i];
	printf("%" PRId64 "\n", data[0]);
	free(data);
	return 0;
}
