/* CWE-124 Buffer Underwrite: BAD.
 * Bug: memset starts 8 bytes before a global char array.
 * Good twin: cwe124_16_char_global_memset_before_good.c
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
	clear(global_buffer - 8, 32);
	global_buffer[63] = '\0';
	printf("%.8s\n", global_buffer);
	return 0;
}
