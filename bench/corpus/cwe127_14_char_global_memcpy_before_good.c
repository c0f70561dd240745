/* CWE-127 Buffer Under-read: GOOD, the fixed twin of
 * cwe127_14_char_global_memcpy_before_bad.c.
 * Bug there: memcpy reads from 16 bytes before a global char array.
 * Fixed here: memcpy reads from the array's start.
 */
#include <stdio.h>
#include <string.h>

char message[64] = "a global message";

static void copy_from(char *dst, const char *src, size_t n)
{
	memcpy(dst, src, n);
}

int main(void)
{
	char dest[64];

	copy_from(dest, message, sizeof(dest));
	dest[sizeof(dest) - 1] = '\0';
	printf("%s\n", dest);
	return 0;
}
