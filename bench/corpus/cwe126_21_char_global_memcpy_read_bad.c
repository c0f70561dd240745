/* CWE-126 Buffer Over-read: BAD.
 * Bug: memcpy reads 64 bytes from a 32-byte global array.
 * Good twin: cwe126_21_char_global_memcpy_read_good.c
 */
#include <stdio.h>
#include <string.h>

char greeting[32] = "hello, world";

int main(void)
{
	char copy[64];

	memcpy(copy, greeting, sizeof(copy));
	printf("%s\n", copy);
	return 0;
}
