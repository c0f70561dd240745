/* CWE-126 Buffer Over-read: BAD.
 * Bug: strlen runs over a 10-byte stack buffer filled with 10 letters and
 * no terminator.
 * Good twin: cwe126_13_char_declare_strlen_unterminated_good.c
 */
#include <stdio.h>
#include <string.h>

int main(void)
{
	char buffer[10];

	memset(buffer, 'A', sizeof(buffer));

	printf("%zu\n", strlen(buffer));
	return 0;
}
