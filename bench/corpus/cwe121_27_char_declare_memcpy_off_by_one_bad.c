/* CWE-121 Stack-based Buffer Overflow: BAD.
 * Bug: memcpy copies strlen(source) + 1 bytes of a 10-character string into
 * a 10-byte stack buffer (CWE-193).
 * Good twin: cwe121_27_char_declare_memcpy_off_by_one_good.c
 */
#include <stdio.h>
#include <string.h>

#define SRC_STRING "AAAAAAAAAA"

int main(void)
{
	char data_bad_buffer[10];
	char data_good_buffer[10 + 1];
	char *data = data_bad_buffer;
	char source[10 + 1] = SRC_STRING;

	data[0] = '\0';
	memcpy(data, source, (strlen(source) + 1) * sizeof(char));
	printf("%s\n", data);
	return 0;
}
