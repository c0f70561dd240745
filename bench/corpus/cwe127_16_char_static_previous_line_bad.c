/* CWE-127 Buffer Under-read: BAD.
 * Bug: a function returns the character before position pos of a static
 * buffer and is called with pos 0.
 * Good twin: cwe127_16_char_static_previous_line_good.c
 */
#include <stdio.h>

static char text[32] = "first line\nsecond line\n";

static char previous(int pos)
{
	return text[pos - 1];
}

int main(void)
{
	printf("%d\n", previous(0) == '\n');
	return 0;
}
