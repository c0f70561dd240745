/* CWE-126 Buffer Over-read: BAD.
 * Bug: puts prints a 16-byte stack buffer that a loop filled with 16
 * letters and no terminator.
 * Good twin: cwe126_16_char_declare_puts_unterminated_good.c
 */
#include <stdio.h>

int main(void)
{
	char line[16];
	int i;

	for (i = 0; i < 16; i++)
		line[i] = 'a' + i;

	puts(line);
	return 0;
}
