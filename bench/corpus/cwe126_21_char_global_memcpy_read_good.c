/* CWE-126 Buffer Over-read: GOOD, the fixed twin of
 * cwe126_21_char_global_memcpy_read_bad.c.
 * Bug there: memcpy reads 64 bytes from a 32-byte global array.
 * Fixed here: memcpy reads the array's size.
 */
#include <stdio.h>
#include <string.h>

char greeting[32] = "hello, world";

int main(void)
{
	char copy[64];

	memcpy(copy, greeting, sizeof(greeting));
	printf("%s\n", copy);
	return 0;
}
