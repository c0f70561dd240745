/* CWE-761 Free of Pointer not at Start of Buffer: GOOD, the fixed twin of
 * cwe761_07_char_plus_one_free_bad.c.
 * Bug there: a pointer moved one byte past a length prefix is freed.
 * Fixed here: the pointer is moved back before the free.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A counted string: one length byte, then the text. */
static char *counted(const char *text)
{
	size_t n = strlen(text);
	char *p = (char *)malloc(n + 2);

	if (p == NULL)
		exit(1);
	p[0] = (char)n;
	memcpy(p + 1, text, n + 1);
	return p + 1;
}

int main(void)
{
	char *s = counted("hello");

	printf("%d %s\n", s[-1], s);
	free(s - 1);
	return 0;
}
