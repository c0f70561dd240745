/* CWE-121 Stack-based Buffer Overflow: GOOD, the fixed twin of
 * cwe121_26_char_declare_strcpy_off_by_one_bad.c.
 * Bug there: a 10-character string and its terminator are copied with
 * strcpy into a 10-byte stack buffer (CWE-193).
 * Fixed here: the buffer has 10 + 1 bytes.
 */
#include <stdio.h>
#include <string.h>

#define SRC_STRING "AAAAAAAAAA"

int main(void)
{
	char data_bad_buffer[10];
	char data_good_buffer[10 + 1];
	char *data = data_good_buffer;
	char source[10 + 1] = SRC_STRING;

	data[0] = '\0';
	strcpy(data, source);
	printf("%s\n", data);
	return 0;
}
