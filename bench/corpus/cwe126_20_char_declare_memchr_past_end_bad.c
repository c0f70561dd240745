/* CWE-126 Buffer Over-read: BAD.
 * Bug: memchr searches 32 bytes of a 16-byte stack buffer that does not
 * contain the character.
 * Good twin: cwe126_20_char_declare_memchr_past_end_good.c
 */
#include <stdio.h>
#include <string.h>

int main(void)
{
	char record[16];
	const char *colon;

	memset(record, 'r', sizeof(record));
	colon = (const char *)memchr(record, ':', 32);
	printf("%s\n", colon ? "found" : "not found");
	return 0;
}
