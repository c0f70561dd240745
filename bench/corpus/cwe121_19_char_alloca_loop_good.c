/* CWE-121 Stack-based Buffer Overflow: GOOD, the fixed twin of
 * cwe121_19_char_alloca_loop_bad.c.
 * Bug there: data points to a 50-byte alloca buffer and a loop copies 100
 * bytes into it.
 * Fixed here: data points to a 100-byte alloca buffer.
 */
#include <alloca.h>
#include <stdio.h>
#include <string.h>

int main(void)
{
	char *data_bad_buffer = (char *)alloca(50 * sizeof(char));
	char *data_good_buffer = (char *)alloca(100 * sizeof(char));
	char *data = data_good_buffer;

	data[0] = '\0';
	{
		size_t i;
		char source[100];
		memset(source, 'C', 100 - 1);
		source[100 - 1] = '\0';
		for (i = 0; i < 100; i++)
			data[i] = source[i];
		data[100 - 1] = '\0';
		printf("%s\n", data);
	}
	return 0;
}
