/* CWE-126 Buffer Over-read: GOOD, the fixed twin of
 * cwe126_16_char_declare_puts_unterminated_bad.c.
 * Bug there: puts prints a 16-byte stack buffer that a loop filled with 16
 * letters and no terminator.
 * Fixed here: the loop leaves room for a terminator.
 */
#include <stdio.h>

int main(void)
{
	char line[16];
	int i;

	for (i = 0; i < 15; i++)
		line[i] = 'a' + i;
	line[15] = '\0';
	puts(line);
	return 0;
}
