/* CWE-126 Buffer Over-read: GOOD, the fixed twin of
 * cwe126_13_char_declare_strlen_unterminated_bad.c.
 * Bug there: strlen runs over a 10-byte stack buffer filled with 10 letters
 * and no terminator.
 * Fixed here: the buffer's last byte is a terminator.
 */
#include <stdio.h>
#include <string.h>

int main(void)
{
	char buffer[10];

	memset(buffer, 'A', sizeof(buffer));
	buffer[sizeof(buffer) - 1] = '\0';
	printf("%zu\n", strlen(buffer));
	return 0;
}
