/* CWE-126 Buffer Over-read: GOOD, the fixed twin of
 * cwe126_20_char_declare_memchr_past_end_bad.c.
 * Bug there: memchr searches 32 bytes of a 16-byte stack buffer that does
 * not contain the character.
 * Fixed here: memchr searches the buffer's size.
 */
#include <stdio.h>
#include <string.h>

int main(void)
{
	char record[16];
	const char *colon;

	memset(record, 'r', sizeof(record));
	colon = (const char *)memchr(record, ':', sizeof(record));
	printf("%s\n", colon ? "found" : "not found");
	return 0;
}
