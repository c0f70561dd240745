/* CWE-127 Buffer Under-read: GOOD, the fixed twin of
 * cwe127_16_char_static_previous_line_bad.c.
 * Bug there: a function returns the character before position pos of a
 * static buffer and is called with pos 0.
 * Fixed here: position 0 has no previous character and is handled.
 */
#include <stdio.h>

static char text[32] = "first line\nsecond line\n";

static char previous(int pos)
{
	return pos > 0 ? text[pos - 1] : '\n';
}

int main(void)
{
	printf("%d\n", previous(0) == '\n');
	return 0;
}
