/* CWE-124 Buffer Underwrite: GOOD, the fixed twin of
 * cwe124_16_char_global_memset_before_bad.c.
 * Bug there: memset starts 8 bytes before a global char array.
 * Fixed here: memset starts at the array.
 */
#include <stdio.h>
#include <string.h>

char global_buffer[64];

static void clear(char *start, size_t n)
{
	memset(start, '-', n);
}

int main(void)
{
	clear(global_buffer, 32);
	global_buffer[63] = '\0';
	printf("%.8s\n", global_buffer);
	return 0;
}
