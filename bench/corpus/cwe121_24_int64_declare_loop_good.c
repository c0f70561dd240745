/* CWE-121 Stack-based Buffer Overflow: GOOD, the fixed twin of
 * cwe121_24_int64_declare_loop_bad.c.
 * Bug there: data points to a 50-element int64_t stack array and a loop
 * copies 100 elements into it.
 * Fixed here: data points to the 100-element array.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>

int main(void)
{
	int64_t data_bad_buffer[50];
	int64_t data_good_buffer[100];
	int64_t *data = data_good_buffer;
	int64_t source[100] = {0};
	size_t i;

	for (i = 0; i < 100; i++)
		data[i] = source[i];
	printf("%" PRId64 "\n", data[0]);
	return 0;
}
