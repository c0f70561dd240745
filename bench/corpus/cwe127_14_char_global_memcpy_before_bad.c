/* CWE-127 Buffer Under-read: BAD.
 * Bug: memcpy reads from 16 bytes before a global char array.
 * Good twin: cwe127_14_char_global_memcpy_before_good.c
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

	copy_from(dest, message - 16, sizeof(dest));
	dest[sizeof(dest) - 1] = '\0';
	printf("%s\n", dest);
	return 0;
}
